#include "rdmascope/packets/mac_control.h"

#include <algorithm>

namespace rdmascope::packets {
namespace {

constexpr ValueName kMacControlOpcodes[] = {
    {kMacControlPause, "Pause"},
    {kMacControlPfc, "Class Based Flow Control [CBFC] Pause"},
    {0x0002, "Gate"},
    {0x0003, "Report"},
    {0x0004, "Register_REQ"},
    {0x0005, "Register"},
    {0x0006, "Register_ACK"},
};

constexpr FieldDef kMacControlFields[] = {
    {"macc.opcode", "Opcode", 0, 16, FieldType::UInt, Base::Hex, 16, kMacControlOpcodes},
};

constexpr FieldDef kMacPauseFields[] = {
    {"macc.pause_time", "pause_time", 0, 16},
};

// The enable vector is 16 bits, priority i in bit i counted from the least significant end.
constexpr FieldDef kPfcFields[] = {
    {"macc.cbfc.enbv", "CBFC Class Enable Vector", 0, 16, FieldType::UInt, Base::Hex, 16},
    {"macc.cbfc.enbv.c0", "C0", 15, 1, FieldType::Bool},
    {"macc.cbfc.enbv.c1", "C1", 14, 1, FieldType::Bool},
    {"macc.cbfc.enbv.c2", "C2", 13, 1, FieldType::Bool},
    {"macc.cbfc.enbv.c3", "C3", 12, 1, FieldType::Bool},
    {"macc.cbfc.enbv.c4", "C4", 11, 1, FieldType::Bool},
    {"macc.cbfc.enbv.c5", "C5", 10, 1, FieldType::Bool},
    {"macc.cbfc.enbv.c6", "C6", 9, 1, FieldType::Bool},
    {"macc.cbfc.enbv.c7", "C7", 8, 1, FieldType::Bool},
    {"macc.cbfc.pause_time.c0", "C0", 16, 16},
    {"macc.cbfc.pause_time.c1", "C1", 32, 16},
    {"macc.cbfc.pause_time.c2", "C2", 48, 16},
    {"macc.cbfc.pause_time.c3", "C3", 64, 16},
    {"macc.cbfc.pause_time.c4", "C4", 80, 16},
    {"macc.cbfc.pause_time.c5", "C5", 96, 16},
    {"macc.cbfc.pause_time.c6", "C6", 112, 16},
    {"macc.cbfc.pause_time.c7", "C7", 128, 16},
};

std::uint16_t be16(std::span<const std::uint8_t> b, std::size_t at) {
  return static_cast<std::uint16_t>((b[at] << 8) | b[at + 1]);
}

void put16(std::vector<std::uint8_t>& out, std::uint16_t v) {
  out.push_back(static_cast<std::uint8_t>(v >> 8));
  out.push_back(static_cast<std::uint8_t>(v));
}

std::vector<std::uint8_t> macControlStart(const std::array<std::uint8_t, 6>& source,
                                          std::uint16_t opcode) {
  std::vector<std::uint8_t> out;
  out.reserve(kMacControlFrameLength);
  out.insert(out.end(), kMacControlDestination.begin(), kMacControlDestination.end());
  out.insert(out.end(), source.begin(), source.end());
  put16(out, kEtherTypeMacControl);
  put16(out, opcode);
  return out;
}

}  // namespace

const HeaderDef kMacControlHeader{"macc", "MAC Control", "MAC CTRL", 2, kMacControlFields};
const HeaderDef kMacPauseHeader{"macc.pause", "Pause", "PAUSE", 2, kMacPauseFields};
const HeaderDef kPfcHeader{"macc.cbfc", "Class Based Flow Control", "PFC", 18, kPfcFields};

std::vector<std::uint8_t> buildPfcFrame(const std::array<std::uint8_t, 6>& source,
                                        const PfcPause& pause) {
  auto out = macControlStart(source, kMacControlPfc);
  put16(out, pause.enableVector);
  for (auto q : pause.quanta)
    put16(out, q);
  out.resize(kMacControlFrameLength, 0);
  return out;
}

std::vector<std::uint8_t> buildPauseFrame(const std::array<std::uint8_t, 6>& source,
                                          std::uint16_t quanta) {
  auto out = macControlStart(source, kMacControlPause);
  put16(out, quanta);
  out.resize(kMacControlFrameLength, 0);
  return out;
}

std::optional<MacControlFrame> parseMacControl(std::span<const std::uint8_t> frame) {
  if (frame.size() < 16 || be16(frame, 12) != kEtherTypeMacControl) return std::nullopt;
  MacControlFrame m;
  std::copy_n(frame.begin(), 6, m.destination.begin());
  std::copy_n(frame.begin() + 6, 6, m.source.begin());
  m.opcode = be16(frame, 14);
  if (m.opcode == kMacControlPfc) {
    if (frame.size() < 16u + kPfcHeader.length) return std::nullopt;
    PfcPause p;
    p.enableVector = static_cast<std::uint8_t>(be16(frame, 16));
    for (std::size_t i = 0; i < p.quanta.size(); ++i)
      p.quanta[i] = be16(frame, 18 + 2 * i);
    m.pfc = p;
  } else if (m.opcode == kMacControlPause) {
    if (frame.size() < 18) return std::nullopt;
    m.pauseTime = be16(frame, 16);
  }
  return m;
}

}  // namespace rdmascope::packets
