#pragma once
/// @file iwarp_headers.h
/// Field tables of the iWARP headers: MPA start frames, FPDU fields and markers (RFC 5044),
/// DDP tagged and untagged headers (RFC 5041), RDMAP control, Read Request and Terminate
/// headers (RFC 5040). Keys, FT sizes and bases follow tshark 4.0 (`tshark -G fields`).

#include <cstdint>

#include "rdmascope/packets/field.h"

namespace rdmascope::packets {

/// RDMAP opcodes (RFC 5040 section 4.3), with tshark's names in kRdmapOpcodeNames.
enum class RdmapOpcode : std::uint8_t {
  Write = 0,
  ReadRequest = 1,
  ReadResponse = 2,
  Send = 3,
  SendInvalidate = 4,
  SendSe = 5,
  SendSeInvalidate = 6,
  Terminate = 7,
};

/// tshark's opcode names ("Write", "Read Request", ...).
extern const std::span<const ValueName> kRdmapOpcodeNames;

/// Name of an opcode ("Unknown N" for values without one).
std::string rdmapOpcodeName(std::uint8_t opcode);

/// "MPA ID Req Frame" / "MPA ID Rep Frame": the 16-byte keys of the start frames.
inline constexpr char kMpaRequestKey[] = "MPA ID Req Frame";
inline constexpr char kMpaReplyKey[] = "MPA ID Rep Frame";
inline constexpr std::size_t kMpaStartHeaderLength = 20;  ///< key, flags, revision, PD length
inline constexpr std::size_t kMpaMaxPrivateData = 512;    ///< RFC 5044 section 7.1
inline constexpr std::size_t kMpaMarkerInterval = 512;    ///< octets between markers
inline constexpr std::size_t kMpaMarkerLength = 4;
inline constexpr std::size_t kMpaCrcLength = 4;
inline constexpr std::size_t kDdpTaggedHeaderLength = 14;
inline constexpr std::size_t kDdpUntaggedHeaderLength = 18;
inline constexpr std::size_t kRdmaReadRequestLength = 28;
inline constexpr std::size_t kRdmaTerminateControlLength = 4;
inline constexpr std::uint32_t kDdpQueueSend = 0;         ///< QN of Send messages
inline constexpr std::uint32_t kDdpQueueReadRequest = 1;  ///< QN of Read Requests
inline constexpr std::uint32_t kDdpQueueTerminate = 2;    ///< QN of Terminate messages

/// MPA Request frame header (20 bytes; private data follows).
extern const HeaderDef kMpaRequestHeader;
/// MPA Reply frame header (20 bytes; private data follows).
extern const HeaderDef kMpaReplyHeader;
/// An MPA marker (4 bytes: reserved, FPDU back pointer).
extern const HeaderDef kMpaMarkerHeader;
/// ULPDU length field at the start of an FPDU (2 bytes).
extern const FieldDef kMpaUlpduLengthField;
/// CRC field when CRC is not in use (4 bytes, shown as read big-endian).
extern const FieldDef kMpaCrcField;

/// DDP tagged header (14 bytes) without the RDMAP control byte (RsvdULP).
extern const HeaderDef kDdpTaggedHeader;
/// DDP untagged header (18 bytes) without the RDMAP fields inside RsvdULP.
extern const HeaderDef kDdpUntaggedHeader;
/// RDMAP control byte (offset 1 of the DDP header).
extern const HeaderDef kRdmapControlHeader;
/// RDMAP reserved word (untagged Send, Send with SE, Read Request, Terminate).
extern const FieldDef kRdmapReservedField;
/// RDMAP Invalidate STag (Send with Invalidate, Send with SE and Invalidate).
extern const FieldDef kRdmapInvalidateStagField;
/// RDMA Read Request header (28 bytes after the untagged DDP header).
extern const HeaderDef kRdmaReadRequestHeader;
/// Terminate control (4 bytes): layer, error type, error code, header control bits.
/// The error type and code keys depend on the layer; see terminateErrorFields().
extern const FieldDef kRdmaTermLayerField;
extern const FieldDef kRdmaTermHdrctM;
extern const FieldDef kRdmaTermHdrctD;
extern const FieldDef kRdmaTermHdrctR;
extern const FieldDef kRdmaTermReserved;

/// The error type and error code fields of a Terminate for a layer and error type, keyed as
/// tshark keys them (iwarp_rdma.term_etype_rdma, term_errcode_ddp_tagged, ...).
struct TerminateErrorFields {
  const FieldDef* etype;
  const FieldDef* errcode;
};
TerminateErrorFields terminateErrorFields(std::uint8_t layer, std::uint8_t etype);

}  // namespace rdmascope::packets
