#pragma once
/// @file mad_builder.h
/// Typed management datagrams: the common MAD header and the Communication Manager's messages,
/// encoded and decoded through the field tables of mad_headers.h, and the UD packet that
/// carries a CM message between the two GSIs (QP 1 to QP 1, Q_Key 0x80010000), ready for
/// buildRoceV2/buildRoceV1/buildNativeIb.

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <variant>
#include <vector>

#include "rdmascope/packets/address.h"
#include "rdmascope/packets/ib_builder.h"
#include "rdmascope/packets/mad_headers.h"

namespace rdmascope::packets {

/// The 24-byte common MAD header. Defaults: a CM Send (base version 1, class 0x07, class
/// version 2, method 0x03).
struct MadHeader {
  std::uint8_t baseVersion = 1;
  std::uint8_t mgmtClass = static_cast<std::uint8_t>(MadClass::ComMgt);
  std::uint8_t classVersion = 2;
  std::uint8_t method = static_cast<std::uint8_t>(MadMethod::Send);  ///< bit 7: response
  std::uint16_t status = 0;
  std::uint16_t classSpecific = 0;
  std::uint64_t transactionId = 0;
  std::uint16_t attributeId = 0;
  std::uint32_t attributeModifier = 0;
  bool operator==(const MadHeader&) const = default;
};

using Gid = std::array<std::uint8_t, 16>;

/// The GID of an IP address as RoCE uses it: IPv4 as ::ffff:a.b.c.d, IPv6 as is.
Gid gidFromIp(const IpAddress& ip);

/// A REQ's primary or alternate path.
struct CmPath {
  std::uint16_t localLid = 0;
  std::uint16_t remoteLid = 0;
  Gid localGid{};
  Gid remoteGid{};
  std::uint32_t flowLabel = 0;  ///< 20 bits
  std::uint8_t packetRate = 0;  ///< 6 bits
  std::uint8_t trafficClass = 0;
  std::uint8_t hopLimit = 0;
  std::uint8_t sl = 0;  ///< 4 bits
  bool subnetLocal = false;
  std::uint8_t localAckTimeout = 0;  ///< 5 bits: 4.096 us x 2^n
  bool operator==(const CmPath&) const = default;
};

/// ConnectRequest (REQ). Private data: at most 92 bytes.
struct CmReq {
  std::uint32_t localCommId = 0;
  std::uint64_t serviceId = 0;
  std::uint64_t localCaGuid = 0;
  std::uint32_t localQkey = 0;
  std::uint32_t localQpn = 0;  ///< 24 bits
  std::uint8_t responderResources = 0;
  std::uint32_t localEecn = 0;  ///< 24 bits
  std::uint8_t initiatorDepth = 0;
  std::uint32_t remoteEecn = 0;              ///< 24 bits
  std::uint8_t remoteCmResponseTimeout = 0;  ///< 5 bits
  std::uint8_t transportServiceType = 0;     ///< 2 bits: 0 RC, 1 UC, 2 RD
  bool endToEndFlowControl = false;          ///<
  std::uint32_t startingPsn = 0;             ///< 24 bits
  std::uint8_t localCmResponseTimeout = 0;   ///< 5 bits
  std::uint8_t retryCount = 0;               ///< 3 bits
  std::uint16_t pkey = 0xffff;               ///<
  std::uint8_t pathMtu = 5;                  ///< 4 bits: 1 = 256 ... 5 = 4096
  bool rdcExists = false;                    ///<
  std::uint8_t rnrRetryCount = 0;            ///< 3 bits
  std::uint8_t maxCmRetries = 0;             ///< 4 bits
  bool srq = false;                          ///<
  std::uint8_t extendedTransport = 0;        ///< 3 bits
  CmPath primary;                            ///<
  CmPath alternate;                          ///< all zero when there is none
  std::vector<std::uint8_t> privateData;     ///< <= 92 bytes
  bool operator==(const CmReq&) const = default;
};

/// MsgRcptAck (MRA). Private data: at most 222 bytes.
struct CmMra {
  std::uint32_t localCommId = 0;
  std::uint32_t remoteCommId = 0;
  std::uint8_t messageMraed = 0;    ///< 2 bits: 0 REQ, 1 REP, 2 LAP
  std::uint8_t serviceTimeout = 0;  ///< 5 bits
  std::vector<std::uint8_t> privateData;
  bool operator==(const CmMra&) const = default;
};

/// ConnectReject (REJ). ARI: at most 72 bytes; private data: at most 148.
struct CmRej {
  std::uint32_t localCommId = 0;
  std::uint32_t remoteCommId = 0;
  std::uint8_t messageRejected = 0;   ///< 2 bits: 0 REQ, 1 REP, 2 other
  std::uint8_t rejectInfoLength = 0;  ///< 7 bits
  std::uint16_t reason = 0;           ///< see cmRejectReasonName
  std::vector<std::uint8_t> ari;
  std::vector<std::uint8_t> privateData;
  bool operator==(const CmRej&) const = default;
};

/// ConnectReply (REP). Private data: at most 196 bytes.
struct CmRep {
  std::uint32_t localCommId = 0;
  std::uint32_t remoteCommId = 0;
  std::uint32_t localQkey = 0;
  std::uint32_t localQpn = 0;     ///< 24 bits
  std::uint32_t localEecn = 0;    ///< 24 bits
  std::uint32_t startingPsn = 0;  ///< 24 bits
  std::uint8_t responderResources = 0;
  std::uint8_t initiatorDepth = 0;
  std::uint8_t targetAckDelay = 0;    ///< 5 bits
  std::uint8_t failoverAccepted = 0;  ///< 2 bits
  bool endToEndFlowControl = false;
  std::uint8_t rnrRetryCount = 0;  ///< 3 bits
  bool srq = false;
  std::uint64_t localCaGuid = 0;
  std::vector<std::uint8_t> privateData;
  bool operator==(const CmRep&) const = default;
};

/// ReadyToUse (RTU). Private data: at most 224 bytes.
struct CmRtu {
  std::uint32_t localCommId = 0;
  std::uint32_t remoteCommId = 0;
  std::vector<std::uint8_t> privateData;
  bool operator==(const CmRtu&) const = default;
};

/// DisconnectRequest (DREQ). Private data: at most 220 bytes.
struct CmDreq {
  std::uint32_t localCommId = 0;
  std::uint32_t remoteCommId = 0;
  std::uint32_t remoteQpn = 0;  ///< 24 bits (QPN or EECN)
  std::vector<std::uint8_t> privateData;
  bool operator==(const CmDreq&) const = default;
};

/// DisconnectReply (DREP). Private data: at most 224 bytes.
struct CmDrep {
  std::uint32_t localCommId = 0;
  std::uint32_t remoteCommId = 0;
  std::vector<std::uint8_t> privateData;
  bool operator==(const CmDrep&) const = default;
};

/// ServiceIDResReq (SIDR_REQ): a UD requester asks which QP serves a service ID. Private
/// data: at most 216 bytes.
struct CmSidrReq {
  std::uint32_t requestId = 0;
  std::uint16_t pkey = 0xffff;
  std::uint64_t serviceId = 0;
  std::vector<std::uint8_t> privateData;
  bool operator==(const CmSidrReq&) const = default;
};

/// ServiceIDResReqResp (SIDR_REP). Status 0 (Success) carries the QPN and Q_Key. Additional
/// information: at most 72 bytes; private data: at most 136.
struct CmSidrRep {
  std::uint32_t requestId = 0;
  std::uint8_t status = 0;  ///< 0 Success, 1 Unsupported, 2 Rejected, 3 No QP, ...
  std::uint8_t additionalInfoLength = 0;
  std::uint32_t qpn = 0;  ///< 24 bits
  std::uint64_t serviceId = 0;
  std::uint32_t qkey = 0;
  std::vector<std::uint8_t> additionalInfo;
  std::vector<std::uint8_t> privateData;
  bool operator==(const CmSidrRep&) const = default;
};

/// One CM message.
using CmMessage =
    std::variant<CmReq, CmMra, CmRej, CmRep, CmRtu, CmDreq, CmDrep, CmSidrReq, CmSidrRep>;

/// The attribute ID a message travels under (ConnectRequest for CmReq, ...).
CmAttribute cmAttributeOf(const CmMessage& message);

/// The 232 bytes of MAD data of a message. Private data, ARI and the like longer than their
/// field are cut to it; reserved bits are zero.
std::array<std::uint8_t, kMadDataSize> encodeCmMessage(const CmMessage& message);

/// Reads a message back from its MAD data. nullopt for attributes without a typed message or
/// data shorter than 232 bytes. Private data comes back at its full field length.
std::optional<CmMessage> decodeCmMessage(std::uint16_t attributeId,
                                         std::span<const std::uint8_t> data);

void encodeMadHeader(const MadHeader& h, std::span<std::uint8_t> out);  ///< out.size() >= 24
MadHeader decodeMadHeader(std::span<const std::uint8_t> in);            ///< in.size() >= 24

/// A whole 256-byte MAD: the header and `data` (at most 232 bytes, the rest zero).
std::array<std::uint8_t, kMadSize> encodeMad(const MadHeader& header,
                                             std::span<const std::uint8_t> data);

/// RDMA CM's IP private data header of a REQ (IBTA annex A11.6): version, IP version, source
/// port, source and destination addresses (IPv4 as the last four bytes of sixteen), followed
/// by the consumer's private data (at most 56 bytes).
struct IpCmPrivateData {
  std::uint8_t majorVersion = 0;
  std::uint8_t minorVersion = 0;
  std::uint16_t srcPort = 0;
  IpAddress src;  ///< src.v6 selects the IP version (4 or 6); dst must match
  IpAddress dst;
  std::vector<std::uint8_t> consumerData;
  bool operator==(const IpCmPrivateData&) const = default;
};

/// The 92 bytes of a REQ's private data.
std::vector<std::uint8_t> encodeIpCmPrivateData(const IpCmPrivateData& p);
/// Reads the header back; nullopt when shorter than 36 bytes or the IP version is not 4 or 6.
/// The consumer data comes back as every byte after the header.
std::optional<IpCmPrivateData> decodeIpCmPrivateData(std::span<const std::uint8_t> in);

/// The UD SEND Only packet that carries a CM message from one GSI to the other: destination
/// QP 1, DETH source QP 1 and Q_Key 0x80010000, a 256-byte MAD (class 0x07, method Send,
/// the message's attribute ID, the transaction ID given).
IbPacket cmPacket(const CmMessage& message, std::uint64_t transactionId, std::uint32_t psn = 0,
                  std::uint16_t pkey = 0xffff);

}  // namespace rdmascope::packets

namespace rdmascope::packets {

/// A CM handshake as RDMA CM makes it, for tests, fuzz seeds and cross-checks: over
/// RoCEv2/IPv4 a client (10.0.0.1, QPN 0x11) connects to a server (10.0.0.2, QPN 0x12) on TCP
/// port 18515: REQ (with RDMA CM's IP private data), MRA, REP, RTU, DREQ, DREP, then a second
/// REQ answered by a REJ (consumer reject); the same REQ over RoCEv2/IPv6, RoCEv1 (link type
/// Ethernet) and native IB (link type Erf). Every frame has a correct ICRC (and VCRC).
std::vector<SampleFrame> sampleCmFrames();

}  // namespace rdmascope::packets
