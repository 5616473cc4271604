#pragma once
/// @file field_extractor.h
/// The fast path of the filter and field passes: the values of a few keys read straight from
/// the header bytes through the field tables, without dissecting the frame into a tree.

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "rdmascope/packets/decode.h"
#include "rdmascope/packets/dissection.h"
#include "rdmascope/packets/field.h"
#include "rdmascope/packets/ib_opcodes.h"

namespace rdmascope::packets {

/// Extracts the nodes of the wanted keys from frames of the common RoCEv2 shape (Ethernet II with
/// any 802.1Q/802.1ad tags, IPv4 without options' surprises or fragments or IPv6 without
/// extension headers, UDP to the RoCEv2 port, a BTH with an assigned opcode and its extension
/// headers; not a management datagram). For such a frame, extract()
/// fills a Dissection with exactly the nodes a lean dissection (DecodeOptions::lean) would hold
/// for the wanted keys (same keys, values, numbers, in the same order) and nothing else: what
/// DisplayFilter::matches and the `-T fields` columns read of it is the same. Every other frame
/// is refused and goes through decodeFrameInto.
///
/// Usable only when every wanted key is one it can produce: frame.number, frame.len,
/// frame.cap_len, frame.time_relative, frame.time_epoch, the header keys frame, eth, vlan,
/// ieee8021ad, ip, ipv6, udp, infiniband, infiniband.bth and the extension headers' keys, and the
/// fields of those headers' tables (aggregate keys are read through their targets). summarize()
/// adds the summary columns: source and destination address, protocol and info.
class FieldExtractor {
 public:
  FieldExtractor(const ValueKeys& keys, const DecodeOptions& options);

  /// False when a wanted key is one the extractor cannot produce (or every key is wanted).
  bool usable() const { return usable_; }

  /// Replaces `out`'s nodes with the wanted nodes of the frame and returns true, or returns
  /// false (leaving `out` unspecified) when the frame is not of the shape it reads.
  bool extract(Dissection& out, std::span<const std::uint8_t> frame, LinkType link,
               const FrameInfo& info) const;

  /// Fills the packet-list columns (Dissection::summary), the CRC status and the Error
  /// diagnostics (what the summary line reads) as the dissector does, and returns true; or
  /// returns false for a frame extract() refuses and for one the dissector may report another
  /// error for than a bad ICRC (truncation, a bad pad count, a wrong IP version). Needs no
  /// extract() before it: a summary line takes its frame number, time and length from the
  /// FrameInfo.
  bool summarize(Dissection& out, std::span<const std::uint8_t> frame, LinkType link) const;

 private:
  struct Wanted {
    bool container = false;
    std::vector<const FieldDef*> fields;
    bool any() const { return container || !fields.empty(); }
  };

  // Where the headers of a frame of the shape read lie; nullopt for any other frame.
  struct Shape {
    std::size_t ip = 0;                 ///< after the Ethernet header and its VLAN tags
    std::size_t ihl = 0, totalLen = 0;  ///< IPv6: 40 and 40 plus the payload length
    std::size_t udp = 0, end = 0, bth = 0, regionEnd = 0;
    bool ipv6 = false;
    bool complete = false;
    const IbOpcodeInfo* op = nullptr;
  };
  std::optional<Shape> locate(std::span<const std::uint8_t> frame, LinkType link) const;

  bool usable_ = false;
  bool verifyCrc_ = true;
  std::uint16_t roceV2Port_ = 4791;
  bool frameContainer_ = false, number_ = false, len_ = false, capLen_ = false,
       timeRelative_ = false, timeEpoch_ = false, infiniband_ = false;
  Wanted eth_, vlan_, ieee8021ad_, ip_, ipv6_, udp_, bth_;
  std::vector<Wanted> ext_;  ///< indexed by IbExt
};

}  // namespace rdmascope::packets
