#include "rdmascope/ui/packet_pane.h"

#include <gtest/gtest.h>

#include <QLabel>
#include <QLineEdit>
#include <QTableView>
#include <QTest>
#include <QTreeView>

#include "rdmascope/ui/hex_view.h"
#include "test_frames.h"

namespace rdmascope::ui {
namespace {

class PacketPaneTest : public ::testing::Test {
 protected:
  void SetUp() override {
    store.append(test::roceFrame(42), 0);
    store.append(test::tcpFrame(5000, 6000), 1000);
    pane = std::make_unique<PacketPane>(&store);
    pane->resize(900, 900);
    pane->show();
    pane->storeReset();
  }
  FrameStore store;
  std::unique_ptr<PacketPane> pane;
};

TEST_F(PacketPaneTest, SelectingAFrameFillsTreeAndHex) {
  ASSERT_TRUE(pane->selectFrame(1));
  EXPECT_EQ(pane->currentFrame(), 1);
  EXPECT_EQ(pane->hexView()->bytes().size(), static_cast<qsizetype>(store.bytes(1).size()));
  EXPECT_GT(pane->detailModel()->rowCount(), 0);
  EXPECT_EQ(pane->packetList()->currentIndex().row(), 1);
  EXPECT_FALSE(pane->selectFrame(2));
}

TEST_F(PacketPaneTest, TreeRowHighlightsItsBytes) {
  ASSERT_TRUE(pane->selectFrame(0));
  ASSERT_TRUE(pane->selectField("udp.dstport"));
  EXPECT_EQ(pane->hexView()->highlightOffset(), 14u + 20u + 2u);
  EXPECT_EQ(pane->hexView()->highlightLength(), 2u);
  ASSERT_TRUE(pane->selectField("ip"));
  EXPECT_EQ(pane->hexView()->highlightOffset(), 14u);
  EXPECT_EQ(pane->hexView()->highlightLength(), 20u);
}

TEST_F(PacketPaneTest, ClickingAByteSelectsTheDeepestField) {
  ASSERT_TRUE(pane->selectFrame(0));
  HexView* hex = pane->hexView();
  // Byte 26: first byte of the IPv4 source address.
  QTest::mouseClick(hex->viewport(), Qt::LeftButton, {}, hex->pointOfByte(26));
  const QModelIndex cur = pane->detailTree()->currentIndex();
  ASSERT_TRUE(cur.isValid());
  EXPECT_EQ(cur.data(DetailTreeModel::KeyRole).toString(), "ip.src");
  EXPECT_EQ(hex->highlightOffset(), 26u);
  EXPECT_EQ(hex->highlightLength(), 4u);
  // The ASCII column maps to the same byte.
  EXPECT_EQ(hex->byteAt(hex->pointOfByte(26)), 26);
}

TEST_F(PacketPaneTest, FilterBarMarksErrorsAndFilters) {
  FilterBar* bar = pane->filterBar();
  bar->setCompiler([](const QString& text) {
    CompiledFilter c;
    if (text == "tcp")
      c.predicate = [](const packets::Dissection& d) { return d.find("tcp") != nullptr; };
    else {
      c.error = "unknown field";
      c.column = 3;
    }
    return c;
  });
  bar->setText("tc)");
  EXPECT_TRUE(bar->hasError());
  EXPECT_TRUE(bar->lineEdit()->styleSheet().contains("#ffafaf"));
  EXPECT_TRUE(bar->messageLabel()->isVisible());
  EXPECT_EQ(bar->messageLabel()->text(), "Column 3: unknown field");
  bar->apply();  // an invalid filter is not applied
  EXPECT_EQ(pane->packetModel()->rowCount(), 2);
  bar->setText("tcp");
  EXPECT_FALSE(bar->hasError());
  EXPECT_FALSE(bar->messageLabel()->isVisible());
  QTest::keyClick(bar->lineEdit(), Qt::Key_Return);
  EXPECT_EQ(pane->packetModel()->rowCount(), 1);
  EXPECT_EQ(pane->currentFrame(), 1);
  bar->setText("");
  bar->apply();
  EXPECT_EQ(pane->packetModel()->rowCount(), 2);
}

}  // namespace
}  // namespace rdmascope::ui

namespace rdmascope::ui {
namespace {

TEST_F(PacketPaneTest, RealDisplayFilterMarksTheErrorColumn) {
  FilterBar* bar = pane->filterBar();
  bar->setText("udp.dstport == ");
  EXPECT_TRUE(bar->hasError());
  EXPECT_TRUE(bar->lineEdit()->styleSheet().contains("#ffafaf"));
  EXPECT_TRUE(bar->messageLabel()->text().startsWith("Column 1"));
  bar->setText("ip.sorc == 1.2.3.4");
  EXPECT_TRUE(bar->hasError());
  EXPECT_TRUE(bar->messageLabel()->text().contains("ip.sorc"));
  bar->setText("udp.dstport == 4791");
  EXPECT_FALSE(bar->hasError());
  bar->apply();
  EXPECT_EQ(pane->packetModel()->rowCount(), 1);
  EXPECT_EQ(pane->packetModel()->frameAt(0), 0u);
}

}  // namespace
}  // namespace rdmascope::ui
