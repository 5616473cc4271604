#pragma once
/// @file mad_headers.h
/// Field tables of InfiniBand management datagrams (MADs, IBTA Vol. 1 chapter 13.4) and of the
/// Communication Manager's messages (chapter 12.6, management class 0x07), as carried by UD
/// SEND packets to or from QP 0/1. Bit positions are the IBTA's (checked against Linux's
/// include/rdma/ibta_vol1_c12.h); keys are tshark's (`tshark -G fields`) wherever tshark 4.0
/// has the field, including its odd ones: the local communication ID of REQ and REP is
/// `infiniband.cm.req` / `infiniband.cm.rep`, DREQ's remote QPN is
/// `infiniband.cm.req.remoteqpneecn`, both reserved bit groups after the alternate SL and ACK
/// timeout are `infiniband.cm.req.alt_reserved1`, reserved bytes are `infiniband.reserved`.
/// rdmascope-only keys:
///   - `infiniband.cm`: the container of one CM message (tshark: `infiniband.smplid.smpdata`);
///   - `infiniband.mad.method.r`, `infiniband.mad.method.code`: the method's response bit and
///     its low seven bits;
///   - `infiniband.cm.mra.*`, `infiniband.cm.lap.*`, `infiniband.cm.apr.*`,
///     `infiniband.cm.sidr_req.*`, `infiniband.cm.sidr_rep.*`: messages tshark 4.0 names but
///     does not decode.
/// Where tshark reads a field from the wrong bits (the REQ path's flow label, reserved bits and
/// packet rate: it takes them from the first three bytes / first byte of their word) the table
/// keeps tshark's key and the IBTA's bits.

#include <cstdint>
#include <span>
#include <string_view>

#include "rdmascope/packets/field.h"

namespace rdmascope::packets {

/// Size of every MAD on QP 0/1 (IBTA 13.4.2), of its common header and of its data.
inline constexpr std::size_t kMadSize = 256;
inline constexpr std::size_t kMadHeaderSize = 24;
inline constexpr std::size_t kMadDataSize = kMadSize - kMadHeaderSize;

/// Q_Key of the General Services Interface (QP 1).
inline constexpr std::uint32_t kGsiQkey = 0x80010000;

/// Management classes (IBTA 13.4.4) used by the dissector.
enum class MadClass : std::uint8_t {
  SubnMgtLidRouted = 0x01,
  SubnAdm = 0x03,
  PerfMgt = 0x04,
  BaseboardMgt = 0x05,
  DevMgt = 0x06,
  ComMgt = 0x07,
  Snmp = 0x08,
  SubnMgtDirectedRoute = 0x81,
};

/// Common MAD methods (IBTA 13.4.5); bit 7 (R) marks a response.
enum class MadMethod : std::uint8_t {
  Get = 0x01,
  Set = 0x02,
  Send = 0x03,
  Trap = 0x05,
  Report = 0x06,
  TrapRepress = 0x07,
  GetResp = 0x81,
  ReportResp = 0x86,
};

/// Attribute IDs of the Communication Manager class (IBTA 12.6, table "CM Attributes").
enum class CmAttribute : std::uint16_t {
  ClassPortInfo = 0x0001,
  ConnectRequest = 0x0010,     ///< REQ
  MsgRcptAck = 0x0011,         ///< MRA
  ConnectReject = 0x0012,      ///< REJ
  ConnectReply = 0x0013,       ///< REP
  ReadyToUse = 0x0014,         ///< RTU
  DisconnectRequest = 0x0015,  ///< DREQ
  DisconnectReply = 0x0016,    ///< DREP
  ServiceIdResReq = 0x0017,    ///< SIDR_REQ
  ServiceIdResReqResp = 0x0018,
  LoadAlternatePath = 0x0019,  ///< LAP
  AlternatePathResponse = 0x001a,
};

/// The MAD common header, 24 bytes (tshark's `infiniband.mad.*`).
extern const HeaderDef kMadHeader;
/// `infiniband.mad.attributeid` with the CM attribute names (the dissector's choice for
/// class 0x07; the display filter accepts the names: `infiniband.mad.attributeid ==
/// ConnectRequest`).
extern const FieldDef kCmAttributeIdField;
/// `infiniband.mad.data`: the 232 bytes after the common header.
extern const FieldDef kMadDataField;

/// CM messages: each table covers the 232 bytes of MAD data. Fields whose presence depends on
/// the content (service ID parts, IPv4-mapped GIDs, RDMA CM private data) are separate.
extern const HeaderDef kCmReqHeader;
extern const HeaderDef kCmMraHeader;
extern const HeaderDef kCmRejHeader;
extern const HeaderDef kCmRepHeader;
extern const HeaderDef kCmRtuHeader;
extern const HeaderDef kCmDreqHeader;
extern const HeaderDef kCmDrepHeader;
extern const HeaderDef kCmLapHeader;
extern const HeaderDef kCmAprHeader;
extern const HeaderDef kCmSidrReqHeader;
extern const HeaderDef kCmSidrRepHeader;

/// REQ parts shown only when they apply (offsets from the start of the REQ message):
/// the RDMA IP service ID's prefix, protocol and port (prefix 0x0000000001, IBTA annex A11);
/// the last four bytes of IPv4-mapped primary GIDs; the plain private data; the RDMA CM IP
/// private data header (annex A11.6: version, IP version, source port, addresses) with its
/// IPv4 or IPv6 addresses and the consumer's 56 bytes.
extern const HeaderDef kCmReqServiceIdParts;
extern const FieldDef kCmReqPrimaryLocalGidIpv4;
extern const FieldDef kCmReqPrimaryRemoteGidIpv4;
extern const FieldDef kCmReqPrivateData;
extern const HeaderDef kIpCmHeader;      ///< key infiniband.cm.req.ip_cm, 92 bytes
extern const HeaderDef kIpCmIpv4Fields;  ///< sip4/dip4 (offsets from the REQ start)
extern const HeaderDef kIpCmIpv6Fields;  ///< sip6/dip6
extern const FieldDef kIpCmConsumerPrivateData;

/// Byte offset of the REQ's private data within the REQ message; its length.
inline constexpr std::size_t kCmReqPrivateOffset = 140;
inline constexpr std::size_t kCmReqPrivateSize = 92;

/// The table of a CM attribute's message, or nullptr (ClassPortInfo, unknown IDs).
const HeaderDef* cmMessageHeader(std::uint16_t attributeId);

/// Name of a management class ("Communication Management"), or "" when unassigned.
std::string_view madClassName(std::uint8_t mgmtClass);
/// Short name of a method ("Send", "GetResp"), or "".
std::string_view madMethodName(std::uint8_t method);
/// tshark's name of a CM attribute ("ConnectRequest"), or "".
std::string_view cmAttributeName(std::uint16_t attributeId);
/// The IBTA's name of a CM reject reason (table "REJ Reason"), or "".
std::string_view cmRejectReasonName(std::uint16_t reason);

/// RDMA CM's service IDs: prefix 0x0000000001 (IBTA annex A11), port space in the next 16 bits
/// (RDMA_PS_TCP 0x0106, RDMA_PS_UDP 0x0111, RDMA_PS_IB 0x013f), the port in the low 16 bits.
inline constexpr std::uint64_t kRdmaIpServiceIdPrefix = 0x0000000001000000ull;
inline constexpr std::uint64_t kRdmaIpServiceIdPrefixMask = 0xffffffffff000000ull;
/// A service ID in RDMA CM's IP space: protocol 0x06 (TCP), 0x11 (UDP) or 0x3f (IB).
constexpr std::uint64_t rdmaIpServiceId(std::uint8_t protocol, std::uint16_t port) {
  return kRdmaIpServiceIdPrefix | (std::uint64_t{protocol} << 16) | port;
}
/// True when the service ID lies in RDMA CM's IP space.
constexpr bool isRdmaIpServiceId(std::uint64_t serviceId) {
  return (serviceId & kRdmaIpServiceIdPrefixMask) == kRdmaIpServiceIdPrefix;
}

}  // namespace rdmascope::packets
