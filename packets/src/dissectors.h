#pragma once
// The dissectors and what they pass each other while one frame is decoded.

#include <cstddef>
#include <cstdint>
#include <string>

#include "dissection_builder.h"
#include "rdmascope/packets/decode.h"
#include "rdmascope/packets/ib_opcodes.h"

namespace rdmascope::packets::detail {

struct DecodeContext;

/// Facts about a TCP segment handed to a stream-aware payload dissector (iWARP).
struct TcpSegmentFacts {
  std::size_t ipOffset = 0;
  int ipVersion = 4;
  std::size_t tcpOffset = 0;
  std::size_t payloadOffset = 0;
  std::size_t payloadEnd = 0;
};

/// Implemented by stateful decoders (per-connection TCP reassembly for iWARP/MPA).
class TcpPayloadDissector {
 public:
  virtual ~TcpPayloadDissector() = default;
  virtual void dissect(DecodeContext& ctx, const TcpSegmentFacts& seg, std::int32_t parent) = 0;
};

struct DecodeContext {
  DissectionBuilder& b;
  const DecodeOptions& options;
  const FrameInfo& info;
  TcpPayloadDissector* tcpPayload = nullptr;  ///< null in stateless decoding
  // Carrier facts the RDMA dissectors need for the ICRC and the summary.
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);
  std::size_t ipOffset = npos;
  int ipVersion = 0;
  std::size_t udpOffset = npos;
  std::size_t ipv6Extensions = 0;  ///< bytes of IPv6 extension headers before UDP/TCP
  std::size_t end = 0;             ///< end of the network-layer payload (excludes Ethernet padding)
  std::int32_t protocolsNode = -1;  ///< frame.protocols, filled by finishProtocols
};

void dissectFrameInfo(DecodeContext& ctx);
/// frame.time_relative's text: printf("%.9f", x), without printf for whole nanoseconds; its
/// length.
std::size_t formatNineDecimals(double x, char* buf, std::size_t size);
/// frame.time_epoch's text (exact from FrameInfo::epochNs when set).
void formatEpochTime(const FrameInfo& info, char* buf, std::size_t size);
/// Signed nanoseconds as seconds with nine decimals ("-0.001000000"), as tshark writes times.
void formatNanoseconds(std::int64_t ns, char* buf, std::size_t size);
/// frame.time's text as tshark writes it in the local time zone ("Nov  6, 2026
/// 07:21:25.299836000 UTC"), from FrameInfo::epochNs (else timeEpoch).
std::string formatArrivalTime(const FrameInfo& info);
/// Fills frame.protocols (added empty by dissectFrameInfo) once the frame's layers are known:
/// the top-level protocol keys joined by ':', with tshark's "ethertype" after a layer that
/// hands its payload on by EtherType.
void finishProtocols(DecodeContext& ctx);
void dissectEthernet(DecodeContext& ctx, std::size_t offset);
void dissectIpv4(DecodeContext& ctx, std::size_t offset, std::int32_t parent);
void dissectIpv6(DecodeContext& ctx, std::size_t offset, std::int32_t parent);
/// The chain of IPv6 extension headers from `next` at `offset` to the upper-layer protocol.
void dissectIpv6Payload(DecodeContext& ctx, std::uint8_t next, std::size_t offset, std::size_t end,
                        std::int32_t ipNode);
void dissectUdp(DecodeContext& ctx, std::size_t offset, std::size_t end, std::int32_t parent);
void dissectTcp(DecodeContext& ctx, std::size_t offset, std::size_t end, std::int32_t parent);
void dissectData(DecodeContext& ctx, std::size_t offset, std::size_t end, std::int32_t parent);
/// An IEEE 802.3 MAC Control frame (EtherType 0x8808): 802.3x PAUSE or 802.1Qbb PFC.
void dissectMacControl(DecodeContext& ctx, std::size_t offset, std::int32_t parent);

// InfiniBand transport (ib_dissector.cpp).
void dissectRoceV2(DecodeContext& ctx, std::size_t bthOffset, std::size_t end, std::int32_t parent);
void dissectRoceV1(DecodeContext& ctx, std::size_t grhOffset, std::size_t end, std::int32_t parent);
void dissectNativeIb(DecodeContext& ctx, std::size_t lrhOffset, std::size_t end,
                     std::int32_t parent);
void dissectErf(DecodeContext& ctx, std::size_t offset);

/// The Info column's BTH part ("RC SEND Only QP=0x000011 PSN=5"), appended.
void appendBthInfo(std::string& line, std::span<const std::uint8_t> frame, std::size_t bth);
/// The Info column's part of one extension header at `offset` (RETH, AETH, DETH, AtomicETH).
void appendIbExtInfo(std::string& line, std::span<const std::uint8_t> frame, std::size_t offset,
                     IbExt ext);
/// The Error diagnostic of a bad ICRC.
std::string badIcrcMessage(std::uint32_t computed, std::uint32_t wire);

/// A management datagram (payload of a UD packet to or from QP 0/1): the common MAD header and,
/// for the Communication Manager, its message (mad_dissector.cpp). Sets the summary's info.
void dissectMad(DecodeContext& ctx, std::size_t offset, std::size_t end, std::int32_t parent);

/// decodeFrameInto with a stateful TCP payload dissector (null: stateless, payload as data).
void decodeFrameWith(Dissection& out, std::span<const std::uint8_t> frame, LinkType link,
                     const FrameInfo& info, const DecodeOptions& options,
                     TcpPayloadDissector* tcpPayload);

}  // namespace rdmascope::packets::detail
