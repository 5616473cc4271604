// What an observer makes of the fabric's datagrams: the welcome (the fabric, the programs
// attached, the pause) and the events and frames that follow; malformed ones are refused.
#include "rdmascope/simdev/fabric_observer.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "rdmascope/simdev/fabric_protocol.h"

namespace rdmascope::simdev {
namespace {

nlohmann::json fabricOfTwo() {
  FabricInfo info;
  info.hosts = {fabricHost(1), fabricHost(2)};
  info.deviceName = "rdmascope0";
  return toJson(info);
}

TEST(FabricObserverDecode, TheWelcomeNamesTheAttachedProgramsAndThePause) {
  nlohmann::json hello = fabricOfTwo();
  hello["attached"] = nlohmann::json::array({{{"host", 2}, {"program", "rping"}, {"pid", 4242}},
                                             {{"host", 3}, {"program", "no such host"}, {"pid", 1}},
                                             {{"program", "no host"}},
                                             "not an object"});
  hello["paused"] = true;
  std::string error;
  const auto w = decodeObserverWelcome(encodeMessage(MessageType::Observing, hello), error);
  ASSERT_TRUE(w) << error;
  EXPECT_EQ(w->info.self, 0);
  EXPECT_EQ(w->info.hosts.size(), 2u);
  EXPECT_TRUE(w->paused);
  ASSERT_EQ(w->attached.size(), 1u);
  EXPECT_EQ(w->attached[0].host, 2);
  EXPECT_EQ(w->attached[0].program, "rping");
  EXPECT_EQ(w->attached[0].pid, 4242);

  hello.erase("paused");
  hello.erase("attached");
  const auto idle = decodeObserverWelcome(encodeMessage(MessageType::Observing, hello), error);
  ASSERT_TRUE(idle) << error;
  EXPECT_FALSE(idle->paused);
  EXPECT_TRUE(idle->attached.empty());
}

TEST(FabricObserverDecode, AnythingButAWelcomeIsRefusedWithOneLine) {
  std::string error;
  EXPECT_FALSE(decodeObserverWelcome(encodeMessage(MessageType::Welcome, fabricOfTwo()), error));
  EXPECT_EQ(error, "the answer is not the fabric's welcome of an observer");
  nlohmann::json noHosts = fabricOfTwo();
  noHosts.erase("hosts");
  EXPECT_FALSE(decodeObserverWelcome(encodeMessage(MessageType::Observing, noHosts), error));
  EXPECT_EQ(error, "the fabric's welcome has no host list");
  const std::vector<std::uint8_t> notJson = {static_cast<std::uint8_t>(MessageType::Observing),
                                             '{'};
  EXPECT_FALSE(decodeObserverWelcome(notJson, error));
  EXPECT_EQ(error.find('\n'), std::string::npos);
  EXPECT_FALSE(decodeObserverWelcome({}, error));
}

TEST(FabricObserverDecode, FramesAndEvents) {
  std::vector<std::uint8_t> frame = {static_cast<std::uint8_t>(MessageType::ObservedFrame), 2};
  for (int i = 0; i < 8; ++i)
    frame.push_back(static_cast<std::uint8_t>(i == 0 ? 0x10 : i == 1 ? 0x27 : 0));  // 10000 ns
  frame.push_back(1);                                                               // held
  frame.insert(frame.end(), {0xaa, 0xbb, 0xcc});
  const auto f = decodeObserverEvent(frame);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->kind, FabricEvent::Kind::Frame);
  EXPECT_EQ(f->host, 2);
  EXPECT_EQ(f->timeNs, 10000);
  EXPECT_TRUE(f->held);
  EXPECT_EQ(f->bytes, (std::vector<std::uint8_t>{0xaa, 0xbb, 0xcc}));
  frame.resize(10);  // shorter than its header
  EXPECT_FALSE(decodeObserverEvent(frame));

  const auto attached = decodeObserverEvent(encodeMessage(
      MessageType::Event,
      nlohmann::json{{"kind", "attached"}, {"host", 1}, {"program", "ib_send_bw"}, {"pid", 7}}));
  ASSERT_TRUE(attached);
  EXPECT_EQ(attached->kind, FabricEvent::Kind::Attached);
  EXPECT_EQ(attached->host, 1);
  EXPECT_EQ(attached->program, "ib_send_bw");
  EXPECT_EQ(attached->pid, 7);
  HostState state;
  state.host = 1;
  state.program = "ib_send_bw";
  state.pid = 7;
  state.pds = {1};
  const auto s = decodeObserverEvent(
      encodeMessage(MessageType::Event,
                    nlohmann::json{{"kind", "state"}, {"host", 1}, {"state", toJson(state)}}));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->kind, FabricEvent::Kind::State);
  EXPECT_EQ(s->state.pds, std::vector<std::uint32_t>{1});
  EXPECT_FALSE(decodeObserverEvent(encodeMessage(
      MessageType::Event, nlohmann::json{{"kind", "state"}, {"host", 1}, {"state", "broken"}})));
  EXPECT_FALSE(decodeObserverEvent(
      encodeMessage(MessageType::Event, nlohmann::json{{"kind", "unheard of"}})));
  EXPECT_FALSE(decodeObserverEvent(encodeMessage(MessageType::Log, nlohmann::json{{"line", "x"}})));
  // Found by fuzz_fabric_messages: a kind that is not a string threw out of the observer.
  const std::string numberKind = R"({"kind":2555555555555555555.5555555555555555550000})";
  std::vector<std::uint8_t> event = {static_cast<std::uint8_t>(MessageType::Event)};
  event.insert(event.end(), numberKind.begin(), numberKind.end());
  EXPECT_FALSE(decodeObserverEvent(event));
}

}  // namespace
}  // namespace rdmascope::simdev
