#include "support/ErrorOf.hpp"

#include <gtest/gtest.h>
#include <kfield/diff/Record.hpp>
#include <kfield/diff/Window.hpp>

#include <utility>
#include <vector>

namespace kfield::test {
namespace {

using diff::idx_t;

TEST(Window, PlansAlignWindowsToMultiplesOfW) {
  const auto plan = diff::planWindows(10, 4);
  EXPECT_EQ(plan.count(), 3);
  EXPECT_EQ(plan.start(2), 8);
  EXPECT_EQ(plan.length(2), 2);
  EXPECT_EQ(plan.windowOf(7), 1);
  EXPECT_EQ(plan.row(7), 3);
  EXPECT_EQ(diff::planWindows(0, 4).count(), 0);
  EXPECT_EQ(errorOf([] { diff::planWindows(5, 0); }),
            "kfield::diff::planWindows: window must be >= 1, got 0");
  EXPECT_EQ(defaultWindow(1), 16);
  EXPECT_EQ(defaultWindow(1000), 32);
  // Rows of two carries: sqrt(S / 2) balances S / W checkpoints against W rows.
  EXPECT_EQ(defaultWindow(1000, 2.0), 23);
  EXPECT_EQ(defaultWindow(10000, 2.0), 71);
  EXPECT_EQ(defaultWindow(1000, 1.0), 32);
  EXPECT_EQ(defaultWindow(100, 2.0), 16);
  EXPECT_NE(errorOf([] { defaultWindow(100, 0.5); }).find("rowCarries must be finite and >= 1"),
            std::string::npos);
  EXPECT_EQ(defaultWindow(1ll << 40), 1024);
}

TEST(Window, RecordingLaunchesNeverCrossAWindowAndCheckpointEachStart) {
  std::vector<idx_t> checkpoints;
  std::vector<std::pair<idx_t, idx_t>> launches;
  const idx_t ran = diff::recordForward(
      11, 4, 3, [] { return false; }, [&](idx_t k) { checkpoints.push_back(k); },
      [&](idx_t j, idx_t k) {
        launches.push_back({j, k});
      });
  EXPECT_EQ(ran, 11);
  EXPECT_EQ(checkpoints, (std::vector<idx_t>{0, 1, 2}));
  EXPECT_EQ(launches,
            (std::vector<std::pair<idx_t, idx_t>>{{0, 3}, {3, 1}, {4, 3}, {7, 1}, {8, 3}}));
  int calls = 0;
  EXPECT_EQ(
      diff::recordForward(
          100, 4, 1, [&] { return calls == 6; }, [](idx_t) {}, [&](idx_t, idx_t) { ++calls; }),
      6);
}

TEST(Window, ReverseGoesLastWindowFirstAndStepsBackRoundByRound) {
  const std::vector<idx_t> stops{5, 0, 9, 2};
  const auto live = diff::liveCounts(stops.data(), 4);
  EXPECT_EQ(live, (std::vector<idx_t>{3, 3, 2, 2, 2, 1, 1, 1, 1}));
  EXPECT_EQ(diff::stopOrder(stops.data(), 4), (std::vector<idx_t>{2, 0, 3, 1}));
  std::vector<std::string> log;
  auto entry = [&](char what, idx_t a, char between, idx_t b) {
    std::string e(1, what);  // appended: GCC 12 misreports "x" + std::string under C++20
    e += std::to_string(a);
    e += between;
    e += std::to_string(b);
    log.push_back(e);
  };
  diff::reverseWindows(
      4, live, [&](idx_t k, idx_t n) { entry('g', k, ':', n); },
      [&](idx_t c, idx_t len) { entry('r', c, '+', len); },
      [&](idx_t j, idx_t n) { entry('b', j, ':', n); });
  EXPECT_EQ(
      log, (std::vector<std::string>{"g2:1", "r8+1", "b8:1", "g1:2", "r4+4", "b7:1", "b6:1", "b5:1",
                                     "b4:2", "g0:3", "r0+4", "b3:2", "b2:2", "b1:3", "b0:3"}));
}

TEST(Window, GatherColumnsReordersSamples) {
  const std::vector<double> src{0, 1, 2, 10, 11, 12};  // 2 rows x 3 samples
  const std::vector<idx_t> perm{2, 0};
  std::vector<double> dst(4, -1);
  diff::gatherColumns(dst.data(), 2, src.data(), 3, perm.data(), 2, 2, sizeof(double));
  EXPECT_EQ(dst, (std::vector<double>{2, 0, 12, 10}));
  std::vector<double> acc{1, 2, 3};
  diff::accumulatePrefix(acc.data(), src.data(), 2);
  EXPECT_EQ(acc, (std::vector<double>{1, 3, 3}));
  diff::fillPrefix(acc.data(), 7.0, 1);
  EXPECT_EQ(acc, (std::vector<double>{7, 3, 3}));
}

TEST(RecordSlot, OneLiveRecordingAndStaleGenerations) {
  diff::RecordSlot slot;
  using Begin = diff::RecordSlot::Begin;
  ASSERT_EQ(slot.begin(), Begin::Ok);
  const auto first = slot.generation();
  EXPECT_EQ(slot.begin(), Begin::Live);  // not consumed yet
  ASSERT_TRUE(slot.hold(first));
  EXPECT_EQ(slot.begin(), Begin::Held);
  EXPECT_TRUE(slot.release(first, true));
  ASSERT_EQ(slot.begin(), Begin::Ok);
  EXPECT_NE(slot.generation(), first);
  EXPECT_FALSE(slot.hold(first));  // stale
  slot.abandon();
  EXPECT_FALSE(slot.hold(slot.generation()));  // nothing live
  EXPECT_EQ(slot.begin(), Begin::Ok);
}

}  // namespace
}  // namespace kfield::test
