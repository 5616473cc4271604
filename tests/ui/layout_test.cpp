// At 1280x720 and 1600x1000, in English and in Chinese, with a capture and with a scenario,
// nothing essential is cut: every lower tab whole, the packet list's Info column, the detail
// tree and the hex pane's ASCII.
#include <gtest/gtest.h>

#include <QApplication>
#include <QHeaderView>
#include <QScrollArea>
#include <QScrollBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTreeView>

#include "rdmascope/ui/hex_view.h"
#include "rdmascope/ui/host_pane.h"
#include "rdmascope/ui/language.h"
#include "rdmascope/ui/main_window.h"
#include "rdmascope/ui/packet_pane.h"
#include "rdmascope/ui/qp_state_diagram.h"
#include "rdmascope/ui/scenario_controller.h"

namespace rdmascope::ui {
namespace {

struct Case {
  QSize size;
  const char* language;
  bool capture;
};

class Layout : public ::testing::TestWithParam<Case> {
 protected:
  void TearDown() override { installLanguage(QStringLiteral("en")); }
};

TEST_P(Layout, NothingEssentialIsCut) {
  const Case c = GetParam();
  ASSERT_TRUE(installLanguage(QString::fromLatin1(c.language)));
  MainWindow w;
  w.resize(c.size);
  w.show();
  if (c.capture) {
    ASSERT_TRUE(
        w.openCapture(QStringLiteral(RDMASCOPE_SOURCE_DIR "/tests/golden/rocev2-mixed.pcap")));
  } else {
    w.scenario()->goTo(39);
  }
  w.packetPane()->selectFrame(0);
  QApplication::processEvents();
  ASSERT_EQ(w.size(), c.size);

  QTabBar* tabs = w.lowerTabs()->tabBar();
  EXPECT_GE(tabs->width(), tabs->sizeHint().width()) << "lower tabs cut";
  for (int i = 0; i < tabs->count(); ++i)
    EXPECT_TRUE(tabs->rect().contains(tabs->tabRect(i))) << tabs->tabText(i).toStdString();

  PacketPane* p = w.packetPane();
  const int cw = p->fontMetrics().horizontalAdvance(QLatin1Char('x'));
  QTableView* list = p->packetList();
  const int info =
      list->viewport()->width() - list->horizontalHeader()->sectionPosition(PacketListModel::Info);
  EXPECT_GE(info, cw * 28) << "Info column " << info << " px";
  EXPECT_GE(p->detailTree()->viewport()->width(), cw * 34) << "detail tree";
  EXPECT_GE(p->detailTree()->viewport()->height(), p->fontMetrics().height() * 4);
  HexView* hex = p->hexView();
  EXPECT_GE(hex->width(), hex->sizeHint().width() - 2) << "hex pane's ASCII cut";
  EXPECT_GE(hex->height(), p->fontMetrics().height() * 3);
}

// At 1280x720 a host pane is shorter than its sections and scrolls: at every event of the tour
// the section the event changes (the completion queue at a completion or a poll, the queues at
// a post, the memory at a DMA access) is in view in its host's pane.
TEST(Layout, AtASmallSizeWhatTheEventChangesIsInItsHostsView) {
  MainWindow w;
  w.resize(1280, 720);
  w.show();
  QApplication::processEvents();
  const ScenarioRecording* rec = w.scenario()->recording();
  ASSERT_NE(rec, nullptr);
  int scrolled = 0, checked = 0;
  for (std::size_t i = 0; i < rec->events.size(); ++i) {
    const auto& e = rec->events[i];
    const auto section = HostPane::sectionOf(e.trace);
    if (e.host < 0 || e.host > 1 || !section) continue;
    w.scenario()->goTo(static_cast<int>(i));
    QApplication::processEvents();
    HostPane* pane = w.hostPane(e.host);
    auto* scroll = pane->findChild<QScrollArea*>(QStringLiteral("hostScroll"));
    ASSERT_NE(scroll, nullptr);
    const char* names[] = {"qpTable", "stateDiagram", "sqTable", "cqTable", "memoryView"};
    QWidget* target = nullptr;
    if (*section == HostPane::Section::StateDiagram)
      target = pane->stateDiagram();
    else
      target = pane->findChild<QWidget*>(QString::fromLatin1(names[static_cast<int>(*section)]));
    ASSERT_NE(target, nullptr) << names[static_cast<int>(*section)];
    const QRect inView(target->mapTo(scroll->viewport(), QPoint(0, 0)),
                       QSize(target->width(), std::min(target->height(), 40)));
    EXPECT_TRUE(scroll->viewport()->rect().intersects(inView) &&
                scroll->viewport()->rect().contains(inView.topLeft()))
        << "event " << i + 1 << ": " << names[static_cast<int>(*section)] << " out of view";
    ++checked;
    scrolled += scroll->verticalScrollBar()->value() > 0;
  }
  EXPECT_GT(checked, 50);
  EXPECT_GT(scrolled, 0) << "the panes never needed to scroll: the test shows nothing";
}

INSTANTIATE_TEST_SUITE_P(
    Screens, Layout,
    ::testing::Values(Case{{1280, 720}, "en", true}, Case{{1280, 720}, "en", false},
                      Case{{1600, 1000}, "en", true}, Case{{1600, 1000}, "en", false},
                      Case{{1280, 720}, "zh_CN", true}, Case{{1280, 720}, "zh_CN", false},
                      Case{{1600, 1000}, "zh_CN", true}, Case{{1600, 1000}, "zh_CN", false}),
    [](const ::testing::TestParamInfo<Case>& p) {
      return std::to_string(p.param.size.width()) + "x" + std::to_string(p.param.size.height()) +
             "_" + (std::string(p.param.language) == "en" ? "en" : "zh") +
             (p.param.capture ? "_capture" : "_scenario");
    });

}  // namespace
}  // namespace rdmascope::ui
