#pragma once
/// @file ib_headers.h
/// Field tables of the InfiniBand headers (IBTA Vol. 1, chapters 7 and 9, annexes A14 XRC,
/// A16/A17 RoCE). Keys are tshark's (`tshark -G fields`) wherever tshark has the field; the
/// few it lacks carry rdmascope-only keys, listed here:
///   - `infiniband.bth.fecn`, `infiniband.bth.becn`: the top two bits of BTH byte 4 (tshark
///     shows the whole byte as `infiniband.reserved`, which the table also carries);
///   - `infiniband.xrceth`, `infiniband.xrceth.xrcsrq`: XRC (tshark names XRC opcodes only);
///   - `infiniband.feth`, `.sel`, `.plt`: FLUSH extended transport header (IBTA 1.5);
///   - `infiniband.cnp`, `infiniband.cnp.reserved`: the 16 reserved bytes of a RoCEv2 CNP;
///   - `infiniband.icrc.*`, `infiniband.vcrc.*`: CRC values and verification status;
///   - `infiniband.aeth.kind`, `infiniband.aeth.rnr_timer_ms`, `infiniband.pad`.
/// tshark quirks kept on purpose: AtomicETH reuses `infiniband.reth.va`/`infiniband.reth.r_key`;
/// ImmDt and IETH use the same key for the header and its only field; reserved bytes of BTH,
/// DETH and RDETH are `infiniband.reserved`.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "rdmascope/packets/field.h"

namespace rdmascope::packets {

extern const HeaderDef kLrhHeader;           ///< Local Route Header, 8 bytes
extern const HeaderDef kGrhHeader;           ///< Global Route Header, 40 bytes
extern const HeaderDef kBthHeader;           ///< Base Transport Header, 12 bytes
extern const HeaderDef kRdethHeader;         ///< Reliable Datagram ETH, 4 bytes
extern const HeaderDef kDethHeader;          ///< Datagram ETH, 8 bytes
extern const HeaderDef kXrcEthHeader;        ///< XRC ETH, 4 bytes
extern const HeaderDef kRethHeader;          ///< RDMA ETH, 16 bytes
extern const HeaderDef kAethHeader;          ///< ACK ETH, 4 bytes
extern const HeaderDef kAtomicEthHeader;     ///< Atomic ETH, 28 bytes
extern const HeaderDef kAtomicAckEthHeader;  ///< Atomic ACK ETH, 8 bytes
extern const HeaderDef kImmDtHeader;         ///< Immediate Data, 4 bytes
extern const HeaderDef kIethHeader;          ///< Invalidate ETH (the R_Key), 4 bytes
extern const HeaderDef kFethHeader;          ///< FLUSH ETH, 4 bytes
extern const HeaderDef kCnpHeader;           ///< RoCEv2 CNP reserved block, 16 bytes

/// The AETH syndrome fields whose meaning depends on the syndrome opcode (bits 6:5); the
/// dissector adds the one that applies.
extern const FieldDef kAethCreditCount;    ///< ACK: credit count (31: invalid / unlimited)
extern const FieldDef kAethTimer;          ///< RNR NAK: encoded RNR timer
extern const FieldDef kAethErrorCode;      ///< NAK: NAK code
extern const FieldDef kAethReservedValue;  ///< reserved syndrome opcode 2

/// The ICRC and VCRC as tshark shows them (the trailing bytes read big-endian).
extern const FieldDef kIcrcField;  ///< `infiniband.invariant.crc`, 4 bytes
extern const FieldDef kVcrcField;  ///< `infiniband.variant.crc`, 2 bytes

/// Link Next Header values of the LRH.
enum class Lnh : std::uint8_t { Raw = 0, IpNonIba = 1, IbaLocal = 2, IbaGlobal = 3 };
/// GRH next header value for IBA transport.
inline constexpr std::uint8_t kGrhNextHeaderIba = 0x1b;

/// What the AETH syndrome says (bits 6:5 of the syndrome).
enum class AethKind : std::uint8_t { Ack = 0, RnrNak = 1, Reserved = 2, Nak = 3 };

/// NAK codes (syndrome bits 4:0 when the kind is Nak).
enum class NakCode : std::uint8_t {
  PsnSequenceError = 0,
  InvalidRequest = 1,
  RemoteAccessError = 2,
  RemoteOperationalError = 3,
  InvalidRdRequest = 4,
};

/// Credit count that means "invalid / end-to-end flow control not used".
inline constexpr std::uint8_t kAethCreditsInvalid = 31;

/// The RNR NAK timer in microseconds for the encoded value 0..31 (IBTA table "Encoding for
/// RNR NAK Timer Field": 0 -> 655.36 ms, 1 -> 0.01 ms, ..., 31 -> 491.52 ms).
std::uint32_t rnrTimerMicroseconds(std::uint8_t encoded);

/// Name of a NAK code ("PSN sequence error", ...), or "reserved NAK code".
std::string_view nakCodeName(std::uint8_t code);

/// A one-line reading of an AETH syndrome, e.g. "ACK credits=31 (invalid)", "RNR NAK
/// timer=0.01 ms", "NAK remote access error".
std::string describeAethSyndrome(std::uint8_t syndrome);

}  // namespace rdmascope::packets
