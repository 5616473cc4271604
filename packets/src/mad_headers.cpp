#include "rdmascope/packets/mad_headers.h"

namespace rdmascope::packets {
namespace {

constexpr auto U = FieldType::UInt;
constexpr auto B = FieldType::Bytes;
constexpr auto H = Base::Hex;
constexpr auto D = Base::Dec;

constexpr ValueName kClassNames[] = {
    {0x01, "Subnet Management (LID routed)"},
    {0x03, "Subnet Administration"},
    {0x04, "Performance Management"},
    {0x05, "Baseboard Management"},
    {0x06, "Device Management"},
    {0x07, "Communication Management"},
    {0x08, "SNMP Tunneling"},
    {0x21, "Congestion Control"},
    {0x81, "Subnet Management (directed route)"},
};
constexpr ValueName kMethodNames[] = {
    {0x01, "Get"},          {0x02, "Set"},          {0x03, "Send"},       {0x05, "Trap"},
    {0x06, "Report"},       {0x07, "TrapRepress"},  {0x12, "GetTable"},   {0x13, "GetTraceTable"},
    {0x14, "GetMulti"},     {0x15, "Delete"},       {0x81, "GetResp"},    {0x86, "ReportResp"},
    {0x92, "GetTableResp"}, {0x94, "GetMultiResp"}, {0x95, "DeleteResp"},
};
constexpr ValueName kCmAttributeNames[] = {
    {0x0001, "ClassPortInfo"},     {0x0010, "ConnectRequest"},
    {0x0011, "MsgRcptAck"},        {0x0012, "ConnectReject"},
    {0x0013, "ConnectReply"},      {0x0014, "ReadyToUse"},
    {0x0015, "DisconnectRequest"}, {0x0016, "DisconnectReply"},
    {0x0017, "ServiceIDResReq"},   {0x0018, "ServiceIDResReqResp"},
    {0x0019, "LoadAlternatePath"}, {0x001a, "AlternatePathResponse"},
};
constexpr ValueName kRejectReasonNames[] = {
    {1, "No QP available"},
    {2, "No EEC available"},
    {3, "No resources available"},
    {4, "Timeout"},
    {5, "Unsupported request"},
    {6, "Invalid Communication ID"},
    {7, "Invalid Communication Instance"},
    {8, "Invalid Service ID"},
    {9, "Invalid Transport Service Type"},
    {10, "Stale connection"},
    {11, "RDC does not exist"},
    {12, "Primary Remote Port GID rejected"},
    {13, "Primary Remote Port LID rejected"},
    {14, "Invalid Primary SL"},
    {15, "Invalid Primary Traffic Class"},
    {16, "Invalid Primary Hop Limit"},
    {17, "Invalid Primary Packet Rate"},
    {18, "Alternate Remote Port GID rejected"},
    {19, "Alternate Remote Port LID rejected"},
    {20, "Invalid Alternate SL"},
    {21, "Invalid Alternate Traffic Class"},
    {22, "Invalid Alternate Hop Limit"},
    {23, "Invalid Alternate Packet Rate"},
    {24, "Port and CM Redirection"},
    {25, "Port Redirection"},
    {26, "Invalid Path MTU"},
    {27, "Insufficient Responder Resources"},
    {28, "Consumer Reject"},
    {29, "RNR Retry Count Reject"},
    {30, "Duplicate Local Communication ID"},
    {31, "Unsupported Class Version"},
    {32, "Invalid Primary Flow Label"},
    {33, "Invalid Alternate Flow Label"},
    {35, "Vendor Option Not Supported"},
};
constexpr ValueName kMessageNames[] = {{0, "REQ"}, {1, "REP"}, {2, "Other"}, {3, "Reserved"}};
constexpr ValueName kMraMessageNames[] = {{0, "REQ"}, {1, "REP"}, {2, "LAP"}, {3, "Reserved"}};
constexpr ValueName kTransportNames[] = {{0, "RC"}, {1, "UC"}, {2, "RD"}, {3, "Reserved"}};
constexpr ValueName kMtuNames[] = {
    {1, "256"}, {2, "512"}, {3, "1024"}, {4, "2048"}, {5, "4096"},
};
constexpr ValueName kAprStatusNames[] = {
    {0, "Success"},
    {1, "Invalid Communication ID"},
    {2, "Unsupported"},
    {3, "Rejected"},
    {4, "Redirect"},
    {5, "Is Current"},
    {6, "Invalid QPN/EECN"},
    {7, "Invalid LID"},
    {8, "Invalid GID"},
    {9, "Invalid Flow Label"},
    {10, "Invalid Traffic Class"},
    {11, "Invalid Hop Limit"},
    {12, "Invalid Packet Rate"},
    {13, "Invalid SL"},
};
constexpr ValueName kSidrStatusNames[] = {
    {0, "Success"}, {1, "Unsupported"}, {2, "Rejected"},
    {3, "No QP"},   {4, "Redirect"},    {5, "Unsupported Version"},
};
constexpr ValueName kIpCmProtocolNames[] = {{0x06, "TCP"}, {0x11, "UDP"}, {0x3f, "IB"}};

constexpr FieldDef kMadFields[] = {
    {"infiniband.mad.baseversion", "Base Version", 0, 8, U, H, 8},
    {"infiniband.mad.mgmtclass", "Management Class", 8, 8, U, H, 8, kClassNames},
    {"infiniband.mad.classversion", "Class Version", 16, 8, U, H, 8},
    {"infiniband.mad.method", "Method", 24, 8, U, H, 8, kMethodNames},
    {"infiniband.mad.method.r", "Response (rdmascope)", 24, 1, FieldType::Bool},
    {"infiniband.mad.method.code", "Method Code (rdmascope)", 25, 7, U, H, 8},
    {"infiniband.mad.status", "Status", 32, 16, U, H, 16},
    {"infiniband.mad.classspecific", "Class Specific", 48, 16, U, H, 16},
    {"infiniband.mad.transactionid", "Transaction ID", 64, 64, U, H, 64},
    {"infiniband.mad.attributeid", "Attribute ID", 128, 16, U, H, 16},
    {"infiniband.reserved", "Reserved", 144, 16, B},
    {"infiniband.mad.attributemodifier", "Attribute Modifier", 160, 32, U, H, 32},
};

constexpr FieldDef kCmReqFields[] = {
    {"infiniband.cm.req", "Local Communication ID", 0, 32, U, H, 32},
    {"infiniband.reserved", "Reserved", 32, 32, B},
    {"infiniband.cm.req.serviceid", "ServiceID", 64, 64, U, H, 64},
    {"infiniband.cm.req.localcaguid", "Local CA GUID", 128, 64, U, H, 64},
    {"infiniband.reserved", "Reserved", 192, 32, B},
    {"infiniband.cm.req.localqkey", "Local Q_Key", 224, 32, U, H, 32},
    {"infiniband.cm.req.localqpn", "Local QPN", 256, 24, U, H, 24},
    {"infiniband.cm.req.responderres", "Responder Resources", 280, 8, U, H, 8},
    {"infiniband.cm.req.localeecn", "Local EECN", 288, 24, U, H, 24},
    {"infiniband.cm.req.initdepth", "Initiator Depth", 312, 8, U, H, 8},
    {"infiniband.cm.req.remoteeecn", "Remote EECN", 320, 24, U, H, 24},
    {"infiniband.cm.req.remoteresptout", "Remote CM Response Timeout", 344, 5, U, H, 8},
    {"infiniband.cm.req.transpsvctype", "Transport Service Type", 349, 2, U, H, 8, kTransportNames},
    {"infiniband.cm.req.e2eflowctrl", "End-to-End Flow Control", 351, 1, U, H, 8},
    {"infiniband.cm.req.startpsn", "Starting PSN", 352, 24, U, H, 24},
    {"infiniband.cm.req.localresptout", "Local CM Response Timeout", 376, 5, U, H, 8},
    {"infiniband.cm.req.retrcount", "Retry Count", 381, 3, U, H, 8},
    {"infiniband.cm.req.pkey", "Partition Key", 384, 16, U, H, 16},
    {"infiniband.cm.req.pppmtu", "Path Packet Payload MTU", 400, 4, U, H, 8, kMtuNames},
    {"infiniband.cm.req.rdcexist", "RDC Exists", 404, 1, U, H, 8},
    {"infiniband.cm.req.rnrretrcount", "RNR Retry Count", 405, 3, U, H, 8},
    {"infiniband.cm.req.maxcmretr", "Max CM Retries", 408, 4, U, H, 8},
    {"infiniband.cm.req.srq", "SRQ", 412, 1, U, H, 8},
    {"infiniband.cm.req.ext_transport", "Extended Transport", 413, 3, U, H, 8},
    {"infiniband.cm.req.prim_locallid", "Primary Local Port LID", 416, 16, U, D},
    {"infiniband.cm.req.prim_remotelid", "Primary Remote Port LID", 432, 16, U, D},
    {"infiniband.cm.req.prim_localgid", "Primary Local Port GID", 448, 128, FieldType::Ipv6},
    {"infiniband.cm.req.prim_remotegid", "Primary Remote Port GID", 576, 128, FieldType::Ipv6},
    {"infiniband.cm.req.prim_flowlabel", "Primary Flow Label", 704, 20, U, H, 32},
    {"infiniband.cm.req.prim_reserved0", "Reserved", 724, 6, U, H, 32},
    {"infiniband.cm.req.prim_pktrate", "Primary Packet Rate", 730, 6, U, H, 32},
    {"infiniband.cm.req.prim_tfcclass", "Primary Traffic Class", 736, 8, U, H, 8},
    {"infiniband.cm.req.prim_hoplim", "Primary Hop Limit", 744, 8, U, H, 8},
    {"infiniband.cm.req.prim_sl", "Primary SL", 752, 4, U, H, 8},
    {"infiniband.cm.req.prim_subnetlocal", "Primary Subnet Local", 756, 1, U, H, 8},
    {"infiniband.cm.req.prim_reserved1", "Reserved", 757, 3, U, H, 8},
    {"infiniband.cm.req.prim_localacktout", "Primary Local ACK Timeout", 760, 5, U, H, 8},
    {"infiniband.cm.req.prim_reserved2", "Reserved", 765, 3, U, H, 8},
    {"infiniband.cm.req.alt_locallid", "Alternate Local Port LID", 768, 16, U, D},
    {"infiniband.cm.req.alt_remotelid", "Alternate Remote Port LID", 784, 16, U, D},
    {"infiniband.cm.req.alt_localgid", "Alternate Local Port GID", 800, 128, B},
    {"infiniband.cm.req.alt_remotegid", "Alternate Remote Port GID", 928, 128, B},
    {"infiniband.cm.req.alt_flowlabel", "Alternate Flow Label", 1056, 20, U, H, 32},
    {"infiniband.cm.req.alt_reserved0", "Reserved", 1076, 6, U, H, 32},
    {"infiniband.cm.req.alt_pktrate", "Alternate Packet Rate", 1082, 6, U, H, 32},
    {"infiniband.cm.req.alt_tfcclass", "Alternate Traffic Class", 1088, 8, U, H, 8},
    {"infiniband.cm.req.alt_hoplim", "Alternate Hop Limit", 1096, 8, U, H, 8},
    {"infiniband.cm.req.alt_sl", "Alternate SL", 1104, 4, U, H, 8},
    {"infiniband.cm.req.alt_subnetlocal", "Alternate Subnet Local", 1108, 1, U, H, 8},
    {"infiniband.cm.req.alt_reserved1", "Reserved", 1109, 3, U, H, 8},
    {"infiniband.cm.req.alt_localacktout", "Alternate Local ACK Timeout", 1112, 5, U, H, 8},
    {"infiniband.cm.req.alt_reserved1", "Reserved", 1117, 3, U, H, 8},
};

constexpr FieldDef kCmServiceIdPartFields[] = {
    {"infiniband.cm.req.serviceid.prefix", "Prefix", 64, 40, B},
    {"infiniband.cm.req.serviceid.protocol", "Protocol", 104, 8, U, H, 8, kIpCmProtocolNames},
    {"infiniband.cm.req.serviceid.dport", "Destination Port", 112, 16, U, H, 16},
};

constexpr FieldDef kIpCmFields[] = {
    {"infiniband.cm.req.ip_cm.majv", "IP CM Major Version", 1120, 4, U, H, 8},
    {"infiniband.cm.req.ip_cm.minv", "IP CM Minor Version", 1124, 4, U, H, 8},
    {"infiniband.cm.req.ip_cm.ipv", "IP CM IP Version", 1128, 4, U, H, 8},
    {"infiniband.cm.req.ip_cm.reserved", "IP CM Reserved", 1132, 4, U, H, 8},
    {"infiniband.cm.req.ip_cm.sport", "IP CM Source Port", 1136, 16, U, H, 16},
};
constexpr FieldDef kIpCmV4Fields[] = {
    {"infiniband.cm.req.ip_cm.sip4", "IP CM Source IP", 1248, 32, FieldType::Ipv4},
    {"infiniband.cm.req.ip_cm.dip4", "IP CM Destination IP", 1376, 32, FieldType::Ipv4},
};
constexpr FieldDef kIpCmV6Fields[] = {
    {"infiniband.cm.req.ip_cm.sip6", "IP CM Source IP", 1152, 128, FieldType::Ipv6},
    {"infiniband.cm.req.ip_cm.dip6", "IP CM Destination IP", 1280, 128, FieldType::Ipv6},
};

constexpr FieldDef kCmMraFields[] = {
    {"infiniband.cm.mra.localcommid", "Local Communication ID (rdmascope)", 0, 32, U, H, 32},
    {"infiniband.cm.mra.remotecommid", "Remote Communication ID (rdmascope)", 32, 32, U, H, 32},
    {"infiniband.cm.mra.msgmraed", "Message MRAed (rdmascope)", 64, 2, U, H, 8, kMraMessageNames},
    {"infiniband.cm.mra.reserved0", "Reserved (rdmascope)", 66, 6, U, H, 8},
    {"infiniband.cm.mra.svctimeout", "Service Timeout (rdmascope)", 72, 5, U, H, 8},
    {"infiniband.cm.mra.reserved1", "Reserved (rdmascope)", 77, 3, U, H, 8},
    {"infiniband.cm.mra.private", "PrivateData (rdmascope)", 80, 222 * 8, B},
};

constexpr FieldDef kCmRejFields[] = {
    {"infiniband.cm.rej.localcommid", "Local Communication ID", 0, 32, U, H, 32},
    {"infiniband.cm.rej.remotecommid", "Remote Communication ID", 32, 32, U, H, 32},
    {"infiniband.cm.rej.msgrej", "Message REJected", 64, 2, U, H, 8, kMessageNames},
    {"infiniband.cm.rej.reserved0", "Reserved", 66, 6, U, H, 8},
    {"infiniband.cm.rej.rejinfolen", "Reject Info Length", 72, 7, U, H, 8},
    {"infiniband.cm.rej.reserved1", "Reserved", 79, 1, U, H, 8},
    {"infiniband.cm.rej.reason", "Reason", 80, 16, U, H, 16, kRejectReasonNames},
    {"infiniband.cm.rej.ari", "Additional Reject Information (ARI)", 96, 72 * 8, B},
    {"infiniband.cm.rej.private", "PrivateData", 672, 148 * 8, B},
};

constexpr FieldDef kCmRepFields[] = {
    {"infiniband.cm.rep", "Local Communication ID", 0, 32, U, H, 32},
    {"infiniband.cm.rep.remotecommid", "Remote Communication ID", 32, 32, U, H, 32},
    {"infiniband.cm.rep.localqkey", "Local Q_Key", 64, 32, U, H, 32},
    {"infiniband.cm.rep.localqpn", "Local QPN", 96, 24, U, H, 24},
    {"infiniband.reserved", "Reserved", 120, 8, B},
    {"infiniband.cm.rep.localeecn", "Local EE Context Number", 128, 24, U, H, 24},
    {"infiniband.reserved", "Reserved", 152, 8, B},
    {"infiniband.cm.rep.startpsn", "Starting PSN", 160, 24, U, H, 24},
    {"infiniband.reserved", "Reserved", 184, 8, B},
    {"infiniband.cm.rep.respres", "Responder Resources", 192, 8, U, H, 8},
    {"infiniband.cm.rep.initdepth", "Initiator Depth", 200, 8, U, H, 8},
    {"infiniband.cm.rep.tgtackdelay", "Target ACK Delay", 208, 5, U, H, 8},
    {"infiniband.cm.rep.failoveracc", "Failover Accepted", 213, 2, U, H, 8},
    {"infiniband.cm.rep.e2eflowctrl", "End-To-End Flow Control", 215, 1, U, H, 8},
    {"infiniband.cm.rep.rnrretrcount", "RNR Retry Count", 216, 3, U, H, 8},
    {"infiniband.cm.rep.srq", "SRQ", 219, 1, U, H, 8},
    {"infiniband.cm.rep.reserved", "Reserved", 220, 4, U, H, 8},
    {"infiniband.cm.rep.localcaguid", "Local CA GUID", 224, 64, U, H, 64},
    {"infiniband.cm.rep.private", "PrivateData", 288, 196 * 8, B},
};

constexpr FieldDef kCmRtuFields[] = {
    {"infiniband.cm.rtu.localcommid", "Local Communication ID", 0, 32, U, H, 32},
    {"infiniband.cm.rtu.remotecommid", "Remote Communication ID", 32, 32, U, H, 32},
    {"infiniband.cm.rtu.private", "PrivateData", 64, 224 * 8, B},
};

constexpr FieldDef kCmDreqFields[] = {
    {"infiniband.cm.dreq.localcommid", "Local Communication ID", 0, 32, U, H, 32},
    {"infiniband.cm.dreq.remotecommid", "Remote Communication ID", 32, 32, U, H, 32},
    {"infiniband.cm.req.remoteqpneecn", "Remote QPN/EECN", 64, 24, U, H, 24},
    {"infiniband.reserved", "Reserved", 88, 8, B},
    {"infiniband.cm.dreq.private", "PrivateData", 96, 220 * 8, B},
};

constexpr FieldDef kCmDrepFields[] = {
    {"infiniband.cm.drsp.localcommid", "Local Communication ID", 0, 32, U, H, 32},
    {"infiniband.cm.drsp.remotecommid", "Remote Communication ID", 32, 32, U, H, 32},
    {"infiniband.cm.drsp.private", "PrivateData", 64, 224 * 8, B},
};

constexpr FieldDef kCmLapFields[] = {
    {"infiniband.cm.lap.localcommid", "Local Communication ID (rdmascope)", 0, 32, U, H, 32},
    {"infiniband.cm.lap.remotecommid", "Remote Communication ID (rdmascope)", 32, 32, U, H, 32},
    {"infiniband.reserved", "Reserved", 64, 32, B},
    {"infiniband.cm.lap.remoteqpneecn", "Remote QPN/EECN (rdmascope)", 96, 24, U, H, 24},
    {"infiniband.cm.lap.remoteresptout", "Remote CM Response Timeout (rdmascope)", 120, 5, U, H, 8},
    {"infiniband.cm.lap.reserved1", "Reserved (rdmascope)", 125, 3, U, H, 8},
    {"infiniband.reserved", "Reserved", 128, 32, B},
    {"infiniband.cm.lap.alt_locallid", "Alternate Local Port LID (rdmascope)", 160, 16, U, D},
    {"infiniband.cm.lap.alt_remotelid", "Alternate Remote Port LID (rdmascope)", 176, 16, U, D},
    {"infiniband.cm.lap.alt_localgid", "Alternate Local Port GID (rdmascope)", 192, 128,
     FieldType::Ipv6},
    {"infiniband.cm.lap.alt_remotegid", "Alternate Remote Port GID (rdmascope)", 320, 128,
     FieldType::Ipv6},
    {"infiniband.cm.lap.alt_flowlabel", "Alternate Flow Label (rdmascope)", 448, 20, U, H, 32},
    {"infiniband.cm.lap.reserved2", "Reserved (rdmascope)", 468, 4, U, H, 8},
    {"infiniband.cm.lap.alt_tfcclass", "Alternate Traffic Class (rdmascope)", 472, 8, U, H, 8},
    {"infiniband.cm.lap.alt_hoplim", "Alternate Hop Limit (rdmascope)", 480, 8, U, H, 8},
    {"infiniband.cm.lap.reserved3", "Reserved (rdmascope)", 488, 2, U, H, 8},
    {"infiniband.cm.lap.alt_pktrate", "Alternate Packet Rate (rdmascope)", 490, 6, U, H, 8},
    {"infiniband.cm.lap.alt_sl", "Alternate SL (rdmascope)", 496, 4, U, H, 8},
    {"infiniband.cm.lap.alt_subnetlocal", "Alternate Subnet Local (rdmascope)", 500, 1, U, H, 8},
    {"infiniband.cm.lap.reserved4", "Reserved (rdmascope)", 501, 3, U, H, 8},
    {"infiniband.cm.lap.alt_localacktout", "Alternate Local ACK Timeout (rdmascope)", 504, 5, U, H,
     8},
    {"infiniband.cm.lap.reserved5", "Reserved (rdmascope)", 509, 3, U, H, 8},
    {"infiniband.cm.lap.private", "PrivateData (rdmascope)", 512, 168 * 8, B},
};

constexpr FieldDef kCmAprFields[] = {
    {"infiniband.cm.apr.localcommid", "Local Communication ID (rdmascope)", 0, 32, U, H, 32},
    {"infiniband.cm.apr.remotecommid", "Remote Communication ID (rdmascope)", 32, 32, U, H, 32},
    {"infiniband.cm.apr.addinfolen", "Additional Info Length (rdmascope)", 64, 8, U, D},
    {"infiniband.cm.apr.status", "AP Status (rdmascope)", 72, 8, U, D, 8, kAprStatusNames},
    {"infiniband.reserved", "Reserved", 80, 16, B},
    {"infiniband.cm.apr.addinfo", "Additional Info (rdmascope)", 96, 72 * 8, B},
    {"infiniband.cm.apr.private", "PrivateData (rdmascope)", 672, 148 * 8, B},
};

constexpr FieldDef kCmSidrReqFields[] = {
    {"infiniband.cm.sidr_req.requestid", "Request ID (rdmascope)", 0, 32, U, H, 32},
    {"infiniband.cm.sidr_req.pkey", "Partition Key (rdmascope)", 32, 16, U, H, 16},
    {"infiniband.reserved", "Reserved", 48, 16, B},
    {"infiniband.cm.sidr_req.serviceid", "ServiceID (rdmascope)", 64, 64, U, H, 64},
    {"infiniband.cm.sidr_req.private", "PrivateData (rdmascope)", 128, 216 * 8, B},
};

constexpr FieldDef kCmSidrRepFields[] = {
    {"infiniband.cm.sidr_rep.requestid", "Request ID (rdmascope)", 0, 32, U, H, 32},
    {"infiniband.cm.sidr_rep.status", "Status (rdmascope)", 32, 8, U, D, 8, kSidrStatusNames},
    {"infiniband.cm.sidr_rep.addinfolen", "Additional Info Length (rdmascope)", 40, 8, U, D},
    {"infiniband.reserved", "Reserved", 48, 16, B},
    {"infiniband.cm.sidr_rep.qpn", "QPN (rdmascope)", 64, 24, U, H, 24},
    {"infiniband.reserved", "Reserved", 88, 8, B},
    {"infiniband.cm.sidr_rep.serviceid", "ServiceID (rdmascope)", 96, 64, U, H, 64},
    {"infiniband.cm.sidr_rep.qkey", "Q_Key (rdmascope)", 160, 32, U, H, 32},
    {"infiniband.cm.sidr_rep.addinfo", "Additional Info (rdmascope)", 192, 72 * 8, B},
    {"infiniband.cm.sidr_rep.private", "PrivateData (rdmascope)", 768, 136 * 8, B},
};

std::string_view lookup(std::span<const ValueName> names, std::uint64_t value) {
  for (const auto& vn : names)
    if (vn.value == value) return vn.name;
  return {};
}

}  // namespace

const HeaderDef kMadHeader{"infiniband.mad", "MAD Header - Common Management Datagram", "MAD",
                           kMadHeaderSize, kMadFields};
const FieldDef kCmAttributeIdField{
    "infiniband.mad.attributeid", "Attribute ID", 128, 16, U, H, 16, kCmAttributeNames};
const FieldDef kMadDataField{"infiniband.mad.data", "MAD Data Payload", kMadHeaderSize * 8,
                             kMadDataSize * 8, B};

const HeaderDef kCmReqHeader{"infiniband.cm", "CM ConnectRequest", "REQ", kMadDataSize,
                             kCmReqFields};
const HeaderDef kCmMraHeader{"infiniband.cm", "CM MsgRcptAck", "MRA", kMadDataSize, kCmMraFields};
const HeaderDef kCmRejHeader{"infiniband.cm", "CM ConnectReject", "REJ", kMadDataSize,
                             kCmRejFields};
const HeaderDef kCmRepHeader{"infiniband.cm", "CM ConnectReply", "REP", kMadDataSize, kCmRepFields};
const HeaderDef kCmRtuHeader{"infiniband.cm", "CM ReadyToUse", "RTU", kMadDataSize, kCmRtuFields};
const HeaderDef kCmDreqHeader{"infiniband.cm", "CM DisconnectRequest", "DREQ", kMadDataSize,
                              kCmDreqFields};
const HeaderDef kCmDrepHeader{"infiniband.cm", "CM DisconnectReply", "DREP", kMadDataSize,
                              kCmDrepFields};
const HeaderDef kCmLapHeader{"infiniband.cm", "CM LoadAlternatePath", "LAP", kMadDataSize,
                             kCmLapFields};
const HeaderDef kCmAprHeader{"infiniband.cm", "CM AlternatePathResponse", "APR", kMadDataSize,
                             kCmAprFields};
const HeaderDef kCmSidrReqHeader{"infiniband.cm", "CM ServiceIDResReq", "SIDR_REQ", kMadDataSize,
                                 kCmSidrReqFields};
const HeaderDef kCmSidrRepHeader{"infiniband.cm", "CM ServiceIDResReqResp", "SIDR_REP",
                                 kMadDataSize, kCmSidrRepFields};

const HeaderDef kCmReqServiceIdParts{"infiniband.cm.req.serviceid", "IP CM ServiceID", "SID", 8,
                                     kCmServiceIdPartFields};
const FieldDef kCmReqPrimaryLocalGidIpv4{"infiniband.cm.req.prim_localgid_ipv4",
                                         "Primary Local Port GID (IPv4)", 448 + 96, 32,
                                         FieldType::Ipv4};
const FieldDef kCmReqPrimaryRemoteGidIpv4{"infiniband.cm.req.prim_remotegid_ipv4",
                                          "Primary Remote Port GID (IPv4)", 576 + 96, 32,
                                          FieldType::Ipv4};
const FieldDef kCmReqPrivateData{"infiniband.cm.req.private", "PrivateData",
                                 kCmReqPrivateOffset * 8, kCmReqPrivateSize * 8, B};
const HeaderDef kIpCmHeader{"infiniband.cm.req.ip_cm", "IP CM Private Data", "IP CM",
                            kCmReqPrivateSize, kIpCmFields};
const HeaderDef kIpCmIpv4Fields{"infiniband.cm.req.ip_cm", "IP CM addresses (IPv4)", "IP CM", 32,
                                kIpCmV4Fields};
const HeaderDef kIpCmIpv6Fields{"infiniband.cm.req.ip_cm", "IP CM addresses (IPv6)", "IP CM", 32,
                                kIpCmV6Fields};
const FieldDef kIpCmConsumerPrivateData{"infiniband.cm.req.ip_cm.private",
                                        "IP CM Consumer PrivateData", 1408, 56 * 8, B};

const HeaderDef* cmMessageHeader(std::uint16_t attributeId) {
  switch (static_cast<CmAttribute>(attributeId)) {
    case CmAttribute::ConnectRequest:
      return &kCmReqHeader;
    case CmAttribute::MsgRcptAck:
      return &kCmMraHeader;
    case CmAttribute::ConnectReject:
      return &kCmRejHeader;
    case CmAttribute::ConnectReply:
      return &kCmRepHeader;
    case CmAttribute::ReadyToUse:
      return &kCmRtuHeader;
    case CmAttribute::DisconnectRequest:
      return &kCmDreqHeader;
    case CmAttribute::DisconnectReply:
      return &kCmDrepHeader;
    case CmAttribute::ServiceIdResReq:
      return &kCmSidrReqHeader;
    case CmAttribute::ServiceIdResReqResp:
      return &kCmSidrRepHeader;
    case CmAttribute::LoadAlternatePath:
      return &kCmLapHeader;
    case CmAttribute::AlternatePathResponse:
      return &kCmAprHeader;
    case CmAttribute::ClassPortInfo:
      break;
  }
  return nullptr;
}

std::string_view madClassName(std::uint8_t mgmtClass) {
  return lookup(kClassNames, mgmtClass);
}
std::string_view madMethodName(std::uint8_t method) {
  return lookup(kMethodNames, method);
}
std::string_view cmAttributeName(std::uint16_t attributeId) {
  return lookup(kCmAttributeNames, attributeId);
}
std::string_view cmRejectReasonName(std::uint16_t reason) {
  return lookup(kRejectReasonNames, reason);
}

}  // namespace rdmascope::packets
