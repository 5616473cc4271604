// A congestion scenario run in the GUI (congestion_run.h, congestion_run_view.h): the fabric
// view's model, the queue and rate series against their thresholds, stepping by slices and to
// the next event, the explanation of each step, and the window showing it (frames, ladder,
// explanation, the Go menu and the example menu).
#include "rdmascope/ui/congestion_run.h"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QAction>
#include <QImage>
#include <QMenu>
#include <QSpinBox>
#include <QTextBrowser>
#include <algorithm>
#include <numeric>
#include <set>

#include "rdmascope/ui/congestion_ladder.h"
#include "rdmascope/ui/congestion_plots.h"
#include "rdmascope/ui/congestion_run_view.h"
#include "rdmascope/ui/congestion_step_text.h"
#include "rdmascope/ui/fabric_topology_model.h"
#include "rdmascope/ui/fabric_topology_view.h"
#include "rdmascope/ui/ladder_view.h"
#include "rdmascope/ui/main_window.h"
#include "rdmascope/ui/packet_list_model.h"
#include "rdmascope/ui/packet_pane.h"

namespace rdmascope::ui {
namespace {

using Kind = sim::FabricEvent::Kind;

QString example(const char* name) {
  return QStringLiteral(RDMASCOPE_SOURCE_DIR "/examples/congestion/%1.json")
      .arg(QLatin1String(name));
}

const sim::FabricSeries::Queue& queueOf(const CongestionRun& run, const std::string& port,
                                        int prio) {
  for (const auto& q : run.series().queues)
    if (q.port == port && q.priority == prio) return q;
  throw std::runtime_error("no queue " + port);
}

double mean(const std::vector<double>& v, std::size_t from) {
  return std::accumulate(v.begin() + static_cast<std::ptrdiff_t>(from), v.end(), 0.0) /
         static_cast<double>(v.size() - from);
}

TEST(CongestionRun, TheFabricModelListsTheHostsSwitchesAndLinks) {
  CongestionRunView view;
  QString error;
  ASSERT_TRUE(view.open(example("incast-pfc"), error)) << error.toStdString();
  const FabricTopologyModel& m = *view.topology();
  QAbstractItemModelTester tester(view.topology(),
                                  QAbstractItemModelTester::FailureReportingMode::Warning);
  std::set<QString> switches, hosts;
  for (const auto& n : m.nodes())
    (n.isSwitch ? switches : hosts).insert(n.name);
  EXPECT_EQ(switches, (std::set<QString>{"l0", "l1", "sp0"}));
  std::set<QString> wantHosts;
  for (int i = 0; i <= 10; ++i)
    wantHosts.insert(QStringLiteral("h%1").arg(i));
  EXPECT_EQ(hosts, wantHosts);
  // the file's 13 links in its order, each end a port: the uplinks are the 800 Gb/s ones
  ASSERT_EQ(m.rowCount(), 13);
  EXPECT_EQ(m.data(m.index(0, FabricTopologyModel::A), Qt::DisplayRole).toString(), "h0");
  EXPECT_EQ(m.data(m.index(0, FabricTopologyModel::B), Qt::DisplayRole).toString(), "l0:0");
  EXPECT_EQ(m.data(m.index(9, FabricTopologyModel::A), Qt::DisplayRole).toString(), "l0:9");
  EXPECT_EQ(m.data(m.index(9, FabricTopologyModel::B), Qt::DisplayRole).toString(), "sp0:0");
  EXPECT_EQ(m.data(m.index(9, FabricTopologyModel::Speed), Qt::DisplayRole).toDouble(), 800.0);
  EXPECT_EQ(m.data(m.index(10, FabricTopologyModel::B), Qt::DisplayRole).toString(), "l1:0");
  EXPECT_EQ(m.data(m.index(12, FabricTopologyModel::A), Qt::DisplayRole).toString(), "h10");
  // layers: the spine above the leaves above the hosts
  const auto& nodes = m.nodes();
  const auto y = [&](const char* n) {
    return nodes[static_cast<std::size_t>(m.nodeIndex(n))].where.y();
  };
  EXPECT_LT(y("sp0"), y("l0"));
  EXPECT_EQ(y("l0"), y("l1"));
  EXPECT_LT(y("l1"), y("h8"));
  // at 500 us the incast's last hop is full and the spine is paused towards l1
  view.run()->setTime(sim::SimTime::us(500));
  const int l1h8 = 11;  // h8 - l1: l1:1 sends to h8
  EXPECT_GT(m.load(m.links()[l1h8].portB), 0.9);
  bool anyPaused = false;
  for (const auto& l : m.links())
    anyPaused |= m.pausedPriorities(l.portA) != 0 || m.pausedPriorities(l.portB) != 0;
  EXPECT_TRUE(anyPaused);
  view.resize(900, 500);
  EXPECT_GT(view.fabricView()->grab().width(), 0);
}

TEST(CongestionRun, PfcQueuesPassXoffAndDcqcnQueuesStayNearKmin) {
  CongestionRun pfc;
  QString error;
  ASSERT_TRUE(pfc.load(example("incast-pfc"), error)) << error.toStdString();
  // l1's queue towards h8 is fed by l1's ingress from the spine alone: it reaches l1's XOFF
  const auto& q = queueOf(pfc, "l1:1", 3);
  const auto& xoff = pfc.series().xoffBytes.at("l1");
  ASSERT_EQ(q.bytes.size(), xoff.size());
  std::size_t above = 0;
  for (std::size_t i = 0; i < q.bytes.size(); ++i)
    above += q.bytes[i] >= xoff[i];
  EXPECT_GT(above, q.bytes.size() / 2) << "samples at or above XOFF: " << above;

  CongestionRun dcqcn;
  ASSERT_TRUE(dcqcn.load(example("incast-dcqcn"), error)) << error.toStdString();
  const auto& d = queueOf(dcqcn, "l1:1", 3);
  const double kmax = static_cast<double>(dcqcn.spec().switches.marking.kmax);
  std::vector<double> tail(d.bytes.begin(), d.bytes.end());
  const std::size_t from = tail.size() * 2 / 3;
  EXPECT_LT(mean(tail, from), kmax) << "steady state mean queue";
  EXPECT_GT(mean(tail, from), static_cast<double>(dcqcn.spec().switches.marking.kmin) / 2);
  // and the view draws both: XOFF/XON for the PFC run, Kmin/Kmax for the DCQCN one
  CongestionRunView view;
  ASSERT_TRUE(view.open(example("incast-dcqcn"), error));
  QStringList names;
  for (const auto& l : view.queuePlot()->lines())
    names << l.name;
  for (const auto& t : view.queuePlot()->thresholds())
    names << t.name;
  EXPECT_TRUE(names.contains("l1:1 P3")) << names.join(' ').toStdString();
  EXPECT_TRUE(names.contains("Kmin") && names.contains("Kmax")) << names.join(' ').toStdString();
  EXPECT_TRUE(names.filter("XOFF").size() == 1 && names.filter("XON").size() == 1);
}

TEST(CongestionRun, DcqcnRatesConvergeNearTheFairShare) {
  CongestionRunView view;
  QString error;
  ASSERT_TRUE(view.open(example("incast-dcqcn"), error)) << error.toStdString();
  const auto& flows = view.run()->series().flows;
  const double fair = 100.0 / 7;
  int incast = 0;
  double sum = 0;
  for (const auto& f : flows) {
    if (f.dst != "h8") continue;
    ++incast;
    const double tail = mean(f.dcqcnRateGbps, f.dcqcnRateGbps.size() * 2 / 3);
    EXPECT_GT(tail, fair * 0.6) << f.name;
    EXPECT_LT(tail, fair * 1.6) << f.name;
    sum += tail;
    EXPECT_LE(*std::max_element(f.dcqcnRateGbps.begin(), f.dcqcnRateGbps.end()), 100.0)
        << "never above the line rate";
  }
  EXPECT_EQ(incast, 7);
  EXPECT_NEAR(sum, 100.0, 30.0);
  // the rate plot shows the DCQCN rates, one line per flow
  ASSERT_EQ(view.ratePlot()->lines().size(), flows.size());
  EXPECT_EQ(view.ratePlot()->lines()[0].values, flows[0].dcqcnRateGbps);
}

TEST(CongestionRun, NextXoffLandsWhereTheIngressIsAtXoff) {
  CongestionRun run;
  QString error;
  ASSERT_TRUE(run.load(example("incast-pfc"), error)) << error.toStdString();
  ASSERT_TRUE(run.nextEvent(CongestionStepTarget::Xoff));
  const auto& e = run.events()[static_cast<std::size_t>(run.currentEvent())];
  EXPECT_EQ(e.kind, Kind::Xoff);
  EXPECT_EQ(run.time(), e.time);
  EXPECT_GT(run.time(), sim::SimTime());
  // the ingress passed XOFF: its shared use (beyond the reserve) is at the threshold
  const auto reserve = run.spec().switches.buffer.reserve;
  EXPECT_GE(e.bytes, e.threshold + reserve) << e.port;
  // the first XOFF is the last hop's: l1 pausing the spine
  EXPECT_EQ(e.port, "l1:0");
  EXPECT_EQ(e.peer, "sp0:1");
  // and the spine's port is paused just after (the PAUSE's time on the wire and the link)
  run.setTime(e.time + sim::SimTime::us(3));
  EXPECT_TRUE(run.pausedNow("sp0:1", 3));
  // each further XOFF lies later; an XON follows each XOFF of the same ingress
  const sim::SimTime first = e.time;
  ASSERT_TRUE(run.nextEvent(CongestionStepTarget::Xon));
  EXPECT_GT(run.time(), first);
  EXPECT_EQ(run.events()[static_cast<std::size_t>(run.currentEvent())].kind, Kind::Xon);
  ASSERT_TRUE(run.previousEvent(CongestionStepTarget::Xoff));
  EXPECT_EQ(run.events()[static_cast<std::size_t>(run.currentEvent())].kind, Kind::Xoff);
  // no ECN in this scenario: nothing to step to
  run.setTime({});
  EXPECT_FALSE(run.nextEvent(CongestionStepTarget::EcnMark));
  EXPECT_FALSE(run.nextEvent(CongestionStepTarget::Drop));  // lossless: no drops
}

TEST(CongestionRun, EachStepIsExplainedByItsKindAndPlace) {
  CongestionRun run;
  QString error;
  ASSERT_TRUE(run.load(example("incast-dcqcn"), error)) << error.toStdString();
  EXPECT_TRUE(run.stepExplanation().contains("Before the run"));
  const struct {
    CongestionStepTarget target;
    Kind kind;
  } kinds[] = {{CongestionStepTarget::EcnMark, Kind::EcnMark},
               {CongestionStepTarget::Cnp, Kind::CnpSent},
               {CongestionStepTarget::RateCut, Kind::RateCut},
               {CongestionStepTarget::Xoff, Kind::Xoff},
               {CongestionStepTarget::Xon, Kind::Xon}};
  for (const auto& k : kinds) {
    run.setTime({});
    for (int n = 0; n < 3; ++n) {
      ASSERT_TRUE(run.nextEvent(k.target)) << fabricEventKindName(k.kind).toStdString();
      const auto& e = run.events()[static_cast<std::size_t>(run.currentEvent())];
      ASSERT_EQ(e.kind, k.kind);
      const QString text = run.stepExplanation();
      const QString name = fabricEventKindName(k.kind);
      EXPECT_TRUE(text.contains(name)) << text.toStdString();
      EXPECT_TRUE(text.contains(QString::fromStdString(e.port))) << text.toStdString();
      if (!e.peer.empty()) {
        EXPECT_TRUE(text.contains(QString::fromStdString(e.peer))) << text.toStdString();
      }
      EXPECT_TRUE(text.contains(QStringLiteral("%1 us").arg(e.time.micros(), 0, 'f', 3)))
          << text.toStdString();
      EXPECT_TRUE(run.stepTitle().contains(name));
      EXPECT_EQ(text.count('\n'), 0) << "one line";
    }
  }
  // the marks name the flow; the CNPs name the receiver (the port) and the sender (the peer)
  run.setTime({});
  ASSERT_TRUE(run.nextEvent(CongestionStepTarget::Cnp));
  const auto& cnp = run.events()[static_cast<std::size_t>(run.currentEvent())];
  EXPECT_EQ(cnp.port, "h8");
  EXPECT_TRUE(run.stepExplanation().contains(
      QString::fromStdString(run.spec().flows[static_cast<std::size_t>(cnp.flow)].name)));
  // a slice step counts what happened in the slice
  run.setTime({});
  int withEvents = 0;
  for (int n = 0; n < 20 && run.stepForward(); ++n) {
    EXPECT_EQ(run.currentEvent(), -1);
    const QString text = run.stepExplanation();
    EXPECT_TRUE(text.contains(QStringLiteral("us:"))) << text.toStdString();
    withEvents += text.contains(QStringLiteral("ECN mark"));
  }
  EXPECT_GT(withEvents, 0);
}

TEST(CongestionRun, SlicesStepForwardAndBackAndNotableEventsSkipRepeats) {
  CongestionRun run;
  QString error;
  ASSERT_TRUE(run.load(example("incast-dcqcn"), error)) << error.toStdString();
  EXPECT_EQ(run.sliceCount(), 300);  // 3000 us in slices of 10 us
  for (int i = 0; i < 3; ++i)
    ASSERT_TRUE(run.stepForward());
  EXPECT_EQ(run.time(), sim::SimTime::us(30));
  EXPECT_EQ(run.sliceIndex(), 3);
  ASSERT_TRUE(run.stepBack());
  EXPECT_EQ(run.time(), sim::SimTime::us(20));
  // a next-event step lands inside a slice; back goes to that slice's start
  run.setTime({});
  ASSERT_TRUE(run.nextEvent(CongestionStepTarget::EcnMark));
  const sim::SimTime mark = run.time();
  ASSERT_TRUE(run.stepBack());
  EXPECT_EQ(run.time().picos() % sim::SimTime::us(10).picos(), 0);
  EXPECT_LT(run.time(), mark);
  // notable: one first mark per queue, one first CNP and rate cut per flow
  std::set<std::string> markedQueues;
  std::set<int> cnpFlows;
  int notable = 0;
  for (std::size_t i = 0; i < run.events().size(); ++i) {
    if (!run.notable(i)) continue;
    ++notable;
    const auto& e = run.events()[i];
    if (e.kind == Kind::EcnMark) {
      EXPECT_TRUE(markedQueues.insert(e.port + "/" + std::to_string(e.priority)).second);
    }
    if (e.kind == Kind::CnpSent) {
      EXPECT_TRUE(cnpFlows.insert(e.flow).second);
    }
  }
  EXPECT_LT(notable, static_cast<int>(run.events().size()) / 5);
  run.setTime({});
  int visited = 0;
  while (run.nextEvent(CongestionStepTarget::Notable))
    ++visited;
  EXPECT_EQ(visited, notable);
  run.goToSlice(run.sliceCount());
  EXPECT_FALSE(run.stepForward());  // at the end
  EXPECT_EQ(run.time(), run.duration());
}

TEST(CongestionRun, TheWindowShowsTheRunsFramesLadderAndExplanation) {
  MainWindow w(nullptr, QString());
  w.resize(1280, 720);
  ASSERT_TRUE(w.openCongestionScenario(example("incast-dcqcn"))) << w.lastError().toStdString();
  EXPECT_TRUE(w.congestionMode());
  CongestionRun& run = *w.congestionRun()->run();
  ASSERT_EQ(w.frameStore().size(), run.frames().size());
  EXPECT_GT(run.frames().size(), 1000u);
  EXPECT_EQ(w.packetPane()->packetModel()->frameLimit(), 0u);  // time 0: nothing sent yet
  // the Go menu's Step Forward moves a slice; the frames sent by then are listed
  QAction* forward = nullptr;
  for (QAction* a : w.actions())
    if (a->text().contains(QStringLiteral("Forward"))) forward = a;
  ASSERT_NE(forward, nullptr);
  for (int i = 0; i < 5; ++i)
    forward->trigger();
  EXPECT_EQ(run.time(), sim::SimTime::us(50));
  EXPECT_EQ(w.packetPane()->packetModel()->frameLimit(), run.framesUpTo());
  EXPECT_EQ(w.ladder()->visibleCount(), static_cast<int>(run.framesUpTo()));
  EXPECT_EQ(w.findChild<QSpinBox*>(QStringLiteral("eventSpin"))->value(), 5);
  // the first CNP: its explanation in the window, the CNP on the ladder and in the packets
  w.congestionRun()->setTarget(CongestionStepTarget::Cnp);
  run.setTime({});
  ASSERT_TRUE(w.congestionRun()->nextEvent());
  EXPECT_TRUE(w.explanation()->toPlainText().contains(QStringLiteral("CNP from h8")))
      << w.explanation()->toPlainText().toStdString();
  // the CNP goes from h8 to l1 on the captured link a little later: step to it, find it
  run.setTime(run.time() + sim::SimTime::us(3));
  const int shown = w.ladder()->visibleCount();
  ASSERT_GT(shown, 0);
  bool cnpOnLadder = false, ceOnLadder = false;
  QStringList lanes;
  const auto rows = congestionLadder(run, lanes);
  EXPECT_EQ(lanes, (QStringList{"l1", "h8"}));  // the scenario captures l1:1, l1's port to h8
  for (int f = 0; f < shown; ++f) {
    cnpOnLadder |= rows[static_cast<std::size_t>(f)].label == QStringLiteral("CNP");
    ceOnLadder |= rows[static_cast<std::size_t>(f)].label.startsWith(QStringLiteral("CE  "));
  }
  EXPECT_TRUE(cnpOnLadder);
  EXPECT_TRUE(ceOnLadder);
  // the packet list decodes them: a CNP and a CE-marked packet among the frames shown
  bool cnpListed = false, ceListed = false;
  for (std::size_t f = 0; f < static_cast<std::size_t>(shown); ++f) {
    const auto d = w.frameStore().decode(f);
    cnpListed |= d.summary.info.find("CNP") != std::string::npos;
    const auto b = w.frameStore().bytes(f);
    ceListed |= b.size() > 15 && b[12] == 0x08 && b[13] == 0x00 && (b[15] & 3) == 3;
  }
  EXPECT_TRUE(cnpListed);
  EXPECT_TRUE(ceListed);
  // another mode leaves the congestion run
  ASSERT_TRUE(w.openScenario(QStringLiteral("tour")));
  EXPECT_FALSE(w.congestionMode());
  EXPECT_FALSE(w.congestionRun()->isVisible());
}

TEST(CongestionRun, ExampleMenuListsTheCongestionScenarios) {
  MainWindow w(nullptr, QString());
  auto* menu = w.findChild<QMenu*>(QStringLiteral("openExampleMenu"));
  ASSERT_NE(menu, nullptr);
  QStringList names;
  QAction* pfc = nullptr;
  for (QAction* a : menu->actions()) {
    if (!a->data().toString().endsWith(QStringLiteral(".json"))) continue;
    names << a->text();
    if (a->text() == QStringLiteral("incast-pfc")) pfc = a;
  }
  EXPECT_EQ(names, (QStringList{"incast-dcqcn", "incast-lossy", "incast-pfc", "pfc-deadlock"}));
  ASSERT_NE(pfc, nullptr);
  EXPECT_TRUE(pfc->toolTip().contains(QStringLiteral("incast"))) << pfc->toolTip().toStdString();
  pfc->trigger();
  EXPECT_TRUE(w.lastError().isEmpty()) << w.lastError().toStdString();
  EXPECT_TRUE(w.congestionMode());
}

TEST(CongestionRun, ABadScenarioIsAOneLineError) {
  CongestionRun run;
  QString error;
  EXPECT_FALSE(run.load(QStringLiteral("/nonexistent/x.json"), error));
  EXPECT_EQ(error, QStringLiteral("cannot read /nonexistent/x.json"));
  EXPECT_FALSE(run.loaded());
  MainWindow w(nullptr, QString());
  EXPECT_FALSE(w.openCongestionScenario(QStringLiteral("/nonexistent/x.json")));
  EXPECT_EQ(w.lastError(), QStringLiteral("cannot read /nonexistent/x.json"));
  EXPECT_FALSE(w.congestionMode());
}

TEST(CongestionRun, ADeadlockIsAnEventNamingTheCycle) {
  CongestionRun run;
  QString error;
  ASSERT_TRUE(run.load(example("pfc-deadlock"), error)) << error.toStdString();
  bool found = false;
  run.setTime({});
  while (run.nextEvent(CongestionStepTarget::Notable)) {
    const auto& e = run.events()[static_cast<std::size_t>(run.currentEvent())];
    if (e.kind != Kind::Deadlock) continue;
    found = true;
    EXPECT_TRUE(run.stepExplanation().contains(QStringLiteral("PFC deadlock")));
    EXPECT_TRUE(run.stepExplanation().contains(QString::fromStdString(e.port)));
  }
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace rdmascope::ui
