#pragma once
/// @file mac_control.h
/// IEEE 802.3 MAC Control frames (EtherType 0x8808): the link-level PAUSE of 802.3x (opcode
/// 0x0001) and the Priority-based Flow Control of 802.1Qbb (opcode 0x0101, one pause time per
/// priority, tshark's "Class Based Flow Control [CBFC] Pause"), which lossless RoCE fabrics run
/// on. Builders, a typed parser and the header tables the dissector and the filter use.

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "rdmascope/packets/field.h"

namespace rdmascope::packets {

inline constexpr std::uint16_t kEtherTypeMacControl = 0x8808;
inline constexpr std::uint16_t kMacControlPause = 0x0001;  ///< 802.3x PAUSE
inline constexpr std::uint16_t kMacControlPfc = 0x0101;    ///< 802.1Qbb PFC
/// The reserved multicast address every MAC Control frame is sent to (01:80:C2:00:00:01).
inline constexpr std::array<std::uint8_t, 6> kMacControlDestination = {0x01, 0x80, 0xc2,
                                                                       0x00, 0x00, 0x01};
/// A MAC Control frame is a minimum-size frame: 60 bytes before the FCS.
inline constexpr std::size_t kMacControlFrameLength = 60;
/// One pause quantum lasts 512 bit times of the link.
inline constexpr unsigned kBitsPerPauseQuantum = 512;

/// An 802.1Qbb PFC frame's content: priority i is paused for quanta[i] when bit i of
/// enableVector is set (quanta 0 with the bit set resumes it: "XON"); other priorities are
/// left as they are.
struct PfcPause {
  std::uint8_t enableVector = 0;
  std::array<std::uint16_t, 8> quanta{};

  bool enabled(unsigned priority) const { return ((enableVector >> priority) & 1u) != 0; }
};

/// A parsed MAC Control frame.
struct MacControlFrame {
  std::array<std::uint8_t, 6> source{};
  std::array<std::uint8_t, 6> destination{};
  std::uint16_t opcode = 0;
  std::optional<PfcPause> pfc;             ///< opcode 0x0101
  std::optional<std::uint16_t> pauseTime;  ///< opcode 0x0001 (802.3x), in quanta
};

/// An 802.1Qbb PFC frame from `source`, padded to the 60-byte minimum (no FCS, as captured).
std::vector<std::uint8_t> buildPfcFrame(const std::array<std::uint8_t, 6>& source,
                                        const PfcPause& pause);
/// An 802.3x PAUSE frame (the whole link, every priority) from `source`.
std::vector<std::uint8_t> buildPauseFrame(const std::array<std::uint8_t, 6>& source,
                                          std::uint16_t quanta);

/// Reads an Ethernet frame carrying a MAC Control frame (untagged, as 802.3 sends them);
/// nothing for any other frame or one too short for its opcode's fields.
std::optional<MacControlFrame> parseMacControl(std::span<const std::uint8_t> frame);

/// How long `quanta` pause quanta last on a link of `bitsPerSecond`.
constexpr double pauseQuantaSeconds(std::uint32_t quanta, double bitsPerSecond) {
  return bitsPerSecond > 0 ? quanta * double(kBitsPerPauseQuantum) / bitsPerSecond : 0.0;
}

/// The MAC Control opcode (2 bytes after the EtherType), field key macc.opcode.
extern const HeaderDef kMacControlHeader;
/// 802.3x PAUSE: the pause time after the opcode (macc.pause_time).
extern const HeaderDef kMacPauseHeader;
/// 802.1Qbb PFC after the opcode: the class-enable vector with one flag per priority
/// (macc.cbfc.enbv, .c0 ... .c7) and eight pause times (macc.cbfc.pause_time.c0 ... .c7).
extern const HeaderDef kPfcHeader;

}  // namespace rdmascope::packets
