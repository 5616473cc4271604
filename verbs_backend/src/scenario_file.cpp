// The scenario file reader: JSON to Scenario, every number checked against its range by the
// one Reader, every error one line naming the file and the JSON path.
#include "rdmascope/verbs_backend/scenario_file.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <unordered_map>

#include "rdmascope/verbs_backend/scenario_format.h"

namespace rdmascope::verbs_backend {

using nlohmann::json;
namespace am = sim::attr_mask;

namespace {

constexpr std::uint64_t kU32 = 0xffffffffull;
constexpr std::uint64_t kMaxLatencyUs = 1000000;    // 1 s: far beyond any link
constexpr std::uint64_t kMaxRunUs = 3600000000ull;  // an hour of (simulated) time

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
// where each value and key of the text is

struct TextPos {
  std::size_t line = 0, column = 0;  // 1-based; column counts characters, not bytes
};

struct SourceMap {
  std::unordered_map<std::string, TextPos> values;  // by JSON path, as the Reader spells it
  std::unordered_map<std::string, TextPos> keys;    // the key of an object's member
};

/// Moves through the text counting lines and (UTF-8) characters.
class Cursor {
 public:
  explicit Cursor(std::string_view text) : t_(text) {
    if (t_.substr(0, 3) == "\xEF\xBB\xBF") i_ = 3;  // a BOM, which nlohmann skips too
  }
  bool end() const { return i_ >= t_.size(); }
  char peek() const { return end() ? '\0' : t_[i_]; }
  std::size_t index() const { return i_; }
  TextPos pos() const { return {line_, col_}; }
  void advance(std::size_t n = 1) {
    for (; n > 0 && !end(); --n) {
      const char c = t_[i_++];
      if (c == '\n') {
        ++line_;
        col_ = 1;
      } else if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) {
        ++col_;
      }
    }
  }
  void skipSpace() {
    while (!end() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r'))
      advance();
  }
  /// At a '"': the string token's text, the cursor past it.
  std::string_view stringToken() {
    std::size_t k = i_ + 1;
    while (k < t_.size() && t_[k] != '"')
      k += t_[k] == '\\' ? 2 : 1;
    const std::string_view token = t_.substr(i_, std::min(k + 1, t_.size()) - i_);
    advance(token.size());
    return token;
  }
  /// Up to the end of a number or a literal.
  void skipScalar() {
    while (!end() && std::string_view(",]} \t\r\n").find(peek()) == std::string_view::npos)
      advance();
  }

 private:
  std::string_view t_;
  std::size_t i_ = 0, line_ = 1, col_ = 1;
};

/// Where each value (and each object key) of valid JSON text starts, by JSON path. Iterative,
/// for text whose nesting requireShallow bounded.
SourceMap locate(std::string_view text) {
  SourceMap map;
  Cursor c(text);
  struct Open {
    bool object;
    std::size_t index;
    std::string path;
  };
  std::vector<Open> open;
  auto readKey = [&](const std::string& parent) {
    c.skipSpace();
    const TextPos at = c.pos();
    const std::string_view token = c.stringToken();
    std::string key;
    try {
      key = json::parse(token).get<std::string>();
    } catch (const json::exception&) {
      key = std::string(token);
    }
    c.skipSpace();
    c.advance();  // ':'
    std::string path = parent + "/" + key;
    map.keys[path] = at;
    return path;
  };
  std::string path;
  while (true) {
    c.skipSpace();
    if (c.end()) return map;
    map.values[path] = c.pos();
    const char first = c.peek();
    bool value = false;  // whether another value follows at `path`
    if (first == '{' || first == '[') {
      c.advance();
      c.skipSpace();
      open.push_back({first == '{', 0, path});
      if (c.peek() != (first == '{' ? '}' : ']')) {
        path = first == '{' ? readKey(path) : path + "/0";
        value = true;
      } else {
        c.advance();
        open.pop_back();
      }
    } else if (first == '"') {
      c.stringToken();
    } else {
      c.skipScalar();
    }
    while (!value) {
      if (open.empty()) return map;
      c.skipSpace();
      if (c.peek() == ',') {
        c.advance();
        Open& o = open.back();
        path = o.object ? readKey(o.path) : o.path + "/" + std::to_string(++o.index);
        value = true;
      } else if (c.peek() == '}' || c.peek() == ']') {
        c.advance();
        open.pop_back();
      } else {
        return map;  // not valid JSON: nlohmann has said so already
      }
    }
  }
}

/// Line and column of byte `offset` of the text.
TextPos positionOf(std::string_view text, std::size_t offset) {
  Cursor c(text.substr(0, std::min(offset, text.size())));
  while (!c.end())
    c.advance();
  return c.pos();
}

/// Where the token ending at byte `last` starts: a string's opening quote (nlohmann names the
/// last character it read, which for an unexpected string is its closing quote).
std::size_t tokenStart(std::string_view text, std::size_t last) {
  if (last == 0 || last >= text.size() || text[last] != '"') return last;
  for (std::size_t k = last; k-- > 0;) {
    if (text[k] != '"') continue;
    std::size_t backslashes = 0;
    while (k > backslashes && text[k - 1 - backslashes] == '\\')
      ++backslashes;
    if (backslashes % 2 == 0) return k;
  }
  return last;
}

std::string where(const std::string& file, const TextPos* at) {
  if (!at) return file;
  return file + ":" + std::to_string(at->line) + ":" + std::to_string(at->column);
}

// ---------------------------------------------------------------------------------------
// a JSON reader that knows where it is

class Reader {
 public:
  Reader(const json& j, const std::string& file, std::string path, const SourceMap* map)
      : j_(j), file_(file), path_(std::move(path)), map_(map) {}

  /// "file:line:column: path: what" (one line; no line and column without the text).
  [[noreturn]] void failWith(const std::string& what) const {
    throw ScenarioError(where(file_, lookup(map_ ? &map_->values : nullptr, path_)) + ": " +
                        (path_.empty() ? "/" : path_) + ": " + what);
  }
  /// Refuses a key the format does not list for this object (at the key).
  void onlyKeys(std::string_view object) const {
    if (!j_.is_object()) fail("an object");
    const FormatObject* format = formatObject(object);
    for (auto it = j_.begin(); it != j_.end(); ++it) {
      const auto& fields = format->fields;
      if (std::any_of(fields.begin(), fields.end(),
                      [&](const FormatField& f) { return f.key == it.key(); }))
        continue;
      std::string keys;
      for (const FormatField& f : fields)
        keys.append(keys.empty() ? "" : ", ").append(f.key);
      const std::string at = path_ + "/" + it.key();
      throw ScenarioError(where(file_, lookup(map_ ? &map_->keys : nullptr, at)) + ": " +
                          (path_.empty() ? "/" : path_) + ": unknown key " +
                          quoteJson(json(it.key()), 40) + " in a " + std::string(object) +
                          " (expected one of " + keys + ")");
    }
  }
  [[noreturn]] void fail(const std::string& expected) const {
    failWith("expected " + expected + ", got " + (j_.is_null() ? "nothing" : quoteJson(j_)));
  }
  bool has(const char* key) const { return j_.is_object() && j_.contains(key); }
  Reader at(const char* key) const {
    if (!j_.is_object()) fail("an object");
    if (!j_.contains(key)) failWith(std::string("missing \"") + key + "\"");
    return Reader(j_.at(key), file_, path_ + "/" + key, map_);
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
    return Reader(j_.at(i), file_, path_ + "/" + std::to_string(i), map_);
  }
  std::string str() const {
    if (!j_.is_string()) fail("a string");
    return j_.get<std::string>();
  }
  /// The one check of every integer in a scenario: a JSON integer in [min, max], or an error
  /// naming the range (2^32+5 for a 32-bit field is refused, never truncated).
  std::uint64_t uint(std::uint64_t max = std::numeric_limits<std::uint64_t>::max(),
                     std::uint64_t min = 0) const {
    const bool fits =
        j_.is_number_unsigned() || (j_.is_number_integer() && j_.get<std::int64_t>() >= 0);
    if (!fits || j_.get<std::uint64_t>() < min || j_.get<std::uint64_t>() > max)
      fail("an integer from " + std::to_string(min) + " to " + std::to_string(max));
    return j_.get<std::uint64_t>();
  }
  /// The one check of every real number: finite and in [min, max].
  double number(double min, double max, const std::string& what) const {
    const double v = j_.is_number() ? j_.get<double>() : std::nan("");
    if (!std::isfinite(v) || v < min || v > max)
      fail(what + " between " + shortNumber(min) + " and " + shortNumber(max));
    return v;
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
  static const TextPos* lookup(const std::unordered_map<std::string, TextPos>* in,
                               const std::string& path) {
    if (!in) return nullptr;
    const auto it = in->find(path);
    return it == in->end() ? nullptr : &it->second;
  }
  static std::string shortNumber(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.15g", v);
    return b;
  }
  const json& j_;
  const std::string& file_;
  std::string path_;
  const SourceMap* map_;
};

/// Microseconds as simulated time, from a number already checked against its range.
sim::SimTime micros(const Reader& r, double max, const char* what) {
  return sim::SimTime::ps(static_cast<std::int64_t>(std::llround(r.number(0, max, what) * 1e6)));
}

/// Each name in `list` (the MRs, CQs or QPs of one host) once; a second use names the first.
void requireUnique(const Reader& list, const char* what) {
  std::map<std::string, std::string> seen;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const Reader n = list[i].at("name");
    const std::string name = n.str();
    if (auto [it, fresh] = seen.emplace(name, n.path()); !fresh)
      n.failWith(std::string("duplicate ") + what + " name \"" + name + "\" (already " +
                 it->second + ")");
  }
}

/// Refuses a value nested deeper than kMaxScenarioDepth without recursing into it.
void requireShallow(const json& root, const std::string& file) {
  struct Item {
    const json* value;
    int depth;
    std::string path;
  };
  std::vector<Item> stack{{&root, 0, ""}};
  while (!stack.empty()) {
    Item item = std::move(stack.back());
    stack.pop_back();
    if (!item.value->is_structured()) continue;
    if (item.depth >= kMaxScenarioDepth) {
      std::string at = item.path.size() > 60 ? item.path.substr(0, 57) + "..." : item.path;
      throw ScenarioError(file + ": " + at + ": nested deeper than " +
                          std::to_string(kMaxScenarioDepth) + " levels of arrays and objects");
    }
    if (item.value->is_object()) {
      for (auto it = item.value->begin(); it != item.value->end(); ++it)
        stack.push_back({&*it, item.depth + 1, item.path + "/" + it.key()});
    } else {
      std::size_t i = 0;
      for (const json& v : *item.value)
        stack.push_back({&v, item.depth + 1, item.path + "/" + std::to_string(i++)});
    }
  }
}

void quoteInto(const json& v, std::string& out, std::size_t limit) {
  constexpr auto kReplace = json::error_handler_t::replace;
  if (out.size() > limit) return;
  if (v.is_object()) {
    out += '{';
    for (auto it = v.begin(); it != v.end() && out.size() <= limit; ++it) {
      if (it != v.begin()) out += ',';
      out += json(it.key()).dump(-1, ' ', false, kReplace);
      out += ':';
      quoteInto(*it, out, limit);
    }
    out += '}';
  } else if (v.is_array()) {
    out += '[';
    for (auto it = v.begin(); it != v.end() && out.size() <= limit; ++it) {
      if (it != v.begin()) out += ',';
      quoteInto(*it, out, limit);
    }
    out += ']';
  } else if (v.is_number_float() && !std::isfinite(v.get<double>())) {
    out += std::isnan(v.get<double>()) ? "NaN" : v.get<double>() > 0 ? "Infinity" : "-Infinity";
  } else if (v.is_string() && v.get_ref<const std::string&>().size() > limit) {
    out += json(v.get_ref<const std::string&>().substr(0, limit)).dump(-1, ' ', false, kReplace);
  } else {
    out += v.dump(-1, ' ', false, kReplace);
  }
}

sim::Mtu mtuOf(const Reader& r) {
  switch (r.uint()) {
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
  const std::uint64_t v = r.uint();
  if (v > 1) r.fail("host 0 or 1");
  return static_cast<int>(v);
}

std::vector<SgeSpec> readSges(const Reader& r) {
  std::vector<SgeSpec> out;
  for (std::size_t i = 0; i < r.size(); ++i) {
    Reader e = r[i];
    e.onlyKeys("sge");
    SgeSpec s;
    s.mr = e.at("mr").str();
    if (auto o = e.opt("offset")) s.offset = o->uint();
    s.length = static_cast<std::uint32_t>(e.at("length").uint(0x80000000ull));
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
  r.fail(std::string("the name of one of this host's ") + what + " (" +
         (names.empty() ? std::string("none defined") : names) + ")");
}

ModifyQpStep readModify(const Reader& r, const HostSpec& host) {
  r.onlyKeys("modify_qp");
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
    a.pkeyIndex = static_cast<std::uint16_t>(v->uint(0xffff));
    mask |= am::kPkeyIndex;
  }
  if (auto v = r.opt("port")) {
    a.portNum = static_cast<std::uint8_t>(v->uint(255));
    mask |= am::kPort;
  }
  if (auto v = r.opt("qkey")) {
    a.qkey = static_cast<std::uint32_t>(v->uint(kU32));
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
      a.destQpNum = static_cast<std::uint32_t>(v->uint(0xffffff));
    }
    mask |= am::kDestQpn;
  }
  if (auto v = r.opt("rq_psn")) {
    if (v->isString("peer")) {
      m.rqPsnFromPeer = true;
    } else {
      a.rqPsn = static_cast<std::uint32_t>(v->uint(0xffffff));
    }
    mask |= am::kRqPsn;
  }
  if (auto v = r.opt("sq_psn")) {
    if (v->isString("own")) {
      m.sqPsnOwn = true;
    } else {
      a.sqPsn = static_cast<std::uint32_t>(v->uint(0xffffff));
    }
    mask |= am::kSqPsn;
  }
  if (auto v = r.opt("av")) {
    Reader av = *v;
    av.onlyKeys("av");
    a.ahAttr.isGlobal = true;
    if (auto g = av.opt("dgid")) {
      if (!g->isString("peer")) g->fail("\"peer\"");
      m.dgidFromPeer = true;
    }
    if (auto l = av.opt("dlid")) {
      if (l->isString("peer")) {
        m.dlidFromPeer = true;
      } else {
        a.ahAttr.dlid = static_cast<std::uint16_t>(l->uint(0xffff));
      }
    }
    if (auto h = av.opt("hop_limit")) a.ahAttr.hopLimit = static_cast<std::uint8_t>(h->uint(255));
    if (auto t = av.opt("traffic_class")) {
      a.ahAttr.trafficClass = static_cast<std::uint8_t>(t->uint(255));
    }
    if (auto s = av.opt("sl")) a.ahAttr.sl = static_cast<std::uint8_t>(s->uint(15));
    mask |= am::kAv;
  }
  auto small = [&](const char* key, std::uint8_t& dst, unsigned bit, std::uint64_t max) {
    if (auto v = r.opt(key)) {
      dst = static_cast<std::uint8_t>(v->uint(max));
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
  r.onlyKeys("post_send");
  PostSendStep p;
  p.qp = r.at("qp").str();
  requireName(r.at("qp"), host.qps, p.qp, "QPs");
  SendWr& wr = p.wr;
  if (auto v = r.opt("wr_id")) wr.wrId = v->uint();
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
  if (auto v = r.opt("imm")) wr.immData = static_cast<std::uint32_t>(v->uint(kU32));
  if (auto v = r.opt("invalidate_rkey")) {
    wr.invalidateRkey = static_cast<std::uint32_t>(v->uint(kU32));
  }
  if (auto v = r.opt("remote_offset")) p.remoteOffset = v->uint();
  if (auto v = r.opt("rkey")) wr.rkey = static_cast<std::uint32_t>(v->uint(kU32));
  if (auto v = r.opt("compare_add")) wr.compareAdd = v->uint();
  if (auto v = r.opt("swap")) wr.swap = v->uint();
  if (auto v = r.opt("remote_qkey")) {
    wr.remoteQkey = static_cast<std::uint32_t>(v->uint(kU32));
  }
  if (auto v = r.opt("ud_peer")) p.udToPeer = v->boolean();
  return p;
}

PollCqStep readPoll(const Reader& r, const HostSpec& host) {
  r.onlyKeys("poll_cq");
  PollCqStep p;
  p.cq = r.at("cq").str();
  requireName(r.at("cq"), host.cqs, p.cq, "CQs");
  if (auto v = r.opt("count")) p.count = static_cast<int>(v->uint(4096));
  if (auto v = r.opt("timeout_ms")) p.timeout = std::chrono::milliseconds(v->uint(3600000));
  if (auto v = r.opt("expect")) {
    for (std::size_t i = 0; i < v->size(); ++i) {
      Reader e = (*v)[i];
      e.onlyKeys("completion");
      ExpectedCompletion x;
      if (auto f = e.opt("wr_id")) x.wrId = f->uint();
      if (auto f = e.opt("status")) {
        const std::string s = f->str();
        x.status = wcStatusFromName(s);
        if (!x.status) f->fail("a completion status such as SUCCESS or RETRY_EXC_ERR");
      }
      if (auto f = e.opt("opcode")) x.opcode = static_cast<sim::WcOpcode>(f->oneOf(kWcOpcodeNames));
      if (auto f = e.opt("byte_len")) x.byteLen = static_cast<std::uint32_t>(f->uint(kU32));
      if (auto f = e.opt("imm")) x.immData = static_cast<std::uint32_t>(f->uint(kU32));
      p.expect.push_back(x);
    }
  }
  return p;
}

HostSpec readHost(const Reader& r, int index) {
  r.onlyKeys("host");
  HostSpec h;
  h.name = r.opt("name") ? r.at("name").str() : (index == 0 ? "host-a" : "host-b");
  if (auto mrs = r.opt("mrs")) {
    requireUnique(*mrs, "MR");
    for (std::size_t i = 0; i < mrs->size(); ++i) {
      Reader m = (*mrs)[i];
      m.onlyKeys("mr");
      MrSpec s;
      s.name = m.at("name").str();
      s.size = m.at("size").uint(1ull << 32, 1);
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
  requireUnique(cqs, "CQ");
  for (std::size_t i = 0; i < cqs.size(); ++i) {
    cqs[i].onlyKeys("cq");
    CqSpec c;
    c.name = cqs[i].at("name").str();
    if (auto d = cqs[i].opt("depth")) c.depth = static_cast<int>(d->uint(65536, 1));
    h.cqs.push_back(c);
  }
  Reader qps = r.at("qps");
  requireUnique(qps, "QP");
  for (std::size_t i = 0; i < qps.size(); ++i) {
    Reader q = qps[i];
    q.onlyKeys("qp");
    QpSpec s;
    s.name = q.at("name").str();
    static constexpr Named kTypes[] = {{"RC", 2}, {"UC", 3}, {"UD", 4}};
    s.type = static_cast<QpType>(q.at("type").oneOf(kTypes));
    s.sendCq = q.at("send_cq").str();
    requireName(q.at("send_cq"), h.cqs, s.sendCq, "CQs");
    s.recvCq = q.at("recv_cq").str();
    requireName(q.at("recv_cq"), h.cqs, s.recvCq, "CQs");
    if (auto v = q.opt("max_send_wr")) s.cap.maxSendWr = static_cast<std::uint32_t>(v->uint(kU32));
    if (auto v = q.opt("max_recv_wr")) s.cap.maxRecvWr = static_cast<std::uint32_t>(v->uint(kU32));
    if (auto v = q.opt("max_inline_data")) {
      s.cap.maxInlineData = static_cast<std::uint32_t>(v->uint(kU32));
    }
    if (auto v = q.opt("sq_sig_all")) s.sqSigAll = v->boolean();
    if (auto v = q.opt("psn")) s.psn = static_cast<std::uint32_t>(v->uint(0xffffff));
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

namespace {

/// A "comment": a string or an array of strings, for whoever reads the file.
void readComment(const Reader& r) {
  if (auto c = r.opt("comment"); c && !c->raw().is_string()) {
    if (!c->raw().is_array()) c->fail("a string or an array of strings");
    for (std::size_t i = 0; i < c->size(); ++i)
      (*c)[i].str();
  }
}

Scenario parseWith(const json& j, const std::string& file, const SourceMap* map) {
  Reader r(j, file, "", map);
  if (!j.is_object()) r.fail("a JSON object");
  r.onlyKeys("scenario");
  Scenario s;
  s.file = file;
  s.json = j;
  if (auto v = r.opt("$schema")) v->str();
  s.name = r.opt("name") ? r.at("name").str() : file;
  if (auto v = r.opt("description")) s.description = v->str();
  s.title = r.opt("title") ? r.at("title").str() : s.name;
  if (auto v = r.opt("explanation")) s.explanation = v->str();
  readComment(r);
  if (auto v = r.opt("seed")) s.seed = v->uint();
  if (auto v = r.opt("wire")) s.wire = static_cast<sim::WireFormat>(v->oneOf(kWireNames));
  if (auto l = r.opt("link")) {
    l->onlyKeys("link");
    if (auto v = l->opt("latency_us"))
      s.link.latency = micros(*v, kMaxLatencyUs, "a latency in us");
    if (auto v = l->opt("gbps")) s.link.gbps = v->number(0.001, 1e5, "a rate in Gb/s");
    if (auto v = l->opt("mtu")) s.link.mtu = static_cast<std::uint32_t>(v->uint(65535));
  }
  if (auto f = r.opt("faults")) {
    f->onlyKeys("faults");
    auto rate = [&](const char* key, double& dst) {
      if (auto v = f->opt(key)) {
        dst = v->number(0, 1, "a rate");
      }
    };
    rate("loss", s.faults.lossRate);
    rate("reorder", s.faults.reorderRate);
    rate("duplicate", s.faults.duplicateRate);
    rate("corrupt", s.faults.corruptRate);
    if (auto v = f->opt("reorder_delay_us")) {
      s.faults.reorderDelay = micros(*v, kMaxLatencyUs, "a delay in us");
    }
    if (auto v = f->opt("drop_frames")) {
      for (std::size_t i = 0; i < v->size(); ++i)
        s.faults.dropFrames.push_back((*v)[i].uint());
    }
    if (auto v = f->opt("drop_psns")) {
      for (std::size_t i = 0; i < v->size(); ++i) {
        Reader d = (*v)[i];
        d.onlyKeys("drop_psn");
        sim::FaultConfig::PsnDrop pd;
        pd.psn = static_cast<std::uint32_t>(d.at("psn").uint(0xffffff));
        if (auto h = d.opt("from")) pd.fromHost = hostIndex(*h);
        if (auto c = d.opt("count")) pd.count = static_cast<int>(c->uint(1000));
        if (auto o = d.opt("occurrence")) pd.occurrence = static_cast<int>(o->uint(1000000));
        s.faults.dropPsns.push_back(pd);
      }
    }
    if (auto v = f->opt("pauses")) {
      for (std::size_t i = 0; i < v->size(); ++i) {
        Reader p = (*v)[i];
        p.onlyKeys("pause");
        s.faults.pauses.push_back({micros(p.at("start_us"), kMaxRunUs, "a time in us"),
                                   micros(p.at("duration_us"), kMaxRunUs, "a duration in us")});
      }
    }
    if (auto v = f->opt("only_from")) s.faults.onlyFromHost = hostIndex(*v);
  }
  Reader hosts = r.at("hosts");
  if (hosts.size() != 2) hosts.fail("an array of exactly two hosts");
  for (int i = 0; i < 2; ++i)
    s.hosts[i] = readHost(hosts[static_cast<std::size_t>(i)], i);
  if (s.hosts[0].name == s.hosts[1].name) {
    const Reader second = hosts[1];
    (second.has("name") ? second.at("name") : second)
        .failWith("duplicate host name \"" + s.hosts[1].name + "\" (already /hosts/0" +
                  (hosts[0].has("name") ? "/name)" : ", by default)"));
  }

  Reader steps = r.at("steps");
  for (std::size_t i = 0; i < steps.size(); ++i) {
    Reader st = steps[i];
    st.onlyKeys("step");
    std::vector<std::string_view> kinds;
    for (std::string_view k : stepKinds())
      if (st.has(std::string(k).c_str())) kinds.push_back(k);
    if (kinds.size() > 1) {
      // Appended piecewise: gcc 12 at -O3 warns falsely (-Wrestrict) on literal + string&&.
      std::string both = "a step does one thing: it has both ";
      both.append(kinds[0]).append(" and ").append(kinds[1]);
      st.failWith(both);
    }
    Step step;
    step.path = st.path();
    if (auto t = st.opt("title")) step.title = t->str();
    if (auto t = st.opt("explanation")) step.explanation = t->str();
    readComment(st);
    if (auto h = st.opt("host")) step.host = hostIndex(*h);
    const HostSpec& host = s.hosts[step.host];
    if (auto e = st.opt("expect_error")) step.expectErrno = static_cast<int>(e->oneOf(kErrnoNames));
    if (auto v = st.opt("modify_qp")) {
      step.action = readModify(*v, host);
    } else if (auto v2 = st.opt("post_send")) {
      step.action = readPostSend(*v2, host);
    } else if (auto v3 = st.opt("post_recv")) {
      v3->onlyKeys("post_recv");
      PostRecvStep p;
      p.qp = v3->at("qp").str();
      requireName(v3->at("qp"), host.qps, p.qp, "QPs");
      if (auto w = v3->opt("wr_id")) p.wrId = w->uint();
      p.sges = readSges(v3->at("sge"));
      for (std::size_t k = 0; k < p.sges.size(); ++k) {
        requireName(v3->at("sge")[k].at("mr"), host.mrs, p.sges[k].mr, "MRs");
      }
      step.action = p;
    } else if (auto v4 = st.opt("poll_cq")) {
      step.action = readPoll(*v4, host);
    } else if (auto v5 = st.opt("exchange")) {
      v5->onlyKeys("exchange");
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
      step.action = RunStep{std::chrono::microseconds(v6->uint(kMaxRunUs))};
    } else if (auto v7 = st.opt("compare_memory")) {
      v7->onlyKeys("compare_memory");
      CompareMemoryStep c;
      c.hostA = hostIndex(v7->at("host_a"));
      c.mrA = v7->at("mr_a").str();
      requireName(v7->at("mr_a"), s.hosts[c.hostA].mrs, c.mrA, "MRs");
      if (auto o = v7->opt("offset_a")) c.offsetA = o->uint();
      c.hostB = hostIndex(v7->at("host_b"));
      c.mrB = v7->at("mr_b").str();
      requireName(v7->at("mr_b"), s.hosts[c.hostB].mrs, c.mrB, "MRs");
      if (auto o = v7->opt("offset_b")) c.offsetB = o->uint();
      c.length = v7->at("length").uint();
      // Written so that offset + length cannot wrap around 2^64.
      auto inside = [&](int h, const std::string& mr, std::uint64_t offset) {
        std::uint64_t size = 0;
        for (const MrSpec& m : s.hosts[h].mrs)
          if (m.name == mr) size = m.size;
        if (c.length > size || offset > size - c.length)
          v7->failWith(s.hosts[h].name + ":" + mr + " has " + std::to_string(size) +
                       " bytes: offset " + std::to_string(offset) + " length " +
                       std::to_string(c.length) + " lies outside");
      };
      inside(c.hostA, c.mrA, c.offsetA);
      inside(c.hostB, c.mrB, c.offsetB);
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

/// nlohmann's message without its "[json.exception.parse_error.101] parse error at line 1,
/// column 3: " (the position is given as file:line:column instead).
std::string syntaxMessage(const json::exception& e) {
  std::string why = e.what();
  if (why.rfind("[json.exception.", 0) == 0 && why.find("] ") != std::string::npos)
    why = why.substr(why.find("] ") + 2);
  if (why.rfind("parse error", 0) == 0) {
    const std::size_t column = why.find("column ");
    const std::size_t colon = why.find(": ", column == std::string::npos ? 0 : column);
    if (colon != std::string::npos) why = why.substr(colon + 2);
  }
  if (why.size() > 200) why = why.substr(0, 197) + "...";
  return why;
}

}  // namespace

Scenario parseScenario(const json& j, const std::string& file) {
  requireShallow(j, file);
  return parseWith(j, file, nullptr);
}

Scenario parseScenarioText(std::string_view text, const std::string& file) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    // e.byte: 1-based, the last character read (the one that does not fit).
    const TextPos at = positionOf(text, tokenStart(text, e.byte == 0 ? 0 : e.byte - 1));
    throw ScenarioError(where(file, &at) + ": not valid JSON: " + syntaxMessage(e));
  } catch (const json::exception& e) {
    throw ScenarioError(file + ": not valid JSON: " + syntaxMessage(e));
  }
  requireShallow(j, file);
  const SourceMap map = locate(text);
  return parseWith(j, file, &map);
}

Scenario loadScenarioFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ScenarioError(path + ": cannot be opened: " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw ScenarioError(path + ": cannot be read: " + std::strerror(errno));
  return parseScenarioText(text.str(), path);
}

namespace {

/// The format object a key's value (or its array's elements) is, by the key's name.
std::string_view objectOfKey(const std::string& key) {
  static const std::map<std::string, std::string_view, std::less<>> objects = {
      {"link", "link"},
      {"faults", "faults"},
      {"drop_psns", "drop_psn"},
      {"pauses", "pause"},
      {"hosts", "host"},
      {"mrs", "mr"},
      {"cqs", "cq"},
      {"qps", "qp"},
      {"steps", "step"},
      {"modify_qp", "modify_qp"},
      {"av", "av"},
      {"post_send", "post_send"},
      {"sge", "sge"},
      {"post_recv", "post_recv"},
      {"poll_cq", "poll_cq"},
      {"expect", "completion"},
      {"exchange", "exchange"},
      {"compare_memory", "compare_memory"}};
  const auto it = objects.find(key);
  return it == objects.end() ? std::string_view() : it->second;
}

/// `value` with the keys of each object in the order the format lists them (a file reads
/// name, description, hosts, steps; a step host, narration, action), others after them.
nlohmann::ordered_json inFormatOrder(const json& value, std::string_view object) {
  if (value.is_array()) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const json& v : value)
      out.push_back(inFormatOrder(v, object));
    return out;
  }
  if (!value.is_object()) return nlohmann::ordered_json(value);
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  if (const FormatObject* format = formatObject(object)) {
    for (const FormatField& f : format->fields) {
      const std::string key(f.key);
      if (value.contains(key)) out[key] = inFormatOrder(value.at(key), objectOfKey(key));
    }
  }
  for (auto it = value.begin(); it != value.end(); ++it)
    if (!out.contains(it.key())) out[it.key()] = inFormatOrder(*it, objectOfKey(it.key()));
  return out;
}

}  // namespace

std::string scenarioJsonText(const json& scenario) {
  return inFormatOrder(scenario, "scenario").dump(2, ' ', false, json::error_handler_t::replace) +
         "\n";
}

std::string quoteJson(const json& value, std::size_t limit) {
  std::string out;
  quoteInto(value, out, limit);
  if (out.size() > limit) out = out.substr(0, limit > 3 ? limit - 3 : 0) + "...";
  return out;
}

}  // namespace rdmascope::verbs_backend
