// IEEE 802.3 MAC Control frames: 802.3x PAUSE and 802.1Qbb priority flow control.
#include <cstdio>
#include <string>

#include "dissectors.h"
#include "rdmascope/packets/mac_control.h"

namespace rdmascope::packets::detail {
namespace {

std::uint16_t be16(std::span<const std::uint8_t> f, std::size_t at) {
  return static_cast<std::uint16_t>((f[at] << 8) | f[at + 1]);
}

// "C3 XOFF 65535 quanta, C5 XON": each enabled priority, as a person reads a PFC frame.
std::string pfcInfo(std::span<const std::uint8_t> f, std::size_t at) {
  const std::uint16_t vector = be16(f, at);
  std::string out;
  for (unsigned c = 0; c < 8; ++c) {
    if (((vector >> c) & 1u) == 0) continue;
    const unsigned quanta = be16(f, at + 2 + 2 * c);
    char buf[40];
    if (quanta == 0)
      std::snprintf(buf, sizeof buf, "C%u XON", c);
    else
      std::snprintf(buf, sizeof buf, "C%u XOFF %u quanta", c, quanta);
    out += (out.empty() ? ": " : ", ") + std::string(buf);
  }
  return out.empty() ? ": no class enabled" : out;
}

}  // namespace

void dissectMacControl(DecodeContext& ctx, std::size_t offset, std::int32_t parent) {
  const auto f = ctx.b.frame();
  auto& summary = ctx.b.dissection().summary;
  summary.protocol = "MAC CTRL";
  if (f.size() < offset + kMacControlHeader.length) {
    ctx.b.truncated("MAC Control opcode", kMacControlHeader.length, f.size() - offset, parent);
    return;
  }
  const auto macc = ctx.b.addHeader(kMacControlHeader, offset, -1);
  const std::uint16_t opcode = be16(f, offset);
  const std::size_t body = offset + kMacControlHeader.length;
  if (opcode == kMacControlPfc) {
    summary.info = "Class Based Flow Control [CBFC] Pause";
    if (f.size() < body + kPfcHeader.length) {
      ctx.b.truncated("PFC class vector and pause times", kPfcHeader.length, f.size() - body, macc);
      return;
    }
    ctx.b.addHeader(kPfcHeader, body, macc);
    summary.info += pfcInfo(f, body);
    if ((be16(f, body) & 0xff00) != 0)
      ctx.b.diagnose(Severity::Warning,
                     "PFC class-enable vector sets reserved bits 8-15 (only 8 priorities exist)",
                     macc);
    return;
  }
  if (opcode == kMacControlPause) {
    if (f.size() < body + kMacPauseHeader.length) {
      summary.info = "Pause";
      ctx.b.truncated("pause_time", kMacPauseHeader.length, f.size() - body, macc);
      return;
    }
    ctx.b.addHeader(kMacPauseHeader, body, macc);
    summary.info = "Pause: pause_time: " + std::to_string(be16(f, body)) + " quanta";
    return;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "MAC Control opcode 0x%04x", opcode);
  summary.info = buf;
  dissectData(ctx, body, f.size(), macc);
}

}  // namespace rdmascope::packets::detail
