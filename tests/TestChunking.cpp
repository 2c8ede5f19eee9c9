#include "support/ErrorOf.hpp"

#include <kfield/sum/Chunking.hpp>
#include <kfield/sum/Partials.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>

namespace kfield {
namespace {

TEST(ChunkSamples, AllWhenTheyFit) {
  EXPECT_EQ(chunkSamples(800, 8, 100, 16), 100);
  EXPECT_EQ(chunkSamples(0, 8, 0, 16), 0);
  EXPECT_EQ(chunkSamples(std::numeric_limits<std::int64_t>::max(), 1 << 20, 1000000, 256),
            1000000);  // n * perSample would overflow nothing: it is never formed
}

TEST(ChunkSamples, LargestLeafTimesPowerOfTwoThatFits) {
  EXPECT_EQ(chunkSamples(8 * 1000, 8, 100000, 256), 512);
  EXPECT_EQ(chunkSamples(8 * 1023, 8, 100000, 256), 512);
  EXPECT_EQ(chunkSamples(8 * 1024, 8, 100000, 256), 1024);
  EXPECT_EQ(chunkSamples(8 * 256, 8, 100000, 256), 256);
  EXPECT_EQ(chunkSamples(8 * 255, 8, 100000, 256), 0);  // not one leaf
  // With n below one leaf, single samples are the unit.
  EXPECT_EQ(chunkSamples(8 * 100, 8, 200, 256), 64);
  EXPECT_EQ(chunkSamples(7, 8, 200, 256), 0);
}

TEST(ChunkSamples, EveryChunkIsAWholeSubtree) {
  std::mt19937_64 rng(1);
  for (int t = 0; t < 10000; ++t) {
    const std::int64_t n = rng() % 1000000, per = 1 + rng() % 64, leaf = 1 << (rng() % 10);
    const std::int64_t budget = rng() % (per * (n + 1) + 1);
    const std::int64_t c = chunkSamples(budget, per, n, leaf);
    ASSERT_LE(c * per, budget);
    if (c != n && c != 0) {
      ASSERT_TRUE(isPowerOfTwo(c));
      ASSERT_TRUE(n < leaf || c % leaf == 0);
      ASSERT_GT(2 * c * per, budget);  // the largest such
      // an aligned chunk is one node of the canonical tree (the last may be cut by n)
      ASSERT_EQ(canonicalCover(c, std::min(n, 2 * c), n).size(), 1u);
    }
  }
}

TEST(ChunkSamples, BadArgumentsAreRefusedByName) {
  using test::errorOf;
  EXPECT_EQ(errorOf([] { chunkSamples(100, 8, 100, 3); }),
            "kfield::chunkSamples: leaf must be a power of two, got 3");
  EXPECT_EQ(errorOf([] { chunkSamples(100, 8, -1, 4); }),
            "kfield::chunkSamples: n must be >= 0, got -1");
  EXPECT_EQ(errorOf([] { chunkSamples(100, 0, 1, 4); }),
            "kfield::chunkSamples: perSampleBytes must be > 0, got 0");
  EXPECT_EQ(errorOf([] { chunkSamples(-5, 8, 1, 4); }),
            "kfield::chunkSamples: budgetBytes must be >= 0, got -5");
  EXPECT_EQ(errorOf([] { chunkSamples(100, 8, 10, 0); }),
            "kfield::chunkSamples: leaf must be a power of two, got 0");
}

TEST(CeilSqrt, ExactEverywhere) {
  for (std::int64_t s = 0; s < 100000; ++s) {
    const std::int64_t r = ceilSqrt(s);
    ASSERT_GE(r * r, s);
    ASSERT_TRUE(r == 0 || (r - 1) * (r - 1) < s) << s;
  }
  const std::int64_t big = std::numeric_limits<std::int64_t>::max();
  EXPECT_EQ(ceilSqrt(big), 3037000500);
  EXPECT_EQ(ceilSqrt(3037000499LL * 3037000499LL), 3037000499);
  EXPECT_EQ(ceilSqrt(3037000499LL * 3037000499LL + 1), 3037000500);
  EXPECT_THROW(ceilSqrt(-1), std::invalid_argument);
}

TEST(DefaultWindow, IsClampedCeilSqrt) {
  EXPECT_EQ(defaultWindow(0), 16);
  EXPECT_EQ(defaultWindow(256), 16);
  EXPECT_EQ(defaultWindow(257), 17);
  EXPECT_EQ(defaultWindow(2000), 45);
  EXPECT_EQ(defaultWindow(1 << 20), 1024);
  EXPECT_EQ(defaultWindow(std::int64_t(1) << 40), 1024);
}

TEST(CanonicalCover, MergingCoversGivesTheCoverOfTheUnion) {
  std::mt19937_64 rng(3);
  for (int t = 0; t < 20000; ++t) {
    const std::int64_t n = 1 + rng() % 5000;
    std::int64_t a = rng() % (n + 1), b = rng() % (n + 1), c = rng() % (n + 1);
    if (a > b) std::swap(a, b);
    if (b > c) std::swap(b, c);
    if (a > b) std::swap(a, b);
    auto partials = [&](std::int64_t lo, std::int64_t hi) {
      Partials<double> p;
      p.n = n;
      p.begin = lo;
      p.end = hi;
      p.nodes = canonicalCover(lo, hi, n);
      p.values.assign(p.nodes.size(), 0.0);
      return p;
    };
    const auto merged = mergePartials(partials(a, b), partials(b, c));
    ASSERT_EQ(merged.nodes, canonicalCover(a, c, n)) << n << " " << a << " " << b << " " << c;
  }
  EXPECT_EQ(canonicalCover(0, 5, 5), (std::vector<TreeNode>{{3, 0}}));
  EXPECT_EQ(canonicalCover(1, 5, 5), (std::vector<TreeNode>{{0, 1}, {1, 1}, {2, 1}}));
  EXPECT_THROW(canonicalCover(3, 2, 5), std::invalid_argument);
}

}  // namespace
}  // namespace kfield
