// The counter-based generator: a pure function of (seed, counter), the same bits in kernels
// and on the host.
#include "support/TestSpaces.hpp"

#include <kfield/Random.hpp>

#include <cstdint>
#include <vector>

namespace kfield::test {
namespace {

template <class Space>
class Random : public ::testing::Test {};
TYPED_TEST_SUITE(Random, Spaces, SpaceNames);

// uniform01(7, i) for i < n, drawn in a kernel (outside the test body: nvcc wants device
// lambdas in functions that are not private members).
template <class Space>
std::vector<double> drawnOnDevice(std::int64_t n) {
  Kokkos::View<double*, typename Space::memory_space> drawn("drawn", n);
  Kokkos::parallel_for(
      "test::random", Kokkos::RangePolicy<Space>(0, n),
      KOKKOS_LAMBDA(std::int64_t i) { drawn(i) = uniform01(7, static_cast<std::uint64_t>(i)); });
  return toHost(drawn);
}

TYPED_TEST(Random, KernelsDrawTheHostsBits) {
  const std::int64_t n = 4096;
  const std::vector<double> h = drawnOnDevice<TypeParam>(n);
  double lo = 1.0, hi = 0.0;
  for (std::int64_t i = 0; i < n; ++i) {
    const double expected = uniform01(7, static_cast<std::uint64_t>(i));
    ASSERT_EQ(bitsOf(h[i]), bitsOf(expected)) << "counter " << i;
    lo = h[i] < lo ? h[i] : lo;
    hi = h[i] > hi ? h[i] : hi;
  }
  EXPECT_GE(lo, 0.0);
  EXPECT_LT(hi, 1.0);
  EXPECT_LT(lo, 0.01);  // 4096 draws spread over [0, 1)
  EXPECT_GT(hi, 0.99);
}

TYPED_TEST(Random, ValuesArePinned) {
  // SplitMix64's finaliser of seed * golden + counter + offset: a change here changes every
  // random network and data set.
  EXPECT_NE(mix64(1, 0), mix64(0, 1));
  EXPECT_EQ(uniform01(1, 0), double(mix64(1, 0) >> 11) * 0x1.0p-53);
  EXPECT_EQ(mix64(1, 2), 0x30883360CC68D7B1ull);
}

}  // namespace
}  // namespace kfield::test
