// Loss inference from a capture taken behind the loss (as in the Soft-RoCE lab, where netem
// drops frames before AF_PACKET sees them): the simulator drops chosen transmissions, the
// test keeps only the delivered frames, and the inference must name exactly the dropped
// transmissions (PSN and occurrence) and see the responder's NAKs and the resends.
#include "rdmascope/analysis/loss_pattern.h"

#include <gtest/gtest.h>

#include <optional>
#include <set>

#include "../sim/sim_test_support.h"

namespace rdmascope::analysis {
namespace {

namespace st = sim::testing;

struct Outcome {
  LossPattern pattern;
  std::vector<std::pair<std::uint32_t, int>> dropped;  // PSN, occurrence, from the sim's log
};

// host-a writes `messages` RDMA WRITEs of 4 KiB (4 packets at MTU 1024), one at a time: the
// next is posted 100 ms after the previous one, or, with `postAfterCompletion`, that long after
// the previous one completed.
Outcome writeWithDrops(std::vector<sim::FaultConfig::PsnDrop> drops, int messages,
                       bool withInitialPsn = true, bool withTimeout = true,
                       std::optional<sim::SimTime> postAfterCompletion = std::nullopt) {
  st::PairOptions o;
  o.config.faults.dropPsns = std::move(drops);
  o.timeout = 8;
  st::Pair p = st::makePair(o);
  p.net->sim().trace().setEnabled(true);
  for (int i = 0; i < messages; ++i) {
    const std::uint64_t off = static_cast<std::uint64_t>(i) * 4096;
    EXPECT_TRUE(
        p.ha()
            .postSend(p.a.qpn, st::sendWr(i, sim::WrOpcode::RdmaWrite, p.a, off, 4096, p.b, off))
            .ok());
    std::vector<sim::WorkCompletion> wcs;
    if (postAfterCompletion) {
      const sim::SimTime deadline = p.net->sim().now() + sim::SimTime::ms(100);
      while (wcs.empty() && p.net->sim().now() < deadline) {
        p.net->sim().runUntil(p.net->sim().now() + sim::SimTime::us(10));
        wcs = p.ha().pollCq(p.a.cq, 4);
      }
      p.net->sim().runUntil(p.net->sim().now() + *postAfterCompletion);
    } else {
      p.net->sim().runUntil(p.net->sim().now() + sim::SimTime::ms(100));
      wcs = p.ha().pollCq(p.a.cq, 4);
    }
    EXPECT_EQ(wcs.size(), 1u);
    if (!wcs.empty()) {
      EXPECT_EQ(wcs[0].status, sim::WcStatus::Success);
    }
  }
  std::set<std::uint64_t> lost;
  for (const auto& e : p.net->sim().trace().events()) {
    if (e.what == sim::Narrative::FrameLost) lost.insert(e.frameNumber);
  }
  std::vector<PacketFacts> delivered;
  std::map<std::uint32_t, int> sent;
  Outcome r;
  std::uint64_t n = 0;
  std::string sourceA;
  for (const auto& f : p.net->frames()) {
    ++n;
    auto facts = readPacketFacts(f.bytes, packets::LinkType::Ethernet, n, f.time.seconds());
    EXPECT_TRUE(facts.has_value());
    if (!facts) continue;
    if (f.fromHost == 0) {
      sourceA = facts->source;
      const int occurrence = ++sent[facts->psn];
      if (lost.count(n)) r.dropped.emplace_back(facts->psn, occurrence);
    }
    if (!lost.count(n)) delivered.push_back(*facts);
  }
  LossInferenceOptions options;
  if (withInitialPsn) options.initialPsn[sourceA] = o.psnA;
  if (withTimeout) options.retransmitTimeout[sourceA] = 4.096e-6 * (1 << o.timeout);
  r.pattern = inferLossPattern(delivered, options);
  return r;
}

std::vector<std::pair<std::uint32_t, int>> inferred(const LossPattern& p) {
  std::vector<std::pair<std::uint32_t, int>> v;
  for (const auto& l : p.losses)
    v.emplace_back(l.psn, l.occurrence);
  return v;
}

TEST(LossPattern, AMiddlePacketLostIsOneNakAndAGoBackNResend) {
  const Outcome r = writeWithDrops({{0x101, 0, 1, 1}}, 1);
  ASSERT_EQ(r.dropped, (std::vector<std::pair<std::uint32_t, int>>{{0x101, 1}}));
  EXPECT_EQ(inferred(r.pattern), r.dropped);
  EXPECT_EQ(nakLines(r.pattern), std::vector<std::string>{"NAK PSN sequence error at +1"});
  EXPECT_EQ(resendLines(r.pattern), std::vector<std::string>{"resend +1..+3 (3 packets)"});
  ASSERT_EQ(r.pattern.streams.size(), 1u);
  EXPECT_EQ(r.pattern.streams[0].requests, 3u + 3u);
  EXPECT_EQ(r.pattern.streams[0].resent, 3u);
}

TEST(LossPattern, TheSecondTransmissionOfAPsnIsDroppedAndInferredByOccurrence) {
  // PSN 0x101 lost twice: the first time (NAK, go-back-N), then its resend. The responder
  // NAKs a sequence error once until an in-order packet arrives (rxe's sent_psn_nak), so the
  // second loss is recovered by the retransmit timer, as the lab showed on real rxe.
  const Outcome r = writeWithDrops({{0x101, 0, 1, 1}, {0x101, 0, 1, 2}}, 1);
  ASSERT_EQ(r.dropped, (std::vector<std::pair<std::uint32_t, int>>{{0x101, 1}, {0x101, 2}}));
  EXPECT_EQ(inferred(r.pattern), r.dropped);
  EXPECT_EQ(nakLines(r.pattern), std::vector<std::string>{"NAK PSN sequence error at +1"});
  EXPECT_EQ(resendLines(r.pattern),
            (std::vector<std::string>{"resend +2..+3 (2 packets)", "resend +1..+3 (3 packets)"}));
}

TEST(LossPattern, ALostLastPacketIsTheRestOfAMessageTheRequesterWentBackOn) {
  // The LAST of the second message: no NAK (nothing follows), the retransmit timer resends
  // the whole message, whose LAST the capture shows only then.
  const Outcome r = writeWithDrops({{0x107, 0, 1, 1}}, 3);
  ASSERT_EQ(r.dropped, (std::vector<std::pair<std::uint32_t, int>>{{0x107, 1}}));
  EXPECT_EQ(inferred(r.pattern), r.dropped);
  EXPECT_TRUE(nakLines(r.pattern).empty());
  EXPECT_EQ(resendLines(r.pattern), std::vector<std::string>{"resend +4..+7 (4 packets)"});
}

TEST(LossPattern, ATimerResendBeforeAnyAckStartsAtTheInitialPsnEvenWhenItsHeadIsLost) {
  // The first message's LAST is lost and nothing was acknowledged: the retransmit timer
  // resends from comp.psn, the initial PSN (rxe's req_retry). Its first packet is lost too, so
  // the capture's resend starts one later; the lost head is inferred from where it must start.
  const Outcome r = writeWithDrops({{0x103, 0, 1, 1}, {0x100, 0, 1, 2}}, 1);
  ASSERT_EQ(r.dropped, (std::vector<std::pair<std::uint32_t, int>>{{0x103, 1}, {0x100, 2}}));
  EXPECT_EQ(inferred(r.pattern), r.dropped);
  EXPECT_TRUE(nakLines(r.pattern).empty());
  EXPECT_EQ(resendLines(r.pattern), std::vector<std::string>{"resend +1..+3 (3 packets)"});
  ASSERT_EQ(r.pattern.resends.size(), 1u);
  EXPECT_EQ(r.pattern.resends[0].restartRelPsn, 0);
}

TEST(LossPattern, ATimerResendAfterAnAckStartsAfterTheAckedPsnEvenWhenItsHeadIsLost) {
  // The second message's LAST and then the first two packets of its resend are lost: the
  // resend starts after the first message's ACK (+3), so +4 and +5 were sent again and lost.
  const Outcome r = writeWithDrops({{0x107, 0, 1, 1}, {0x104, 0, 1, 2}, {0x105, 0, 1, 2}}, 2);
  ASSERT_EQ(r.dropped,
            (std::vector<std::pair<std::uint32_t, int>>{{0x107, 1}, {0x104, 2}, {0x105, 2}}));
  EXPECT_EQ(inferred(r.pattern), r.dropped);
  EXPECT_EQ(resendLines(r.pattern), std::vector<std::string>{"resend +6..+7 (2 packets)"});
}

TEST(LossPattern, ANakResendStartsAtTheNakedPsnEvenWhenItsHeadIsLost) {
  // +1 is lost, the NAK names +1, and the first two packets of the go-back-N resend are lost
  // as well: +1 and +2 (second transmissions) are inferred from the NAK's PSN.
  const Outcome r = writeWithDrops({{0x101, 0, 1, 1}, {0x101, 0, 1, 2}, {0x102, 0, 1, 2}}, 2);
  ASSERT_EQ(r.dropped,
            (std::vector<std::pair<std::uint32_t, int>>{{0x101, 1}, {0x101, 2}, {0x102, 2}}));
  EXPECT_EQ(inferred(r.pattern), r.dropped);
  EXPECT_EQ(nakLines(r.pattern), std::vector<std::string>{"NAK PSN sequence error at +1"});
}

TEST(LossPattern, ATimerResendThatDoesNotGoBackIsKnownByItsPause) {
  // +3 is lost; the timer resends +0..+3, of which only +0 arrives (a duplicate: the responder
  // ACKs +2, so the requester's comp.psn moves to +3); the next timer resends +3 alone. The
  // capture shows +0 then +3: without the timeout that looks like +1 and +2 skipped in one
  // ascending run; with it, +3 comes a timeout later, after PSNs were outstanding, so it is a
  // new resend and the rest of the interrupted message (+1..+3) was lost.
  const std::vector<sim::FaultConfig::PsnDrop> drops = {
      {0x103, 0, 1, 1}, {0x101, 0, 1, 2}, {0x102, 0, 1, 2}, {0x103, 0, 1, 2}};
  const Outcome r = writeWithDrops(drops, 1, true, true);
  ASSERT_EQ(r.dropped, (std::vector<std::pair<std::uint32_t, int>>{
                           {0x103, 1}, {0x101, 2}, {0x102, 2}, {0x103, 2}}));
  EXPECT_EQ(inferred(r.pattern), r.dropped);
  const Outcome blind = writeWithDrops(drops, 1, true, false);
  EXPECT_NE(inferred(blind.pattern), blind.dropped);  // the documented limit
}

TEST(LossPattern, ANakResendLostEntirelyIsKnownByTheTimerResendThatFollows) {
  // +1 is lost and NAKed; the resend the NAK starts (+1..+3) is lost entirely, so the next
  // request captured is the retransmit timer's resend from +1, a timeout later.
  const std::vector<sim::FaultConfig::PsnDrop> drops = {
      {0x101, 0, 1, 1}, {0x101, 0, 1, 2}, {0x102, 0, 1, 2}, {0x103, 0, 1, 2}};
  const Outcome r = writeWithDrops(drops, 1);
  ASSERT_EQ(r.dropped, (std::vector<std::pair<std::uint32_t, int>>{
                           {0x101, 1}, {0x101, 2}, {0x102, 2}, {0x103, 2}}));
  EXPECT_EQ(inferred(r.pattern), r.dropped);
  EXPECT_EQ(nakLines(r.pattern), std::vector<std::string>{"NAK PSN sequence error at +1"});
}

TEST(LossPattern, ANakDuringARetryStartsNoResendOfItsOwn) {
  // +1 is lost (NAK +1); in the resend +2 is lost (NAK +2, which rxe ignores: a retry has
  // started and no ACK came since), so the timer resends from +2 and nothing more is lost.
  const std::vector<sim::FaultConfig::PsnDrop> drops = {{0x101, 0, 1, 1}, {0x102, 0, 1, 2}};
  const Outcome r = writeWithDrops(drops, 1);
  ASSERT_EQ(r.dropped, (std::vector<std::pair<std::uint32_t, int>>{{0x101, 1}, {0x102, 2}}));
  EXPECT_EQ(inferred(r.pattern), r.dropped);
  EXPECT_EQ(nakLines(r.pattern), (std::vector<std::string>{"NAK PSN sequence error at +1",
                                                           "NAK PSN sequence error at +2"}));
}

// A hand-built capture (RDMA WRITE FIRST/MIDDLE/LAST = 6/7/8, ACK = 17) from 10.9.0.2, whose
// initial PSN is 100 and retransmit timeout 67 ms.
PacketFacts fact(std::uint64_t frame, double time, std::uint8_t opcode, std::uint32_t psn,
                 std::optional<std::uint8_t> syndrome = std::nullopt) {
  PacketFacts f;
  f.frame = frame;
  f.time = time;
  f.opcode = opcode;
  f.psn = psn;
  const bool response = opcode == 17;
  f.source = response ? "10.9.0.1" : "10.9.0.2";
  f.destination = response ? "10.9.0.2" : "10.9.0.1";
  f.destQp = 0x11;
  f.payloadLength = response ? 0 : 1024;
  f.aethSyndrome = syndrome;
  return f;
}

LossPattern inferHandBuilt(const std::vector<PacketFacts>& packets) {
  LossInferenceOptions options;
  options.initialPsn["10.9.0.2"] = 100;
  options.retransmitTimeout["10.9.0.2"] = 0.067;
  return inferLossPattern(packets, options);
}

TEST(LossPattern, AResendSoonerThanTheTimeoutWithoutANakIsAStaleTimer) {
  // The second message's +6 and +7 are lost; 10 ms later the requester resends from +4 with
  // no NAK: a timer the first message armed fired (rxe never stops it on an ACK).
  const LossPattern p = inferHandBuilt(
      {fact(1, 0.000, 6, 100), fact(2, 0.000, 7, 101), fact(3, 0.000, 7, 102),
       fact(4, 0.000, 8, 103), fact(5, 0.001, 17, 103, 0x1f), fact(6, 0.010, 6, 104),
       fact(7, 0.010, 7, 105), fact(8, 0.020, 6, 104), fact(9, 0.020, 7, 105),
       fact(10, 0.020, 7, 106), fact(11, 0.020, 8, 107), fact(12, 0.021, 17, 107, 0x1f)});
  ASSERT_EQ(p.resends.size(), 1u);
  EXPECT_TRUE(p.resends[0].soonerThanTimer);
  ASSERT_EQ(p.losses.size(), 2u);  // +6 and +7, the rest of the message
  EXPECT_EQ(p.losses[0].relPsn, 6);
  EXPECT_EQ(p.losses[1].relPsn, 7);
  // The same resend a timeout after the ACK is the timer doing its job.
  const LossPattern late =
      inferHandBuilt({fact(1, 0.000, 6, 100), fact(2, 0.000, 7, 101), fact(3, 0.000, 7, 102),
                      fact(4, 0.000, 8, 103), fact(5, 0.001, 17, 103, 0x1f), fact(6, 0.010, 6, 104),
                      fact(7, 0.010, 7, 105), fact(8, 0.080, 6, 104)});
  ASSERT_EQ(late.resends.size(), 1u);
  EXPECT_FALSE(late.resends[0].soonerThanTimer);
}

TEST(LossPattern, TheRestOfAMessageWentBackOnWhileANakWasPendingMayNeverHaveBeenSent) {
  // +1 is lost and +2 arrives; the NAK for +1 reaches the requester before it sends +3 (rxe's
  // requester checks for a retry before each packet), so +3 is first sent in the resend. The
  // capture cannot tell that from +3 sent and lost: that loss is flagged, the gap is not.
  const LossPattern p =
      inferHandBuilt({fact(1, 0.000, 6, 100), fact(2, 0.000, 7, 102), fact(3, 0.001, 17, 101, 0x60),
                      fact(4, 0.001, 7, 101), fact(5, 0.001, 7, 102), fact(6, 0.001, 8, 103),
                      fact(7, 0.002, 17, 103, 0x1f)});
  ASSERT_EQ(p.losses.size(), 2u);
  EXPECT_EQ(p.losses[0].relPsn, 1);
  EXPECT_FALSE(p.losses[0].maybeUnsent);
  EXPECT_EQ(p.losses[1].relPsn, 3);
  EXPECT_TRUE(p.losses[1].maybeUnsent);
  EXPECT_EQ(maybeUnsentCount(p), 1u);
  EXPECT_EQ(maybeUnsentNote(p),
            "1 may never have been sent: a NAK reached the requester mid-burst");
  // Without the NAK, the timer's resend went back on a message whose rest was surely sent.
  const LossPattern timer =
      inferHandBuilt({fact(1, 0.000, 6, 100), fact(2, 0.000, 7, 102), fact(3, 0.070, 6, 100),
                      fact(4, 0.070, 7, 101), fact(5, 0.070, 7, 102), fact(6, 0.070, 8, 103)});
  ASSERT_EQ(timer.losses.size(), 2u);
  EXPECT_EQ(maybeUnsentCount(timer), 0u);
  EXPECT_TRUE(maybeUnsentNote(timer).empty());
}

TEST(LossPattern, APauseOfTwoTimeoutsLostTheFirstTimerResend) {
  // +3 (the LAST) is lost; the ACK of +2 re-arms the timer, whose first resend of +3 is lost
  // too: the capture shows +3 two timeouts after the ACK (the lab showed such a 136 ms gap
  // with its 67 ms timeout, netem counting the lost resend).
  const auto run = [](double resendTime) {
    return inferHandBuilt({fact(1, 0.000, 6, 100), fact(2, 0.000, 7, 101), fact(3, 0.000, 7, 102),
                           fact(4, 0.001, 17, 102, 0x1f), fact(5, resendTime, 8, 103)});
  };
  const LossPattern twice = run(0.137);
  ASSERT_EQ(twice.losses.size(), 2u);
  EXPECT_EQ(twice.losses[0].relPsn, 3);
  EXPECT_EQ(twice.losses[0].occurrence, 1);
  EXPECT_EQ(twice.losses[1].relPsn, 3);
  EXPECT_EQ(twice.losses[1].occurrence, 2);
  const LossPattern once = run(0.070);
  ASSERT_EQ(once.losses.size(), 1u);
  EXPECT_EQ(once.losses[0].occurrence, 1);
}

TEST(LossPattern, AResendBurstGoingOnPastALossIsNoNewStart) {
  // +3 is lost; the timer resends +0..+3, +1 is lost, and an ACK of the duplicate +2 arrives
  // before the burst goes on (a TCG stall): +2..+3 continue the resend, so counted from the
  // restart they are not cut to +3 (the lab's run 2 of twenty-five did this).
  const LossPattern p = inferHandBuilt({fact(1, 0.000, 6, 100), fact(2, 0.000, 7, 101),
                                        fact(3, 0.000, 7, 102), fact(4, 0.068, 6, 100),
                                        fact(5, 0.0685, 17, 102, 0x1f), fact(6, 0.071, 7, 102),
                                        fact(7, 0.071, 8, 103), fact(8, 0.072, 17, 103, 0x1f)});
  EXPECT_EQ(resendLines(p, true),
            (std::vector<std::string>{"resend +0 (1 packet)", "resend +2..+3 (2 packets)"}));
  ASSERT_EQ(p.losses.size(), 2u);
  EXPECT_EQ(p.losses[0].relPsn, 3);
  EXPECT_EQ(p.losses[1].relPsn, 1);
  EXPECT_EQ(p.losses[1].occurrence, 2);
}

TEST(LossPattern, AWholeMessageLostIsKnownByItsTimerResend) {
  // The second WRITE (+4..+7) is posted right after the first completes and every packet of
  // its first transmission is lost: no NAK (nothing reaches the responder), the timer resends
  // it a timeout later, and its first capture is that resend.
  const std::vector<sim::FaultConfig::PsnDrop> drops = {
      {0x104, 0, 1, 1}, {0x105, 0, 1, 1}, {0x106, 0, 1, 1}, {0x107, 0, 1, 1}};
  const Outcome r = writeWithDrops(drops, 3, true, true, sim::SimTime::us(50));
  ASSERT_EQ(r.dropped, (std::vector<std::pair<std::uint32_t, int>>{
                           {0x104, 1}, {0x105, 1}, {0x106, 1}, {0x107, 1}}));
  EXPECT_EQ(inferred(r.pattern), r.dropped);
  EXPECT_TRUE(nakLines(r.pattern).empty());
  EXPECT_EQ(resendLines(r.pattern), std::vector<std::string>{"resend +4..+7 (4 packets)"});
  // An application could have posted the message that late: the capture cannot tell.
  EXPECT_EQ(maybeUnsentCount(r.pattern), 4u);
  EXPECT_EQ(maybeUnsentNote(r.pattern),
            "4 may never have been sent: the application may have posted a message a timeout "
            "late");
  // Without the timeout nothing tells the resend from a first transmission.
  const Outcome blind = writeWithDrops(drops, 3, true, false, sim::SimTime::us(50));
  EXPECT_TRUE(blind.pattern.losses.empty());  // the documented limit
}

TEST(LossPattern, AMessagePostedLateIsNotTakenAsLost) {
  // The timeout is 1.05 ms: messages posted half a timeout or three timeouts after the
  // previous completion are first transmissions, not the timer's resends.
  for (const auto gap : {sim::SimTime::us(500), sim::SimTime::us(3150)}) {
    const Outcome r = writeWithDrops({}, 3, true, true, gap);
    EXPECT_TRUE(r.pattern.losses.empty()) << gap.picos();
    EXPECT_TRUE(r.pattern.resends.empty()) << gap.picos();
  }
  // A message lost whole and posted that late is the documented limit: its resend comes
  // more than a timeout and a half after the timer was armed.
  const Outcome late =
      writeWithDrops({{0x104, 0, 1, 1}, {0x105, 0, 1, 1}, {0x106, 0, 1, 1}, {0x107, 0, 1, 1}}, 2,
                     true, true, sim::SimTime::us(3150));
  EXPECT_EQ(late.dropped.size(), 4u);
  EXPECT_TRUE(late.pattern.losses.empty());
}

TEST(LossPattern, ALostFirstRequestIsAGapOnlyWhenTheInitialPsnIsKnown) {
  const Outcome known = writeWithDrops({{0x100, 0, 1, 1}}, 1);
  EXPECT_EQ(inferred(known.pattern), known.dropped);
  const Outcome unknown = writeWithDrops({{0x100, 0, 1, 1}}, 1, false);
  EXPECT_TRUE(unknown.pattern.losses.empty());  // the documented limit
}

TEST(LossPattern, SeveralDropsAcrossMessages) {
  const Outcome r =
      writeWithDrops({{0x102, 0, 1, 1}, {0x104, 0, 1, 1}, {0x105, 0, 1, 2}, {0x10b, 0, 1, 1}}, 4);
  EXPECT_EQ(r.dropped.size(), 4u);
  EXPECT_EQ(inferred(r.pattern), r.dropped);
}

TEST(LossPattern, NothingLostNothingInferred) {
  const Outcome r = writeWithDrops({}, 2);
  EXPECT_TRUE(r.pattern.losses.empty());
  EXPECT_TRUE(r.pattern.naks.empty());
  EXPECT_TRUE(r.pattern.resends.empty());
}

}  // namespace
}  // namespace rdmascope::analysis
