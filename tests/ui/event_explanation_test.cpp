// The explanation pane explains the current event itself (issue 15): every event of every
// built-in gets a one-line title naming its host and kind and a body of its own; the pane's
// memory header, completion table, event list and anomaly count follow the event shown.
#include "rdmascope/ui/event_explanation.h"

#include <gtest/gtest.h>

#include <QItemSelectionModel>
#include <QLabel>
#include <QRegularExpression>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <algorithm>
#include <set>

#include "rdmascope/ui/analysis_controller.h"
#include "rdmascope/ui/host_pane.h"
#include "rdmascope/ui/host_state_models.h"
#include "rdmascope/ui/language.h"
#include "rdmascope/ui/main_window.h"
#include "rdmascope/ui/scenario_controller.h"
#include "scenario_support.h"

namespace rdmascope::ui {
namespace {

using test::record;
using test::Recorded;

// Every built-in the CLI lists (verbs scenarios, the tour, tcp-stream and the iWARP
// transfers), and each verbs scenario the rdma_cm can connect once more with the CM.
std::vector<std::pair<std::string, bool>> steppable() {
  std::vector<std::pair<std::string, bool>> ids;
  for (const auto& info : builtInScenarios()) {
    for (const bool cm : {false, true}) {
      Recorded r;
      std::string error;
      if (recordScenario(info.id, sim::WireFormat::RoceV2Ipv4, r.rec, r.frames, error, cm) &&
          (!cm || r.rec.cm))
        ids.emplace_back(info.id, cm);
    }
  }
  return ids;
}

QString q(const std::string& s) {
  return QString::fromStdString(s);
}

// Index of the first event satisfying `pred`, or -1.
template <class Pred>
int find(const ScenarioRecording& rec, Pred pred) {
  for (std::size_t i = 0; i < rec.events.size(); ++i)
    if (pred(rec.events[i])) return static_cast<int>(i);
  return -1;
}

TEST(EventExplanation, EveryEventOfEveryBuiltInHasItsOwnTitleAndBody) {
  const auto all = steppable();
  ASSERT_GE(all.size(), 12u + 4u + 2u);  // rc-send-recv ... tour, tcp-stream, iwarp-*, ceph-*
  for (const char* id : {"tcp-stream", "iwarp-send-recv", "iwarp-write", "iwarp-read",
                         "ceph-messenger", "ceph-messenger-tcp"})
    EXPECT_NE(std::find(all.begin(), all.end(), std::make_pair(std::string(id), false)), all.end())
        << id;
  EXPECT_NE(std::find(all.begin(), all.end(), std::make_pair(std::string("rc-write"), true)),
            all.end());
  std::size_t walked = 0;
  for (const auto& [name, cm] : all) {
    const Recorded r = record(name, cm);
    const std::string id = name + (cm ? " --cm" : "");
    ASSERT_FALSE(r.rec.events.empty()) << id;
    const QString summary = q(r.rec.summary);
    ASSERT_FALSE(summary.isEmpty()) << id;
    for (std::size_t i = 0; i < r.rec.events.size(); ++i) {
      const ScenarioEvent& ev = r.rec.events[i];
      const EventExplanation x = EventExplainer::explain(r.rec, i);
      const std::string where = id + " event " + std::to_string(i + 1) + " (" +
                                std::string(sim::toString(ev.trace.kind)) +
                                "): " + x.title.toStdString();
      // The title: one short line that names the event's kind and its host.
      EXPECT_FALSE(x.title.contains(QLatin1Char('\n'))) << where;
      EXPECT_LE(x.title.size(), 120) << where;
      EXPECT_TRUE(x.title.contains(x.kind)) << where;
      const QString text = q(ev.trace.args.text).trimmed();
      const bool scenarioStep =
          ev.trace.what == sim::Narrative::Text &&
          (text.startsWith(QLatin1String("let ")) || text.startsWith(QLatin1String("compare ")) ||
           text.contains(QLatin1String(" bytes equal")));
      if (ev.host >= 0 && !scenarioStep) {
        const QString host = q(r.rec.hostNames[static_cast<std::size_t>(ev.host)]);
        EXPECT_TRUE(x.title.startsWith(host)) << where;
        // A verbs call logged by a host names that host.
        if (text.contains(QLatin1String(": ibv_"))) {
          EXPECT_TRUE(x.title.startsWith(text.section(QLatin1Char(':'), 0, 0))) << where;
        }
      }
      if (ev.trace.kind != sim::TraceKind::Note) {
        EXPECT_TRUE(x.title.contains(EventExplainer::kindName(ev))) << where;
      }
      // Frames are named by number, and RDMA frames by opcode and PSN.
      if (ev.trace.kind == sim::TraceKind::FrameSent) {
        EXPECT_TRUE(x.title.contains(QStringLiteral("frame %1").arg(ev.trace.frameNumber)))
            << where;
        if (r.rec.transport == RecordingTransport::Verbs) {
          EXPECT_TRUE(x.title.contains(QStringLiteral("0x%1").arg(ev.trace.psn, 0, 16))) << where;
        }
      }
      // The new kinds of TCP and iWARP name what they are.
      if (r.rec.transport != RecordingTransport::Verbs) {
        EXPECT_NE(x.kind, EventExplainer::tr("note")) << where;
      }
      // The body explains this event: not empty, not the scenario's summary.
      EXPECT_FALSE(x.body.trimmed().isEmpty()) << where;
      EXPECT_NE(x.body, summary) << where;
      EXPECT_FALSE(x.body.contains(summary)) << where;
      ++walked;
    }
  }
  EXPECT_GT(walked, 3000u);
}

// In Chinese no explanation of any event of any built-in (with and without the CM) keeps an
// English sentence: a run of five or more English words in a title or a body is a string that
// escaped translation (verbs calls and field names are not sentences).
TEST(EventExplanation, InChineseNoEventKeepsAnEnglishSentence) {
  ASSERT_TRUE(installLanguage(QStringLiteral("zh_CN")));
  const QRegularExpression sentence(QStringLiteral("\\b[A-Za-z]{2,}(?:,? [a-z]{2,}){4,}\\b"));
  std::size_t walked = 0;
  std::set<std::string> reported;
  for (const auto& [name, cm] : steppable()) {
    const Recorded r = record(name, cm);
    for (std::size_t i = 0; i < r.rec.events.size(); ++i) {
      const EventExplanation x = EventExplainer::explain(r.rec, i);
      for (QString text : {x.title, x.body}) {
        // A completion's status reads as ibv_wc_status_str() writes it, in every language.
        text.remove(QStringLiteral("transport retry counter exceeded"));
        const auto m = sentence.match(text);
        if (m.hasMatch() && reported.insert(m.captured(0).toStdString()).second)
          ADD_FAILURE() << name << (cm ? " --cm" : "") << " event " << i + 1 << ": English left: \""
                        << m.captured(0).toStdString() << "\" in " << text.toStdString();
      }
      ++walked;
    }
  }
  EXPECT_GT(walked, 3000u);
  installLanguage(QStringLiteral("en"));
}

TEST(EventExplanation, TheControllerShowsTheEventNotAStalePhase) {
  MainWindow w(nullptr, QString());
  ASSERT_TRUE(w.openScenario(QStringLiteral("rnr-retry")));
  ScenarioController* sc = w.scenario();
  const ScenarioRecording& rec = *sc->recording();
  // The RNR NAK goes out during the step "let 100 us pass": the title is the NAK's.
  const int nak = find(rec, [](const ScenarioEvent& e) {
    return e.trace.kind == sim::TraceKind::FrameSent && e.trace.args.syndrome &&
           (*e.trace.args.syndrome & 0xe0) == 0x20;
  });
  ASSERT_GE(nak, 0);
  sc->goTo(nak);
  EXPECT_TRUE(sc->title().startsWith(QLatin1String("host-b"))) << sc->title().toStdString();
  EXPECT_TRUE(sc->title().contains(QLatin1String("RNR NAK"))) << sc->title().toStdString();
  EXPECT_FALSE(sc->title().contains(QLatin1String("let 100 us"))) << sc->title().toStdString();
  EXPECT_FALSE(sc->explanation().contains(q(rec.summary)));
  EXPECT_TRUE(sc->explanation().contains(QLatin1String("receive WQE")));
  // The pane shows that title and links the glossary's RNR entry.
  const QString html = w.explanation()->toHtml();
  EXPECT_TRUE(html.contains(QLatin1String("glossary:RNR"))) << html.toStdString();

  // The RNR timer: the requester's wait, with its duration.
  const int armed = find(
      rec, [](const ScenarioEvent& e) { return e.trace.what == sim::Narrative::RnrTimerArmed; });
  ASSERT_GE(armed, 0);
  sc->goTo(armed);
  EXPECT_TRUE(sc->title().startsWith(QLatin1String("host-a"))) << sc->title().toStdString();
  EXPECT_TRUE(sc->title().contains(QLatin1String("640"))) << sc->title().toStdString();
}

TEST(EventExplanation, ModifyQpIsOneLineWithTheMaskInTheBodyAndTooltip) {
  const Recorded r = record("tour");
  const int rtr = find(r.rec, [](const ScenarioEvent& e) {
    return e.trace.args.text.find("ibv_modify_qp(qp, RTR") != std::string::npos;
  });
  ASSERT_GE(rtr, 0);
  const EventExplanation x = EventExplainer::explain(r.rec, static_cast<std::size_t>(rtr));
  const QString call = q(r.rec.events[static_cast<std::size_t>(rtr)].trace.args.text);
  const int bits = static_cast<int>(call.count(QLatin1String("IBV_QP_")));
  ASSERT_GE(bits, 5);
  EXPECT_TRUE(x.title.contains(QStringLiteral("ibv_modify_qp → RTR (%1 attributes)").arg(bits)))
      << x.title.toStdString();
  EXPECT_FALSE(x.title.contains(QLatin1String("IBV_QP_")));
  EXPECT_TRUE(call.endsWith(x.detail)) << x.detail.toStdString();
  for (const QString& bit : {QStringLiteral("IBV_QP_AV"), QStringLiteral("IBV_QP_DEST_QPN"),
                             QStringLiteral("IBV_QP_RQ_PSN")}) {
    EXPECT_TRUE(x.body.contains(bit + QStringLiteral(": ") + EventExplainer::maskBitMeaning(bit)))
        << bit.toStdString();
  }
  EXPECT_NE(EventExplainer::maskBitMeaning(QStringLiteral("IBV_QP_AV")),
            EventExplainer::maskBitMeaning(QStringLiteral("IBV_QP_SOMETHING_ELSE")));
}

TEST(EventExplanation, ADropIsExplainedAtTheHostThatDropsIt) {
  MainWindow w(nullptr, QString());
  ASSERT_TRUE(w.openScenario(QStringLiteral("lossy-go-back-n")));
  ScenarioController* sc = w.scenario();
  const ScenarioRecording& rec = *sc->recording();
  const int drop = find(rec, [](const ScenarioEvent& e) {
    return e.trace.kind == sim::TraceKind::FrameDropped &&
           e.trace.what == sim::Narrative::OutOfSequenceDropped;
  });
  ASSERT_GE(drop, 0);
  sc->goTo(drop);
  const auto& ev = rec.events[static_cast<std::size_t>(drop)];
  const QString host = q(rec.hostNames[static_cast<std::size_t>(ev.host)]);
  EXPECT_TRUE(sc->title().startsWith(host)) << sc->title().toStdString();
  EXPECT_TRUE(sc->title().contains(QLatin1String("frame dropped")));
  EXPECT_TRUE(sc->title().contains(QStringLiteral("0x%1").arg(ev.trace.psn, 0, 16)));
  EXPECT_FALSE(sc->title().contains(QLatin1String("ibv_poll_cq")));
  // The memory header does not claim a DMA write happened at the drop.
  for (int h = 0; h < 2; ++h)
    EXPECT_FALSE(w.hostPane(h)->memoryLabel()->text().contains(QLatin1String("just")))
        << w.hostPane(h)->memoryLabel()->text().toStdString();
  // At a DMA write it does.
  const int write = find(rec, [&](const ScenarioEvent& e) {
    return e.trace.kind == sim::TraceKind::MemoryWritten && e.host == ev.host;
  });
  ASSERT_GE(write, 0);
  sc->goTo(write);
  EXPECT_TRUE(w.hostPane(ev.host)->memoryLabel()->text().contains(QLatin1String("just wrote")));
}

TEST(EventExplanation, AReadResponseIsSentByTheResponderBackToTheRequester) {
  const Recorded r = record("rc-read");
  const int resp = find(r.rec, [](const ScenarioEvent& e) {
    return e.trace.kind == sim::TraceKind::FrameSent && e.trace.args.opcode &&
           *e.trace.args.opcode == 0x0d;  // RC RDMA READ response first
  });
  ASSERT_GE(resp, 0);
  const auto& ev = r.rec.events[static_cast<std::size_t>(resp)];
  const EventExplanation x = EventExplainer::explain(r.rec, static_cast<std::size_t>(resp));
  EXPECT_EQ(ev.host, 1);
  EXPECT_TRUE(x.title.startsWith(q(r.rec.hostNames[1]))) << x.title.toStdString();
  EXPECT_TRUE(x.title.contains(QStringLiteral("→ %1").arg(q(r.rec.hostNames[0]))));
  EXPECT_TRUE(x.body.contains(QLatin1String("back to the requester"))) << x.body.toStdString();
  const int data = find(r.rec, [](const ScenarioEvent& e) {
    return e.trace.what == sim::Narrative::ReadResponseData;
  });
  ASSERT_GE(data, 0);
  EXPECT_TRUE(
      EventExplainer::explain(r.rec, static_cast<std::size_t>(data)).body.contains("one-sided"));
}

TEST(EventExplanation, AWqeLeavingProcessingForPendingIsExplained) {
  const Recorded r = record("rc-send-recv");
  bool seen = false;
  for (std::size_t i = 1; i < r.rec.events.size() && !seen; ++i) {
    const auto& ev = r.rec.events[i];
    if (ev.host < 0) continue;
    const auto h = static_cast<std::size_t>(ev.host);
    const auto& now = r.rec.snapshots[ev.snapshot].hosts[h];
    const auto& before = r.rec.snapshots[r.rec.events[i - 1].snapshot].hosts[h];
    if (now.qps.empty() || before.qps.empty()) continue;
    for (const auto& w : now.qps.front().sq)
      for (const auto& o : before.qps.front().sq)
        if (w.wrId == o.wrId && o.state == "processing" && w.state == "pending") {
          const EventExplanation x = EventExplainer::explain(r.rec, i);
          EXPECT_TRUE(x.body.contains(QStringLiteral("wr_id %1: processing → pending").arg(w.wrId)))
              << x.body.toStdString();
          EXPECT_TRUE(x.body.contains(QLatin1String("acknowledgement"))) << x.body.toStdString();
          seen = true;
        }
  }
  EXPECT_TRUE(seen);
}

TEST(EventExplanation, AtTheTourEndEveryCompletionIsPolled) {
  const Recorded r = record("tour");
  const Snapshot& last = r.rec.snapshots[r.rec.events.back().snapshot];
  for (int h = 0; h < 2; ++h) {
    const auto& host = last.hosts[static_cast<std::size_t>(h)];
    ASSERT_FALSE(host.cqs.empty()) << h;
    const CqSnapshot& cq = host.cqs.front();
    EXPECT_GE(cq.entries.size(), 2u) << h;
    EXPECT_EQ(cq.polled, cq.entries.size()) << "host " << h;
  }
  // Host B's two receives: not polled when they arrive, polled once host B polls.
  const int recv = find(r.rec, [](const ScenarioEvent& e) {
    return e.host == 1 && e.trace.kind == sim::TraceKind::CqeProduced;
  });
  ASSERT_GE(recv, 0);
  const CqSnapshot& atRecv =
      r.rec.snapshots[r.rec.events[static_cast<std::size_t>(recv)].snapshot].hosts[1].cqs.front();
  EXPECT_EQ(atRecv.polled + 1, atRecv.entries.size());
}

TEST(EventExplanation, TheEventListFollowsAndAnomaliesCountOnlyWhatHappened) {
  MainWindow w(nullptr, QString());
  w.resize(1280, 720);
  w.show();
  ASSERT_TRUE(w.openScenario(QStringLiteral("tour")));
  ASSERT_TRUE(w.analysis()->waitForIdle());
  QCoreApplication::processEvents();
  ScenarioController* sc = w.scenario();
  auto* events = w.findChild<QTableView*>(QStringLiteral("eventList"));
  ASSERT_TRUE(events);
  sc->goTo(40);
  EXPECT_EQ(events->selectionModel()->currentIndex().row(), 40);
  sc->goTo(3);
  EXPECT_EQ(events->selectionModel()->currentIndex().row(), 3);

  QTabWidget* tabs = w.lowerTabs();
  const int tab = tabs->indexOf(w.analysis()->anomaliesPage());
  ASSERT_GE(tab, 0);
  ASSERT_GT(w.analysis()->anomalyCount(), 0u);  // the tour's RNR NAK
  sc->goTo(0);
  EXPECT_EQ(tabs->tabText(tab), QStringLiteral("Anomalies (0)"));
  sc->goTo(sc->eventCount() - 1);
  EXPECT_EQ(tabs->tabText(tab), QStringLiteral("Anomalies (%1)").arg(w.analysis()->anomalyCount()));
}

}  // namespace
}  // namespace rdmascope::ui
