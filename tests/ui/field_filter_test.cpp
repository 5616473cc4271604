#include "rdmascope/ui/field_filter.h"

#include <gtest/gtest.h>

#include "rdmascope/ui/frame_store.h"
#include "rdmascope/ui/packet_list_model.h"
#include "test_frames.h"

namespace rdmascope::ui {
namespace {

std::size_t nodeOf(const packets::Dissection& d, std::string_view key) {
  for (std::size_t n = 0; n < d.nodes.size(); ++n)
    if (d.nodes[n].key == key) return n;
  ADD_FAILURE() << "no node " << key;
  return 0;
}

class FieldFilter : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto a = test::roceFrame(0x123456, 16, 0x04);
    const auto b = test::roceFrame(0x123457, 16, 0x0a);
    store.append(a, 1'000'000'000, static_cast<std::uint32_t>(a.size()));
    store.append(b, 1'000'500'000, static_cast<std::uint32_t>(b.size()));
    first = store.decode(0);
  }
  FrameStore store;
  packets::Dissection first;
};

TEST_F(FieldFilter, AFieldBecomesKeyEqualsValueAndSelectsOnlyItsFrame) {
  const QString psn = filterForNode(first, nodeOf(first, "infiniband.bth.psn"));
  EXPECT_EQ(psn, QStringLiteral("infiniband.bth.psn == 1193046"));
  EXPECT_EQ(test::filterMatches(store, psn.toStdString()), std::vector<std::size_t>{0});
  const QString op = filterForNode(first, nodeOf(first, "infiniband.bth.opcode"));
  EXPECT_TRUE(op.startsWith("infiniband.bth.opcode == ")) << op.toStdString();
  EXPECT_EQ(test::filterMatches(store, op.toStdString()), std::vector<std::size_t>{0});
}

TEST_F(FieldFilter, AddressesAndHeadersGiveFiltersThatCompile) {
  const QString src = filterForNode(first, nodeOf(first, "ip.src"));
  EXPECT_TRUE(src.startsWith("ip.src == ")) << src.toStdString();
  EXPECT_EQ(test::filterMatches(store, src.toStdString()).size(), 2u);
  const QString mac = filterForNode(first, nodeOf(first, "eth.src"));
  EXPECT_TRUE(mac.startsWith("eth.src == ")) << mac.toStdString();
  EXPECT_EQ(test::filterMatches(store, mac.toStdString()).size(), 2u);
  // A header row is its key: the frames that carry it.
  EXPECT_EQ(filterForNode(first, nodeOf(first, "infiniband.bth")),
            QStringLiteral("infiniband.bth"));
}

TEST_F(FieldFilter, PacketListColumnsGiveTheirFields) {
  EXPECT_EQ(filterForColumn(first, PacketListModel::Number, 1, 0),
            QStringLiteral("frame.number == 1"));
  const auto len = store.record(0).originalLength;
  EXPECT_EQ(filterForColumn(first, PacketListModel::Length, 1, len),
            QStringLiteral("frame.len == %1").arg(len));
  const QString src = filterForColumn(first, PacketListModel::Source, 1, len);
  EXPECT_EQ(fieldKeyForColumn(first, PacketListModel::Source), QStringLiteral("ip.src"));
  EXPECT_EQ(src, QStringLiteral("ip.src == %1").arg(QString::fromStdString(first.summary.source)));
  EXPECT_EQ(fieldKeyForColumn(first, PacketListModel::Destination), QStringLiteral("ip.dst"));
  const QString proto = filterForColumn(first, PacketListModel::Protocol, 1, len);
  EXPECT_FALSE(proto.isEmpty());
  EXPECT_EQ(test::filterMatches(store, proto.toStdString()).size(), 2u);
  EXPECT_TRUE(filterForColumn(first, PacketListModel::Info, 1, len).isEmpty());
  // The number filter of frame 2 does not match frame 1's dissection: no filter.
  EXPECT_TRUE(filterForColumn(first, PacketListModel::Number, 2, len).isEmpty());
}

}  // namespace
}  // namespace rdmascope::ui
