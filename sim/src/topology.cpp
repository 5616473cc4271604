#include "rdmascope/sim/topology.h"

#include <fmt/format.h>

#include <fstream>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <stdexcept>

namespace rdmascope::sim {

namespace {

using Json = nlohmann::json;

/// A one-line error about the value at a JSON pointer.
struct BadValue : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string show(const Json& v) {
  std::string s = v.dump();
  if (s.size() > 40) s = s.substr(0, 37) + "...";
  return s;
}

/// An object at `path` whose keys are checked against the ones a reader asks for.
class Obj {
 public:
  Obj(const Json& j, std::string path, std::initializer_list<const char*> keys)
      : j_(j), path_(std::move(path)) {
    if (!j.is_object())
      throw BadValue(fmt::format("{}: expected an object, got {}", where(), show(j)));
    std::set<std::string> known(keys.begin(), keys.end());
    for (const auto& [k, v] : j.items()) {
      if (!known.count(k)) throw BadValue(fmt::format("{}/{}: unknown key", path_, k));
    }
  }
  std::string where() const { return path_.empty() ? "/" : path_; }
  std::string at(const char* key) const { return path_ + "/" + key; }
  bool has(const char* key) const { return j_.contains(key); }
  const Json& raw(const char* key) const { return j_.at(key); }

  double number(const char* key, double def, double lo, double hi) const {
    if (!has(key)) return def;
    const Json& v = j_.at(key);
    if (!v.is_number())
      throw BadValue(fmt::format("{}: expected a number, got {}", at(key), show(v)));
    const double d = v.get<double>();
    if (d < lo || d > hi)
      throw BadValue(fmt::format("{}: {} is outside {}..{}", at(key), show(v), lo, hi));
    return d;
  }
  std::uint64_t integer(const char* key, std::uint64_t def, std::uint64_t lo,
                        std::uint64_t hi) const {
    if (!has(key)) return def;
    const Json& v = j_.at(key);
    if (!v.is_number_integer() || (v.is_number_integer() && v.get<std::int64_t>() < 0))
      throw BadValue(fmt::format("{}: expected a whole number >= 0, got {}", at(key), show(v)));
    const auto n = v.get<std::uint64_t>();
    if (n < lo || n > hi)
      throw BadValue(fmt::format("{}: {} is outside {}..{}", at(key), n, lo, hi));
    return n;
  }
  bool boolean(const char* key, bool def) const {
    if (!has(key)) return def;
    const Json& v = j_.at(key);
    if (!v.is_boolean())
      throw BadValue(fmt::format("{}: expected true or false, got {}", at(key), show(v)));
    return v.get<bool>();
  }
  std::string text(const char* key, const std::string& def, bool required = false) const {
    if (!has(key)) {
      if (required) throw BadValue(fmt::format("{}: missing key \"{}\"", where(), key));
      return def;
    }
    const Json& v = j_.at(key);
    if (!v.is_string())
      throw BadValue(fmt::format("{}: expected a string, got {}", at(key), show(v)));
    return v.get<std::string>();
  }
  SimTime micros(const char* key, SimTime def, double hiUs) const {
    if (!has(key)) return def;
    const double us = number(key, 0, 0, hiUs);
    return SimTime::ps(static_cast<std::int64_t>(us * 1e6 + 0.5));
  }
  const Json& array(const char* key) const {
    const Json& v = j_.at(key);
    if (!v.is_array())
      throw BadValue(fmt::format("{}: expected an array, got {}", at(key), show(v)));
    return v;
  }

 private:
  const Json& j_;
  std::string path_;
};

void star(ScenarioSpec& s, const Obj& t) {
  const auto hosts = t.integer("hosts", 2, 2, 1024);
  const double gbps = t.number("gbps", 100, 0.001, 1600);
  const SimTime delay = t.micros("delayUs", SimTime::us(1), 1e6);
  s.nodes.push_back({"s0", true});
  for (std::uint64_t i = 0; i < hosts; ++i) {
    s.nodes.push_back({fmt::format("h{}", i), false});
    s.links.push_back({fmt::format("h{}", i), "s0", gbps, delay});
  }
}

void leafSpine(ScenarioSpec& s, const Obj& t) {
  const auto leaves = t.integer("leaves", 2, 1, 256);
  const auto spines = t.integer("spines", 2, 1, 256);
  const auto perLeaf = t.integer("hostsPerLeaf", 2, 1, 256);
  const double gbps = t.number("gbps", 100, 0.001, 1600);
  const double up = t.number("uplinkGbps", gbps, 0.001, 1600);
  const SimTime delay = t.micros("delayUs", SimTime::us(1), 1e6);
  for (std::uint64_t l = 0; l < leaves; ++l)
    s.nodes.push_back({fmt::format("l{}", l), true});
  for (std::uint64_t p = 0; p < spines; ++p)
    s.nodes.push_back({fmt::format("sp{}", p), true});
  int h = 0;
  for (std::uint64_t l = 0; l < leaves; ++l) {
    for (std::uint64_t i = 0; i < perLeaf; ++i, ++h) {
      s.nodes.push_back({fmt::format("h{}", h), false});
      s.links.push_back({fmt::format("h{}", h), fmt::format("l{}", l), gbps, delay});
    }
  }
  for (std::uint64_t l = 0; l < leaves; ++l)
    for (std::uint64_t p = 0; p < spines; ++p)
      s.links.push_back({fmt::format("l{}", l), fmt::format("sp{}", p), up, delay});
}

void topology(ScenarioSpec& s, const Json& j) {
  const Obj t(j, "/topology",
              {"shape", "hosts", "gbps", "uplinkGbps", "delayUs", "leaves", "spines",
               "hostsPerLeaf", "nodes", "links"});
  if (t.has("shape")) {
    const std::string shape = t.text("shape", "");
    if (t.has("nodes") || t.has("links"))
      throw BadValue("/topology: a \"shape\" and listed \"nodes\"/\"links\" exclude each other");
    if (shape == "star") return star(s, t);
    if (shape == "leaf-spine") return leafSpine(s, t);
    throw BadValue(fmt::format("/topology/shape: \"{}\" is not star or leaf-spine", shape));
  }
  if (!t.has("nodes") || !t.has("links"))
    throw BadValue("/topology: needs a \"shape\", or \"nodes\" and \"links\"");
  const Json& nodes = t.array("nodes");
  std::set<std::string> names;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const Obj n(nodes[i], fmt::format("/topology/nodes/{}", i), {"name", "type"});
    NodeSpec spec;
    spec.name = n.text("name", "", true);
    const std::string type = n.text("type", "", true);
    if (type != "host" && type != "switch")
      throw BadValue(fmt::format("{}: \"{}\" is not host or switch", n.at("type"), type));
    if (spec.name.empty() || spec.name.find(':') != std::string::npos)
      throw BadValue(fmt::format("{}: \"{}\" is not a usable name (empty or with ':')",
                                 n.at("name"), spec.name));
    if (!names.insert(spec.name).second)
      throw BadValue(fmt::format("{}: \"{}\" is named twice", n.at("name"), spec.name));
    spec.isSwitch = type == "switch";
    s.nodes.push_back(spec);
  }
  const Json& links = t.array("links");
  for (std::size_t i = 0; i < links.size(); ++i) {
    const Obj l(links[i], fmt::format("/topology/links/{}", i), {"a", "b", "gbps", "delayUs"});
    LinkSpec spec;
    spec.a = l.text("a", "", true);
    spec.b = l.text("b", "", true);
    for (const char* k : {"a", "b"}) {
      const std::string& n = std::string(k) == "a" ? spec.a : spec.b;
      if (!names.count(n)) throw BadValue(fmt::format("{}: \"{}\" is no node", l.at(k), n));
    }
    if (spec.a == spec.b)
      throw BadValue(fmt::format("{}: a link from \"{}\" to itself", l.at("b"), spec.a));
    spec.gbps = l.number("gbps", 100, 0.001, 1600);
    spec.delay = l.micros("delayUs", SimTime::us(1), 1e6);
    s.links.push_back(spec);
  }
}

const NodeSpec* findNode(const ScenarioSpec& s, const std::string& name) {
  for (const auto& n : s.nodes)
    if (n.name == name) return &n;
  return nullptr;
}

void switchSettings(ScenarioSpec& s, const Json& j) {
  const Obj o(j, "/switch",
              {"bufferBytes", "reserveBytes", "pfc", "xoff", "xoffBytes", "alpha", "xonOffsetBytes",
               "pauseQuanta", "headroomBytes", "losslessPriorities", "ecn", "classify"});
  SwitchSettings& w = s.switches;
  w.buffer.bufferBytes = o.integer("bufferBytes", w.buffer.bufferBytes, 1024, 1ull << 34);
  w.buffer.reserve = o.integer("reserveBytes", w.buffer.reserve, 0, 1ull << 30);
  w.pfc = o.boolean("pfc", w.pfc);
  const std::string xoff = o.text("xoff", "dynamic");
  if (xoff != "dynamic" && xoff != "static")
    throw BadValue(fmt::format("/switch/xoff: \"{}\" is not dynamic or static", xoff));
  w.buffer.pfc.dynamic = xoff == "dynamic";
  w.buffer.pfc.alpha = o.number("alpha", w.buffer.pfc.alpha, 1.0 / 1024, 64);
  w.buffer.pfc.xoff = o.integer("xoffBytes", w.buffer.pfc.xoff, 0, 1ull << 34);
  w.buffer.pfc.xonOffset = o.integer("xonOffsetBytes", w.buffer.pfc.xonOffset, 0, 1ull << 34);
  w.pauseQuanta = static_cast<std::uint16_t>(o.integer("pauseQuanta", w.pauseQuanta, 1, 0xffff));
  if (o.has("headroomBytes")) w.headroom = o.integer("headroomBytes", 0, 0, 1ull << 34);
  if (o.has("losslessPriorities")) {
    const Json& a = o.array("losslessPriorities");
    w.buffer.lossless.fill(false);
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (!a[i].is_number_integer() || a[i].get<int>() < 0 || a[i].get<int>() > 7)
        throw BadValue(
            fmt::format("/switch/losslessPriorities/{}: {} is not a priority 0..7", i, show(a[i])));
      w.buffer.lossless[a[i].get<std::size_t>()] = true;
    }
  }
  if (!w.pfc) w.buffer.lossless.fill(false);
  if (o.has("ecn")) {
    const Json& e = o.raw("ecn");
    if (e.is_boolean()) {
      w.ecn = e.get<bool>();
    } else {
      const Obj eo(e, "/switch/ecn", {"kminBytes", "kmaxBytes", "pmax"});
      w.ecn = true;
      w.marking.kmin = eo.integer("kminBytes", w.marking.kmin, 0, 1ull << 34);
      w.marking.kmax = eo.integer("kmaxBytes", w.marking.kmax, 0, 1ull << 34);
      w.marking.pmax = eo.number("pmax", w.marking.pmax, 0, 1);
      if (w.marking.kmax < w.marking.kmin)
        throw BadValue(fmt::format("/switch/ecn/kmaxBytes: {} is below kminBytes {}",
                                   w.marking.kmax, w.marking.kmin));
    }
  }
  const std::string cls = o.text("classify", "dscp");
  if (cls != "dscp" && cls != "pcp")
    throw BadValue(fmt::format("/switch/classify: \"{}\" is not dscp or pcp", cls));
  w.classifyByPcp = cls == "pcp";
}

void nicSettings(ScenarioSpec& s, const Json& j) {
  const Obj o(j, "/nic",
              {"dcqcn", "g", "alphaTimerUs", "rateTimerUs", "byteCounter", "fastRecoverySteps",
               "rateAiMbps", "rateHaiMbps", "minRateMbps", "cnpIntervalUs", "cnpDscp"});
  NicSettings& n = s.nics;
  n.dcqcn = o.boolean("dcqcn", n.dcqcn);
  DcqcnParams& p = n.params;
  p.g = o.number("g", p.g, 0, 1);
  p.alphaTimer = o.micros("alphaTimerUs", p.alphaTimer, 1e6);
  p.rateTimer = o.micros("rateTimerUs", p.rateTimer, 1e6);
  if (p.alphaTimer == SimTime() || p.rateTimer == SimTime())
    throw BadValue("/nic: alphaTimerUs and rateTimerUs must be above 0");
  p.byteCounter = o.integer("byteCounter", p.byteCounter, 1, 1ull << 40);
  p.fastRecoverySteps = static_cast<int>(o.integer("fastRecoverySteps", 5, 0, 1000));
  p.rateAiGbps = o.number("rateAiMbps", p.rateAiGbps * 1000, 0, 1e6) / 1000;
  p.rateHaiGbps = o.number("rateHaiMbps", p.rateHaiGbps * 1000, 0, 1e6) / 1000;
  p.minRateGbps = o.number("minRateMbps", p.minRateGbps * 1000, 0.001, 1e6) / 1000;
  p.cnpInterval = o.micros("cnpIntervalUs", p.cnpInterval, 1e6);
  n.cnpDscp = static_cast<int>(o.integer("cnpDscp", static_cast<std::uint64_t>(n.cnpDscp), 0, 63));
}

void flows(ScenarioSpec& s, const Json& a) {
  for (std::size_t i = 0; i < a.size(); ++i) {
    const std::string path = fmt::format("/flows/{}", i);
    const Obj f(a[i], path,
                {"name", "src", "dst", "dscp", "startUs", "bytes", "messageBytes", "depth"});
    FlowSpec spec;
    spec.src = f.text("src", "", true);
    spec.dst = f.text("dst", "", true);
    spec.name = f.text("name", spec.src + "->" + spec.dst);
    for (const char* k : {"src", "dst"}) {
      const std::string& n = std::string(k) == "src" ? spec.src : spec.dst;
      const NodeSpec* node = findNode(s, n);
      if (!node) throw BadValue(fmt::format("{}: \"{}\" is no node", f.at(k), n));
      if (node->isSwitch)
        throw BadValue(fmt::format("{}: \"{}\" is a switch, not a host", f.at(k), n));
    }
    if (spec.src == spec.dst)
      throw BadValue(fmt::format("{}: a flow from \"{}\" to itself", f.at("dst"), spec.src));
    spec.dscp = static_cast<int>(f.integer("dscp", 26, 0, 63));
    spec.start = f.micros("startUs", SimTime(), 1e9);
    spec.bytes = f.integer("bytes", 0, 0, 1ull << 44);
    spec.messageBytes =
        static_cast<std::uint32_t>(f.integer("messageBytes", spec.messageBytes, 1, 1u << 30));
    spec.depth = static_cast<int>(f.integer("depth", 4, 1, 256));
    s.flows.push_back(spec);
  }
}

void routes(ScenarioSpec& s, const Json& a) {
  for (std::size_t i = 0; i < a.size(); ++i) {
    const Obj r(a[i], fmt::format("/routes/{}", i), {"at", "to", "via"});
    RouteSpec spec{r.text("at", "", true), r.text("to", "", true), r.text("via", "", true)};
    const NodeSpec* at = findNode(s, spec.at);
    if (!at || !at->isSwitch)
      throw BadValue(fmt::format("{}: \"{}\" is no switch", r.at("at"), spec.at));
    const NodeSpec* to = findNode(s, spec.to);
    if (!to || to->isSwitch)
      throw BadValue(fmt::format("{}: \"{}\" is no host", r.at("to"), spec.to));
    bool linked = false;
    for (const auto& l : s.links)
      linked |= (l.a == spec.at && l.b == spec.via) || (l.b == spec.at && l.a == spec.via);
    if (!linked)
      throw BadValue(
          fmt::format("{}: \"{}\" is not linked to \"{}\"", r.at("via"), spec.via, spec.at));
    s.routes.push_back(spec);
  }
}

ScenarioSpec parse(const Json& j) {
  ScenarioSpec s;
  const Obj o(j, "",
              {"$schema", "name", "description", "explanation", "topology", "routes", "switch",
               "nic", "flows", "durationUs", "sampleIntervalUs", "linkMtu", "qpTimeout", "seed",
               "capture", "detectDeadlock"});
  s.name = o.text("name", "scenario");
  s.description = o.text("description", "");
  if (o.has("explanation")) {
    const Json& e = o.array("explanation");
    for (std::size_t i = 0; i < e.size(); ++i) {
      if (!e[i].is_string()) throw BadValue(fmt::format("/explanation/{}: expected a string", i));
      s.explanation.push_back(e[i].get<std::string>());
    }
  }
  if (!o.has("topology")) throw BadValue("/: missing key \"topology\"");
  topology(s, o.raw("topology"));
  if (o.has("routes")) routes(s, o.array("routes"));
  if (o.has("switch")) switchSettings(s, o.raw("switch"));
  if (o.has("nic")) nicSettings(s, o.raw("nic"));
  if (!o.has("flows")) throw BadValue("/: missing key \"flows\"");
  flows(s, o.array("flows"));
  s.duration = o.micros("durationUs", s.duration, 1e7);
  if (s.duration == SimTime()) throw BadValue("/durationUs: must be above 0");
  s.sampleInterval = o.micros("sampleIntervalUs", s.sampleInterval, 1e7);
  if (s.sampleInterval < SimTime::ns(100))
    throw BadValue("/sampleIntervalUs: must be at least 0.1");
  s.linkMtu = static_cast<std::uint32_t>(o.integer("linkMtu", s.linkMtu, 576, 9216));
  s.qpTimeout = static_cast<std::uint8_t>(o.integer("qpTimeout", s.qpTimeout, 1, 31));
  s.seed = o.integer("seed", s.seed, 0, UINT64_MAX);
  s.detectDeadlock = o.boolean("detectDeadlock", s.detectDeadlock);
  if (o.has("capture")) {
    const Json& c = o.array("capture");
    for (std::size_t i = 0; i < c.size(); ++i) {
      const std::string path = fmt::format("/capture/{}", i);
      if (!c[i].is_string()) throw BadValue(path + ": expected a port such as \"s0:1\" or \"h0\"");
      auto ref = parsePortRef(c[i].get<std::string>());
      const NodeSpec* n = ref ? findNode(s, ref->node) : nullptr;
      if (!n) throw BadValue(fmt::format("{}: {} names no port of a node", path, show(c[i])));
      s.capture.push_back(*ref);
    }
  }
  return s;
}

}  // namespace

std::optional<PortRef> parsePortRef(const std::string& text) {
  PortRef r;
  const auto colon = text.find(':');
  r.node = text.substr(0, colon);
  if (r.node.empty()) return std::nullopt;
  if (colon == std::string::npos) return r;
  const std::string num = text.substr(colon + 1);
  if (num.empty() || num.size() > 4 || num.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  r.port = std::stoi(num);
  return r;
}

std::optional<ScenarioSpec> parseScenario(const std::string& json, std::string& error) {
  Json j;
  try {
    j = Json::parse(json);
  } catch (const Json::parse_error& e) {
    error = fmt::format("not valid JSON at byte {}", e.byte);
    return std::nullopt;
  }
  try {
    return parse(j);
  } catch (const BadValue& e) {
    error = e.what();
  } catch (const Json::exception& e) {
    error = e.what();
  }
  return std::nullopt;
}

std::optional<ScenarioSpec> loadScenario(const std::string& path, std::string& error) {
  std::ifstream in(path);
  if (!in) {
    error = fmt::format("cannot read {}", path);
    return std::nullopt;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  auto s = parseScenario(ss.str(), error);
  if (!s) error = fmt::format("{}: {}", path, error);
  return s;
}

}  // namespace rdmascope::sim
