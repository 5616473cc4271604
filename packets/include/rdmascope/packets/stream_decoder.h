#pragma once
/// @file stream_decoder.h
/// Stateful decoding of a capture, frame after frame, in capture order: what decodeFrame does
/// for one frame, plus per-TCP-connection reassembly and iWARP (MPA/DDP/RDMAP) decoding.
///
/// Per connection (both directions of a 4-tuple) the decoder reassembles each direction's
/// byte stream, accepting segments out of order, retransmitted and overlapping. It looks for
/// the MPA Request at the start of one direction and the MPA Reply at the start of the other;
/// from them it learns whether markers (M, per direction: the receiver asks) and CRC (C, if
/// either side asks) are in use. Then every FPDU is cut from the stream (markers removed,
/// pad and CRC32c checked) and dissected in the frame whose bytes complete it. Node byte
/// ranges that lie in earlier frames are shown with length 0 at the start of the payload.
/// A connection whose MPA start frames were not seen is shown as TCP data. A SYN with a new
/// initial sequence number starts the 4-tuple afresh. Out-of-order data is held up to 4 MiB
/// per direction and at most 4 MiB ahead of the next expected byte; beyond that segments are
/// shown, with a diagnostic, but not reassembled.

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "rdmascope/packets/decode.h"
#include "rdmascope/packets/dissection.h"

namespace rdmascope::packets {

/// One MPA unit (start frame or FPDU) that the last decode() completed, for flow analysis.
/// Its nodes are [firstNode, endNode) of that frame's Dissection; it belongs to the direction
/// of that frame's TCP segment.
struct StreamUnit {
  enum class Kind : std::uint8_t { MpaRequest, MpaReply, Fpdu };
  Kind kind = Kind::Fpdu;
  std::uint32_t firstSeq = 0;  ///< TCP sequence number of its first byte
  std::uint32_t endSeq = 0;    ///< TCP sequence number after its last byte
  std::int32_t firstNode = 0;
  std::int32_t endNode = 0;
  bool markers = false;  ///< start frame: M; FPDU: markers in this direction's stream
  bool crc = false;      ///< start frame: C; FPDU: CRC in use on the connection
  bool reject = false;   ///< start frame: Rej
  std::uint8_t revision = 0;
  CrcStatus crcStatus = CrcStatus::Absent;  ///< FPDU: its CRC32c check
};

/// False only when decoding this frame cannot reach its TCP layer: then CaptureDecoder keeps no
/// state for it and decodes it exactly as the stateless decodeFrameInto does, so it can be
/// decoded apart from (and in parallel with) the stream frames. Reads a few header bytes;
/// true for anything it does not rule out (IPv6 with extension headers, which it does not walk,
/// and ERF records other than native InfiniBand).
bool mayReachTcp(std::span<const std::uint8_t> frame, LinkType link);

class CaptureDecoder {
 public:
  explicit CaptureDecoder(const DecodeOptions& options = {});
  ~CaptureDecoder();
  CaptureDecoder(CaptureDecoder&&) noexcept;
  CaptureDecoder& operator=(CaptureDecoder&&) noexcept;
  CaptureDecoder(const CaptureDecoder&) = delete;
  CaptureDecoder& operator=(const CaptureDecoder&) = delete;

  /// Decodes the next frame of the capture. Never throws on any bytes.
  Dissection decode(std::span<const std::uint8_t> frame, LinkType link, const FrameInfo& info = {});

  /// decode() into an existing dissection, replacing its content but keeping its storage.
  void decodeInto(Dissection& out, std::span<const std::uint8_t> frame, LinkType link,
                  const FrameInfo& info = {});

  /// The MPA units the last decode() completed, in stream order (empty for other frames).
  const std::vector<StreamUnit>& lastUnits() const;

  /// Forgets every connection.
  void reset();

  /// TCP connections tracked so far.
  std::size_t connectionCount() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rdmascope::packets
