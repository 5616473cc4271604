#include "rdmascope/simdev/host_state.h"

#include <nlohmann/json.hpp>

namespace rdmascope::simdev {

namespace {

/// Long queues are cut: a view shows the first WQEs, the count says how many there are.
constexpr std::size_t kMaxWqes = 64;

nlohmann::json wqesJson(const std::vector<sim::WqeView>& wqes) {
  nlohmann::json out = nlohmann::json::array();
  for (std::size_t i = 0; i < wqes.size() && i < kMaxWqes; ++i) {
    const sim::WqeView& w = wqes[i];
    out.push_back({{"wr_id", w.wrId},
                   {"opcode", static_cast<int>(w.opcode)},
                   {"length", w.length},
                   {"state", w.state},
                   {"first_psn", w.firstPsn},
                   {"last_psn", w.lastPsn}});
  }
  return out;
}

template <class T>
bool read(const nlohmann::json& j, const char* key, T& out) {
  const auto it = j.find(key);
  if (it == j.end()) return false;
  if constexpr (std::is_same_v<T, std::string>) {
    if (!it->is_string()) return false;
  } else {
    if (!it->is_number_integer()) return false;
  }
  out = it->get<T>();
  return true;
}

bool wqesFromJson(const nlohmann::json& j, std::vector<sim::WqeView>& out) {
  if (!j.is_array()) return false;
  for (const auto& w : j) {
    sim::WqeView v;
    int opcode = 0;
    if (!w.is_object() || !read(w, "wr_id", v.wrId) || !read(w, "opcode", opcode) ||
        !read(w, "length", v.length) || !read(w, "state", v.state) ||
        !read(w, "first_psn", v.firstPsn) || !read(w, "last_psn", v.lastPsn)) {
      return false;
    }
    v.opcode = static_cast<sim::WrOpcode>(opcode);
    out.push_back(std::move(v));
  }
  return true;
}

}  // namespace

HostState captureHostState(sim::Host& host) {
  HostState s;
  s.pds = host.pdNumbers();
  const auto& mrs = host.memoryRegions();
  s.mrs.assign(mrs.begin(), mrs.end());
  for (std::uint32_t id : host.cqNumbers()) {
    if (const sim::Host::Cq* cq = host.cq(id)) {
      s.cqs.push_back(CqState{id, cq->depth, static_cast<std::uint32_t>(cq->size())});
    }
  }
  for (std::uint32_t q : host.qpNumbers())
    s.qps.push_back(host.qpView(q));
  return s;
}

nlohmann::json toJson(const HostState& s) {
  nlohmann::json mrs = nlohmann::json::array();
  for (const sim::MemoryRegionInfo& m : s.mrs) {
    mrs.push_back({{"pd", m.pd},
                   {"addr", m.addr},
                   {"length", m.length},
                   {"lkey", m.lkey},
                   {"rkey", m.rkey},
                   {"access", m.access}});
  }
  nlohmann::json cqs = nlohmann::json::array();
  for (const CqState& c : s.cqs) {
    cqs.push_back({{"id", c.id}, {"depth", c.depth}, {"waiting", c.waiting}});
  }
  nlohmann::json qps = nlohmann::json::array();
  for (const sim::QpView& q : s.qps) {
    qps.push_back({{"qpn", q.qpn},
                   {"type", static_cast<int>(q.type)},
                   {"state", static_cast<int>(q.state)},
                   {"send_cq", q.sendCq},
                   {"recv_cq", q.recvCq},
                   {"dest_qpn", q.destQpn},
                   {"sq_psn", q.sqPsn},
                   {"comp_psn", q.compPsn},
                   {"rq_psn", q.rqPsn},
                   {"msn", q.msn},
                   {"sq_count", q.sq.size()},
                   {"rq_count", q.rq.size()},
                   {"sq", wqesJson(q.sq)},
                   {"rq", wqesJson(q.rq)}});
  }
  return {{"host", s.host}, {"program", s.program}, {"pid", s.pid}, {"pds", s.pds},
          {"mrs", mrs},     {"cqs", cqs},           {"qps", qps}};
}

std::optional<HostState> hostStateFromJson(const nlohmann::json& j, std::string& error) {
  HostState s;
  error = "a host state is malformed";
  if (!j.is_object() || !read(j, "host", s.host)) return std::nullopt;
  read(j, "program", s.program);
  read(j, "pid", s.pid);
  const auto pds = j.find("pds");
  const auto mrs = j.find("mrs");
  const auto cqs = j.find("cqs");
  const auto qps = j.find("qps");
  if (pds == j.end() || !pds->is_array() || mrs == j.end() || !mrs->is_array() || cqs == j.end() ||
      !cqs->is_array() || qps == j.end() || !qps->is_array()) {
    return std::nullopt;
  }
  for (const auto& p : *pds) {
    if (!p.is_number_integer()) return std::nullopt;
    s.pds.push_back(p.get<std::uint32_t>());
  }
  for (const auto& m : *mrs) {
    sim::MemoryRegionInfo v;
    if (!m.is_object() || !read(m, "pd", v.pd) || !read(m, "addr", v.addr) ||
        !read(m, "length", v.length) || !read(m, "lkey", v.lkey) || !read(m, "rkey", v.rkey) ||
        !read(m, "access", v.access)) {
      return std::nullopt;
    }
    s.mrs.push_back(v);
  }
  for (const auto& c : *cqs) {
    CqState v;
    if (!c.is_object() || !read(c, "id", v.id) || !read(c, "depth", v.depth) ||
        !read(c, "waiting", v.waiting)) {
      return std::nullopt;
    }
    s.cqs.push_back(v);
  }
  for (const auto& q : *qps) {
    sim::QpView v;
    int type = 0, state = 0;
    if (!q.is_object() || !read(q, "qpn", v.qpn) || !read(q, "type", type) ||
        !read(q, "state", state) || !read(q, "send_cq", v.sendCq) ||
        !read(q, "recv_cq", v.recvCq) || !read(q, "dest_qpn", v.destQpn) ||
        !read(q, "sq_psn", v.sqPsn) || !read(q, "comp_psn", v.compPsn) ||
        !read(q, "rq_psn", v.rqPsn) || !read(q, "msn", v.msn) || type < 2 || type > 4 ||
        state < 0 || state > 6 || !wqesFromJson(q.value("sq", nlohmann::json()), v.sq) ||
        !wqesFromJson(q.value("rq", nlohmann::json()), v.rq)) {
      return std::nullopt;
    }
    v.type = static_cast<sim::QpType>(type);
    v.state = static_cast<sim::QpState>(state);
    s.qps.push_back(std::move(v));
  }
  error.clear();
  return s;
}

}  // namespace rdmascope::simdev
