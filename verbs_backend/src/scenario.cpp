#include "rdmascope/verbs_backend/scenario.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "rdmascope/verbs_backend/sim_backend.h"

namespace rdmascope::verbs_backend {

using nlohmann::json;
namespace am = sim::attr_mask;

namespace {

// ---------------------------------------------------------------------------------------
// names

constexpr std::array<std::string_view, 22> kWcStatusNames = {
    "SUCCESS",          "LOC_LEN_ERR",       "LOC_QP_OP_ERR",     "LOC_EEC_OP_ERR",
    "LOC_PROT_ERR",     "WR_FLUSH_ERR",      "MW_BIND_ERR",       "BAD_RESP_ERR",
    "LOC_ACCESS_ERR",   "REM_INV_REQ_ERR",   "REM_ACCESS_ERR",    "REM_OP_ERR",
    "RETRY_EXC_ERR",    "RNR_RETRY_EXC_ERR", "LOC_RDD_VIOL_ERR",  "REM_INV_RD_REQ_ERR",
    "REM_ABORT_ERR",    "INV_EECN_ERR",      "INV_EEC_STATE_ERR", "FATAL_ERR",
    "RESP_TIMEOUT_ERR", "GENERAL_ERR"};

struct Named {
  std::string_view name;
  unsigned value;
};
constexpr Named kAccessNames[] = {{"LOCAL_WRITE", sim::access::kLocalWrite},
                                  {"REMOTE_WRITE", sim::access::kRemoteWrite},
                                  {"REMOTE_READ", sim::access::kRemoteRead},
                                  {"REMOTE_ATOMIC", sim::access::kRemoteAtomic}};
constexpr Named kOpcodeNames[] = {
    {"RDMA_WRITE", 0},           {"RDMA_WRITE_WITH_IMM", 1}, {"SEND", 2},
    {"SEND_WITH_IMM", 3},        {"RDMA_READ", 4},           {"ATOMIC_CMP_AND_SWP", 5},
    {"ATOMIC_FETCH_AND_ADD", 6}, {"SEND_WITH_INV", 9}};
constexpr Named kWcOpcodeNames[] = {
    {"SEND", 0},      {"RDMA_WRITE", 1}, {"RDMA_READ", 2},           {"COMP_SWAP", 3},
    {"FETCH_ADD", 4}, {"RECV", 128},     {"RECV_RDMA_WITH_IMM", 129}};
constexpr Named kStateNames[] = {{"RESET", 0}, {"INIT", 1}, {"RTR", 2}, {"RTS", 3},
                                 {"SQD", 4},   {"SQE", 5},  {"ERR", 6}};
constexpr Named kErrnoNames[] = {{"EINVAL", EINVAL}, {"ENOMEM", ENOMEM}, {"EFAULT", EFAULT}};
constexpr Named kWireNames[] = {
    {"roce-v2-ipv4", 0}, {"roce-v2-ipv6", 1}, {"roce-v1", 2}, {"infiniband", 3}};

template <std::size_t N>
std::string joinNames(const Named (&t)[N]) {
  std::string s;
  for (const Named& n : t) {
    if (!s.empty()) s += ", ";
    s += n.name;
  }
  return s;
}

// ---------------------------------------------------------------------------------------
// a JSON reader that knows where it is

class Reader {
 public:
  Reader(const json& j, const std::string& file, std::string path)
      : j_(j), file_(file), path_(std::move(path)) {}

  [[noreturn]] void fail(const std::string& expected) const {
    std::string got = j_.is_null() ? "nothing" : j_.dump();
    if (got.size() > 60) got = got.substr(0, 57) + "...";
    throw ScenarioError(file_ + ": " + (path_.empty() ? "/" : path_) + ": expected " + expected +
                        ", got " + got);
  }
  bool has(const char* key) const { return j_.is_object() && j_.contains(key); }
  Reader at(const char* key) const {
    if (!j_.is_object()) fail("an object");
    if (!j_.contains(key)) {
      throw ScenarioError(file_ + ": " + (path_.empty() ? "/" : path_) + ": missing \"" + key +
                          "\"");
    }
    return Reader(j_.at(key), file_, path_ + "/" + key);
  }
  std::optional<Reader> opt(const char* key) const {
    if (!has(key)) return std::nullopt;
    return at(key);
  }
  std::size_t size() const {
    if (!j_.is_array()) fail("an array");
    return j_.size();
  }
  Reader operator[](std::size_t i) const {
    return Reader(j_.at(i), file_, path_ + "/" + std::to_string(i));
  }
  std::string str() const {
    if (!j_.is_string()) fail("a string");
    return j_.get<std::string>();
  }
  std::uint64_t u64() const {
    if (!j_.is_number_unsigned() && !(j_.is_number_integer() && j_.get<std::int64_t>() >= 0)) {
      fail("a non-negative integer");
    }
    return j_.get<std::uint64_t>();
  }
  std::uint64_t u64Max(std::uint64_t max) const {
    const std::uint64_t v = u64();
    if (v > max) fail("an integer at most " + std::to_string(max));
    return v;
  }
  double num() const {
    if (!j_.is_number()) fail("a number");
    return j_.get<double>();
  }
  bool boolean() const {
    if (!j_.is_boolean()) fail("true or false");
    return j_.get<bool>();
  }
  template <std::size_t N>
  unsigned oneOf(const Named (&t)[N]) const {
    if (j_.is_string()) {
      const std::string s = j_.get<std::string>();
      for (const Named& n : t) {
        if (n.name == s) return n.value;
      }
    }
    fail("one of " + joinNames(t));
  }
  template <std::size_t N>
  unsigned flags(const Named (&t)[N]) const {
    unsigned v = 0;
    for (std::size_t i = 0; i < size(); ++i)
      v |= (*this)[i].oneOf(t);
    return v;
  }
  bool isString(const char* s) const { return j_.is_string() && j_.get<std::string>() == s; }
  const json& raw() const { return j_; }
  const std::string& path() const { return path_; }

 private:
  const json& j_;
  const std::string& file_;
  std::string path_;
};

sim::Mtu mtuOf(const Reader& r) {
  switch (r.u64()) {
    case 256:
      return sim::Mtu::Mtu256;
    case 512:
      return sim::Mtu::Mtu512;
    case 1024:
      return sim::Mtu::Mtu1024;
    case 2048:
      return sim::Mtu::Mtu2048;
    case 4096:
      return sim::Mtu::Mtu4096;
    default:
      r.fail("one of 256, 512, 1024, 2048, 4096");
  }
}

int hostIndex(const Reader& r) {
  const std::uint64_t v = r.u64();
  if (v > 1) r.fail("host 0 or 1");
  return static_cast<int>(v);
}

std::vector<SgeSpec> readSges(const Reader& r) {
  std::vector<SgeSpec> out;
  for (std::size_t i = 0; i < r.size(); ++i) {
    Reader e = r[i];
    SgeSpec s;
    s.mr = e.at("mr").str();
    if (auto o = e.opt("offset")) s.offset = o->u64();
    s.length = static_cast<std::uint32_t>(e.at("length").u64Max(0x80000000ull));
    out.push_back(s);
  }
  return out;
}

template <class Spec>
void requireName(const Reader& r, const std::vector<Spec>& specs, const std::string& name,
                 const char* what) {
  for (const Spec& s : specs) {
    if (s.name == name) return;
  }
  std::string names;
  for (const Spec& s : specs)
    names += (names.empty() ? "" : ", ") + s.name;
  r.fail(std::string("the name of one of this host's ") + what + " (" + names + ")");
}

ModifyQpStep readModify(const Reader& r, const HostSpec& host) {
  ModifyQpStep m;
  m.qp = r.at("qp").str();
  requireName(r.at("qp"), host.qps, m.qp, "QPs");
  QpAttr& a = m.attr;
  unsigned mask = 0;
  if (auto v = r.opt("state")) {
    a.qpState = static_cast<sim::QpState>(v->oneOf(kStateNames));
    mask |= am::kState;
  }
  if (auto v = r.opt("cur_state")) {
    a.curQpState = static_cast<sim::QpState>(v->oneOf(kStateNames));
    mask |= am::kCurState;
  }
  if (auto v = r.opt("pkey_index")) {
    a.pkeyIndex = static_cast<std::uint16_t>(v->u64Max(0xffff));
    mask |= am::kPkeyIndex;
  }
  if (auto v = r.opt("port")) {
    a.portNum = static_cast<std::uint8_t>(v->u64Max(255));
    mask |= am::kPort;
  }
  if (auto v = r.opt("qkey")) {
    a.qkey = static_cast<std::uint32_t>(v->u64Max(0xffffffffull));
    mask |= am::kQkey;
  }
  if (auto v = r.opt("access")) {
    a.qpAccessFlags = v->flags(kAccessNames);
    mask |= am::kAccessFlags;
  }
  if (auto v = r.opt("path_mtu")) {
    a.pathMtu = mtuOf(*v);
    mask |= am::kPathMtu;
  }
  if (auto v = r.opt("dest_qpn")) {
    if (v->isString("peer")) {
      m.destQpnFromPeer = true;
    } else {
      a.destQpNum = static_cast<std::uint32_t>(v->u64Max(0xffffff));
    }
    mask |= am::kDestQpn;
  }
  if (auto v = r.opt("rq_psn")) {
    if (v->isString("peer")) {
      m.rqPsnFromPeer = true;
    } else {
      a.rqPsn = static_cast<std::uint32_t>(v->u64Max(0xffffff));
    }
    mask |= am::kRqPsn;
  }
  if (auto v = r.opt("sq_psn")) {
    if (v->isString("own")) {
      m.sqPsnOwn = true;
    } else {
      a.sqPsn = static_cast<std::uint32_t>(v->u64Max(0xffffff));
    }
    mask |= am::kSqPsn;
  }
  if (auto v = r.opt("av")) {
    Reader av = *v;
    a.ahAttr.isGlobal = true;
    if (auto g = av.opt("dgid")) {
      if (!g->isString("peer")) g->fail("\"peer\"");
      m.dgidFromPeer = true;
    }
    if (auto l = av.opt("dlid")) {
      if (l->isString("peer")) {
        m.dlidFromPeer = true;
      } else {
        a.ahAttr.dlid = static_cast<std::uint16_t>(l->u64Max(0xffff));
      }
    }
    if (auto h = av.opt("hop_limit")) a.ahAttr.hopLimit = static_cast<std::uint8_t>(h->u64Max(255));
    if (auto t = av.opt("traffic_class")) {
      a.ahAttr.trafficClass = static_cast<std::uint8_t>(t->u64Max(255));
    }
    if (auto s = av.opt("sl")) a.ahAttr.sl = static_cast<std::uint8_t>(s->u64Max(15));
    mask |= am::kAv;
  }
  auto small = [&](const char* key, std::uint8_t& dst, unsigned bit, std::uint64_t max) {
    if (auto v = r.opt(key)) {
      dst = static_cast<std::uint8_t>(v->u64Max(max));
      mask |= bit;
    }
  };
  small("timeout", a.timeout, am::kTimeout, 31);
  small("retry_cnt", a.retryCnt, am::kRetryCnt, 7);
  small("rnr_retry", a.rnrRetry, am::kRnrRetry, 7);
  small("max_rd_atomic", a.maxRdAtomic, am::kMaxQpRdAtomic, 255);
  small("max_dest_rd_atomic", a.maxDestRdAtomic, am::kMaxDestRdAtomic, 255);
  small("min_rnr_timer", a.minRnrTimer, am::kMinRnrTimer, 31);
  if (auto v = r.opt("mask")) {  // an explicit mask overrides the derived one
    static constexpr Named kMaskNames[] = {{"STATE", am::kState},
                                           {"CUR_STATE", am::kCurState},
                                           {"ACCESS_FLAGS", am::kAccessFlags},
                                           {"PKEY_INDEX", am::kPkeyIndex},
                                           {"PORT", am::kPort},
                                           {"QKEY", am::kQkey},
                                           {"AV", am::kAv},
                                           {"PATH_MTU", am::kPathMtu},
                                           {"TIMEOUT", am::kTimeout},
                                           {"RETRY_CNT", am::kRetryCnt},
                                           {"RNR_RETRY", am::kRnrRetry},
                                           {"RQ_PSN", am::kRqPsn},
                                           {"MAX_QP_RD_ATOMIC", am::kMaxQpRdAtomic},
                                           {"MIN_RNR_TIMER", am::kMinRnrTimer},
                                           {"SQ_PSN", am::kSqPsn},
                                           {"MAX_DEST_RD_ATOMIC", am::kMaxDestRdAtomic},
                                           {"DEST_QPN", am::kDestQpn}};
    mask = v->flags(kMaskNames);
  }
  m.mask = mask;
  return m;
}

PostSendStep readPostSend(const Reader& r, const HostSpec& host) {
  PostSendStep p;
  p.qp = r.at("qp").str();
  requireName(r.at("qp"), host.qps, p.qp, "QPs");
  SendWr& wr = p.wr;
  if (auto v = r.opt("wr_id")) wr.wrId = v->u64();
  wr.opcode = static_cast<sim::WrOpcode>(r.at("opcode").oneOf(kOpcodeNames));
  if (auto v = r.opt("sge")) p.sges = readSges(*v);
  for (std::size_t i = 0; i < p.sges.size(); ++i) {
    requireName(r.at("sge")[i].at("mr"), host.mrs, p.sges[i].mr, "MRs");
  }
  bool signaled = true;
  if (auto v = r.opt("signaled")) signaled = v->boolean();
  if (signaled) wr.sendFlags |= sim::send_flags::kSignaled;
  if (auto v = r.opt("inline"); v && v->boolean()) wr.sendFlags |= sim::send_flags::kInline;
  if (auto v = r.opt("fence"); v && v->boolean()) wr.sendFlags |= sim::send_flags::kFence;
  if (auto v = r.opt("solicited"); v && v->boolean()) {
    wr.sendFlags |= sim::send_flags::kSolicited;
  }
  if (auto v = r.opt("imm")) wr.immData = static_cast<std::uint32_t>(v->u64Max(0xffffffffull));
  if (auto v = r.opt("invalidate_rkey")) {
    wr.invalidateRkey = static_cast<std::uint32_t>(v->u64Max(0xffffffffull));
  }
  if (auto v = r.opt("remote_offset")) p.remoteOffset = v->u64();
  if (auto v = r.opt("rkey")) wr.rkey = static_cast<std::uint32_t>(v->u64Max(0xffffffffull));
  if (auto v = r.opt("compare_add")) wr.compareAdd = v->u64();
  if (auto v = r.opt("swap")) wr.swap = v->u64();
  if (auto v = r.opt("remote_qkey")) {
    wr.remoteQkey = static_cast<std::uint32_t>(v->u64Max(0xffffffffull));
  }
  if (auto v = r.opt("ud_peer")) p.udToPeer = v->boolean();
  return p;
}

PollCqStep readPoll(const Reader& r, const HostSpec& host) {
  PollCqStep p;
  p.cq = r.at("cq").str();
  requireName(r.at("cq"), host.cqs, p.cq, "CQs");
  if (auto v = r.opt("count")) p.count = static_cast<int>(v->u64Max(4096));
  if (auto v = r.opt("timeout_ms")) p.timeout = std::chrono::milliseconds(v->u64Max(3600000));
  if (auto v = r.opt("expect")) {
    for (std::size_t i = 0; i < v->size(); ++i) {
      Reader e = (*v)[i];
      ExpectedCompletion x;
      if (auto f = e.opt("wr_id")) x.wrId = f->u64();
      if (auto f = e.opt("status")) {
        const std::string s = f->str();
        x.status = wcStatusFromName(s);
        if (!x.status) f->fail("a completion status such as SUCCESS or RETRY_EXC_ERR");
      }
      if (auto f = e.opt("opcode")) x.opcode = static_cast<sim::WcOpcode>(f->oneOf(kWcOpcodeNames));
      if (auto f = e.opt("byte_len")) x.byteLen = static_cast<std::uint32_t>(f->u64());
      if (auto f = e.opt("imm")) x.immData = static_cast<std::uint32_t>(f->u64());
      p.expect.push_back(x);
    }
  }
  return p;
}

HostSpec readHost(const Reader& r, int index) {
  HostSpec h;
  h.name = r.opt("name") ? r.at("name").str() : (index == 0 ? "host-a" : "host-b");
  if (auto mrs = r.opt("mrs")) {
    for (std::size_t i = 0; i < mrs->size(); ++i) {
      Reader m = (*mrs)[i];
      MrSpec s;
      s.name = m.at("name").str();
      s.size = m.at("size").u64Max(1ull << 32);
      if (s.size == 0) m.at("size").fail("a positive size");
      if (auto a = m.opt("access")) s.access = a->flags(kAccessNames);
      if (auto f = m.opt("fill")) {
        s.fill = f->str();
        if (s.fill != "zero" && s.fill != "pattern" && s.fill.rfind("text:", 0) != 0) {
          f->fail("\"zero\", \"pattern\" or \"text:...\"");
        }
      }
      h.mrs.push_back(s);
    }
  }
  Reader cqs = r.at("cqs");
  for (std::size_t i = 0; i < cqs.size(); ++i) {
    CqSpec c;
    c.name = cqs[i].at("name").str();
    if (auto d = cqs[i].opt("depth")) c.depth = static_cast<int>(d->u64Max(65536));
    h.cqs.push_back(c);
  }
  Reader qps = r.at("qps");
  for (std::size_t i = 0; i < qps.size(); ++i) {
    Reader q = qps[i];
    QpSpec s;
    s.name = q.at("name").str();
    static constexpr Named kTypes[] = {{"RC", 2}, {"UC", 3}, {"UD", 4}};
    s.type = static_cast<QpType>(q.at("type").oneOf(kTypes));
    s.sendCq = q.at("send_cq").str();
    requireName(q.at("send_cq"), h.cqs, s.sendCq, "CQs");
    s.recvCq = q.at("recv_cq").str();
    requireName(q.at("recv_cq"), h.cqs, s.recvCq, "CQs");
    if (auto v = q.opt("max_send_wr")) s.cap.maxSendWr = static_cast<std::uint32_t>(v->u64());
    if (auto v = q.opt("max_recv_wr")) s.cap.maxRecvWr = static_cast<std::uint32_t>(v->u64());
    if (auto v = q.opt("max_inline_data")) {
      s.cap.maxInlineData = static_cast<std::uint32_t>(v->u64());
    }
    if (auto v = q.opt("sq_sig_all")) s.sqSigAll = v->boolean();
    if (auto v = q.opt("psn")) s.psn = static_cast<std::uint32_t>(v->u64Max(0xffffff));
    h.qps.push_back(s);
  }
  return h;
}

std::string describe(const Step& s, const Scenario& sc) {
  const std::string who = sc.hosts[s.host].name + ": ";
  return std::visit(
      [&](const auto& a) -> std::string {
        using T = std::decay_t<decltype(a)>;
        if constexpr (std::is_same_v<T, ModifyQpStep>) {
          return who + "ibv_modify_qp(" + a.qp + ", " +
                 (a.mask & am::kState ? std::string(sim::toString(a.attr.qpState)) : "-") + ", " +
                 sim::attrMaskNames(a.mask) + ")";
        } else if constexpr (std::is_same_v<T, PostSendStep>) {
          std::uint64_t len = 0;
          for (const auto& g : a.sges)
            len += g.length;
          return who + "ibv_post_send(" + a.qp + ", " + std::string(sim::toString(a.wr.opcode)) +
                 ", wr_id " + std::to_string(a.wr.wrId) + ", " + std::to_string(len) + " bytes)";
        } else if constexpr (std::is_same_v<T, PostRecvStep>) {
          std::uint64_t len = 0;
          for (const auto& g : a.sges)
            len += g.length;
          return who + "ibv_post_recv(" + a.qp + ", wr_id " + std::to_string(a.wrId) + ", " +
                 std::to_string(len) + " bytes)";
        } else if constexpr (std::is_same_v<T, PollCqStep>) {
          return who + "ibv_poll_cq(" + a.cq + ") until " + std::to_string(a.count) +
                 " completion(s)";
        } else if constexpr (std::is_same_v<T, ExchangeStep>) {
          return who + "sends QPN, PSN, GID" + (a.mr.empty() ? "" : ", rkey and address") + " of " +
                 a.qp + " to " + sc.hosts[1 - a.from].name + " out of band (TCP)";
        } else if constexpr (std::is_same_v<T, RunStep>) {
          return "let " + std::to_string(a.duration.count()) + " us pass";
        } else {
          return "compare " + std::to_string(a.length) + " bytes of " + sc.hosts[a.hostA].name +
                 ":" + a.mrA + " and " + sc.hosts[a.hostB].name + ":" + a.mrB;
        }
      },
      s.action);
}

}  // namespace

std::optional<sim::WcStatus> wcStatusFromName(const std::string& name) {
  for (std::size_t i = 0; i < kWcStatusNames.size(); ++i) {
    if (kWcStatusNames[i] == name) return static_cast<sim::WcStatus>(i);
  }
  return std::nullopt;
}

std::string wcStatusName(sim::WcStatus s) {
  const auto i = static_cast<std::size_t>(s);
  return i < kWcStatusNames.size() ? std::string(kWcStatusNames[i]) : "UNKNOWN";
}

Scenario parseScenario(const json& j, const std::string& file) {
  Reader r(j, file, "");
  if (!j.is_object()) r.fail("a JSON object");
  Scenario s;
  s.file = file;
  s.json = j;
  s.name = r.opt("name") ? r.at("name").str() : file;
  if (auto v = r.opt("description")) s.description = v->str();
  if (auto v = r.opt("seed")) s.seed = v->u64();
  if (auto v = r.opt("wire")) s.wire = static_cast<sim::WireFormat>(v->oneOf(kWireNames));
  if (auto l = r.opt("link")) {
    if (auto v = l->opt("latency_us")) {
      s.link.latency = sim::SimTime::ps(static_cast<std::int64_t>(v->num() * 1e6));
    }
    if (auto v = l->opt("gbps")) {
      s.link.gbps = v->num();
      if (s.link.gbps <= 0) v->fail("a positive rate");
    }
    if (auto v = l->opt("mtu")) s.link.mtu = static_cast<std::uint32_t>(v->u64Max(65535));
  }
  if (auto f = r.opt("faults")) {
    auto rate = [&](const char* key, double& dst) {
      if (auto v = f->opt(key)) {
        dst = v->num();
        if (dst < 0 || dst > 1) v->fail("a rate between 0 and 1");
      }
    };
    rate("loss", s.faults.lossRate);
    rate("reorder", s.faults.reorderRate);
    rate("duplicate", s.faults.duplicateRate);
    rate("corrupt", s.faults.corruptRate);
    if (auto v = f->opt("reorder_delay_us")) {
      s.faults.reorderDelay = sim::SimTime::ps(static_cast<std::int64_t>(v->num() * 1e6));
    }
    if (auto v = f->opt("drop_frames")) {
      for (std::size_t i = 0; i < v->size(); ++i)
        s.faults.dropFrames.push_back((*v)[i].u64());
    }
    if (auto v = f->opt("drop_psns")) {
      for (std::size_t i = 0; i < v->size(); ++i) {
        Reader d = (*v)[i];
        sim::FaultConfig::PsnDrop pd;
        pd.psn = static_cast<std::uint32_t>(d.at("psn").u64Max(0xffffff));
        if (auto h = d.opt("from")) pd.fromHost = hostIndex(*h);
        if (auto c = d.opt("count")) pd.count = static_cast<int>(c->u64Max(1000));
        if (auto o = d.opt("occurrence")) pd.occurrence = static_cast<int>(o->u64Max(1000000));
        s.faults.dropPsns.push_back(pd);
      }
    }
    if (auto v = f->opt("pauses")) {
      for (std::size_t i = 0; i < v->size(); ++i) {
        Reader p = (*v)[i];
        s.faults.pauses.push_back(
            {sim::SimTime::ps(static_cast<std::int64_t>(p.at("start_us").num() * 1e6)),
             sim::SimTime::ps(static_cast<std::int64_t>(p.at("duration_us").num() * 1e6))});
      }
    }
    if (auto v = f->opt("only_from")) s.faults.onlyFromHost = hostIndex(*v);
  }
  Reader hosts = r.at("hosts");
  if (hosts.size() != 2) hosts.fail("an array of exactly two hosts");
  for (int i = 0; i < 2; ++i)
    s.hosts[i] = readHost(hosts[static_cast<std::size_t>(i)], i);

  Reader steps = r.at("steps");
  for (std::size_t i = 0; i < steps.size(); ++i) {
    Reader st = steps[i];
    Step step;
    step.path = st.path();
    if (auto h = st.opt("host")) step.host = hostIndex(*h);
    const HostSpec& host = s.hosts[step.host];
    if (auto e = st.opt("expect_error")) step.expectErrno = static_cast<int>(e->oneOf(kErrnoNames));
    if (auto v = st.opt("modify_qp")) {
      step.action = readModify(*v, host);
    } else if (auto v2 = st.opt("post_send")) {
      step.action = readPostSend(*v2, host);
    } else if (auto v3 = st.opt("post_recv")) {
      PostRecvStep p;
      p.qp = v3->at("qp").str();
      requireName(v3->at("qp"), host.qps, p.qp, "QPs");
      if (auto w = v3->opt("wr_id")) p.wrId = w->u64();
      p.sges = readSges(v3->at("sge"));
      for (std::size_t k = 0; k < p.sges.size(); ++k) {
        requireName(v3->at("sge")[k].at("mr"), host.mrs, p.sges[k].mr, "MRs");
      }
      step.action = p;
    } else if (auto v4 = st.opt("poll_cq")) {
      step.action = readPoll(*v4, host);
    } else if (auto v5 = st.opt("exchange")) {
      ExchangeStep x;
      x.from = hostIndex(v5->at("from"));
      step.host = x.from;
      x.qp = v5->at("qp").str();
      requireName(v5->at("qp"), s.hosts[x.from].qps, x.qp, "QPs");
      if (auto m = v5->opt("mr")) {
        x.mr = m->str();
        requireName(*m, s.hosts[x.from].mrs, x.mr, "MRs");
      }
      step.action = x;
    } else if (auto v6 = st.opt("run_us")) {
      step.action = RunStep{std::chrono::microseconds(v6->u64())};
    } else if (auto v7 = st.opt("compare_memory")) {
      CompareMemoryStep c;
      c.hostA = hostIndex(v7->at("host_a"));
      c.mrA = v7->at("mr_a").str();
      requireName(v7->at("mr_a"), s.hosts[c.hostA].mrs, c.mrA, "MRs");
      if (auto o = v7->opt("offset_a")) c.offsetA = o->u64();
      c.hostB = hostIndex(v7->at("host_b"));
      c.mrB = v7->at("mr_b").str();
      requireName(v7->at("mr_b"), s.hosts[c.hostB].mrs, c.mrB, "MRs");
      if (auto o = v7->opt("offset_b")) c.offsetB = o->u64();
      c.length = v7->at("length").u64();
      step.action = c;
    } else {
      st.fail(
          "a step with one of modify_qp, post_send, post_recv, poll_cq, exchange, run_us, "
          "compare_memory");
    }
    step.text = describe(step, s);
    s.steps.push_back(std::move(step));
  }
  return s;
}

Scenario loadScenarioFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ScenarioError(path + ": cannot be opened: " + std::strerror(errno));
  json j;
  try {
    j = json::parse(in);
  } catch (const json::parse_error& e) {
    throw ScenarioError(path + ": not valid JSON: " + e.what());
  }
  return parseScenario(j, path);
}

// ---------------------------------------------------------------------------------------
// running

ScenarioRun::ScenarioRun(const Scenario& scenario, Backend& host0, Backend& host1,
                         std::function<void(int, const std::string&)> note)
    : scenario_(scenario), note_(std::move(note)) {
  hosts_[0].backend = &host0;
  hosts_[1].backend = &host1;
  for (int i = 0; i < 2 && !setupError_; ++i) {
    HostState& h = hosts_[i];
    const HostSpec& spec = scenario.hosts[i];
    auto fail = [&](const std::string& what, const Status& st) {
      setupError_ = spec.name + ": " + what + " failed: " + st.message;
    };
    auto pd = h.backend->allocPd();
    if (!pd.ok()) {
      fail("ibv_alloc_pd", pd.status);
      return;
    }
    h.pd = pd.value;
    if (note_) note_(i, spec.name + ": ibv_alloc_pd -> PD " + std::to_string(pd.value));
    for (const MrSpec& m : spec.mrs) {
      auto mr = h.backend->regMr(h.pd, m.size, m.access);
      if (!mr.ok()) {
        fail("ibv_reg_mr(" + m.name + ")", mr.status);
        return;
      }
      auto bytes = h.backend->memory(mr.value);
      if (m.fill == "pattern") {
        for (std::size_t k = 0; k < bytes.size(); ++k) {
          bytes[k] = static_cast<std::uint8_t>(k * 7 + static_cast<std::size_t>(i) * 101 + 1);
        }
      } else if (m.fill.rfind("text:", 0) == 0) {
        const std::string t = m.fill.substr(5);
        for (std::size_t k = 0; k < bytes.size() && !t.empty(); ++k)
          bytes[k] = static_cast<std::uint8_t>(t[k % t.size()]);
      }
      h.mrs[m.name] = mr.value;
      if (note_) {
        char buf[160];
        std::snprintf(buf, sizeof buf,
                      "%s: ibv_reg_mr(%s, %llu bytes) -> addr 0x%llx lkey 0x%x rkey 0x%x",
                      spec.name.c_str(), m.name.c_str(), static_cast<unsigned long long>(m.size),
                      static_cast<unsigned long long>(mr.value.addr), mr.value.lkey, mr.value.rkey);
        note_(i, buf);
      }
    }
    for (const CqSpec& c : spec.cqs) {
      auto cq = h.backend->createCq(c.depth);
      if (!cq.ok()) {
        fail("ibv_create_cq(" + c.name + ")", cq.status);
        return;
      }
      h.cqs[c.name] = cq.value;
    }
    for (const QpSpec& q : spec.qps) {
      QpInitAttr a;
      a.qpType = q.type;
      a.sendCq = h.cqs[q.sendCq];
      a.recvCq = h.cqs[q.recvCq];
      a.cap = q.cap;
      a.sqSigAll = q.sqSigAll;
      auto qp = h.backend->createQp(h.pd, a);
      if (!qp.ok()) {
        fail("ibv_create_qp(" + q.name + ")", qp.status);
        return;
      }
      h.qps[q.name] = qp.value;
      h.psns[q.name] = q.psn;
    }
  }
}

const MemoryRegion* ScenarioRun::mr(int host, const std::string& name) const {
  auto it = hosts_[host].mrs.find(name);
  return it == hosts_[host].mrs.end() ? nullptr : &it->second;
}

std::optional<std::uint32_t> ScenarioRun::qpNum(int host, const std::string& name) const {
  auto it = hosts_[host].qps.find(name);
  if (it == hosts_[host].qps.end()) return std::nullopt;
  return it->second.qpNum;
}

Status ScenarioRun::resolveSges(HostState& h, const std::vector<SgeSpec>& in,
                                std::vector<sim::Sge>& out) {
  for (const SgeSpec& g : in) {
    const MemoryRegion& m = h.mrs.at(g.mr);
    if (g.offset + g.length > m.length) {
      return Status::error(EINVAL, "SGE " + g.mr + "+" + std::to_string(g.offset) + " length " +
                                       std::to_string(g.length) + " exceeds the MR (" +
                                       std::to_string(m.length) + " bytes)");
    }
    out.push_back({m.addr + g.offset, g.length, m.lkey});
  }
  return {};
}

StepOutcome ScenarioRun::step() {
  StepOutcome out;
  if (done()) {
    out.ok = false;
    out.message = setupError_ ? *setupError_ : "no more steps";
    return out;
  }
  const Step& s = scenario_.steps[next_];
  out.index = next_++;
  out.host = s.host;
  out.text = s.text;
  if (note_) note_(s.host, s.text);
  const Status st = runStep(s, out);
  if (s.expectErrno) {
    if (st.ok()) {
      out.ok = false;
      out.message = "expected the call to fail with errno " + std::to_string(*s.expectErrno) +
                    ", but it succeeded";
    } else if (st.errnum != *s.expectErrno) {
      out.ok = false;
      out.message = "failed with errno " + std::to_string(st.errnum) + " instead of " +
                    std::to_string(*s.expectErrno) + ": " + st.message;
    } else {
      out.message = "failed as expected: " + st.message;
    }
  } else if (!st.ok()) {
    out.ok = false;
    out.message = st.message;
  }
  if (note_ && !out.message.empty()) note_(s.host, "  -> " + out.message);
  return out;
}

Status ScenarioRun::runStep(const Step& s, StepOutcome& out) {
  HostState& h = hosts_[s.host];
  return std::visit(
      [&](const auto& a) -> Status {
        using T = std::decay_t<decltype(a)>;
        if constexpr (std::is_same_v<T, ModifyQpStep>) {
          QpAttr attr = a.attr;
          const Peer& p = h.peer;
          if ((a.destQpnFromPeer || a.rqPsnFromPeer || a.dgidFromPeer || a.dlidFromPeer) &&
              !p.valid) {
            return Status::error(EINVAL,
                                 "modify_qp uses the peer's values, but no exchange "
                                 "has delivered them yet");
          }
          if (a.destQpnFromPeer) attr.destQpNum = p.qpn;
          if (a.rqPsnFromPeer) attr.rqPsn = p.psn;
          if (a.dgidFromPeer) {
            // The source GID is the device's configured one (IPv4-mapped on Soft-RoCE), as in
            // runScenarioSide; index 0 would be the link-local GID.
            auto dev = h.backend->queryDevice();
            if (!dev.ok()) return dev.status;
            attr.ahAttr.dgid = p.gid;
            attr.ahAttr.isGlobal = true;
            attr.ahAttr.sgidIndex = dev.value.gidIndex;
          }
          if (a.dlidFromPeer) attr.ahAttr.dlid = p.lid;
          if (a.sqPsnOwn) attr.sqPsn = h.psns[a.qp];
          if (!cm_) return h.backend->modifyQp(h.qps.at(a.qp).handle, attr, a.mask);
          cmAdjust(s.host, a, attr, out);
          if (Status st = h.backend->modifyQp(h.qps.at(a.qp).handle, attr, a.mask); !st.ok())
            return st;
          return cmAfterModify(s.host, a);
        } else if constexpr (std::is_same_v<T, PostSendStep>) {
          SendWr wr = a.wr;
          if (Status st = resolveSges(h, a.sges, wr.sgList); !st.ok()) return st;
          if (a.remoteOffset) {
            // rxe gives an MR without remote access rkey 0: what counts is that one was sent.
            if (!h.peer.valid || !h.peer.hasMr) {
              return Status::error(EINVAL, "remote_offset needs the peer's MR from an exchange");
            }
            wr.remoteAddr = h.peer.addr + *a.remoteOffset;
            if (wr.rkey == 0) wr.rkey = h.peer.rkey;
          }
          if (a.udToPeer) {
            if (!h.peer.valid) return Status::error(EINVAL, "ud_peer needs an exchange first");
            wr.remoteQpn = h.peer.qpn;
            wr.ah.dgid = h.peer.gid;
            wr.ah.dlid = h.peer.lid;
            wr.ah.isGlobal = true;
            auto dev = h.backend->queryDevice();
            if (!dev.ok()) return dev.status;
            wr.ah.sgidIndex = dev.value.gidIndex;
          }
          return h.backend->postSend(h.qps.at(a.qp).handle, wr);
        } else if constexpr (std::is_same_v<T, PostRecvStep>) {
          RecvWr wr;
          wr.wrId = a.wrId;
          if (Status st = resolveSges(h, a.sges, wr.sgList); !st.ok()) return st;
          return h.backend->postRecv(h.qps.at(a.qp).handle, wr);
        } else if constexpr (std::is_same_v<T, PollCqStep>) {
          const Handle cq = h.cqs.at(a.cq);
          while (static_cast<int>(out.completions.size()) < a.count) {
            auto r = h.backend->waitCq(cq, a.count - static_cast<int>(out.completions.size()),
                                       a.timeout);
            if (!r.ok()) return r.status;
            if (r.value.empty()) break;
            for (const auto& wc : r.value) {
              out.completions.push_back(wc);
              completions_.emplace_back(s.host, wc);
            }
          }
          std::string got;
          for (const auto& wc : out.completions) {
            if (!got.empty()) got += "; ";
            got += "wr_id " + std::to_string(wc.wrId) + " " + wcStatusName(wc.status) + " " +
                   std::string(sim::toString(wc.opcode)) + " byte_len " +
                   std::to_string(wc.byteLen);
          }
          out.message = got;
          if (static_cast<int>(out.completions.size()) < a.count) {
            return Status::error(ETIMEDOUT, "waited " + std::to_string(a.timeout.count()) +
                                                " ms for " + std::to_string(a.count) +
                                                " completion(s), got " +
                                                std::to_string(out.completions.size()) +
                                                (got.empty() ? "" : ": " + got));
          }
          for (std::size_t i = 0; i < a.expect.size() && i < out.completions.size(); ++i) {
            const ExpectedCompletion& x = a.expect[i];
            const WorkCompletion& wc = out.completions[i];
            std::string bad;
            if (x.wrId && *x.wrId != wc.wrId) bad += " wr_id";
            if (x.status && *x.status != wc.status) bad += " status";
            if (x.opcode && *x.opcode != wc.opcode) bad += " opcode";
            if (x.byteLen && *x.byteLen != wc.byteLen) bad += " byte_len";
            if (x.immData && *x.immData != wc.immData) bad += " imm";
            if (!bad.empty()) {
              return Status::error(EPROTO, "completion " + std::to_string(i) +
                                               " differs from the expectation in" + bad + " (" +
                                               got + ")");
            }
          }
          return {};
        } else if constexpr (std::is_same_v<T, ExchangeStep>) {
          if (cm_) return cmExchange(a, out);
          HostState& from = hosts_[a.from];
          Peer& p = hosts_[1 - a.from].peer;
          auto dev = from.backend->queryDevice();
          if (!dev.ok()) return dev.status;
          p.valid = true;
          p.qpn = from.qps.at(a.qp).qpNum;
          p.psn = from.psns.at(a.qp);
          p.gid = dev.value.gid;
          p.lid = dev.value.lid;
          if (!a.mr.empty()) {
            p.hasMr = true;
            p.addr = from.mrs.at(a.mr).addr;
            p.rkey = from.mrs.at(a.mr).rkey;
          }
          char buf[200];
          std::snprintf(buf, sizeof buf, "QPN 0x%06x PSN 0x%06x LID %u rkey 0x%x addr 0x%llx",
                        p.qpn, p.psn, p.lid, p.rkey, static_cast<unsigned long long>(p.addr));
          out.message = buf;
          return {};
        } else if constexpr (std::is_same_v<T, RunStep>) {
          if (auto* sb = dynamic_cast<SimBackend*>(h.backend)) {
            sim::Simulator& sm = sb->network().sim();
            sm.runUntil(sm.now() + sim::SimTime::ns(a.duration.count() * 1000));
          }
          return {};
        } else {
          const MemoryRegion* ma = mr(a.hostA, a.mrA);
          const MemoryRegion* mb = mr(a.hostB, a.mrB);
          auto ba = hosts_[a.hostA].backend->memory(*ma);
          auto bb = hosts_[a.hostB].backend->memory(*mb);
          if (a.offsetA + a.length > ba.size() || a.offsetB + a.length > bb.size()) {
            return Status::error(EINVAL, "compare_memory range exceeds an MR");
          }
          for (std::uint64_t k = 0; k < a.length; ++k) {
            if (ba[a.offsetA + k] != bb[a.offsetB + k]) {
              return Status::error(EPROTO, "memory differs at byte " + std::to_string(k));
            }
          }
          out.message = std::to_string(a.length) + " bytes equal";
          return {};
        }
      },
      s.action);
}

// ---------------------------------------------------------------------------------------
// simulated runs

SimScenarioSession::SimScenarioSession(const Scenario& scenario, const RunOptions& options)
    : scenario_(scenario) {
  if (options.cm) {
    // With the rdma_cm the passive side (host 0) goes RTS when the RTU arrives, after the
    // active side's RTS: its RTS step moves there.
    if (auto qp = cmConnectedQp(scenario_); qp.ok()) {
      auto rts = [&](int host) {
        for (std::size_t i = 0; i < scenario_.steps.size(); ++i) {
          const Step& st = scenario_.steps[i];
          const auto* m = std::get_if<ModifyQpStep>(&st.action);
          if (st.host == host && m != nullptr && m->qp == qp.value &&
              m->attr.qpState == QpState::Rts)
            return static_cast<std::ptrdiff_t>(i);
        }
        return std::ptrdiff_t{-1};
      };
      for (Step& st : scenario_.steps)
        if (const auto* x = std::get_if<ExchangeStep>(&st.action); x != nullptr)
          st.text =
              scenario_.hosts[x->from].name + ": publishes " +
              (x->mr.empty() ? std::string("no region") : "the address and rkey of " + x->mr) +
              " in the private data of its CM " + (x->from == 1 ? "REQ" : "REP") +
              " (rdma_cm; QPN, PSN and GID travel in the CM messages themselves)";
      const std::ptrdiff_t passive = rts(0), active = rts(1);
      if (passive >= 0 && active > passive) {
        Step moved = scenario_.steps[static_cast<std::size_t>(passive)];
        moved.text += " (rdma_cm: after the RTU arrives)";
        scenario_.steps.erase(scenario_.steps.begin() + passive);
        scenario_.steps.insert(scenario_.steps.begin() + active, std::move(moved));
      }
    }
  }
  sim::NetworkConfig cfg = sim::Network::defaultConfig();
  cfg.seed = options.seed.value_or(scenario_.seed);
  cfg.wire = options.wire.value_or(scenario_.wire);
  cfg.link = scenario_.link;
  cfg.faults = scenario_.faults;
  if (options.loss) cfg.faults.lossRate = *options.loss;
  cfg.captureFrames = options.captureFrames;
  for (int i = 0; i < 2; ++i)
    cfg.hosts[i].name = scenario_.hosts[i].name;
  network_ = std::make_shared<sim::Network>(cfg);
  network_->sim().trace().setEnabled(options.trace);
  for (int i = 0; i < 2; ++i)
    backends_[i] = std::make_unique<SimBackend>(network_, i);
  sim::Network* net = network_.get();
  run_ = std::make_unique<ScenarioRun>(scenario_, *backends_[0], *backends_[1],
                                       [net](int host, const std::string& line) {
                                         if (net->sim().tracing())
                                           net->host(host).emit(sim::TraceKind::Note, 0, line);
                                       });
  if (options.cm) run_->useSimCm();
}

RunResult SimScenarioSession::runToEnd(sim::SimTime drain) {
  RunResult r;
  r.wire = network_->config().wire;
  for (int i = 0; i < 2; ++i)
    r.hostNames[i] = network_->host(i).name();
  if (run_->setupError()) {
    r.ok = false;
    r.error = *run_->setupError();
  }
  while (!run_->done()) {
    StepOutcome o = run_->step();
    if (!o.ok && r.ok) {
      r.ok = false;
      r.error =
          scenario_.file + ": step " + std::to_string(o.index) + " (" + o.text + "): " + o.message;
    }
    r.steps.push_back(std::move(o));
  }
  if (Status st = run_->simCmDisconnect(); !st.ok() && r.ok) {
    r.ok = false;
    r.error = scenario_.file + ": rdma_disconnect: " + st.message;
  }
  sim::Simulator& s = network_->sim();
  s.runUntil(s.now() + drain);
  r.completions = run_->completions();
  r.trace = s.trace().events();
  r.frames = network_->frames();
  r.stats = network_->stats();
  return r;
}

RunResult runScenarioInSim(const Scenario& scenario, const RunOptions& options) {
  SimScenarioSession session(scenario, options);
  return session.runToEnd();
}

std::string RunResult::traceText() const {
  std::string out;
  for (const auto& e : trace) {
    out += sim::formatTraceLine(e);
    out += '\n';
  }
  return out;
}

std::string RunResult::traceJson() const {
  std::string out = "[";
  for (std::size_t i = 0; i < trace.size(); ++i) {
    if (i) out += ",\n";
    out += sim::formatTraceJson(trace[i]);
  }
  out += "]\n";
  return out;
}

std::string formatCompletion(const std::string& hostName, const WorkCompletion& wc) {
  std::string line = hostName;
  line.append(" wr_id ").append(std::to_string(wc.wrId)).append(" ");
  line.append(wcStatusName(wc.status));
  // ibv_poll_cq(3): with an error status only wr_id, status, qp_num and vendor_err are valid.
  if (wc.status != sim::WcStatus::Success) return line;
  line.append(" ").append(sim::toString(wc.opcode)).append(" byte_len ");
  line.append(std::to_string(wc.byteLen));
  if (wc.wcFlags & sim::wc_flags::kWithImm) {
    char imm[24];
    std::snprintf(imm, sizeof imm, " imm 0x%08x", wc.immData);
    line += imm;
  }
  return line;
}

std::string RunResult::completionsText() const {
  std::string out;
  for (const auto& [host, wc] : completions)
    out += formatCompletion(hostNames[host], wc) + "\n";
  return out;
}

}  // namespace rdmascope::verbs_backend
