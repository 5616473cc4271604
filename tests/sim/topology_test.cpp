// Reading fabric scenarios: shapes, listed topologies, and one-line errors naming the key.
#include "rdmascope/sim/topology.h"

#include <gtest/gtest.h>

#include <string>

namespace rdmascope::sim {
namespace {

std::string errorOf(const std::string& json) {
  std::string error;
  EXPECT_FALSE(parseScenario(json, error).has_value()) << json;
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  return error;
}

TEST(Topology, StarShapeMakesOneSwitchAndItsHosts) {
  std::string error;
  auto s = parseScenario(
      R"({"topology": {"shape": "star", "hosts": 3, "gbps": 25, "delayUs": 2},
          "flows": [{"src": "h0", "dst": "h2", "dscp": 24, "startUs": 5}]})",
      error);
  ASSERT_TRUE(s) << error;
  ASSERT_EQ(s->nodes.size(), 4u);
  EXPECT_TRUE(s->nodes[0].isSwitch);
  ASSERT_EQ(s->links.size(), 3u);
  EXPECT_EQ(s->links[2].a, "h2");
  EXPECT_EQ(s->links[2].gbps, 25);
  EXPECT_EQ(s->links[2].delay, SimTime::us(2));
  ASSERT_EQ(s->flows.size(), 1u);
  EXPECT_EQ(s->flows[0].name, "h0->h2");
  EXPECT_EQ(s->flows[0].dscp, 24);
  EXPECT_EQ(s->flows[0].start, SimTime::us(5));
}

TEST(Topology, LeafSpineLinksEveryLeafToEverySpine) {
  std::string error;
  auto s = parseScenario(
      R"({"topology": {"shape": "leaf-spine", "leaves": 3, "spines": 2, "hostsPerLeaf": 2},
          "flows": []})",
      error);
  ASSERT_TRUE(s) << error;
  EXPECT_EQ(s->nodes.size(), 3u + 2u + 6u);
  EXPECT_EQ(s->links.size(), 6u + 6u);
}

TEST(Topology, ErrorsNameTheKeyAndTheValue) {
  EXPECT_EQ(errorOf(R"({"topology": {"shape": "ring"}, "flows": []})"),
            "/topology/shape: \"ring\" is not star or leaf-spine");
  EXPECT_EQ(
      errorOf(
          R"({"topology": {"shape": "star", "hosts": 2}, "flows": [{"src": "h0", "dst": "h7"}]})"),
      "/flows/0/dst: \"h7\" is no node");
  EXPECT_EQ(
      errorOf(R"({"topology": {"shape": "star"}, "flows": [], "switch": {"bufferBytes": "big"}})"),
      "/switch/bufferBytes: expected a whole number >= 0, got \"big\"");
  EXPECT_EQ(
      errorOf(R"({"topology": {"shape": "star"}, "flows": [], "switch": {"ecn": {"pmax": 2}}})"),
      "/switch/ecn/pmax: 2 is outside 0..1");
  EXPECT_EQ(errorOf(R"({"topology": {"shape": "star"}, "flows": [], "nic": {"dcqnc": true}})"),
            "/nic/dcqnc: unknown key");
  EXPECT_EQ(errorOf(R"({"topology": {"shape": "star"}, "flows": [{"src": "s0", "dst": "h1"}]})"),
            "/flows/0/src: \"s0\" is a switch, not a host");
  EXPECT_EQ(
      errorOf(
          R"({"topology": {"nodes": [{"name": "a", "type": "router"}], "links": []}, "flows": []})"),
      "/topology/nodes/0/type: \"router\" is not host or switch");
  EXPECT_EQ(errorOf(R"({"topology": {"shape": "star"}, "flows": [], "capture": ["s9:1"]})"),
            "/capture/0: \"s9:1\" names no port of a node");
  EXPECT_EQ(errorOf(R"({"topology": {"shape": "star"}})"), "/: missing key \"flows\"");
  EXPECT_EQ(errorOf(R"({"topology": {"shape": "star"}, "flows": [)"), "not valid JSON at byte 43");
}

TEST(Topology, PortReferences) {
  auto a = parsePortRef("s0:12");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->node, "s0");
  EXPECT_EQ(a->port, 12);
  auto b = parsePortRef("h3");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->port, 0);
  EXPECT_FALSE(parsePortRef("s0:x"));
  EXPECT_FALSE(parsePortRef(":1"));
}

}  // namespace
}  // namespace rdmascope::sim
