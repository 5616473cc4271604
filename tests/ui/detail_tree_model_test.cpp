#include "rdmascope/ui/detail_tree_model.h"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <algorithm>

#include "rdmascope/ui/frame_store.h"
#include "test_frames.h"

namespace rdmascope::ui {
namespace {

std::shared_ptr<const packets::Dissection> decoded(const test::Bytes& bytes) {
  FrameStore store;
  store.append(bytes, 0);
  return std::make_shared<const packets::Dissection>(store.decode(0));
}

TEST(DetailTreeModel, MirrorsTheNodeTree) {
  DetailTreeModel model;
  test::ModelTestWarnings warnings;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Warning);
  const auto d = decoded(test::roceFrame(5));
  model.setDissection(d);
  EXPECT_EQ(d->crc, packets::CrcStatus::Good);
  EXPECT_EQ(model.rowCount(), static_cast<int>(d->children(-1).size()));
  for (std::size_t n = 0; n < d->nodes.size(); ++n) {
    const QModelIndex idx = model.indexOfNode(static_cast<std::int32_t>(n));
    ASSERT_TRUE(idx.isValid());
    EXPECT_EQ(idx.data().toString().toStdString(), d->nodes[n].label);
    EXPECT_EQ(model.nodeOf(idx), static_cast<std::int32_t>(n));
    EXPECT_EQ(model.nodeOf(idx.parent()), d->nodes[n].parent);
    EXPECT_EQ(model.rowCount(idx),
              static_cast<int>(d->children(static_cast<std::int32_t>(n)).size()));
    EXPECT_EQ(model.byteRange(idx), (ByteRange{d->nodes[n].offset, d->nodes[n].length}));
  }
  model.setDissection(nullptr);
  EXPECT_EQ(model.rowCount(), 0);
  EXPECT_TRUE(test::ModelTestWarnings::messages().empty());
}

TEST(DetailTreeModel, ShowsDiagnosticsAsExpertRows) {
  auto bytes = test::roceFrame(5);
  bytes.resize(14 + 20 + 4);  // UDP header cut short
  for (const auto& d : {decoded(bytes), decoded(test::roceFrame(5, 16, 0x04, true))}) {
    ASSERT_FALSE(d->diagnostics.empty());
    DetailTreeModel model;
    test::ModelTestWarnings warnings;
    QAbstractItemModelTester tester(&model,
                                    QAbstractItemModelTester::FailureReportingMode::Warning);
    model.setDissection(d);
    int experts = 0;
    std::function<void(const QModelIndex&)> walk = [&](const QModelIndex& parent) {
      for (int r = 0; r < model.rowCount(parent); ++r) {
        const QModelIndex idx = model.index(r, 0, parent);
        if (idx.data(DetailTreeModel::ExpertRole).toBool()) {
          ++experts;
          EXPECT_TRUE(idx.data().toString().startsWith("[Expert Info ("));
          EXPECT_EQ(model.rowCount(idx), 0);
          EXPECT_TRUE(idx.data(Qt::BackgroundRole).isValid());
        }
        walk(idx);
      }
    };
    walk({});
    EXPECT_EQ(experts, static_cast<int>(d->diagnostics.size()));
    EXPECT_TRUE(test::ModelTestWarnings::messages().empty());
  }
}

TEST(DetailTreeModel, DeepestNodeAtAByte) {
  const auto d = decoded(test::roceFrame(5));
  DetailTreeModel model;
  model.setDissection(d);
  // Byte 23 is the IPv4 protocol field.
  const QModelIndex idx = model.deepestAt(23);
  ASSERT_TRUE(idx.isValid());
  EXPECT_EQ(idx.data(DetailTreeModel::KeyRole).toString(), "ip.proto");
  EXPECT_EQ(model.byteRange(idx), (ByteRange{23, 1}));
  EXPECT_FALSE(model.deepestAt(100000).isValid());
}

}  // namespace
}  // namespace rdmascope::ui
