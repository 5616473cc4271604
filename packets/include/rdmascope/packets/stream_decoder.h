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

#include "rdmascope/packets/decode.h"
#include "rdmascope/packets/dissection.h"

namespace rdmascope::packets {

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

  /// Forgets every connection.
  void reset();

  /// TCP connections tracked so far.
  std::size_t connectionCount() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rdmascope::packets
