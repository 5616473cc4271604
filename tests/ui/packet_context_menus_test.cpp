#include "rdmascope/ui/packet_context_menus.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QMenu>
#include <QSpinBox>
#include <QTableView>
#include <QTest>
#include <QTreeView>

#include "rdmascope/ui/main_window.h"
#include "rdmascope/ui/packet_pane.h"
#include "test_frames.h"

namespace rdmascope::ui {
namespace {

QAction* actionNamed(QMenu* menu, const char* name) {
  auto* a = menu->findChild<QAction*>(QLatin1String(name));
  if (!a)
    for (QAction* x : menu->actions())
      if (x->objectName() == QLatin1String(name)) a = x;
  EXPECT_NE(a, nullptr) << name;
  return a;
}

class PacketHabits : public ::testing::Test {
 protected:
  void SetUp() override {
    for (std::uint32_t i = 0; i < 5; ++i) {
      const auto f = test::roceFrame(100 + i);
      store.append(f, 1'000'000'000 + i * 250'000, static_cast<std::uint32_t>(f.size()));
    }
    pane = std::make_unique<PacketPane>(&store);
    pane->resize(900, 600);
    pane->show();
    pane->storeReset();
    ASSERT_TRUE(pane->selectFrame(2));
  }
  QModelIndex psnRow() {
    EXPECT_TRUE(pane->selectField(QStringLiteral("infiniband.bth.psn")));
    return pane->detailTree()->currentIndex();
  }
  FrameStore store;
  std::unique_ptr<PacketPane> pane;
};

TEST_F(PacketHabits, ApplyAsFilterFromTheDetailTreeFiltersTheList) {
  std::unique_ptr<QMenu> menu(pane->contextMenus()->treeMenu(psnRow(), pane.get()));
  actionNamed(menu.get(), "applyAsFilter")->trigger();
  EXPECT_EQ(pane->filterBar()->text(), QStringLiteral("infiniband.bth.psn == 102"));
  EXPECT_TRUE(pane->packetModel()->filtered());
  EXPECT_EQ(pane->packetModel()->rowCount(), 1);
  EXPECT_EQ(pane->currentFrame(), 2);
}

TEST_F(PacketHabits, PrepareAsFilterFillsTheBarWithoutApplying) {
  std::unique_ptr<QMenu> menu(pane->contextMenus()->treeMenu(psnRow(), pane.get()));
  actionNamed(menu.get(), "prepareAsFilter")->trigger();
  EXPECT_EQ(pane->filterBar()->text(), QStringLiteral("infiniband.bth.psn == 102"));
  EXPECT_FALSE(pane->packetModel()->filtered());
  EXPECT_EQ(pane->packetModel()->rowCount(), 5);
  EXPECT_FALSE(pane->filterBar()->hasError());
}

TEST_F(PacketHabits, CopyValueAndFieldName) {
  std::unique_ptr<QMenu> menu(pane->contextMenus()->treeMenu(psnRow(), pane.get()));
  actionNamed(menu.get(), "copyValue")->trigger();
  EXPECT_EQ(QApplication::clipboard()->text(), QStringLiteral("102"));
  actionNamed(menu.get(), "copyFieldName")->trigger();
  EXPECT_EQ(QApplication::clipboard()->text(), QStringLiteral("infiniband.bth.psn"));
}

TEST_F(PacketHabits, PacketListMenuFiltersOnTheClickedColumn) {
  const QModelIndex len = pane->packetModel()->index(3, PacketListModel::Length);
  std::unique_ptr<QMenu> menu(pane->contextMenus()->listMenu(len, pane.get()));
  QAction* prepare = actionNamed(menu.get(), "prepareAsFilter");
  EXPECT_EQ(prepare->data().toString(),
            QStringLiteral("frame.len == %1").arg(store.record(3).originalLength));
  const QModelIndex number = pane->packetModel()->index(3, PacketListModel::Number);
  std::unique_ptr<QMenu> numberMenu(pane->contextMenus()->listMenu(number, pane.get()));
  actionNamed(numberMenu.get(), "applyAsFilter")->trigger();
  EXPECT_EQ(pane->filterBar()->text(), QStringLiteral("frame.number == 4"));
  EXPECT_EQ(pane->packetModel()->rowCount(), 1);
  actionNamed(numberMenu.get(), "copyFieldName")->trigger();
  EXPECT_EQ(QApplication::clipboard()->text(), QStringLiteral("frame.number"));
  // Info has no field: the filter actions are disabled.
  const QModelIndex info = pane->packetModel()->index(0, PacketListModel::Info);
  std::unique_ptr<QMenu> infoMenu(pane->contextMenus()->listMenu(info, pane.get()));
  EXPECT_FALSE(actionNamed(infoMenu.get(), "applyAsFilter")->isEnabled());
  EXPECT_TRUE(actionNamed(infoMenu.get(), "copyValue")->isEnabled());
}

TEST_F(PacketHabits, CtrlGOpensGoToPacketWhichSelectsTheRow) {
  pane->activateWindow();
  ASSERT_TRUE(QTest::qWaitForWindowActive(pane.get()));
  pane->packetList()->setFocus();
  QTest::keyClick(pane->packetList(), Qt::Key_G, Qt::ControlModifier);
  GoToPacketDialog* d = pane->contextMenus()->goToPacketDialog();
  ASSERT_TRUE(d->isVisible());
  d->numberBox()->setValue(5);
  d->accept();
  EXPECT_FALSE(d->isVisible());
  EXPECT_EQ(pane->currentFrame(), 4);
  EXPECT_EQ(pane->packetList()->currentIndex().row(), 4);
  EXPECT_FALSE(d->goTo(9));
  EXPECT_TRUE(d->error().contains(QStringLiteral("9"))) << d->error().toStdString();
  EXPECT_EQ(pane->currentFrame(), 4);
}

TEST_F(PacketHabits, HomeAndEndMoveToTheFirstAndLastRowInTheList) {
  pane->packetList()->setFocus();
  QTest::keyClick(pane->packetList(), Qt::Key_End);
  EXPECT_EQ(pane->currentFrame(), 4);
  QTest::keyClick(pane->packetList(), Qt::Key_Home);
  EXPECT_EQ(pane->currentFrame(), 0);
}

TEST(PacketHabitsWindow, HomeInThePacketListSelectsTheFirstFrameNotTheScenarioStart) {
  MainWindow w;
  w.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
  auto* s = w.findChild<QSpinBox*>(QStringLiteral("eventSpin"));
  ASSERT_NE(s, nullptr);
  w.activateWindow();
  QTest::keyClick(&w, Qt::Key_End);  // the window's End: the scenario's last event
  const int last = s->value();
  ASSERT_GT(last, 2);
  PacketPane* p = w.packetPane();
  ASSERT_GT(p->packetModel()->rowCount(), 2);
  p->packetList()->setFocus();
  QTest::keyClick(p->packetList(), Qt::Key_Home);
  EXPECT_EQ(p->currentFrame(), 0);
  // The scenario went to the event that sent the first frame, not back to its start (where no
  // frame is on the wire yet).
  EXPECT_GT(s->value(), 1);
  EXPECT_LT(s->value(), last);
  ASSERT_GT(p->packetModel()->rowCount(), 0);
  QTest::keyClick(p->packetList(), Qt::Key_End);
  EXPECT_EQ(p->packetList()->currentIndex().row(), p->packetModel()->rowCount() - 1);
}

}  // namespace
}  // namespace rdmascope::ui
