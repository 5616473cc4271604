#include "rdmascope/packets/ib_headers.h"

#include <cstdio>

#include "rdmascope/packets/ib_opcodes.h"

namespace rdmascope::packets {
namespace {

constexpr ValueName kLnhNames[] = {
    {0, "Raw Header (RWH)"},
    {1, "IP Non-IBA Transport"},
    {2, "IBA Local"},
    {3, "IBA Global"},
};
constexpr ValueName kAethOpcodeNames[] = {{0, "ACK"}, {1, "RNR NAK"}, {2, "Reserved"}, {3, "NAK"}};
constexpr ValueName kNakNames[] = {
    {0, "PSN Sequence Error"},       {1, "Invalid Request"},    {2, "Remote Access Error"},
    {3, "Remote Operational Error"}, {4, "Invalid RD Request"},
};

constexpr FieldDef kLrhFields[] = {
    {"infiniband.lrh.vl", "Virtual Lane", 0, 4, FieldType::UInt, Base::Hex, 8},
    {"infiniband.lrh.lver", "Link Version", 4, 4},
    {"infiniband.lrh.sl", "Service Level", 8, 4},
    {"infiniband.lrh.reserved2", "Reserved (2 bits)", 12, 2},
    {"infiniband.lrh.lnh", "Link Next Header", 14, 2, FieldType::UInt, Base::Hex, 8, kLnhNames},
    {"infiniband.lrh.dlid", "Destination Local ID", 16, 16},
    {"infiniband.lrh.reserved5", "Reserved (5 bits)", 32, 5},
    {"infiniband.lrh.pktlen", "Packet Length", 37, 11},
    {"infiniband.lrh.slid", "Source Local ID", 48, 16},
};

constexpr FieldDef kGrhFields[] = {
    {"infiniband.grh.ipver", "IP Version", 0, 4},
    {"infiniband.grh.tclass", "Traffic Class", 4, 8},
    {"infiniband.grh.flowlabel", "Flow Label", 12, 20},
    {"infiniband.grh.paylen", "Payload Length", 32, 16},
    {"infiniband.grh.nxthdr", "Next Header", 48, 8},
    {"infiniband.grh.hoplmt", "Hop Limit", 56, 8},
    {"infiniband.grh.sgid", "Source GID", 64, 128, FieldType::Ipv6},
    {"infiniband.grh.dgid", "Destination GID", 192, 128, FieldType::Ipv6},
};

constexpr FieldDef kBthFields[] = {
    {"infiniband.bth.opcode", "Opcode", 0, 8, FieldType::UInt, Base::Dec, 8, kIbOpcodeNames},
    {"infiniband.bth.se", "Solicited Event", 8, 1, FieldType::Bool},
    {"infiniband.bth.m", "MigReq", 9, 1, FieldType::Bool},
    {"infiniband.bth.padcnt", "Pad Count", 10, 2},
    {"infiniband.bth.tver", "Header Version", 12, 4},
    {"infiniband.bth.p_key", "Partition Key", 16, 16},
    {"infiniband.reserved", "Reserved", 32, 8, FieldType::Bytes},
    {"infiniband.bth.fecn", "FECN (rdmascope)", 32, 1, FieldType::Bool},
    {"infiniband.bth.becn", "BECN (rdmascope)", 33, 1, FieldType::Bool},
    {"infiniband.bth.destqp", "Destination Queue Pair", 40, 24, FieldType::UInt, Base::Hex, 24},
    {"infiniband.bth.a", "Acknowledge Request", 64, 1, FieldType::Bool},
    {"infiniband.bth.reserved7", "Reserved (7 bits)", 65, 7},
    {"infiniband.bth.psn", "Packet Sequence Number", 72, 24},
};

constexpr FieldDef kRdethFields[] = {
    {"infiniband.reserved", "Reserved", 0, 8, FieldType::Bytes},
    {"infiniband.rdeth.eecnxt", "E2E Context", 8, 24},
};

constexpr FieldDef kDethFields[] = {
    {"infiniband.deth.q_key", "Queue Key", 0, 32, FieldType::UInt, Base::Hex, 64},
    {"infiniband.reserved", "Reserved", 32, 8, FieldType::Bytes},
    {"infiniband.deth.srcqp", "Source Queue Pair", 40, 24, FieldType::UInt, Base::Hex, 32},
};

constexpr FieldDef kXrcEthFields[] = {
    {"infiniband.reserved", "Reserved", 0, 8, FieldType::Bytes},
    {"infiniband.xrceth.xrcsrq", "XRC Shared Receive Queue (rdmascope)", 8, 24, FieldType::UInt,
     Base::Hex, 24},
};

constexpr FieldDef kRethFields[] = {
    {"infiniband.reth.va", "Virtual Address", 0, 64, FieldType::UInt, Base::Hex, 64},
    {"infiniband.reth.r_key", "Remote Key", 64, 32, FieldType::UInt, Base::Hex, 32},
    {"infiniband.reth.dmalen", "DMA Length", 96, 32, FieldType::UInt, Base::DecHex, 32},
};

constexpr FieldDef kAethFields[] = {
    {"infiniband.aeth.syndrome", "Syndrome", 0, 8},
    {"infiniband.aeth.syndrome.reserved", "Reserved", 0, 1},
    {"infiniband.aeth.syndrome.opcode", "OpCode", 1, 2, FieldType::UInt, Base::Dec, 8,
     kAethOpcodeNames},
    {"infiniband.aeth.msn", "Message Sequence Number", 8, 24},
};

constexpr FieldDef kAtomicEthFields[] = {
    {"infiniband.reth.va", "Virtual Address", 0, 64, FieldType::UInt, Base::Hex, 64},
    {"infiniband.reth.r_key", "Remote Key", 64, 32, FieldType::UInt, Base::Hex, 32},
    {"infiniband.atomiceth.swapdt", "Swap (Or Add) Data", 96, 64},
    {"infiniband.atomiceth.cmpdt", "Compare Data", 160, 64},
};

constexpr FieldDef kAtomicAckEthFields[] = {
    {"infiniband.atomicacketh.origremdt", "Original Remote Data", 0, 64},
};

constexpr FieldDef kImmDtFields[] = {
    {"infiniband.immdt", "Immediate Data", 0, 32, FieldType::Bytes},
};

constexpr FieldDef kIethFields[] = {
    {"infiniband.ieth", "RKey", 0, 32, FieldType::Bytes},
};

constexpr FieldDef kFethFields[] = {
    {"infiniband.feth.reserved", "Reserved (rdmascope)", 0, 26},
    {"infiniband.feth.sel", "Selectivity Level (rdmascope)", 26, 2},
    {"infiniband.feth.plt", "Placement Type (rdmascope)", 28, 4},
};

constexpr FieldDef kCnpFields[] = {
    {"infiniband.cnp.reserved", "Reserved (rdmascope)", 0, 128, FieldType::Bytes},
};

}  // namespace

const HeaderDef kLrhHeader{"infiniband.lrh", "Local Route Header", "LRH", 8, kLrhFields};
const HeaderDef kGrhHeader{"infiniband.grh", "Global Route Header", "GRH", 40, kGrhFields};
const HeaderDef kBthHeader{"infiniband.bth", "Base Transport Header", "BTH", 12, kBthFields};
const HeaderDef kRdethHeader{"infiniband.rdeth", "Reliable Datagram Extended Transport Header",
                             "RDETH", 4, kRdethFields};
const HeaderDef kDethHeader{"infiniband.deth", "Datagram Extended Transport Header", "DETH", 8,
                            kDethFields};
const HeaderDef kXrcEthHeader{"infiniband.xrceth", "XRC Extended Transport Header", "XRCETH", 4,
                              kXrcEthFields};
const HeaderDef kRethHeader{"infiniband.reth", "RDMA Extended Transport Header", "RETH", 16,
                            kRethFields};
const HeaderDef kAethHeader{"infiniband.aeth", "ACK Extended Transport Header", "AETH", 4,
                            kAethFields};
const HeaderDef kAtomicEthHeader{"infiniband.atomiceth", "Atomic Extended Transport Header",
                                 "AtomicETH", 28, kAtomicEthFields};
const HeaderDef kAtomicAckEthHeader{"infiniband.atomicacketh",
                                    "Atomic ACK Extended Transport Header", "AtomicAckETH", 8,
                                    kAtomicAckEthFields};
const HeaderDef kImmDtHeader{"infiniband.immdt", "Immediate Data", "ImmDt", 4, kImmDtFields};
const HeaderDef kIethHeader{"infiniband.ieth", "Invalidate Extended Transport Header", "IETH", 4,
                            kIethFields};
const HeaderDef kFethHeader{"infiniband.feth", "Flush Extended Transport Header", "FETH", 4,
                            kFethFields};
const HeaderDef kCnpHeader{"infiniband.cnp", "Congestion Notification Packet", "CNP", 16,
                           kCnpFields};

const FieldDef kAethCreditCount{"infiniband.aeth.syndrome.credit_count", "Credit Count", 3, 5};
const FieldDef kAethTimer{"infiniband.aeth.syndrome.timer", "Timer", 3, 5};
const FieldDef kAethErrorCode{"infiniband.aeth.syndrome.error_code",
                              "Error Code",
                              3,
                              5,
                              FieldType::UInt,
                              Base::Dec,
                              8,
                              kNakNames};
const FieldDef kAethReservedValue{"infiniband.aeth.syndrome.reserved_value", "Reserved", 3, 5};

const FieldDef kIcrcField{
    "infiniband.invariant.crc", "Invariant CRC", 0, 32, FieldType::UInt, Base::Hex, 32};
const FieldDef kVcrcField{"infiniband.variant.crc", "Variant CRC", 0, 16,
                          FieldType::UInt,          Base::Hex,     16};

const HeaderDef& ibExtHeader(IbExt ext) {
  switch (ext) {
    case IbExt::Rdeth:
      return kRdethHeader;
    case IbExt::Deth:
      return kDethHeader;
    case IbExt::XrcEth:
      return kXrcEthHeader;
    case IbExt::Reth:
      return kRethHeader;
    case IbExt::Aeth:
      return kAethHeader;
    case IbExt::AtomicEth:
      return kAtomicEthHeader;
    case IbExt::AtomicAckEth:
      return kAtomicAckEthHeader;
    case IbExt::ImmDt:
      return kImmDtHeader;
    case IbExt::Ieth:
      return kIethHeader;
    case IbExt::Feth:
      return kFethHeader;
    case IbExt::Cnp:
      break;
  }
  return kCnpHeader;
}

std::string_view ibTransportName(IbTransport transport) {
  switch (transport) {
    case IbTransport::Rc:
      return "RC";
    case IbTransport::Uc:
      return "UC";
    case IbTransport::Rd:
      return "RD";
    case IbTransport::Ud:
      return "UD";
    case IbTransport::Cnp:
      return "CNP";
    case IbTransport::Xrc:
      break;
  }
  return "XRC";
}

std::uint32_t rnrTimerMicroseconds(std::uint8_t encoded) {
  static constexpr std::uint32_t kTable[32] = {
      655360, 10,    20,    30,    40,    60,     80,     120,    160,    240,   320,
      480,    640,   960,   1280,  1920,  2560,   3840,   5120,   7680,   10240, 15360,
      20480,  30720, 40960, 61440, 81920, 122880, 163840, 245760, 327680, 491520};
  return kTable[encoded & 31];
}

std::string_view nakCodeName(std::uint8_t code) {
  switch (code) {
    case 0:
      return "PSN sequence error";
    case 1:
      return "invalid request";
    case 2:
      return "remote access error";
    case 3:
      return "remote operational error";
    case 4:
      return "invalid RD request";
    default:
      return "reserved NAK code";
  }
}

std::string describeAethSyndrome(std::uint8_t syndrome) {
  const unsigned low = syndrome & 31;
  char buf[80];
  switch (static_cast<AethKind>((syndrome >> 5) & 3)) {
    case AethKind::Ack:
      // The IBTA's "invalid" credit count: the responder counts no end-to-end credits (rxe's
      // AETH_ACK_UNLIMITED), so the requester is not limited by any.
      if (low == kAethCreditsInvalid) return "ACK credits=31 (unlimited)";
      std::snprintf(buf, sizeof buf, "ACK credits=%u", low);
      return buf;
    case AethKind::RnrNak: {
      const auto us = rnrTimerMicroseconds(static_cast<std::uint8_t>(low));
      std::snprintf(buf, sizeof buf, "RNR NAK timer=%u.%02u ms", us / 1000, (us % 1000) / 10);
      return buf;
    }
    case AethKind::Nak:
      return "NAK " + std::string(nakCodeName(static_cast<std::uint8_t>(low)));
    case AethKind::Reserved:
      break;
  }
  std::snprintf(buf, sizeof buf, "reserved syndrome 0x%02x", syndrome);
  return buf;
}

}  // namespace rdmascope::packets
