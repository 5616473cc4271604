// The lessons: every checkpoint's answer is among its choices and agrees with what the step then
// shows (checked against the trace event and sim::summarizeFrame, not the dissection the plan
// used); a wrong answer is refused with feedback; stepping holds at a checkpoint; the menu lists
// the lessons in the primer's order, a lesson without its scenario disabled with a reason.
#include "rdmascope/ui/lesson.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QCoreApplication>
#include <QHeaderView>
#include <QImage>
#include <QMenu>
#include <QMenuBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTreeView>
#include <algorithm>

#include "rdmascope/packets/ib_opcodes.h"
#include "rdmascope/sim/narration.h"
#include "rdmascope/sim/network.h"
#include "rdmascope/ui/event_explanation.h"
#include "rdmascope/ui/hex_view.h"
#include "rdmascope/ui/lesson_pane.h"
#include "rdmascope/ui/main_window.h"
#include "rdmascope/ui/packet_list_model.h"
#include "rdmascope/ui/packet_pane.h"
#include "rdmascope/ui/scenario_controller.h"

namespace rdmascope::ui {
namespace {

const std::vector<std::string> kPrimerOrder = {
    "tcp-copies", "rdma-idea", "three-stacks", "verbs-workflow", "send-recv", "read",
    "write",      "atomics",   "errors",       "iwarp-cm",       "ceph",      "ceph-tcp"};

TEST(Lessons, InThePrimersOrder) {
  std::vector<std::string> ids;
  for (const auto& l : lessons())
    ids.emplace_back(l.id);
  EXPECT_EQ(ids, kPrimerOrder);
  ASSERT_NE(findLesson("write"), nullptr);
  EXPECT_EQ(findLesson("write")->scenario, "rc-write");
  EXPECT_EQ(findLesson("nope"), nullptr);
}

// What the event a checkpoint asks before shows once it is current, computed from the trace
// event and the frame summary (sim/), independently of the plan's dissection.
std::string shownAnswer(const Checkpoint& cp, const ScenarioRecording& rec,
                        const FrameStore& frames) {
  const ScenarioEvent& e = rec.events[cp.event];
  const auto summary = [&](const ScenarioEvent& ev) {
    return sim::summarizeFrame(rec.wire, frames.bytes(static_cast<std::size_t>(ev.frame)));
  };
  switch (cp.spec->kind) {
    case CheckpointKind::Psn:
      EXPECT_EQ(summary(e).psn, e.trace.psn);
      return std::to_string(e.trace.psn);
    case CheckpointKind::Opcode:
      EXPECT_EQ(summary(e).opcode, *e.trace.args.opcode);
      return std::to_string(*e.trace.args.opcode);
    case CheckpointKind::Sender:
      return "host:" + std::to_string(e.host);
    case CheckpointKind::Cpu: {
      // A verbs call is the application's (a note "host-x: ibv_..."), and so are an rdma_cm
      // call and the kernel's socket work (a host's processor runs them); the rest the NIC's.
      using N = sim::Narrative;
      const N w = e.trace.what;
      const bool verbs = e.trace.kind == sim::TraceKind::Note &&
                         e.trace.args.text.find(": ibv_") != std::string::npos;
      const bool rdmaCm = w == N::RdmaCmBind || w == N::RdmaCmListen || w == N::RdmaCmResolve ||
                          w == N::RdmaCmConnect || w == N::RdmaCmAccept;
      const bool socket = w == N::TcpCopy || w == N::TcpSendCall || w == N::TcpRecvCall ||
                          w == N::TcpTransmitWork || w == N::TcpInterrupt;
      // A step of Ceph's messenger is its host's software: copies into and out of chunks,
      // write()/read() of the QP information, send()/recv(), posting, polling.
      if (e.ceph) {
        EXPECT_EQ(e.trace.kind, sim::TraceKind::Note);
        return "cpu:" + std::to_string(e.ceph->host);
      }
      return verbs || rdmaCm || socket ? "cpu:" + std::to_string(e.host) : "nic";
    }
    case CheckpointKind::Reply: {
      const auto s = summary(e);
      if (!s.hasAeth) return "none";
      const int cls = s.syndrome >> 5;
      return cls == 0 ? "ack" : cls == 1 ? "rnr" : "nak:" + std::to_string(s.syndrome & 0x1f);
    }
    case CheckpointKind::Delivery: {
      const ScenarioEvent& fate = rec.events[cp.shownAt];
      EXPECT_TRUE(fate.trace.frameNumber == e.trace.frameNumber ||
                  fate.trace.kind == sim::TraceKind::FrameDropped);
      if (fate.trace.kind == sim::TraceKind::FrameReceived) return "accepted";
      if (fate.trace.what == sim::Narrative::FrameLost) return "lost";
      if (fate.trace.what == sim::Narrative::OutOfSequenceDropped) return "dropped";
      return "discarded";
    }
    case CheckpointKind::Stack:
      return frameStack(frames, static_cast<std::size_t>(e.frame));
    case CheckpointKind::Verb: {
      if (e.trace.what == sim::Narrative::QpCreated) return "ibv_create_qp";
      if (e.trace.args.text.empty()) {
        // A typed rdma_cm event: the simulator's narration starts with the call's name.
        const std::string d = sim::describe(e.trace);
        return d.substr(0, d.find_first_not_of("abcdefghijklmnopqrstuvwxyz_"));
      }
      const auto& t = e.trace.args.text;
      const auto start = t.find(": ") + 2;
      return t.substr(start, t.find('(', start) - start);
    }
    case CheckpointKind::QpState:
      return std::string(qpStateName(e.toState));
  }
  return {};
}

TEST(Lessons, EveryAvailableLessonsAnswersAreAmongItsChoicesAndAgreeWithTheStep) {
  int walked = 0;
  std::vector<std::string> ids;
  for (const auto& lesson : lessons()) {
    if (!lessonAvailable(lesson)) continue;
    ids.emplace_back(lesson.id);
    SCOPED_TRACE(std::string(lesson.id));
    ScenarioRecording rec;
    FrameStore frames;
    std::string error;
    ASSERT_TRUE(recordScenario(std::string(lesson.scenario), sim::WireFormat::RoceV2Ipv4, rec,
                               frames, error))
        << error;
    LessonPlan plan;
    ASSERT_TRUE(planLesson(lesson, rec, frames, plan, error)) << error;
    ASSERT_EQ(plan.checkpoints.size(), lesson.checkpoints.size());
    ASSERT_GE(plan.checkpoints.size(), 3u);
    std::size_t last = 0;
    for (std::size_t k = 0; k < plan.checkpoints.size(); ++k) {
      const Checkpoint& cp = plan.checkpoints[k];
      SCOPED_TRACE("checkpoint " + std::to_string(k + 1));
      if (k) {
        EXPECT_GT(cp.event, last);
      }
      last = cp.event;
      ASSERT_NE(cp.spec->question, nullptr);
      ASSERT_NE(cp.spec->hint, nullptr);
      if (cp.spec->kind == CheckpointKind::Psn) {
        EXPECT_TRUE(cp.choices.empty());
      } else {
        ASSERT_GE(cp.choices.size(), 2u);
        EXPECT_EQ(std::count_if(cp.choices.begin(), cp.choices.end(),
                                [&](const LessonChoice& c) { return c.key == cp.answer; }),
                  1);
        for (const auto& c : cp.choices)
          EXPECT_EQ(checkAnswer(cp, c.key), c.key == cp.answer) << c.key;
      }
      EXPECT_TRUE(checkAnswer(cp, cp.answer));
      EXPECT_EQ(shownAnswer(cp, rec, frames), cp.answer);
    }
    ++walked;
  }
  // Every lesson whose scenario is a built-in of this build, Ceph's two among them.
  EXPECT_GE(walked, 10);
  for (const char* id : {"ceph", "ceph-tcp"})
    EXPECT_NE(std::find(ids.begin(), ids.end(), id), ids.end()) << id;
}

TEST(Lessons, PsnAnswersAreTypedInDecimalOrHex) {
  ScenarioRecording rec;
  FrameStore frames;
  std::string error;
  ASSERT_TRUE(recordScenario("rc-send-recv", sim::WireFormat::RoceV2Ipv4, rec, frames, error));
  LessonPlan plan;
  ASSERT_TRUE(planLesson(*findLesson("send-recv"), rec, frames, plan, error)) << error;
  const auto it =
      std::find_if(plan.checkpoints.begin(), plan.checkpoints.end(),
                   [](const Checkpoint& c) { return c.spec->kind == CheckpointKind::Psn; });
  ASSERT_NE(it, plan.checkpoints.end());
  // The second packet of the SEND: one past the first.
  const auto first = sim::summarizeFrame(rec.wire, frames.bytes(0));
  EXPECT_EQ(it->answer, std::to_string(first.psn + 1));
  char hex[16];
  std::snprintf(hex, sizeof hex, "0x%x", first.psn + 1);
  EXPECT_TRUE(checkAnswer(*it, hex));
  EXPECT_TRUE(checkAnswer(*it, std::to_string(first.psn + 1)));
  EXPECT_FALSE(checkAnswer(*it, std::to_string(first.psn)));
  EXPECT_FALSE(checkAnswer(*it, "0x"));
  EXPECT_FALSE(checkAnswer(*it, "twelve"));
}

TEST(Lessons, TheStackQuestionOffersTheOtherWireFormatsStacks) {
  for (auto wire :
       {sim::WireFormat::RoceV2Ipv4, sim::WireFormat::RoceV1, sim::WireFormat::InfiniBand}) {
    ScenarioRecording rec;
    FrameStore frames;
    std::string error;
    ASSERT_TRUE(recordScenario("rc-send-recv", wire, rec, frames, error));
    LessonPlan plan;
    ASSERT_TRUE(planLesson(*findLesson("three-stacks"), rec, frames, plan, error)) << error;
    const Checkpoint& cp = plan.checkpoints.front();
    ASSERT_EQ(cp.spec->kind, CheckpointKind::Stack);
    EXPECT_EQ(cp.choices.size(), 4u);
    const std::string expected = wire == sim::WireFormat::RoceV2Ipv4 ? "Ethernet / IPv4 / UDP / BTH"
                                 : wire == sim::WireFormat::RoceV1   ? "Ethernet / GRH / BTH"
                                                                     : "LRH";
    EXPECT_EQ(cp.answer.substr(0, expected.size()), expected);
  }
}

TEST(Lessons, TheErrorsLessonAsksAboutTheLostFrameAndOneTheResponderDrops) {
  ScenarioRecording rec;
  FrameStore frames;
  std::string error;
  ASSERT_TRUE(recordScenario("lossy-go-back-n", sim::WireFormat::RoceV2Ipv4, rec, frames, error))
      << error;
  LessonPlan plan;
  ASSERT_TRUE(planLesson(*findLesson("errors"), rec, frames, plan, error)) << error;
  ASSERT_GE(plan.checkpoints.size(), 2u);
  // The checkpoints sit on the frames whose fate they ask about, wherever the scenario puts them.
  const auto fateOf = [&](const Checkpoint& cp) {
    const auto number = rec.events[cp.event].trace.frameNumber;
    for (std::size_t i = cp.event + 1; i < rec.events.size(); ++i)
      if (rec.events[i].trace.frameNumber == number &&
          rec.events[i].trace.kind == sim::TraceKind::FrameDropped)
        return rec.events[i].trace.what;
    return sim::Narrative::Text;
  };
  EXPECT_EQ(plan.checkpoints[0].answer, "lost");
  EXPECT_EQ(fateOf(plan.checkpoints[0]), sim::Narrative::FrameLost);
  EXPECT_EQ(plan.checkpoints[1].answer, "dropped");
  EXPECT_EQ(rec.events[plan.checkpoints[1].event].trace.kind, sim::TraceKind::FrameSent);
  // It arrives; the receiving host's next event discards it.
  const auto second = plan.checkpoints[1].event;
  bool droppedOnArrival = false;
  for (std::size_t i = second + 1; i < rec.events.size(); ++i) {
    const auto& e = rec.events[i];
    if (e.trace.frameNumber != rec.events[second].trace.frameNumber ||
        e.trace.kind != sim::TraceKind::FrameReceived)
      continue;
    for (std::size_t j = i + 1; j < rec.events.size(); ++j)
      if (rec.events[j].host == e.host) {
        droppedOnArrival = rec.events[j].trace.kind == sim::TraceKind::FrameDropped;
        break;
      }
    break;
  }
  EXPECT_TRUE(droppedOnArrival);
}

TEST(Lessons, MissingScenarioMakesAClearError) {
  ScenarioRecording rec;
  FrameStore frames;
  std::string error;
  ASSERT_TRUE(recordScenario("rc-write", sim::WireFormat::RoceV2Ipv4, rec, frames, error));
  LessonPlan plan;
  // The errors lesson asks first about the frame the link loses; rc-write loses none.
  EXPECT_FALSE(planLesson(*findLesson("errors"), rec, frames, plan, error));
  EXPECT_NE(
      error.find("lesson errors: checkpoint 1 (delivery): no matching event in scenario rc-write"),
      std::string::npos)
      << error;
}

QMenu* lessonsMenu(MainWindow& w) {
  for (QAction* a : w.menuBar()->actions())
    if (a->menu() && a->menu()->objectName() == QLatin1String("lessonsMenu")) return a->menu();
  return nullptr;
}

TEST(LessonPane, MenuListsTheLessonsInOrderAndDisablesThoseWithoutTheirScenario) {
  MainWindow w;
  QMenu* menu = lessonsMenu(w);
  ASSERT_NE(menu, nullptr);
  const auto actions = menu->actions();
  ASSERT_EQ(actions.size(), static_cast<qsizetype>(kPrimerOrder.size()));
  for (qsizetype i = 0; i < actions.size(); ++i) {
    const auto& l = lessons()[static_cast<std::size_t>(i)];
    EXPECT_EQ(actions[i]->data().toString().toStdString(),
              kPrimerOrder[static_cast<std::size_t>(i)]);
    EXPECT_EQ(actions[i]->isEnabled(), lessonAvailable(l));
    EXPECT_TRUE(actions[i]->toolTip().contains(
        QString::fromUtf8(l.scenario.data(), static_cast<qsizetype>(l.scenario.size()))));
    if (!lessonAvailable(l)) {
      EXPECT_TRUE(actions[i]->toolTip().contains(QStringLiteral("does not have")));
      QString error;
      EXPECT_FALSE(lessonPane(w)->start(actions[i]->data().toString(), error));
      EXPECT_TRUE(error.contains(QStringLiteral("does not have"))) << error.toStdString();
    }
  }
  EXPECT_TRUE(actions[4]->isEnabled());  // send-recv
  QString error;
  EXPECT_FALSE(lessonPane(w)->start(QStringLiteral("nope"), error));
  EXPECT_TRUE(error.contains(QStringLiteral("send-recv"))) << error.toStdString();
}

TEST(LessonPane, HoldsSteppingRefusesAWrongAnswerAndStepsOnAfterTheRightOne) {
  MainWindow w;
  w.show();
  // Through the menu, as a student would.
  QAction* writeLesson = nullptr;
  for (QAction* a : lessonsMenu(w)->actions())
    if (a->data().toString() == QLatin1String("write")) writeLesson = a;
  ASSERT_NE(writeLesson, nullptr);
  writeLesson->trigger();
  LessonPane* pane = lessonPane(w);
  ASSERT_TRUE(pane->active());
  ASSERT_TRUE(pane->isVisible());
  EXPECT_EQ(w.lowerTabs()->currentWidget(), pane);
  ASSERT_EQ(w.scenario()->recording()->name, "rc-write");
  EXPECT_EQ(pane->progress(), QStringLiteral("Checkpoint 1 of 5 (before event %1)")
                                  .arg(pane->plan().checkpoints[0].event + 1));
  EXPECT_EQ(pane->question(), QStringLiteral("Which opcode will the first packet carry?"));
  EXPECT_TRUE(pane->choiceTexts().contains(QStringLiteral("RC RDMA WRITE First")))
      << pane->choiceTexts().join(QStringLiteral("|")).toStdString();

  // Held: neither stepping nor a jump passes the checkpoint.
  const int first = static_cast<int>(pane->plan().checkpoints[0].event);
  w.scenario()->goTo(w.scenario()->eventCount() - 1);
  EXPECT_EQ(w.scenario()->current(), first - 1);
  EXPECT_FALSE(w.scenario()->stepForward());
  EXPECT_EQ(w.scenario()->current(), first - 1);
  EXPECT_TRUE(pane->feedback().contains(QStringLiteral("Answer the question")));

  // A wrong answer is refused, with the hint; the second wrong one adds what happens.
  const Checkpoint& cp = pane->plan().checkpoints[0];
  const auto wrong = std::find_if(cp.choices.begin(), cp.choices.end(),
                                  [&](const LessonChoice& c) { return c.key != cp.answer; });
  ASSERT_NE(wrong, cp.choices.end());
  EXPECT_FALSE(pane->answer(QString::fromStdString(wrong->key)));
  EXPECT_TRUE(pane->feedback().contains(QStringLiteral("Not right")));
  EXPECT_TRUE(pane->feedback().contains(QStringLiteral("8 KiB at MTU 1024")));
  EXPECT_EQ(pane->checkpoint(), 0u);
  EXPECT_FALSE(w.scenario()->stepForward());
  EXPECT_FALSE(pane->answer(QString::fromStdString(wrong->key)));
  const auto ex = EventExplainer::explain(*w.scenario()->recording(), cp.event);
  EXPECT_TRUE(pane->feedback().contains(ex.title.toHtmlEscaped()))
      << pane->feedback().toStdString();

  // The right answer: the scenario shows the checkpoint's event, the next question is asked.
  EXPECT_TRUE(pane->answer(QString::fromStdString(cp.answer)));
  EXPECT_EQ(w.scenario()->current(), first);
  EXPECT_TRUE(pane->feedback().contains(QStringLiteral("Right")));
  EXPECT_EQ(pane->checkpoint(), 1u);
  EXPECT_EQ(pane->question(), QStringLiteral("Which PSN will the next packet carry?"));
  EXPECT_TRUE(pane->choiceTexts().isEmpty());
  // The PSN typed in hex; the ladder's current frame carries it.
  const auto& rec = *w.scenario()->recording();
  const auto psn = QString::fromStdString(pane->plan().checkpoints[1].answer).toUInt();
  EXPECT_TRUE(pane->answer(QStringLiteral("0x%1").arg(psn, 0, 16)));
  const auto& shown = rec.events[static_cast<std::size_t>(w.scenario()->current())];
  EXPECT_EQ(shown.trace.kind, sim::TraceKind::FrameSent);
  EXPECT_EQ(shown.trace.psn, psn);
  EXPECT_EQ(w.scenario()->currentFrame(), shown.frame);

  // Skip the rest: each shows its answer and steps on; at the end stepping is free.
  while (pane->asking()) {
    const auto k = pane->checkpoint();
    pane->skip();
    EXPECT_TRUE(pane->feedback().contains(QStringLiteral("Skipped")));
    EXPECT_EQ(w.scenario()->current(), static_cast<int>(pane->plan().checkpoints[k].event));
  }
  EXPECT_TRUE(pane->progress().startsWith(QStringLiteral("All 5")));
  w.scenario()->goTo(w.scenario()->eventCount() - 1);
  EXPECT_EQ(w.scenario()->current(), w.scenario()->eventCount() - 1);
}

TEST(LessonPane, AnotherTransportRestartsTheLessonAnotherScenarioEndsIt) {
  MainWindow w;
  QString error;
  ASSERT_TRUE(lessonPane(w)->start(QStringLiteral("send-recv"), error)) << error.toStdString();
  LessonPane* pane = lessonPane(w);
  pane->skip();
  EXPECT_EQ(pane->checkpoint(), 1u);
  ASSERT_TRUE(w.openScenario(QStringLiteral("rc-send-recv")));
  EXPECT_TRUE(pane->active());
  EXPECT_EQ(pane->checkpoint(), 0u);
  EXPECT_EQ(w.scenario()->holdLimit(), static_cast<int>(pane->plan().checkpoints[0].event) - 1);
  ASSERT_TRUE(w.openScenario(QStringLiteral("rc-read")));
  EXPECT_FALSE(pane->active());
  EXPECT_EQ(w.scenario()->holdLimit(), -2);
  w.scenario()->goTo(w.scenario()->eventCount() - 1);
  EXPECT_EQ(w.scenario()->current(), w.scenario()->eventCount() - 1);
}

// The lesson pane at a laptop's and a desktop's size: written to the build folder and looked
// at; nothing of the pane is cut (its widgets lie inside the window).
TEST(LessonPane, Screenshots) {
  for (const QSize size : {QSize(1280, 720), QSize(1600, 1000)}) {
    MainWindow w;
    w.resize(size);
    w.show();
    QString error;
    ASSERT_TRUE(lessonPane(w)->start(QStringLiteral("send-recv"), error)) << error.toStdString();
    LessonPane* pane = lessonPane(w);
    // Past the receive and the first packet, the second's PSN answered; the third packet's
    // opcode answered wrong twice (the hint, then what happens).
    pane->skip();
    pane->skip();
    ASSERT_TRUE(pane->answer(QString::fromStdString(pane->plan().checkpoints[2].answer)));
    const Checkpoint& third = pane->plan().checkpoints[3];
    const auto wrong = std::find_if(third.choices.begin(), third.choices.end(),
                                    [&](const LessonChoice& c) { return c.key != third.answer; });
    ASSERT_NE(wrong, third.choices.end());
    EXPECT_FALSE(pane->answer(QString::fromStdString(wrong->key)));
    EXPECT_FALSE(pane->answer(QString::fromStdString(wrong->key)));
    EXPECT_TRUE(pane->feedback().contains(QStringLiteral("What happens")));
    QCoreApplication::processEvents();
    const QImage img = w.grab().toImage();
    QTabBar* tabs = w.lowerTabs()->tabBar();
    EXPECT_GE(tabs->width(), tabs->sizeHint().width()) << "lower tabs cut";
    // The criteria of layout_test: the packet list's Info, the detail tree, the hex pane.
    PacketPane* p = w.packetPane();
    const int cw = p->fontMetrics().horizontalAdvance(QLatin1Char('x'));
    QTableView* list = p->packetList();
    const int info = list->viewport()->width() -
                     list->horizontalHeader()->sectionPosition(PacketListModel::Info);
    EXPECT_GE(info, cw * 28) << "Info column " << info << " px";
    EXPECT_GE(p->detailTree()->viewport()->width(), cw * 34) << "detail tree";
    EXPECT_GE(p->hexView()->width(), p->hexView()->sizeHint().width() - 2) << "hex ASCII";
    const QString path = QStringLiteral(RDMASCOPE_BINARY_DIR "/tests/ui/lesson_%1x%2.png")
                             .arg(size.width())
                             .arg(size.height());
    EXPECT_TRUE(img.save(path));
    EXPECT_EQ(img.size(), size);
    for (const char* name : {"lessonQuestion", "lessonFeedback", "lessonAnswer", "lessonSkip",
                             "lessonProgress", "lessonNarration"}) {
      auto* wd = pane->findChild<QWidget*>(QLatin1String(name));
      ASSERT_NE(wd, nullptr) << name;
      if (!wd->isVisible()) continue;
      const QRect r(wd->mapTo(&w, QPoint(0, 0)), wd->size());
      EXPECT_TRUE(w.rect().contains(r)) << name << " at " << size.width();
      EXPECT_GE(wd->height(), wd->minimumSizeHint().height()) << name;
    }
  }
}

}  // namespace
}  // namespace rdmascope::ui
