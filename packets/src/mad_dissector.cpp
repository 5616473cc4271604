// Management datagrams on QP 0/1: the common MAD header for every class, and the
// Communication Manager's messages (class 0x07) field by field, from the tables of
// mad_headers.h.
#include <algorithm>
#include <cstdio>

#include "dissectors.h"
#include "rdmascope/packets/mad_headers.h"

namespace rdmascope::packets::detail {
namespace {

std::string hex(std::uint64_t v, int digits) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%0*llx", digits, static_cast<unsigned long long>(v));
  return buf;
}

// Reads a field of a table by key from the message's bytes (0 when the table lacks it).
std::uint64_t get(const HeaderDef& h, std::span<const std::uint8_t> msg, std::string_view key) {
  const FieldDef* fd = findField(h, key);
  return fd ? readField(*fd, msg) : 0;
}

bool isIpv4Mapped(std::span<const std::uint8_t> gid) {
  for (std::size_t i = 0; i < 10; ++i)
    if (gid[i] != 0) return false;
  return gid[10] == 0xff && gid[11] == 0xff;
}

// The RDMA CM IP private data of a REQ whose service ID is in the IP space.
void addIpCmPrivateData(DecodeContext& ctx, std::size_t cm, std::int32_t parent) {
  const auto f = ctx.b.frame();
  const std::size_t at = cm + kCmReqPrivateOffset;
  const auto node =
      ctx.b.addText(kIpCmHeader.key, std::string(kIpCmHeader.name),
                    hexBytes(f.subspan(at, kCmReqPrivateSize)), at, kCmReqPrivateSize, parent);
  for (const auto& fd : kIpCmHeader.fields)
    ctx.b.addLeafField(fd, cm, node);
  const unsigned ipVersion = f[at + 1] >> 4;
  const HeaderDef& addresses = ipVersion == 4 ? kIpCmIpv4Fields : kIpCmIpv6Fields;
  if (ipVersion != 4 && ipVersion != 6)
    ctx.b.diagnose(Severity::Warning,
                   "RDMA CM private data names IP version " + std::to_string(ipVersion) +
                       " (4 or 6 expected); addresses shown as IPv6",
                   node);
  for (const auto& fd : addresses.fields)
    ctx.b.addLeafField(fd, cm, node);
  ctx.b.addField(kIpCmConsumerPrivateData, cm, node);
}

std::string serviceText(std::uint64_t serviceId) {
  if (!isRdmaIpServiceId(serviceId)) return " ServiceID=" + hex(serviceId, 16);
  const auto protocol = static_cast<unsigned>((serviceId >> 16) & 0xff);
  const char* ps = protocol == 0x06   ? "TCP"
                   : protocol == 0x11 ? "UDP"
                   : protocol == 0x3f ? "IB"
                                      : "";
  char buf[64];
  if (*ps)
    std::snprintf(buf, sizeof buf, " svc port %u (RDMA_PS_%s)",
                  static_cast<unsigned>(serviceId & 0xffff), ps);
  else
    std::snprintf(buf, sizeof buf, " svc port %u (port space 0x%02x)",
                  static_cast<unsigned>(serviceId & 0xffff), protocol);
  return buf;
}

// The packet-list text of a CM message.
std::string cmSummary(const HeaderDef& h, std::span<const std::uint8_t> m, std::string_view name) {
  std::string s = "CM ";
  s += name;
  char buf[160];
  if (&h == &kCmReqHeader) {
    std::snprintf(buf, sizeof buf, " QPN=0x%06llx PSN=%llu",
                  static_cast<unsigned long long>(get(h, m, "infiniband.cm.req.localqpn")),
                  static_cast<unsigned long long>(get(h, m, "infiniband.cm.req.startpsn")));
    s += buf;
    s += serviceText(get(h, m, "infiniband.cm.req.serviceid"));
    s += " CommID=" + hex(get(h, m, "infiniband.cm.req"), 8);
  } else if (&h == &kCmRepHeader) {
    std::snprintf(buf, sizeof buf, " QPN=0x%06llx PSN=%llu CommID=0x%08llx Remote=0x%08llx",
                  static_cast<unsigned long long>(get(h, m, "infiniband.cm.rep.localqpn")),
                  static_cast<unsigned long long>(get(h, m, "infiniband.cm.rep.startpsn")),
                  static_cast<unsigned long long>(get(h, m, "infiniband.cm.rep")),
                  static_cast<unsigned long long>(get(h, m, "infiniband.cm.rep.remotecommid")));
    s += buf;
  } else if (&h == &kCmRejHeader) {
    const auto reason = static_cast<std::uint16_t>(get(h, m, "infiniband.cm.rej.reason"));
    const auto rejected = get(h, m, "infiniband.cm.rej.msgrej");
    const auto reasonName = cmRejectReasonName(reason);
    std::snprintf(buf, sizeof buf, " of %s: %s (%u) CommID=0x%08llx",
                  rejected == 0   ? "REQ"
                  : rejected == 1 ? "REP"
                                  : "other",
                  reasonName.empty() ? "reserved reason" : std::string(reasonName).c_str(),
                  static_cast<unsigned>(reason),
                  static_cast<unsigned long long>(get(h, m, "infiniband.cm.rej.localcommid")));
    s += buf;
  } else if (&h == &kCmDreqHeader) {
    std::snprintf(buf, sizeof buf, " QPN=0x%06llx CommID=0x%08llx",
                  static_cast<unsigned long long>(get(h, m, "infiniband.cm.req.remoteqpneecn")),
                  static_cast<unsigned long long>(get(h, m, "infiniband.cm.dreq.localcommid")));
    s += buf;
  } else if (&h == &kCmMraHeader) {
    const auto mraed = get(h, m, "infiniband.cm.mra.msgmraed");
    std::snprintf(buf, sizeof buf, " of %s timeout=%llu CommID=0x%08llx",
                  mraed == 0   ? "REQ"
                  : mraed == 1 ? "REP"
                  : mraed == 2 ? "LAP"
                               : "reserved",
                  static_cast<unsigned long long>(get(h, m, "infiniband.cm.mra.svctimeout")),
                  static_cast<unsigned long long>(get(h, m, "infiniband.cm.mra.localcommid")));
    s += buf;
  } else if (&h == &kCmSidrReqHeader) {
    s += serviceText(get(h, m, "infiniband.cm.sidr_req.serviceid"));
  } else if (&h == &kCmSidrRepHeader) {
    std::snprintf(buf, sizeof buf, " status=%llu QPN=0x%06llx Q_Key=0x%08llx",
                  static_cast<unsigned long long>(get(h, m, "infiniband.cm.sidr_rep.status")),
                  static_cast<unsigned long long>(get(h, m, "infiniband.cm.sidr_rep.qpn")),
                  static_cast<unsigned long long>(get(h, m, "infiniband.cm.sidr_rep.qkey")));
    s += buf;
  } else if (&h == &kCmLapHeader) {
    std::snprintf(buf, sizeof buf, " QPN=0x%06llx",
                  static_cast<unsigned long long>(get(h, m, "infiniband.cm.lap.remoteqpneecn")));
    s += buf;
  } else if (&h == &kCmAprHeader) {
    std::snprintf(buf, sizeof buf, " status=%llu",
                  static_cast<unsigned long long>(get(h, m, "infiniband.cm.apr.status")));
    s += buf;
  } else {  // RTU, DREP: the two communication IDs say which connection
    const auto& fields = h.fields;
    std::snprintf(buf, sizeof buf, " CommID=0x%08llx Remote=0x%08llx",
                  static_cast<unsigned long long>(readField(fields[0], m)),
                  static_cast<unsigned long long>(readField(fields[1], m)));
    s += buf;
  }
  return s;
}

void dissectCm(DecodeContext& ctx, std::size_t mad, std::int32_t parent) {
  const auto f = ctx.b.frame();
  const std::size_t cm = mad + kMadHeaderSize;
  const auto attr = static_cast<std::uint16_t>((f[mad + 16] << 8) | f[mad + 17]);
  const std::string_view name = cmAttributeName(attr);
  auto& summary = ctx.b.dissection().summary.info;
  const HeaderDef* h = cmMessageHeader(attr);
  if (!h) {
    const std::string label =
        name.empty() ? "CM attribute " + hex(attr, 4) : "CM " + std::string(name);
    const auto node =
        ctx.b.addContainer("infiniband.cm", label + " (not decoded)", cm, kMadDataSize, parent);
    if (name.empty())
      ctx.b.diagnose(Severity::Warning, "unknown CM attribute ID " + hex(attr, 4), node);
    summary = label;
    return;
  }
  const auto msg = f.subspan(cm, kMadDataSize);
  const auto node =
      ctx.b.addContainer("infiniband.cm", std::string(h->name), cm, kMadDataSize, parent);
  const bool req = h == &kCmReqHeader;
  const bool ipService = req && isRdmaIpServiceId(get(*h, msg, "infiniband.cm.req.serviceid"));
  for (const auto& fd : h->fields) {
    const auto n = ctx.b.addField(fd, cm, node);
    if (!req || n < 0) continue;
    if (fd.key == "infiniband.cm.req.serviceid" && ipService) {
      if (ctx.b.labels())
        ctx.b.dissection().nodes[n].label =
            "IP CM ServiceID: " + formatFieldValue(fd, ctx.b.dissection().nodes[n].number);
      for (const auto& part : kCmReqServiceIdParts.fields)
        ctx.b.addField(part, cm, n);
    } else if (fd.key == "infiniband.cm.req.prim_localgid" &&
               isIpv4Mapped(msg.subspan(fd.bitOffset / 8, 16))) {
      ctx.b.addField(kCmReqPrimaryLocalGidIpv4, cm, n);
    } else if (fd.key == "infiniband.cm.req.prim_remotegid" &&
               isIpv4Mapped(msg.subspan(fd.bitOffset / 8, 16))) {
      ctx.b.addField(kCmReqPrimaryRemoteGidIpv4, cm, n);
    }
  }
  if (req) {
    if (ipService)
      addIpCmPrivateData(ctx, cm, node);
    else
      ctx.b.addField(kCmReqPrivateData, cm, node);
  }
  if (h == &kCmRejHeader) {
    const auto reason = static_cast<std::uint16_t>(get(*h, msg, "infiniband.cm.rej.reason"));
    if (cmRejectReasonName(reason).empty())
      ctx.b.diagnose(Severity::Warning,
                     "CM reject reason " + std::to_string(reason) + " is reserved", node);
  }
  summary = cmSummary(*h, msg, name);
}

}  // namespace

void dissectMad(DecodeContext& ctx, std::size_t at, std::size_t end, std::int32_t parent) {
  const auto f = ctx.b.frame();
  const std::size_t avail = end > at ? end - at : 0;
  if (avail < kMadHeaderSize) {
    ctx.b.truncated("MAD common header", kMadHeaderSize, avail, parent);
    if (avail) dissectData(ctx, at, end, -1);
    return;
  }
  const std::size_t madLength = std::min(avail, kMadSize);
  auto& d = ctx.b.dissection();
  const auto madNode =
      ctx.b.addContainer(kMadHeader.key, std::string(kMadHeader.name), at, madLength, parent);
  if (ctx.b.wantsValue(kMadHeader.key)) d.nodes[madNode].value = hexBytes(f.subspan(at, madLength));
  const std::uint8_t mgmtClass = f[at + 1];
  const bool cm = mgmtClass == static_cast<std::uint8_t>(MadClass::ComMgt);
  for (const auto& fd : kMadHeader.fields)
    ctx.b.addLeafField(cm && fd.key == kCmAttributeIdField.key ? kCmAttributeIdField : fd, at,
                       madNode);
  if (f[at] != 1)
    ctx.b.diagnose(Severity::Warning, "MAD base version " + std::to_string(f[at]) + " is not 1",
                   madNode);
  const auto attr = static_cast<unsigned>((f[at + 16] << 8) | f[at + 17]);
  const auto className = madClassName(mgmtClass);
  const auto methodName = madMethodName(f[at + 3]);
  char buf[120];
  std::snprintf(
      buf, sizeof buf, "MAD %s %s attr=0x%04x",
      className.empty() ? ("class " + hex(mgmtClass, 2)).c_str() : std::string(className).c_str(),
      methodName.empty() ? ("method " + hex(f[at + 3], 2)).c_str()
                         : std::string(methodName).c_str(),
      attr);
  d.summary.info = buf;
  if (avail < kMadSize) {
    ctx.b.diagnose(Severity::Error,
                   "MAD is " + std::to_string(avail) + " bytes; a MAD on QP 0/1 is 256 bytes",
                   madNode);
    dissectData(ctx, at + kMadHeaderSize, end, -1);
    return;
  }
  ctx.b.addField(kMadDataField, at, madNode);
  if (cm) dissectCm(ctx, at, parent);
  if (avail > kMadSize) {
    ctx.b.diagnose(Severity::Warning,
                   std::to_string(avail - kMadSize) + " bytes follow the 256-byte MAD", madNode);
    dissectData(ctx, at + kMadSize, end, -1);
  }
}

}  // namespace rdmascope::packets::detail
