// The main window fits common laptop screens (1280x720, 1366x768) with every view usable.
#include <gtest/gtest.h>

#include <QApplication>
#include <QHeaderView>
#include <QScrollArea>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QTreeView>

#include "rdmascope/ui/data_path_pane.h"
#include "rdmascope/ui/hex_view.h"
#include "rdmascope/ui/host_pane.h"
#include "rdmascope/ui/ladder_view.h"
#include "rdmascope/ui/layer_stacks_view.h"
#include "rdmascope/ui/main_window.h"
#include "rdmascope/ui/packet_pane.h"
#include "rdmascope/ui/qp_state_diagram.h"
#include "rdmascope/ui/scenario_controller.h"

namespace rdmascope::ui {
namespace {

// The part of a view's viewport not hidden by a scroll area around it (a host section may sit
// in one): what the user sees without scrolling the pane.
QSize visibleSize(const QWidget* w) {
  const QRect r = w->visibleRegion().boundingRect();
  return r.size();
}

void expectUsable(const QWidget* w, int minWidth, int minHeight, const char* what) {
  ASSERT_NE(w, nullptr) << what;
  EXPECT_TRUE(w->isVisible()) << what;
  const QSize s = visibleSize(w);
  EXPECT_GE(s.width(), minWidth) << what << " is " << s.width() << "x" << s.height();
  EXPECT_GE(s.height(), minHeight) << what << " is " << s.width() << "x" << s.height();
}

int visibleRows(const QTableView* t) {
  const int row = t->verticalHeader()->defaultSectionSize();
  return visibleSize(t->viewport()).height() / row;
}

class WindowSize : public ::testing::TestWithParam<QSize> {};

TEST_P(WindowSize, FitsTheScreenWithEveryViewUsable) {
  const QSize screen = GetParam();
  MainWindow w;
  ASSERT_TRUE(w.scenario()->loaded());
  w.resize(screen);
  w.show();
  w.scenario()->goTo(39);  // a multi-packet SEND: every view has content
  QApplication::processEvents();

  const QSize hint = w.minimumSizeHint();
  EXPECT_LE(hint.width(), screen.width()) << "minimum " << hint.width() << "x" << hint.height();
  EXPECT_LE(hint.height(), screen.height()) << "minimum " << hint.width() << "x" << hint.height();
  EXPECT_EQ(w.size(), screen) << "window is " << w.width() << "x" << w.height();

  const int line = w.fontMetrics().height();
  for (int h = 0; h < 2; ++h) {
    HostPane* pane = w.hostPane(h);
    EXPECT_GE(pane->width(), 250);
    EXPECT_GE(pane->height(), 250);
    // The QP table stays in view; the sections below it are reached by scrolling the pane
    // (which follows the current event: layout_test).
    expectUsable(pane->findChild<QTableView*>(QStringLiteral("qpTable")), 200, line, "QP table");
    auto* scroll = pane->findChild<QScrollArea*>();
    ASSERT_NE(scroll, nullptr);
    scroll->ensureWidgetVisible(pane->stateDiagram(), 0, 0);
    QApplication::processEvents();
    expectUsable(pane->stateDiagram(), 250, pane->stateDiagram()->minimumSizeHint().height(),
                 "QP state diagram");
    for (QWidget* section :
         {static_cast<QWidget*>(pane->memoryView()),
          static_cast<QWidget*>(pane->findChild<QTableView*>(QStringLiteral("cqTable"))),
          static_cast<QWidget*>(pane->findChild<QTableView*>(QStringLiteral("sqTable")))}) {
      scroll->ensureWidgetVisible(section, 0, 0);
      QApplication::processEvents();
      expectUsable(section, 150, 3 * line, qPrintable(section->objectName()));
    }
  }
  expectUsable(w.ladder(), 200, 150, "ladder");
  expectUsable(w.explanation(), 200, 2 * line, "explanation");
  PacketPane* packets = w.packetPane();
  expectUsable(packets->packetList(), 300, 3 * line, "packet list");
  EXPECT_GE(visibleRows(packets->packetList()), 3);
  expectUsable(packets->detailTree(), 220, 3 * line, "detail tree");
  expectUsable(packets->hexView(), 250, 2 * line, "packet bytes");
  EXPECT_GE(w.lowerTabs()->width(), 300);
  EXPECT_GE(w.lowerTabs()->height(), 150);
  expectUsable(w.dataPathPane()->view(), 300, 120, "layer stacks");
}

INSTANTIATE_TEST_SUITE_P(Laptop, WindowSize,
                         ::testing::Values(QSize(1280, 720), QSize(1366, 768), QSize(1600, 1000)),
                         [](const ::testing::TestParamInfo<QSize>& p) {
                           return std::to_string(p.param.width()) + "x" +
                                  std::to_string(p.param.height());
                         });

}  // namespace
}  // namespace rdmascope::ui
