#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <optional>

#include "cli_runner.h"
#include "rdmascope/packets/ib_builder.h"
#include "rdmascope/packets/mac_control.h"
#include "rdmascope/packets_io/capture_writer.h"

namespace rdmascope::cli::test {
namespace {

using packets::IbOpcode;

packets::IbPacket ibPacket(IbOpcode op, std::uint32_t qp, std::uint32_t psn,
                           std::size_t payload = 0) {
  packets::IbPacket p;
  p.bth.opcode = static_cast<std::uint8_t>(op);
  p.bth.destQp = qp;
  p.bth.psn = psn;
  if (op == IbOpcode::RcAcknowledge) p.aeth = packets::Aeth::ack(0);
  p.payload.assign(payload, 0x42);
  return p;
}

// The frames as a pcap, or as a pcapng with interface statistics when `capturedDrops` is set.
std::string writeFrames(const std::string& name,
                        const std::vector<std::vector<std::uint8_t>>& frames,
                        std::optional<std::uint64_t> capturedDrops = std::nullopt) {
  const std::string path = tempPath(name);
  std::string error;
  auto w = packets_io::CaptureWriter::open(
      path, packets::LinkType::Ethernet, error,
      capturedDrops ? packets_io::CaptureFormat::Pcapng : packets_io::CaptureFormat::Pcap);
  EXPECT_TRUE(w) << error;
  std::int64_t t = 1'700'000'000'000'000'000;
  for (const auto& f : frames)
    w->write(f, t += 2000);
  if (capturedDrops) {
    packets_io::CaptureStatistics st;
    st.endNs = t;
    st.received = frames.size();
    st.dropped = *capturedDrops;
    EXPECT_TRUE(w->writeStatistics(st));
  }
  w->close();
  return path;
}

// SEND of PSNs 0..2 with PSN 1 lost, the NAK, the go-back-N resend and the ACK.
std::string writeLossyCapture(std::optional<std::uint64_t> capturedDrops = std::nullopt) {
  packets::RoceAddressing ab, ba;
  ba.srcIp = ab.dstIp;
  ba.dstIp = ab.srcIp;
  std::vector<std::vector<std::uint8_t>> frames;
  frames.push_back(packets::buildRoceV2(ab, ibPacket(IbOpcode::RcSendFirst, 0x22, 0, 1024)));
  frames.push_back(packets::buildRoceV2(ab, ibPacket(IbOpcode::RcSendLast, 0x22, 2, 10)));
  auto nak = ibPacket(IbOpcode::RcAcknowledge, 0x11, 1);
  nak.aeth = packets::Aeth::nak(0, packets::NakCode::PsnSequenceError);
  frames.push_back(packets::buildRoceV2(ba, nak));
  frames.push_back(packets::buildRoceV2(ab, ibPacket(IbOpcode::RcSendMiddle, 0x22, 1, 1024)));
  frames.push_back(frames[1]);
  frames.push_back(packets::buildRoceV2(ba, ibPacket(IbOpcode::RcAcknowledge, 0x11, 2)));
  return writeFrames(capturedDrops ? "lossy.pcapng" : "lossy.pcap", frames, capturedDrops);
}

// The same SEND with PSN 1 missing from the capture only: the responder got it (it ACKs PSN 2
// at once) and nothing resends it.
std::string writeCaptureThatLostAFrame() {
  packets::RoceAddressing ab, ba;
  ba.srcIp = ab.dstIp;
  ba.dstIp = ab.srcIp;
  return writeFrames("capture_lost.pcap",
                     {packets::buildRoceV2(ab, ibPacket(IbOpcode::RcSendFirst, 0x22, 0, 1024)),
                      packets::buildRoceV2(ab, ibPacket(IbOpcode::RcSendLast, 0x22, 2, 10)),
                      packets::buildRoceV2(ba, ibPacket(IbOpcode::RcAcknowledge, 0x11, 2))});
}

TEST(AnalyzeCommand, JsonSummaryCountsTheInjectedLoss) {
  const std::string path = writeLossyCapture();
  const auto r = runCli({"analyze", path, "--json"});
  std::remove(path.c_str());
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const auto& s = j["summary"];
  EXPECT_EQ(s["connections"], 1);
  EXPECT_EQ(s["messages"], 1);
  EXPECT_EQ(s["naks"], 1);
  EXPECT_EQ(s["rnr_naks"], 0);
  EXPECT_EQ(s["resent_frames"], 1);
  EXPECT_EQ(s["psn_gaps"], 1);
  EXPECT_EQ(s["duplicates"], 0);
  EXPECT_EQ(s["icrc_failures"], 0);
  EXPECT_EQ(s["incomplete_messages"], 0);
  EXPECT_EQ(s["cnps"], 0);
  const auto& lat = j["connections"][0]["a_to_b"]["latency"];
  EXPECT_EQ(lat["count"], 1);
  EXPECT_EQ(lat["max_ns"], 10000);  // frame 1 to frame 6, 2 us apart
}

// A pcapng that records the capture's own drops: the JSON report gains its last member,
// capture_loss, and is otherwise the report of the same frames without it.
TEST(AnalyzeCommand, JsonEndsWithTheDropsTheCaptureRecorded) {
  const std::string plain = writeLossyCapture(), counted = writeLossyCapture(3);
  const auto a = runCli({"analyze", plain, "--json"});
  const auto b = runCli({"analyze", counted, "--json"});
  std::remove(plain.c_str());
  std::remove(counted.c_str());
  ASSERT_EQ(a.exitCode, 0) << a.err;
  ASSERT_EQ(b.exitCode, 0) << b.err;
  auto j = nlohmann::json::parse(b.out);
  ASSERT_TRUE(j.contains("capture_loss")) << b.out;
  EXPECT_EQ(j["capture_loss"]["dropped_by_capture"], 3);
  EXPECT_NE(j["capture_loss"]["note"].get<std::string>().find('3'), std::string::npos);
  const auto ordered = nlohmann::ordered_json::parse(b.out);
  EXPECT_EQ(std::prev(ordered.end()).key(), "capture_loss");
  j.erase("capture_loss");
  EXPECT_EQ(j, nlohmann::json::parse(a.out));
  EXPECT_FALSE(nlohmann::json::parse(a.out).contains("capture_loss"));
}

TEST(AnalyzeCommand, TextListsConversationsAnomaliesInOrderAndStatistics) {
  const std::string path = writeLossyCapture();
  const auto r = runCli({"analyze", path});
  std::remove(path.c_str());
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("10.0.0.1 QP 17"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("10.0.0.2 QP 34"), std::string::npos) << r.out;
  const auto gap = r.out.find("frame 2 ");
  const auto nak = r.out.find("frame 3 ");
  const auto fill = r.out.find("frame 4 ");
  const auto resend = r.out.find("frame 5 ");
  ASSERT_NE(gap, std::string::npos) << r.out;
  EXPECT_LT(gap, nak);
  EXPECT_LT(nak, fill);
  EXPECT_LT(fill, resend);
  EXPECT_NE(r.out.find("PSN sequence error at PSN 1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("latency p50 10.0 us"), std::string::npos) << r.out;
}

// The note on capture loss: none when every missing PSN was seen resent (the network's loss,
// recovered); the count never seen again when some were not; the capture's own count of drops
// when it records one.
TEST(AnalyzeCommand, CaptureLossIsNotedOnlyForPsnsNeverSeenAgain) {
  const std::string resent = writeLossyCapture(), lost = writeCaptureThatLostAFrame(),
                    counted = writeLossyCapture(3);
  const auto a = runCli({"analyze", resent});
  const auto b = runCli({"analyze", lost});
  const auto c = runCli({"analyze", counted});
  std::remove(resent.c_str());
  std::remove(lost.c_str());
  std::remove(counted.c_str());
  ASSERT_EQ(a.exitCode, 0) << a.err;
  ASSERT_EQ(b.exitCode, 0) << b.err;
  ASSERT_EQ(c.exitCode, 0) << c.err;
  EXPECT_NE(a.out.find("psn_gap"), std::string::npos) << a.out;
  EXPECT_EQ(a.out.find("Capture loss"), std::string::npos) << a.out;
  EXPECT_NE(b.out.find("psn_gap"), std::string::npos) << b.out;
  EXPECT_NE(b.out.find("\nCapture loss\n  possible capture loss: 1 of the 1 PSN missing in 1 PSN "
                       "gap never seen later"),
            std::string::npos)
      << b.out;
  EXPECT_NE(c.out.find("\nCapture loss\n  the capture reported 3 frames dropped"),
            std::string::npos)
      << c.out;
}

TEST(AnalyzeCommand, BadFileIsAOneLineErrorWithExitTwo) {
  const auto r = runCli({"analyze", "/nonexistent/capture.pcap"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_TRUE(r.out.empty());
  EXPECT_EQ(lines(r.err).size(), 1u) << r.err;
  EXPECT_NE(r.err.find("/nonexistent/capture.pcap"), std::string::npos);
}

}  // namespace
}  // namespace rdmascope::cli::test

namespace rdmascope::cli::test {
namespace {

// A switch port pausing priority 3 for 65535 quanta at t = 0, then resuming at 1 ms.
std::string writePauseCapture() {
  const std::string path = tempPath("pfc.pcap");
  std::string error;
  auto w = packets_io::CaptureWriter::open(path, packets::LinkType::Ethernet, error);
  EXPECT_TRUE(w) << error;
  packets::PfcPause xoff;
  xoff.enableVector = 1u << 3;
  xoff.quanta[3] = 0xffff;
  packets::PfcPause xon;
  xon.enableVector = 1u << 3;
  const std::array<std::uint8_t, 6> port = {0x02, 0x5e, 0, 0, 1, 3};
  const std::int64_t t = 1'700'000'000'000'000'000;
  w->write(packets::buildPfcFrame(port, xoff), t);
  w->write(packets::buildPfcFrame(port, xon), t + 1'000'000);
  w->close();
  return path;
}

TEST(AnalyzeCommand, PfcPausesAreTimedAtTheGivenLinkSpeed) {
  const std::string path = writePauseCapture();
  // At 100 Gb/s 65535 quanta last 335.5 us, so the pause ran out before the XON at 1 ms; at
  // 10 Gb/s they last 3.355 ms and the XON at 1 ms ends the pause.
  const auto fast = runCli({"analyze", path, "--json"});
  const auto slow = runCli({"analyze", path, "--json", "--link-speed", "10"});
  const auto text = runCli({"analyze", path, "--link-speed", "10", "--pause-storm", "0.0005"});
  const auto bad = runCli({"analyze", path, "--link-speed", "0"});
  std::remove(path.c_str());
  ASSERT_EQ(fast.exitCode, 0) << fast.err;
  ASSERT_EQ(slow.exitCode, 0) << slow.err;
  const auto f = nlohmann::json::parse(fast.out);
  const auto s = nlohmann::json::parse(slow.out);
  EXPECT_EQ(f["summary"]["pause_frames"], 2);
  ASSERT_EQ(f["pauses"].size(), 1u);
  EXPECT_EQ(f["pauses"][0]["port"], "02:5e:00:00:01:03");
  EXPECT_EQ(f["pauses"][0]["priority"], 3);
  EXPECT_EQ(f["pauses"][0]["xoff"], 1);
  EXPECT_EQ(f["pauses"][0]["xon"], 1);
  EXPECT_NEAR(f["pauses"][0]["paused_s"].get<double>(), 65535 * 512 / 100e9, 1e-12);
  EXPECT_NEAR(s["pauses"][0]["paused_s"].get<double>(), 1e-3, 1e-12);
  ASSERT_EQ(text.exitCode, 0) << text.err;
  EXPECT_NE(text.out.find("PFC pauses (2 frames"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("pause_storm"), std::string::npos) << text.out;
  EXPECT_NE(bad.exitCode, 0);
  EXPECT_NE(bad.err.find("--link-speed"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace rdmascope::cli::test
