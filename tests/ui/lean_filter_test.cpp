// The packet list's display filter on lean dissections, split over threads (what the filter
// bar applies), keeps exactly the rows the same filter keeps on full dissections: on every
// capture of the repository, iWARP streams (stateful decoding) and corrupted frames included.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "../support/iwarp_frames.h"
#include "../support/repository_captures.h"
#include "rdmascope/ui/capture_loader.h"
#include "rdmascope/ui/filter_bar.h"
#include "rdmascope/ui/frame_store.h"
#include "rdmascope/ui/packet_list_model.h"

namespace rdmascope::ui {
namespace {

using ::rdmascope::test::repositoryCaptures;

const char* const kFilters[] = {
    "infiniband.bth.opcode == 17",
    "infiniband.aeth.kind == \"NAK\" || infiniband.aeth.kind == \"RNR NAK\"",
    "infiniband.bth.psn >= 100 and infiniband.bth.psn lt 1e6",
    "infiniband.icrc.status == \"bad\" || infiniband.vcrc.status == \"bad\"",
    "ip.addr == 10.9.0.0/24 || ipv6.addr",
    "frame.time_relative > 0.001 && frame.len > 100",
    "tcp.len > 0 && iwarp_ddp.tagged_flag == 1 || iwarp_mpa",
    "infiniband.cm || infiniband.mad.attributeid == 0x0010",
    "data.len > 100",
};

std::vector<std::size_t> rows(const PacketListModel& model) {
  std::vector<std::size_t> out;
  for (int r = 0; r < model.rowCount(); ++r)
    out.push_back(model.frameAt(r));
  return out;
}

// Every capture file of the repository, then simulated iWARP runs with loss (TCP streams the
// cache decodes statefully) and the same frames with bits flipped.
std::vector<FrameStore> stores() {
  std::vector<FrameStore> out;
  for (const auto& path : repositoryCaptures()) {
    FrameStore store;
    if (loadCaptureFile(path, store).ok()) out.push_back(std::move(store));
  }
  for (const char* scenario : {"iwarp-read", "iwarp-write", "iwarp-send-recv"}) {
    const auto frames = ::rdmascope::test::iwarpFrames(scenario);
    if (frames.empty()) continue;
    FrameStore store, flipped;
    std::int64_t t = 0;
    std::size_t bit = 0;
    for (const auto& f : frames) {
      store.append(f, t += 1000);
      auto g = f;
      g[(bit += 97) / 8 % g.size()] ^= 0x10;
      flipped.append(g, t);
    }
    out.push_back(std::move(store));
    out.push_back(std::move(flipped));
  }
  return out;
}

TEST(LeanFilter, KeepsTheRowsOfTheFullDissectionOnEveryCapture) {
  auto all = stores();
  ASSERT_GE(all.size(), 36u);
  std::size_t matched = 0;
  std::size_t iwarpMatched = 0;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const FrameStore& store = all[i];
    const std::string path = "store " + std::to_string(i);
    PacketListModel model(&store);
    for (const char* text : kFilters) {
      const CompiledFilter f = compileDisplayFilter(QString::fromUtf8(text));
      ASSERT_TRUE(f.ok()) << text << ": " << f.error.toStdString();
      ASSERT_TRUE(f.lean);
      ASSERT_TRUE(model.applyFilter(f.predicate, {}));
      const auto full = rows(model);
      model.clearFilter();
      std::size_t updates = 0;
      ASSERT_TRUE(model.applyFilter(
          f.predicate,
          [&](std::size_t done, std::size_t total) {
            EXPECT_LE(done, total);
            ++updates;
            return true;
          },
          f.lean));
      EXPECT_EQ(rows(model), full) << path << ": " << text;
      EXPECT_GE(updates, 1u);
      model.clearFilter();
      matched += full.size();
      if (std::string(text).find("iwarp") != std::string::npos) iwarpMatched += full.size();
    }
  }
  EXPECT_GT(matched, 1000u);
  EXPECT_GT(iwarpMatched, 0u);  // the stateful (stream) path was taken and matched
}

TEST(LeanFilter, ACancelledLeanFilterChangesNothing) {
  FrameStore store;
  ASSERT_TRUE(
      loadCaptureFile(std::string(RDMASCOPE_SOURCE_DIR) + "/tests/golden/net-mixed.pcap", store)
          .ok());
  PacketListModel model(&store);
  const int before = model.rowCount();
  ASSERT_GT(before, 0);
  const CompiledFilter f = compileDisplayFilter(QStringLiteral("infiniband.bth.opcode == 17"));
  EXPECT_FALSE(model.applyFilter(
      f.predicate, [](std::size_t, std::size_t) { return false; }, f.lean));
  EXPECT_EQ(model.rowCount(), before);
  EXPECT_FALSE(model.filtered());
}

}  // namespace
}  // namespace rdmascope::ui
