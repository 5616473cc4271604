// Stepping the tour drives every view to the expected state.
#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QTableView>
#include <QTest>
#include <QTreeView>

#include "rdmascope/ui/data_path_pane.h"
#include "rdmascope/ui/detail_tree_model.h"
#include "rdmascope/ui/hex_view.h"
#include "rdmascope/ui/host_pane.h"
#include "rdmascope/ui/host_state_models.h"
#include "rdmascope/ui/ladder_view.h"
#include "rdmascope/ui/layer_stacks_view.h"
#include "rdmascope/ui/main_window.h"
#include "rdmascope/ui/packet_pane.h"
#include "rdmascope/ui/qp_state_diagram.h"
#include "rdmascope/ui/scenario_controller.h"
#include "scenario_support.h"
#include "test_frames.h"

namespace rdmascope::ui {
namespace {

QString cell(QAbstractItemModel* m, int row, int col) {
  return m->index(row, col).data().toString();
}

class TourTest : public ::testing::Test {
 protected:
  void SetUp() override {
    w = std::make_unique<MainWindow>();
    w->resize(1600, 1000);
    w->show();
    ASSERT_TRUE(w->scenario()->loaded());
    rec = w->scenario()->recording();
  }
  HostPane* host(int h) { return w->hostPane(h); }
  std::unique_ptr<MainWindow> w;
  const ScenarioRecording* rec = nullptr;
};

TEST_F(TourTest, OpensReadyToStepWithNothingShown) {
  EXPECT_EQ(w->scenario()->current(), -1);
  EXPECT_GT(w->scenario()->eventCount(), 50);
  EXPECT_EQ(w->packetPane()->packetModel()->rowCount(), 0);
  EXPECT_EQ(w->ladder()->visibleCount(), 0);
  EXPECT_EQ(host(0)->qpModel()->rowCount(), 0);
  EXPECT_FALSE(host(0)->stateDiagram()->hasState());
  EXPECT_EQ(w->eventModel()->rowCount(), w->scenario()->eventCount());
}

TEST_F(TourTest, ConnectingWalksBothQpsToRts) {
  // The first QP state event of host A: create_qp in RESET.
  const int created = test::findEvent(*rec, sim::TraceKind::QpState, 0);
  ASSERT_GE(created, 0);
  w->scenario()->goTo(created);
  ASSERT_EQ(host(0)->qpModel()->rowCount(), 1);
  EXPECT_EQ(cell(host(0)->qpModel(), 0, 2), "RESET");
  EXPECT_EQ(host(0)->stateDiagram()->state(), sim::QpState::Reset);

  int toRtr = -1;
  for (int i = created + 1; i < w->scenario()->eventCount(); ++i) {
    const auto& e = rec->events[static_cast<std::size_t>(i)];
    if (e.host == 1 && e.trace.kind == sim::TraceKind::QpState && e.toState == sim::QpState::Rtr) {
      toRtr = i;
      break;
    }
  }
  ASSERT_GE(toRtr, 0);
  w->scenario()->goTo(toRtr);
  EXPECT_EQ(cell(host(1)->qpModel(), 0, 2), "RTR");
  EXPECT_EQ(host(1)->stateDiagram()->state(), sim::QpState::Rtr);
  EXPECT_TRUE(host(1)->stateDiagram()->transitionLit());
  EXPECT_EQ(host(1)->stateDiagram()->litFrom(), sim::QpState::Init);

  const int firstFrame = test::findEvent(*rec, sim::TraceKind::FrameSent, -1);
  ASSERT_GE(firstFrame, 0);
  w->scenario()->goTo(firstFrame - 1);
  for (int h = 0; h < 2; ++h) {
    EXPECT_EQ(cell(host(h)->qpModel(), 0, 2), "RTS");
    EXPECT_EQ(host(h)->stateDiagram()->state(), sim::QpState::Rts);
    EXPECT_EQ(host(h)->stateDiagram()->litFrom(), sim::QpState::Rtr);
  }
  EXPECT_EQ(w->packetPane()->packetModel()->rowCount(), 0);
}

TEST_F(TourTest, MultiPacketSendSelectsItsFramesAndFillsTheQueues) {
  const int middle = test::findFrameEvent(*rec, w->frameStore(), 0x01);
  ASSERT_GE(middle, 0);
  w->scenario()->goTo(middle);
  const auto frame = rec->events[static_cast<std::size_t>(middle)].frame;
  EXPECT_EQ(w->scenario()->currentFrame(), frame);
  EXPECT_EQ(w->packetPane()->currentFrame(), frame);
  EXPECT_EQ(w->packetPane()->packetModel()->rowCount(), static_cast<int>(frame + 1));
  // The ladder's rows: the frames so far and, before them, the exchange's two TCP messages.
  const int row = w->scenario()->ladderRowOfFrame(static_cast<std::size_t>(frame));
  EXPECT_EQ(row, static_cast<int>(frame) + 2);
  EXPECT_EQ(w->ladder()->currentFrame(), row);
  EXPECT_EQ(w->ladder()->visibleCount(), row + 1);
  EXPECT_TRUE(w->packetPane()->selectField("infiniband.bth.opcode"));
  EXPECT_EQ(w->packetPane()->detailTree()->currentIndex().data(DetailTreeModel::KeyRole).toString(),
            "infiniband.bth.opcode");
  // The frame's RoCEv2 layers are lit; the data path is on the wire.
  auto* stacks = w->dataPathPane()->view();
  EXPECT_EQ(stacks->frameStack(), static_cast<int>(Stack::RoceV2));
  EXPECT_NE(stacks->frameLayers(), 0u);
  EXPECT_EQ(stacks->pathStep(Stack::RoceV2), 4);
  // A's send queue holds the 3000-byte SEND; B's receive queue the posted receive.
  ASSERT_EQ(host(0)->sendQueueModel()->rowCount(), 1);
  EXPECT_EQ(cell(host(0)->sendQueueModel(), 0, 0), "101");
  EXPECT_EQ(cell(host(0)->sendQueueModel(), 0, 2), "3000");
  ASSERT_EQ(host(1)->recvQueueModel()->rowCount(), 1);
  EXPECT_EQ(cell(host(1)->recvQueueModel(), 0, 1), "4096");
  EXPECT_EQ(host(0)->completionModel()->rowCount(), 0);
}

TEST_F(TourTest, DmaWriteOfTheSendIsHighlightedInBsMemory) {
  const int middle = test::findFrameEvent(*rec, w->frameStore(), 0x01);
  const int write = test::findEvent(*rec, sim::TraceKind::MemoryWritten, 1, middle);
  ASSERT_GE(write, 0);
  w->scenario()->goTo(write);
  HexView* mem = host(1)->memoryView();
  ASSERT_GT(mem->highlightLength(), 0u);
  EXPECT_LT(mem->highlightOffset(), 4096u);
  const QByteArray written = mem->bytes().mid(mem->highlightOffset(), mem->highlightLength());
  EXPECT_TRUE(written.contains("Hello from host A") || written.contains("this SEND spans"))
      << written.left(40).toStdString();
  EXPECT_TRUE(host(1)->memoryLabel()->text().contains("wrote"));
}

TEST_F(TourTest, CompletionsAppearAndStepBackRemovesThem) {
  const int firstCqe = test::findEvent(*rec, sim::TraceKind::CqeProduced, 1);
  ASSERT_GE(firstCqe, 0);
  w->scenario()->goTo(firstCqe);
  ASSERT_EQ(host(1)->completionModel()->rowCount(), 1);
  EXPECT_EQ(cell(host(1)->completionModel(), 0, 0), "1");
  EXPECT_EQ(cell(host(1)->completionModel(), 0, 2), "success");
  EXPECT_EQ(cell(host(1)->completionModel(), 0, 3), "3000");
  w->scenario()->stepBack();
  EXPECT_EQ(w->scenario()->current(), firstCqe - 1);
  EXPECT_EQ(host(1)->completionModel()->rowCount(), 0);

  w->scenario()->goTo(w->scenario()->eventCount() - 1);
  // A: SEND, WRITE, READ, SEND; B: the two receives. All polled at the end.
  ASSERT_EQ(host(0)->completionModel()->rowCount(), 4);
  ASSERT_EQ(host(1)->completionModel()->rowCount(), 2);
  for (int r = 0; r < 4; ++r) {
    EXPECT_EQ(cell(host(0)->completionModel(), r, 2), "success");
    EXPECT_EQ(cell(host(0)->completionModel(), r, 4), "yes");
  }
  EXPECT_EQ(cell(host(0)->completionModel(), 2, 0), "103");
  EXPECT_EQ(cell(host(1)->completionModel(), 1, 3), "200");
}

TEST_F(TourTest, RnrNakIsOnTheLadderAndRetriedSendSucceeds) {
  const int rnr = test::findRnrNakEvent(*rec, w->frameStore());
  ASSERT_GE(rnr, 0);
  EXPECT_EQ(rec->phases[rec->events[static_cast<std::size_t>(rnr)].phase].title,
            "Receiver not ready (RNR NAK)");
  w->scenario()->goTo(rnr);
  const auto frame = rec->events[static_cast<std::size_t>(rnr)].frame;
  EXPECT_EQ(w->packetPane()->currentFrame(), frame);
  EXPECT_TRUE(w->packetPane()
                  ->packetModel()
                  ->index(static_cast<int>(frame), PacketListModel::Info)
                  .data()
                  .toString()
                  .contains("NAK"));
  // The retry: a later SEND ONLY from A with the same PSN as the refused one.
  const int retry = test::findFrameEvent(*rec, w->frameStore(), 0x04, rnr + 1);
  EXPECT_GT(retry, rnr);
}

TEST_F(TourTest, KeysAndLadderClicksMoveTheCurrentEvent) {
  QApplication::setActiveWindow(w.get());
  ASSERT_TRUE(QTest::qWaitForWindowActive(w.get()));
  QTest::keyClick(w.get(), Qt::Key_Right);
  EXPECT_EQ(w->scenario()->current(), 0);
  QTest::keyClick(w.get(), Qt::Key_Right);
  EXPECT_EQ(w->scenario()->current(), 1);
  QTest::keyClick(w.get(), Qt::Key_Left);
  EXPECT_EQ(w->scenario()->current(), 0);
  w->scenario()->goTo(w->scenario()->eventCount() - 1);
  LadderView* ladder = w->ladder();
  const int row0 = w->scenario()->ladderRowOfFrame(0);
  ladder->setCurrentFrame(row0);
  QTest::mouseClick(ladder, Qt::LeftButton, {}, ladder->pointOfFrame(row0));
  const int sent0 = test::findEvent(*rec, sim::TraceKind::FrameSent, -1);
  EXPECT_EQ(w->scenario()->current(), sent0);
  EXPECT_EQ(w->packetPane()->currentFrame(), 0);
  EXPECT_EQ(ladder->currentFrame(), row0);
  // Clicking a packet row selects its frame everywhere too.
  w->scenario()->goTo(w->scenario()->eventCount() - 1);
  ASSERT_TRUE(w->packetPane()->selectFrame(3));
  EXPECT_EQ(rec->events[static_cast<std::size_t>(w->scenario()->current())].frame, 3);
  EXPECT_EQ(ladder->currentFrame(), w->scenario()->ladderRowOfFrame(3));
}

TEST_F(TourTest, ModelsStayConsistentThroughEveryStep) {
  test::ModelTestWarnings warnings;
  std::vector<std::unique_ptr<QAbstractItemModelTester>> testers;
  auto watch = [&](QAbstractItemModel* m) {
    testers.push_back(std::make_unique<QAbstractItemModelTester>(
        m, QAbstractItemModelTester::FailureReportingMode::Warning));
  };
  for (int h = 0; h < 2; ++h) {
    watch(host(h)->qpModel());
    watch(host(h)->sendQueueModel());
    watch(host(h)->recvQueueModel());
    watch(host(h)->completionModel());
  }
  watch(w->eventModel());
  watch(w->packetPane()->packetModel());
  watch(w->packetPane()->detailModel());
  while (w->scenario()->stepForward()) {
  }
  while (w->scenario()->stepBack()) {
  }
  EXPECT_EQ(w->scenario()->current(), -1);
  EXPECT_TRUE(test::ModelTestWarnings::messages().empty())
      << test::ModelTestWarnings::messages().front();
}

TEST_F(TourTest, EveryTransportRuns) {
  for (const char* wire : {"RoCEv2 (IPv6)", "RoCEv1", "InfiniBand"}) {
    auto* box = w->findChild<QComboBox*>("wireBox");
    ASSERT_NE(box, nullptr);
    box->setCurrentIndex(box->findText(wire));
    ASSERT_TRUE(w->openScenario("tour")) << wire << ": " << w->lastError().toStdString();
    w->scenario()->goTo(w->scenario()->eventCount() - 1);
    EXPECT_EQ(host(0)->completionModel()->rowCount(), 4) << wire;
    EXPECT_GT(w->packetPane()->packetModel()->rowCount(), 8) << wire;
    // Every frame the simulator sent decodes with a good ICRC.
    for (std::size_t f = 0; f < w->frameStore().size(); ++f)
      EXPECT_EQ(w->packetPane()->packetModel()->dissection(f)->crc, packets::CrcStatus::Good)
          << wire << " frame " << f + 1;
  }
}

}  // namespace
}  // namespace rdmascope::ui
