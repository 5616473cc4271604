// perftest's bandwidth tests between two Soft-RoCE (rxe) guests of the lab, captured on the
// responder with 10-25% loss on the requester's egress (tests/analysis/data/README.md says how
// each was made). The first transmissions of FIRST and LAST packets, and of READ requests, were
// lost and only their resends show where messages begin and end: the analysis must find every
// message the program posted, with its length.
//
// How many messages: in iterations mode (-n) perftest's run_iter_bw posts work requests on its
// one QP while fewer than -n were posted, so it sends exactly -n messages. Nothing else goes
// over RDMA: the warm-up is only with --perform_warm_up (not given), credit WRITEs only on
// iWARP, and the connection setup and the result exchange use TCP (not in a capture of UDP
// port 4791). Each capture shows it too: -n x ceil(size / MTU) distinct request PSNs.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "rdmascope/analysis/flow_analyzer.h"
#include "rdmascope/analysis/psn.h"
#include "rdmascope/packets/ib_builder.h"
#include "rdmascope/packets_io/capture_reader.h"

namespace rdmascope::analysis {
namespace {

struct PerftestRun {
  const char* file;
  MessageKind kind;
  std::uint32_t iterations;  // -n
  std::uint32_t size;        // -s
  std::uint32_t mtu;         // -m
  std::uint32_t initialPsn;  // the client's PSN, as perftest printed it ("local address")
};

void PrintTo(const PerftestRun& run, std::ostream* os) {
  *os << run.file;
}

// What the capture itself shows, read with the packet layer's parser only.
struct CaptureFacts {
  std::set<std::uint32_t> requestPsns;  // distinct request PSNs
  std::uint64_t resentFrames = 0;       // request frames whose PSN came before
  // PSNs of FIRST, LAST (and ONLY) packets, and of READ requests, first captured after a
  // later PSN: their first transmission was lost.
  std::uint32_t lateFirsts = 0, lateLasts = 0, lateReads = 0;
};

struct Analysed {
  CaptureFacts facts;
  AnalysisReport report;
};

Analysed analyse(const std::string& file) {
  const std::string path = std::string(RDMASCOPE_SOURCE_DIR) + "/tests/" + file;
  std::string error;
  auto reader = packets_io::CaptureReader::open(path, error);
  EXPECT_TRUE(reader) << error;
  Analysed out;
  if (!reader) return out;
  FlowAnalyzer a;
  std::optional<std::uint32_t> highest;
  packets_io::FrameView v;
  while (reader->next(v)) {
    a.addFrame(v.data, reader->linkType(), reader->framesRead(),
               static_cast<double>(v.timestampNs) * 1e-9);
    const auto p = packets::parseIbFrame(v.data, reader->linkType());
    if (!p) continue;
    const std::uint8_t op = p->packet.bth.opcode & 0x1f;
    if (op >= 0x0d && op <= 0x12) continue;  // READ responses, ACKs, atomic ACKs
    const std::uint32_t psn = p->packet.bth.psn;
    CaptureFacts& f = out.facts;
    if (!f.requestPsns.insert(psn).second) {
      ++f.resentFrames;
    } else if (highest && psnDiff(psn, *highest) < 0) {
      const bool first =
          op == 0x00 || op == 0x06 || (op >= 0x04 && op <= 0x05) || (op >= 0x0a && op <= 0x0b);
      const bool last = (op >= 0x02 && op <= 0x05) || (op >= 0x08 && op <= 0x0b);
      f.lateFirsts += first;
      f.lateLasts += last;
      f.lateReads += op == 0x0c;
    }
    if (!highest || psnDiff(psn, *highest) > 0) highest = psn;
  }
  a.finish();
  out.report = a.report();
  return out;
}

class LossyPerftest : public testing::TestWithParam<PerftestRun> {};

TEST_P(LossyPerftest, EveryMessageIsFoundWithItsLength) {
  const PerftestRun run = GetParam();
  const Analysed r = analyse(std::string("analysis/data/") + run.file);
  const std::uint32_t psnsPerMessage = (run.size + run.mtu - 1) / run.mtu;
  const bool read = run.kind == MessageKind::Read;

  // The capture is whole, and its losses hit message boundaries.
  const CaptureFacts& f = r.facts;
  EXPECT_EQ(f.requestPsns.size(), run.iterations * (read ? 1 : psnsPerMessage));
  if (read) {
    EXPECT_GT(f.lateReads, 0u);
  } else {
    EXPECT_GT(f.lateFirsts, 0u);
    EXPECT_GT(f.lateLasts, 0u);
  }
  EXPECT_GT(f.resentFrames, 0u);
  EXPECT_EQ(r.report.summary.resentFrames, f.resentFrames);

  const AnalysisSummary& s = r.report.summary;
  EXPECT_EQ(s.connections, 1u);
  EXPECT_EQ(s.messages, run.iterations);
  EXPECT_EQ(s.completedMessages, run.iterations);
  EXPECT_EQ(s.failedMessages, 0u);
  EXPECT_EQ(s.incompleteMessages, 0u);
  ASSERT_EQ(r.report.messages.size(), run.iterations);

  // One after the other, each with the PSNs and bytes of one message of -s bytes.
  std::vector<MessageRecord> byPsn = r.report.messages;
  std::sort(byPsn.begin(), byPsn.end(), [&](const MessageRecord& x, const MessageRecord& y) {
    return psnDiff(x.firstPsn, run.initialPsn) < psnDiff(y.firstPsn, run.initialPsn);
  });
  EXPECT_EQ(byPsn.front().firstPsn, run.initialPsn);
  for (std::size_t i = 0; i < byPsn.size(); ++i) {
    const MessageRecord& m = byPsn[i];
    SCOPED_TRACE("message from PSN " + std::to_string(m.firstPsn));
    EXPECT_EQ(m.kind, run.kind);
    EXPECT_EQ(m.outcome, Outcome::Completed);
    EXPECT_EQ(m.bytes, run.size);
    EXPECT_EQ(m.packets, read ? 1u : psnsPerMessage);
    EXPECT_EQ(psnDiff(m.lastPsn, m.firstPsn) + 1, static_cast<std::int32_t>(psnsPerMessage));
    EXPECT_FALSE(m.startMissing);
    EXPECT_EQ(m.detail, "");
    if (i > 0) {
      EXPECT_EQ(m.firstPsn, psnAdd(byPsn[i - 1].lastPsn, 1));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    LabCaptures, LossyPerftest,
    testing::Values(
        PerftestRun{"rxe_send_bw_loss.pcap", MessageKind::Send, 20, 1024, 256, 0x0b2ffe},
        PerftestRun{"rxe_write_bw_loss.pcap", MessageKind::Write, 20, 1024, 256, 0x0bb879},
        PerftestRun{"rxe_read_bw_loss.pcap", MessageKind::Read, 20, 1024, 256, 0xc808c1},
        PerftestRun{"rxe_read_bw_small_loss.pcap", MessageKind::Read, 30, 256, 256, 0xedd968}),
    [](const testing::TestParamInfo<PerftestRun>& run) {
      std::string name = run.param.file;
      name = name.substr(0, name.find('.'));
      std::replace(name.begin(), name.end(), '.', '_');
      return name;
    });

// The lab's stored rc-lossy-stream runs (tests/lab/captures/README.md): host-b posts six RDMA
// WRITEs of 4 KiB and two SENDs of 3000 bytes, one at a time, WRITE, WRITE, WRITE, SEND, and
// again, at path MTU 1024 with 20% loss on its egress.
TEST(LossyLabCapture, StoredLossyStreamRunsHaveTheScenariosEightMessages) {
  std::uint32_t lateBoundaries = 0;
  for (const char* name :
       {"rxe_rc_lossy_stream.pcap", "rxe_rc_lossy_stream_timer_race.pcap",
        "rxe_rc_lossy_stream_stale_timer.pcap", "rxe_rc_lossy_stream_nak_cut.pcap",
        "rxe_rc_lossy_stream_whole_message.pcap"}) {
    SCOPED_TRACE(name);
    const Analysed r = analyse(std::string("lab/captures/") + name);
    lateBoundaries += r.facts.lateFirsts + r.facts.lateLasts;
    const AnalysisSummary& s = r.report.summary;
    EXPECT_EQ(s.messages, 8u);
    EXPECT_EQ(s.completedMessages, 8u);
    std::vector<MessageRecord> byPsn = r.report.messages;
    ASSERT_EQ(byPsn.size(), 8u);
    std::sort(byPsn.begin(), byPsn.end(), [](const MessageRecord& x, const MessageRecord& y) {
      return psnDiff(x.firstPsn, y.firstPsn) < 0;
    });
    for (std::size_t i = 0; i < byPsn.size(); ++i) {
      SCOPED_TRACE("message " + std::to_string(i));
      const bool send = i % 4 == 3;
      EXPECT_EQ(byPsn[i].kind, send ? MessageKind::Send : MessageKind::Write);
      EXPECT_EQ(byPsn[i].bytes, send ? 3000u : 4096u);
      EXPECT_EQ(psnDiff(byPsn[i].lastPsn, byPsn[i].firstPsn) + 1, send ? 3 : 4);
      EXPECT_EQ(byPsn[i].detail, "");
      if (i > 0) {
        EXPECT_EQ(byPsn[i].firstPsn, psnAdd(byPsn[i - 1].lastPsn, 1));
      }
    }
  }
  EXPECT_GT(lateBoundaries, 0u);
}

}  // namespace
}  // namespace rdmascope::analysis
