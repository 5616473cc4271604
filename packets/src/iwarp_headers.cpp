#include "rdmascope/packets/iwarp_headers.h"

namespace rdmascope::packets {
namespace {

constexpr ValueName kOpcodes[] = {
    {0, "Write"},
    {1, "Read Request"},
    {2, "Read Response"},
    {3, "Send"},
    {4, "Send with Invalidate"},
    {5, "Send with SE"},
    {6, "Send with SE and Invalidate"},
    {7, "Terminate"},
};

constexpr ValueName kLayers[] = {{0, "RDMA"}, {1, "DDP"}, {2, "LLP"}};
constexpr ValueName kRdmaErrorTypes[] = {
    {0, "Local Catastrophic Error"}, {1, "Remote Protection Error"}, {2, "Remote Operation Error"}};
constexpr ValueName kRdmaErrorCodes[] = {{0x00, "Invalid STag"},
                                         {0x01, "Base or bounds violation"},
                                         {0x02, "Access rights violation"},
                                         {0x03, "STag not associated with RDMAP Stream"},
                                         {0x04, "TO wrap"},
                                         {0x05, "Invalid RDMAP version"},
                                         {0x06, "Unexpected OpCode"},
                                         {0x07, "Catastrophic error, localized to RDMAP Stream"},
                                         {0x08, "Catastrophic error, global"},
                                         {0x09, "STag cannot be Invalidated"},
                                         {0xff, "Unspecific Error"}};
constexpr ValueName kDdpErrorTypes[] = {{0, "Local Catastrophic Error"},
                                        {1, "Tagged Buffer Error"},
                                        {2, "Untagged Buffer Error"},
                                        {3, "Reserved for the use by the LLP"}};
constexpr ValueName kDdpTaggedErrorCodes[] = {{0x00, "Invalid STag"},
                                              {0x01, "Base or bounds violation"},
                                              {0x02, "STag not associated with DDP Stream"},
                                              {0x03, "TO wrap"},
                                              {0x04, "Invalid DDP version"}};
constexpr ValueName kDdpUntaggedErrorCodes[] = {{0x01, "Invalid QN"},
                                                {0x02, "Invalid MSN - no buffer available"},
                                                {0x03, "Invalid MSN - MSN range is not valid"},
                                                {0x04, "Invalid MO"},
                                                {0x05, "DDP Message too long for available buffer"},
                                                {0x06, "Invalid DDP version"}};

constexpr FieldDef kMpaRequestFields[] = {
    {"iwarp_mpa.key.req", "ID Req frame", 0, 128, FieldType::Bytes},
    {"iwarp_mpa.marker_flag", "Marker flag", 128, 1, FieldType::Bool},
    {"iwarp_mpa.crc_flag", "CRC flag", 129, 1, FieldType::Bool},
    {"iwarp_mpa.rej_flag", "Connection rejected flag", 130, 1, FieldType::Bool},
    {"iwarp_mpa.res", "Reserved", 131, 5, FieldType::UInt, Base::Hex, 8},
    {"iwarp_mpa.rev", "Revision", 136, 8, FieldType::UInt, Base::Dec, 8},
    {"iwarp_mpa.pdlength", "Private data length", 144, 16, FieldType::UInt, Base::Dec, 16},
};
constexpr FieldDef kMpaReplyFields[] = {
    {"iwarp_mpa.key.rep", "ID Rep frame", 0, 128, FieldType::Bytes},
    {"iwarp_mpa.marker_flag", "Marker flag", 128, 1, FieldType::Bool},
    {"iwarp_mpa.crc_flag", "CRC flag", 129, 1, FieldType::Bool},
    {"iwarp_mpa.rej_flag", "Connection rejected flag", 130, 1, FieldType::Bool},
    {"iwarp_mpa.res", "Reserved", 131, 5, FieldType::UInt, Base::Hex, 8},
    {"iwarp_mpa.rev", "Revision", 136, 8, FieldType::UInt, Base::Dec, 8},
    {"iwarp_mpa.pdlength", "Private data length", 144, 16, FieldType::UInt, Base::Dec, 16},
};
constexpr FieldDef kMpaMarkerFields[] = {
    {"iwarp_mpa.marker_res", "Reserved", 0, 16, FieldType::UInt, Base::Hex, 16},
    {"iwarp_mpa.marker_fpduptr", "FPDU back pointer", 16, 16, FieldType::UInt, Base::Dec, 16},
};

constexpr FieldDef kDdpTaggedFields[] = {
    {"iwarp_ddp.tagged_flag", "Tagged flag", 0, 1, FieldType::Bool},
    {"iwarp_ddp.last_flag", "Last flag", 1, 1, FieldType::Bool},
    {"iwarp_ddp.rsvd", "Reserved", 2, 4, FieldType::UInt, Base::Hex, 8},
    {"iwarp_ddp.dv", "DDP protocol version", 6, 2, FieldType::UInt, Base::Dec, 8},
    {"iwarp_ddp.stag", "(Data Sink) Steering Tag", 16, 32, FieldType::UInt, Base::Hex, 32},
    {"iwarp_ddp.tagged_offset", "(Data Sink) Tagged offset", 48, 64, FieldType::UInt, Base::Hex,
     64},
};
constexpr FieldDef kDdpUntaggedFields[] = {
    {"iwarp_ddp.tagged_flag", "Tagged flag", 0, 1, FieldType::Bool},
    {"iwarp_ddp.last_flag", "Last flag", 1, 1, FieldType::Bool},
    {"iwarp_ddp.rsvd", "Reserved", 2, 4, FieldType::UInt, Base::Hex, 8},
    {"iwarp_ddp.dv", "DDP protocol version", 6, 2, FieldType::UInt, Base::Dec, 8},
    {"iwarp_ddp.rsvdulp", "Reserved for use by the ULP", 8, 40, FieldType::Bytes},
    {"iwarp_ddp.qn", "Queue number", 48, 32, FieldType::UInt, Base::Dec, 32},
    {"iwarp_ddp.msn", "Message sequence number", 80, 32, FieldType::UInt, Base::Dec, 32},
    {"iwarp_ddp.mo", "Message offset", 112, 32, FieldType::UInt, Base::Dec, 32},
};
constexpr FieldDef kRdmapControlFields[] = {
    {"iwarp_rdma.version", "Version", 0, 2, FieldType::UInt, Base::Dec, 8},
    {"iwarp_rdma.rsv", "Reserved", 2, 2, FieldType::UInt, Base::Hex, 8},
    {"iwarp_rdma.opcode", "OpCode", 4, 4, FieldType::UInt, Base::Hex, 8, kOpcodes},
};
constexpr FieldDef kReadRequestFields[] = {
    {"iwarp_rdma.sinkstag", "Data Sink STag", 0, 32, FieldType::UInt, Base::Hex, 32},
    {"iwarp_rdma.sinkto", "Data Sink Tagged Offset", 32, 64, FieldType::UInt, Base::Hex, 64},
    {"iwarp_rdma.rdmardsz", "RDMA Read Message Size", 96, 32, FieldType::UInt, Base::Dec, 32},
    {"iwarp_rdma.srcstag", "Data Source STag", 128, 32, FieldType::UInt, Base::Hex, 32},
    {"iwarp_rdma.srcto", "Data Source Tagged Offset", 160, 64, FieldType::UInt, Base::Hex, 64},
};

constexpr FieldDef kEtypeRdma{"iwarp_rdma.term_etype_rdma",
                              "Error Types for RDMA layer",
                              4,
                              4,
                              FieldType::UInt,
                              Base::Hex,
                              8,
                              kRdmaErrorTypes};
constexpr FieldDef kEtypeDdp{"iwarp_rdma.term_etype_ddp",
                             "Error Types for DDP layer",
                             4,
                             4,
                             FieldType::UInt,
                             Base::Hex,
                             8,
                             kDdpErrorTypes};
constexpr FieldDef kEtypeLlp{
    "iwarp_rdma.term_etype_llp", "Error Types for LLP layer", 4, 4, FieldType::UInt, Base::Hex, 8};
constexpr FieldDef kEtypeOther{"iwarp_rdma.term_etype", "Error Types", 4, 4,
                               FieldType::UInt,         Base::Hex,     8};
constexpr FieldDef kErrcodeRdma{"iwarp_rdma.term_errcode_rdma",
                                "Error Code for RDMA layer",
                                8,
                                8,
                                FieldType::UInt,
                                Base::Hex,
                                8,
                                kRdmaErrorCodes};
constexpr FieldDef kErrcodeDdpTagged{"iwarp_rdma.term_errcode_ddp_tagged",
                                     "Error Code for DDP Tagged Buffer",
                                     8,
                                     8,
                                     FieldType::UInt,
                                     Base::Hex,
                                     8,
                                     kDdpTaggedErrorCodes};
constexpr FieldDef kErrcodeDdpUntagged{"iwarp_rdma.term_errcode_ddp_untagged",
                                       "Error Code for DDP Untagged Buffer",
                                       8,
                                       8,
                                       FieldType::UInt,
                                       Base::Hex,
                                       8,
                                       kDdpUntaggedErrorCodes};
constexpr FieldDef kErrcodeLlp{
    "iwarp_rdma.term_errcode_llp", "Error Code for LLP layer", 8, 8, FieldType::UInt, Base::Hex, 8};
constexpr FieldDef kErrcodeOther{"iwarp_rdma.term_errcode", "Error Code", 8, 8,
                                 FieldType::UInt,           Base::Hex,    8};

}  // namespace

const std::span<const ValueName> kRdmapOpcodeNames = kOpcodes;

std::string rdmapOpcodeName(std::uint8_t opcode) {
  for (const auto& vn : kOpcodes)
    if (vn.value == opcode) return std::string(vn.name);
  return "Unknown " + std::to_string(opcode);
}

const HeaderDef kMpaRequestHeader{"iwarp_mpa.req", "Request frame header", "MPA Req", 20,
                                  kMpaRequestFields};
const HeaderDef kMpaReplyHeader{"iwarp_mpa.rep", "Reply frame header", "MPA Rep", 20,
                                kMpaReplyFields};
const HeaderDef kMpaMarkerHeader{"iwarp_mpa.markers", "Marker", "Marker", 4, kMpaMarkerFields};
const FieldDef kMpaUlpduLengthField{"iwarp_mpa.ulpdulength", "ULPDU length", 0, 16,
                                    FieldType::UInt,         Base::Dec,      16};
const FieldDef kMpaCrcField{"iwarp_mpa.crc", "CRC", 0, 32, FieldType::UInt, Base::Hex, 32};

const HeaderDef kDdpTaggedHeader{"iwarp_ddp", "DDP header", "DDP", 14, kDdpTaggedFields};
const HeaderDef kDdpUntaggedHeader{"iwarp_ddp", "DDP header", "DDP", 18, kDdpUntaggedFields};
const HeaderDef kRdmapControlHeader{"iwarp_rdma.control_field", "RDMAP control field", "RDMAP", 1,
                                    kRdmapControlFields};
const FieldDef kRdmapReservedField{"iwarp_rdma.reserved", "Reserved", 0, 32, FieldType::Bytes};
const FieldDef kRdmapInvalidateStagField{"iwarp_rdma.inval_stag", "Invalidate STag", 0, 32,
                                         FieldType::UInt,         Base::Dec,         32};
const HeaderDef kRdmaReadRequestHeader{"iwarp_rdma.rr", "Read request", "RR", 28,
                                       kReadRequestFields};
const FieldDef kRdmaTermLayerField{"iwarp_rdma.term_layer", "Layer",   0, 4,
                                   FieldType::UInt,         Base::Hex, 8, kLayers};
const FieldDef kRdmaTermHdrctM{"iwarp_rdma.term_hdrct_m", "M bit", 16, 1, FieldType::Bool};
const FieldDef kRdmaTermHdrctD{"iwarp_rdma.hdrct_d", "D bit", 17, 1, FieldType::Bool};
const FieldDef kRdmaTermHdrctR{"iwarp_rdma.hdrct_r", "R bit", 18, 1, FieldType::Bool};
const FieldDef kRdmaTermReserved{"iwarp_rdma.term_rsvd", "Reserved", 19, 13,
                                 FieldType::UInt,        Base::Hex,  16};

TerminateErrorFields terminateErrorFields(std::uint8_t layer, std::uint8_t etype) {
  switch (layer) {
    case 0:
      return {&kEtypeRdma, &kErrcodeRdma};
    case 1:
      if (etype == 1) return {&kEtypeDdp, &kErrcodeDdpTagged};
      if (etype == 2) return {&kEtypeDdp, &kErrcodeDdpUntagged};
      return {&kEtypeDdp, &kErrcodeOther};
    case 2:
      return {&kEtypeLlp, &kErrcodeLlp};
    default:
      return {&kEtypeOther, &kErrcodeOther};
  }
}

}  // namespace rdmascope::packets
