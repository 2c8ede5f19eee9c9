#include "support/ErrorOf.hpp"
#include "support/SumReference.hpp"
#include "support/TestSpaces.hpp"

#include <kfield/sum/Chunking.hpp>
#include <kfield/sum/Partials.hpp>

#include <algorithm>
#include <random>
#include <set>
#include <vector>

namespace kfield::test {
namespace {

template <class Space>
class Partials : public ::testing::Test {};
TYPED_TEST_SUITE(Partials, Spaces, SpaceNames);

// Each range as its own owner would hold it: a separate array of just its samples.
template <class Space>
kfield::Partials<double> ownerPartials(const std::vector<double>& x, std::int64_t begin,
                                       std::int64_t end) {
  const std::vector<double> share(x.begin() + begin, x.begin() + end);
  return canonicalPartials(Space(), onSpace<Space>(share), begin,
                           static_cast<std::int64_t>(x.size()));
}

template <class Space>
double combinedLeftToRight(const std::vector<double>& x, const std::vector<std::int64_t>& cuts) {
  auto acc = ownerPartials<Space>(x, cuts[0], cuts[1]);
  for (std::size_t i = 1; i + 1 < cuts.size(); ++i) {
    acc = mergePartials(acc, ownerPartials<Space>(x, cuts[i], cuts[i + 1]));
  }
  return finishPartials(acc)[0];
}

// Cuts of [0, n) into `parts` contiguous ranges of unequal (random) sizes, empty ones allowed.
std::vector<std::int64_t> randomCuts(std::int64_t n, int parts, std::mt19937_64& rng) {
  std::vector<std::int64_t> cuts{0, n};
  for (int i = 1; i < parts; ++i) cuts.push_back(n == 0 ? 0 : std::int64_t(rng() % (n + 1)));
  std::sort(cuts.begin(), cuts.end());
  return cuts;
}

TYPED_TEST(Partials, EverySplitIntoUnequalRangesGivesTheWholeTreesBits) {
  std::mt19937_64 rng(42);
  for (std::int64_t n : {0, 1, 2, 3, 5, 17, 255, 256, 257, 1000, 65537, 1000003}) {
    for (const auto& x : datasets(n, 7 * n + 1)) {
      const std::uint64_t whole = bitsOf(referenceSum(x));
      for (int parts = 1; parts <= 8; ++parts) {
        const int tries = n > 100000 ? 1 : 3;
        for (int t = 0; t < tries; ++t) {
          const auto cuts = randomCuts(n, parts, rng);
          ASSERT_EQ(bitsOf(combinedLeftToRight<TypeParam>(x, cuts)), whole)
              << "n = " << n << ", " << parts << " ranges";
        }
      }
    }
  }
}

TYPED_TEST(Partials, MergeIsAssociative) {
  const std::int64_t n = 100003;
  const auto x = moderate(n, 5);
  const std::vector<std::int64_t> cuts{0, 12345, 12346, 70001, n};
  auto a = ownerPartials<TypeParam>(x, cuts[0], cuts[1]);
  auto b = ownerPartials<TypeParam>(x, cuts[1], cuts[2]);
  auto c = ownerPartials<TypeParam>(x, cuts[2], cuts[3]);
  auto d = ownerPartials<TypeParam>(x, cuts[3], cuts[4]);
  const double leftFirst =
      finishPartials(mergePartials(mergePartials(mergePartials(a, b), c), d))[0];
  const double pairs = finishPartials(mergePartials(mergePartials(a, b), mergePartials(c, d)))[0];
  const double rightFirst =
      finishPartials(mergePartials(a, mergePartials(b, mergePartials(c, d))))[0];
  EXPECT_EQ(bitsOf(leftFirst), bitsOf(referenceSum(x)));
  EXPECT_EQ(bitsOf(pairs), bitsOf(leftFirst));
  EXPECT_EQ(bitsOf(rightFirst), bitsOf(leftFirst));
}

// Chunks of every size chunkSamples can return, each reduced alone, combine to one pass.
TYPED_TEST(Partials, EveryChunkingFromChunkSamplesGivesTheSameBits) {
  const std::int64_t n = 300007;
  const auto x = moderate(n, 11);
  const std::uint64_t whole = bitsOf(referenceSum(x));
  std::set<std::int64_t> chunks;
  for (std::int64_t budget = 8; budget <= 8 * n; budget = budget * 3 / 2 + 8) {
    chunks.insert(chunkSamples(budget, 8, n, kDefaultLeaf));
  }
  chunks.insert(n);
  chunks.erase(0);
  ASSERT_GT(chunks.size(), 8u);
  for (std::int64_t chunk : chunks) {
    std::vector<std::int64_t> cuts;
    for (std::int64_t c = 0; c < n; c += chunk) cuts.push_back(c);
    cuts.push_back(n);
    EXPECT_EQ(bitsOf(combinedLeftToRight<TypeParam>(x, cuts)), whole) << "chunk " << chunk;
  }
}

template <class Space>
kfield::Partials<double> vectorPartials(const std::vector<double>& v, std::int64_t width,
                                        std::int64_t begin, std::int64_t end, std::int64_t n) {
  Kokkos::View<double**, Kokkos::LayoutRight, typename Space::memory_space> share(
      "share", end - begin, width);
  Kokkos::View<const double**, Kokkos::LayoutRight, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>
      host(v.data() + begin * width, end - begin, width);
  Kokkos::deep_copy(share, host);
  return canonicalPartialsOfVectors(Space(), share, begin, n);
}

TYPED_TEST(Partials, VectorsSplitAmongOwnersGiveEachCoordinatesSum) {
  const std::int64_t n = 20011, width = 9;
  auto v = adversarial(n * width, 3);
  const auto m = moderate(n * width, 4);
  for (std::int64_t i = 0; i < n * width; i += 2) v[i] = m[i];  // both kinds in every column
  const std::vector<std::int64_t> cuts{0, 1, 4096, 4097, 13000, n};
  auto acc = vectorPartials<TypeParam>(v, width, cuts[0], cuts[1], n);
  for (std::size_t i = 1; i + 1 < cuts.size(); ++i) {
    acc = mergePartials(acc, vectorPartials<TypeParam>(v, width, cuts[i], cuts[i + 1], n));
  }
  const auto sums = finishPartials(acc);
  ASSERT_EQ(sums.size(), std::size_t(width));
  for (std::int64_t c = 0; c < width; ++c) {
    std::vector<double> column(n);
    for (std::int64_t s = 0; s < n; ++s) column[s] = v[s * width + c];
    EXPECT_EQ(bitsOf(sums[c]), bitsOf(referenceSum(column))) << "coordinate " << c;
  }
}

TYPED_TEST(Partials, BadRangesAreRefusedByName) {
  const auto x = adversarial(100, 1);
  auto a = ownerPartials<TypeParam>(x, 0, 40);
  auto c = ownerPartials<TypeParam>(x, 50, 100);
  try {
    mergePartials(a, c);
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "kfield::mergePartials: ranges [0, 40) and [50, 100) are not adjacent");
  }
  try {
    finishPartials(a);
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(
        e.what(),
        "kfield::finishPartials: the partials cover [0, 40), not the whole sequence [0, 100)");
  }
  EXPECT_THROW(canonicalPartials(TypeParam(), onSpace<TypeParam>(x), 1, 100),
               std::invalid_argument);  // samples [1, 101) do not lie in 100
  auto other = canonicalPartials(TypeParam(), onSpace<TypeParam>(x), 0, 200);
  EXPECT_THROW(mergePartials(other, ownerPartials<TypeParam>(x, 40, 100)), std::invalid_argument);
}

// A width is the learner's parameter count k: past 2^31 it is kept, not narrowed.
TYPED_TEST(Partials, WidthsPastTwoToThe31AreKept) {
  const std::int64_t wide = (std::int64_t(1) << 32) + 3;
  EXPECT_EQ(emptyPartials<double>(0, 10, wide).width, wide);
}

// The builder the learner uses: nodes appended left to right, each starting where the
// partials end.
TYPED_TEST(Partials, AppendedNodesMustFollowOneAnother) {
  auto p = emptyPartials<double>(4, 10);
  const double one = 1.0;
  EXPECT_EQ(errorOf([&] {
              appendNode(p, TreeNode{1, 3}, &one);
            }),
            "kfield::appendNode: node (level 1, index 3) does not start at sample 4 of 10");
  appendNode(p, TreeNode{2, 1}, &one);
  EXPECT_EQ(p.end, 8);
  EXPECT_EQ(errorOf([&] {
              appendNode(p, TreeNode{0, 9}, &one);
            }),
            "kfield::appendNode: node (level 0, index 9) does not start at sample 8 of 10");
  appendNode(p, TreeNode{3, 1}, &one);  // samples [8, 10): the rest of the sequence
  EXPECT_EQ(p.end, 10);
  EXPECT_EQ(errorOf([] { emptyPartials<double>(11, 10); }),
            "kfield::emptyPartials: sample 11 does not lie in a sequence of 10");
}

}  // namespace
}  // namespace kfield::test
