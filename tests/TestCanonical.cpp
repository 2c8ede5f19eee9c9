#include "support/SumReference.hpp"
#include "support/TestSpaces.hpp"

#include <kfield/sum/Canonical.hpp>

#include <limits>
#include <vector>

namespace kfield::test {
namespace {

template <class Space>
class CanonicalSum : public ::testing::Test {};
TYPED_TEST_SUITE(CanonicalSum, Spaces, SpaceNames);

std::vector<std::int64_t> interestingCounts() {
  std::vector<std::int64_t> counts{0, 1, 2, 3, 7, 8, 9, 255, 256, 257};
  for (int k = 4; k <= 17; ++k) {
    counts.push_back((std::int64_t(1) << k) - 1);
    counts.push_back((std::int64_t(1) << k) + 1);
  }
  counts.push_back(1000003);
  return counts;
}

template <class Space>
double onDevice(const std::vector<double>& x) {
  return canonicalSum(Space(), onSpace<Space>(x));
}

TYPED_TEST(CanonicalSum, MatchesTheTreeDefinitionBitForBit) {
  for (std::int64_t n : interestingCounts()) {
    const auto x = adversarial(n, 1000 + n);
    EXPECT_EQ(bitsOf(onDevice<TypeParam>(x)), bitsOf(referenceSum(x))) << "n = " << n;
    const auto y = moderate(n, 2000 + n);
    EXPECT_EQ(bitsOf(onDevice<TypeParam>(y)), bitsOf(referenceSum(y))) << "n = " << n;
  }
}

TYPED_TEST(CanonicalSum, EmptyIsPositiveZeroAndNegativeZeroSurvives) {
  EXPECT_EQ(bitsOf(onDevice<TypeParam>({})), bitsOf(0.0));
  for (std::int64_t n : {1, 2, 5, 1000}) {
    EXPECT_EQ(bitsOf(onDevice<TypeParam>(std::vector<double>(n, -0.0))), bitsOf(-0.0));
  }
  EXPECT_EQ(bitsOf(onDevice<TypeParam>({-0.0, 0.0, -0.0})), bitsOf(0.0));
}

TYPED_TEST(CanonicalSum, InfinityAndNanPropagate) {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> x = moderate(100003, 7);
  x[77777] = inf;
  EXPECT_EQ(onDevice<TypeParam>(x), inf);
  x[3] = -inf;
  EXPECT_TRUE(std::isnan(onDevice<TypeParam>(x)));
  x = moderate(100003, 8);
  x[50000] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(std::isnan(onDevice<TypeParam>(x)));
  std::vector<double> big(4, 1.7e308);  // overflow in the tree is overflow in the result
  EXPECT_EQ(onDevice<TypeParam>(big), inf);
}

// Proof that the order is the tree's: left to right gives 1, the tree gives 0.
TYPED_TEST(CanonicalSum, DiffersFromLeftToRightWhereTheTreeSaysSo) {
  const std::vector<double> x{1.0, 1e16, -1e16, 1.0};
  ASSERT_EQ(leftToRight(x), 1.0);
  EXPECT_EQ(bitsOf(onDevice<TypeParam>(x)), bitsOf(0.0));
  EXPECT_EQ(bitsOf(referenceSum(x)), bitsOf(0.0));
}

template <class Space>
std::vector<double> overSamples(const std::vector<double>& plane, std::int64_t rows,
                                std::int64_t samples) {
  Kokkos::View<double**, Kokkos::LayoutRight, typename Space::memory_space> p("plane", rows,
                                                                              samples);
  Kokkos::View<const double**, Kokkos::LayoutRight, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>
      host(plane.data(), rows, samples);
  Kokkos::deep_copy(p, host);
  Kokkos::View<double*, typename Space::memory_space> out("out", rows);
  canonicalSumOverSamples(Space(), p, out);
  std::vector<double> result(rows);
  Kokkos::deep_copy(
      Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(result.data(), rows), out);
  return result;
}

TYPED_TEST(CanonicalSum, OverSamplesOfAPlaneIsEachRowsSum) {
  for (auto [rows, samples] : {std::pair<std::int64_t, std::int64_t>{1000, 64},
                               {37, 1000},
                               {3, 0},
                               {0, 5},
                               {5, 1},
                               {2, 20001}}) {
    auto plane = adversarial(rows * samples, rows + samples);
    const auto m = moderate(rows * samples, rows * samples);
    for (std::size_t i = 0; i < plane.size(); i += 2) plane[i] = m[i];
    const auto sums = overSamples<TypeParam>(plane, rows, samples);
    for (std::int64_t r = 0; r < rows; ++r) {
      const std::vector<double> row(plane.begin() + r * samples, plane.begin() + (r + 1) * samples);
      ASSERT_EQ(bitsOf(sums[r]), bitsOf(referenceSum(row)))
          << rows << "x" << samples << " row " << r;
    }
  }
}

template <class Space>
std::vector<double> ofVectors(const std::vector<double>& vectors, std::int64_t n,
                              std::int64_t width) {
  Kokkos::View<double**, Kokkos::LayoutRight, typename Space::memory_space> v("vectors", n, width);
  Kokkos::View<const double**, Kokkos::LayoutRight, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>
      host(vectors.data(), n, width);
  Kokkos::deep_copy(v, host);
  Kokkos::View<double*, typename Space::memory_space> out("out", width);
  canonicalSumOfVectors(Space(), v, out);
  std::vector<double> result(width);
  Kokkos::deep_copy(
      Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(result.data(), width), out);
  return result;
}

TYPED_TEST(CanonicalSum, OfVectorsIsEachCoordinatesSum) {
  for (auto [n, width] : {std::pair<std::int64_t, std::int64_t>{1, 3},
                          {5, 33},
                          {4097, 1},
                          {10007, 70},
                          {0, 4},
                          {70000, 3}}) {
    auto vectors = adversarial(n * width, n * 31 + width);
    const auto m = moderate(n * width, n + width);
    for (std::size_t i = 0; i < vectors.size(); i += 2) vectors[i] = m[i];
    const auto sums = ofVectors<TypeParam>(vectors, n, width);
    for (std::int64_t c = 0; c < width; ++c) {
      std::vector<double> column(n);
      for (std::int64_t s = 0; s < n; ++s) column[s] = vectors[s * width + c];
      ASSERT_EQ(bitsOf(sums[c]), bitsOf(referenceSum(column))) << n << "x" << width << " c " << c;
    }
  }
}

TYPED_TEST(CanonicalSum, MismatchedOutputsAreRefusedByName) {
  Kokkos::View<double**, typename TypeParam::memory_space> plane("plane", 4, 8);
  Kokkos::View<double*, typename TypeParam::memory_space> out("out", 5);
  try {
    canonicalSumOverSamples(TypeParam(), plane, out);
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "kfield::canonicalSumOverSamples: out has 5 rows, the plane has 4");
  }
  try {
    canonicalSumOfVectors(TypeParam(), plane, out);
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "kfield::canonicalSumOfVectors: out has 5 entries, the vectors have width 8");
  }
  auto row = Kokkos::subview(plane, 0, Kokkos::ALL);
  EXPECT_THROW(canonicalSumOfVectors(TypeParam(), plane, row), std::invalid_argument);
}

#ifdef KOKKOS_ENABLE_SERIAL
// In the OpenMP and CUDA binaries, the same data on Serial gives the same bits.
TYPED_TEST(CanonicalSum, SameBitsAsSerial) {
  for (std::int64_t n : {std::int64_t(1000003), std::int64_t(65537), std::int64_t(12)}) {
    for (const auto& x : datasets(n, 99 + n)) {
      EXPECT_EQ(bitsOf(onDevice<TypeParam>(x)), bitsOf(onDevice<Kokkos::Serial>(x)));
    }
  }
}
#endif

}  // namespace
}  // namespace kfield::test
