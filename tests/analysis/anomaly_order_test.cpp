// sortAnomaliesByFrame, which finish() and every report order their anomalies with, against
// std::stable_sort: lists in order, reversed, with many anomalies of one frame, and shuffled.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "rdmascope/analysis/flow_analyzer.h"

namespace rdmascope::analysis {
namespace {

/// What a list holds, in order: each anomaly's frame and the position it was found at.
std::vector<std::pair<std::uint64_t, std::string>> contents(const std::vector<Anomaly>& list) {
  std::vector<std::pair<std::uint64_t, std::string>> out;
  for (const auto& a : list)
    out.emplace_back(a.frame, a.detail);
  return out;
}

void expectOrdersAsStableSort(std::vector<Anomaly> list) {
  std::vector<Anomaly> expected = list;
  std::stable_sort(expected.begin(), expected.end(),
                   [](const Anomaly& x, const Anomaly& y) { return x.frame < y.frame; });
  sortAnomaliesByFrame(list);
  EXPECT_EQ(contents(list), contents(expected));
}

std::vector<Anomaly> listOf(const std::vector<std::uint64_t>& frames) {
  std::vector<Anomaly> list;
  for (std::size_t i = 0; i < frames.size(); ++i) {
    Anomaly a;
    a.frame = frames[i];
    a.detail = "found " + std::to_string(i) + " of frame " + std::to_string(frames[i]);
    list.push_back(a);
  }
  return list;
}

TEST(AnomalyOrder, IsAStableSortByFrame) {
  expectOrdersAsStableSort({});
  expectOrdersAsStableSort(listOf({7}));
  expectOrdersAsStableSort(listOf({1, 2, 2, 3}));
  expectOrdersAsStableSort(listOf({5, 4, 3, 2, 1}));
  expectOrdersAsStableSort(listOf({3, 3, 1, 3, 1, 2, 3}));
  std::mt19937_64 random(12);
  for (int round = 0; round < 50; ++round) {
    std::vector<std::uint64_t> frames(static_cast<std::size_t>(random() % 3000));
    const std::uint64_t spread = 1 + random() % 200;  // few frames: long runs of one frame
    for (auto& f : frames)
      f = random() % spread;
    expectOrdersAsStableSort(listOf(frames));
    // mostly in order with a few found late, as an analysis finds incomplete messages
    std::sort(frames.begin(), frames.end());
    for (int late = 0; late < 5 && !frames.empty(); ++late)
      frames.push_back(frames[random() % frames.size()]);
    expectOrdersAsStableSort(listOf(frames));
  }
}

}  // namespace
}  // namespace rdmascope::analysis
