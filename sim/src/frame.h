#pragma once
// A frame on the simulated wire: header bytes, payload (owned copy or a reference into host
// memory), pad, and trailer (ICRC, and VCRC for native IB). Its bytes are the concatenation.

#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include "rdmascope/sim/sim_time.h"

namespace rdmascope::sim {

struct Frame {
  std::array<std::uint8_t, 128> hdr{};
  std::uint16_t hdrLen = 0;
  const std::uint8_t* payload = nullptr;
  std::uint32_t payloadLen = 0;
  std::uint8_t pad = 0;  ///< zero bytes between payload and ICRC
  std::array<std::uint8_t, 8> trailer{};
  std::uint8_t trailerLen = 0;
  std::vector<std::uint8_t> owned;  ///< payload storage when copied or modified

  std::uint64_t number = 0;  ///< 1-based over the whole network
  int fromHost = 0;
  std::uint32_t slot = 0;
  std::uint32_t psn = 0;
  std::uint8_t opcode = 0;
  /// The receiver verifies the ICRC (and VCRC): true unless the link that carries the frame
  /// can change no byte of it (no corruption configured for its direction), so that its bytes
  /// are exactly those the sender's ICRC was computed over.
  bool mayBeCorrupt = true;
  bool gsi = false;  ///< a management datagram of QP 1 (Host::sendGsi)
  SimTime sentAt;

  std::size_t size() const { return hdrLen + payloadLen + pad + trailerLen; }

  /// Room for `n` payload bytes in `owned` without zero-filling it on every reuse.
  std::uint8_t* ownedBuffer(std::size_t n) {
    if (owned.size() < n) owned.resize(n);
    return owned.data();
  }

  void ownPayload() {
    if (payloadLen == 0 || (!owned.empty() && payload == owned.data())) return;
    owned.assign(payload, payload + payloadLen);
    payload = owned.data();
  }

  /// Flips bits of byte `i` of the frame (the payload is copied first if referenced).
  void corrupt(std::size_t i, std::uint8_t x) {
    if (i < hdrLen) {
      hdr[i] ^= x;
      return;
    }
    i -= hdrLen;
    if (i < payloadLen) {
      ownPayload();
      owned[i] ^= x;
      return;
    }
    i -= payloadLen;
    if (i < pad) {  // pad is implicit zeros: move it into the payload to change it
      ownPayload();
      owned.resize(payloadLen + pad, 0);
      owned[payloadLen + i] ^= x;
      payload = owned.data();
      payloadLen += pad;
      pad = 0;
      return;
    }
    i -= pad;
    if (i < trailerLen) trailer[i] ^= x;
  }

  void flatten(std::vector<std::uint8_t>& out) const {
    out.resize(size());
    std::uint8_t* p = out.data();
    std::memcpy(p, hdr.data(), hdrLen);
    p += hdrLen;
    if (payloadLen) std::memcpy(p, payload, payloadLen);
    p += payloadLen;
    std::memset(p, 0, pad);
    p += pad;
    std::memcpy(p, trailer.data(), trailerLen);
  }

  void copyFrom(const Frame& o) {
    hdr = o.hdr;
    hdrLen = o.hdrLen;
    payloadLen = o.payloadLen;
    pad = o.pad;
    trailer = o.trailer;
    trailerLen = o.trailerLen;
    if (o.payloadLen && !o.owned.empty() && o.payload == o.owned.data()) {
      owned = o.owned;
      payload = owned.data();
    } else {
      payload = o.payload;
    }
    psn = o.psn;
    opcode = o.opcode;
    mayBeCorrupt = o.mayBeCorrupt;
    fromHost = o.fromHost;
  }
};

}  // namespace rdmascope::sim
