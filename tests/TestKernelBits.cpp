#include "support/TestSpaces.hpp"

#include <kfield/impl/KokkosCompat.hpp>

#include <cmath>
#include <cstdint>

// Kernels live in free functions: nvcc refuses device lambdas inside a gtest body (private).
namespace kfield::test::kernel_bits {

template <class Space>
double multiplyAdd(double a, double b, double c) {
  Kokkos::View<double[3], Space> in("in");
  Kokkos::View<double[1], Space> out("out");
  auto inHost = Kokkos::create_mirror_view(in);
  inHost(0) = a;
  inHost(1) = b;
  inHost(2) = c;
  Kokkos::deep_copy(in, inHost);
  Kokkos::parallel_for(
      "kfield::test::multiply_add", Kokkos::RangePolicy<Space>(0, 1),
      KOKKOS_LAMBDA(int) { out(0) = in(0) * in(1) - in(2); });
  auto outHost = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  return outHost(0);
}

KOKKOS_INLINE_FUNCTION double roundedOps(double x) {
  return impl::math::sqrt(x) / 3.0 + x * 0.1 - 1.0 / (x + 0.5);
}

template <class Space>
Kokkos::View<double*, Kokkos::HostSpace> roundedOpsOnSpace(int n) {
  Kokkos::View<double*, Space> values("values", n);
  Kokkos::parallel_for(
      "kfield::test::rounded_ops", Kokkos::RangePolicy<Space>(0, n),
      KOKKOS_LAMBDA(int i) { values(i) = roundedOps(i); });
  return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), values);
}

template <class Space>
std::int64_t integerSum(std::int64_t n) {
  std::int64_t sum = 0;
  Kokkos::parallel_reduce(
      "kfield::test::integer_sum", Kokkos::RangePolicy<Space>(0, n),
      KOKKOS_LAMBDA(std::int64_t i, std::int64_t & partial) { partial += i; }, sum);
  return sum;
}

template <class Space>
Kokkos::View<double[6], Kokkos::HostSpace> minMaxClamp() {
  Kokkos::View<double[6], Space> out("out");
  Kokkos::parallel_for(
      "kfield::test::min_max_clamp", Kokkos::RangePolicy<Space>(0, 1), KOKKOS_LAMBDA(int) {
        out(0) = impl::math::min(-0.0, 0.0);  // equal: the first argument wins
        out(1) = impl::math::max(0.0, -0.0);
        out(2) = impl::math::clamp(7.5, 0.0, 2.0);
        out(3) = impl::math::clamp(-1.0, 0.0, 2.0);
        out(4) = impl::math::fmin(3.0, -2.0);
        out(5) = impl::math::fabs(-4.25);
      });
  return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
}

}  // namespace kfield::test::kernel_bits

namespace kfield::test {
namespace {

template <class Space>
class KernelBits : public ::testing::Test {};
TYPED_TEST_SUITE(KernelBits, Spaces, SpaceNames);

// 0.1 * 10 rounds to exactly 1, so 0.1 * 10 - 1 is 0 when the product is rounded, and the
// error of 0.1 (about 5.6e-17) when fused into an FMA: kernels must not contract.
TYPED_TEST(KernelBits, MultiplyAddIsNotContracted) {
  ASSERT_NE(std::fma(0.1, 10.0, -1.0), 0.0);  // the case tells the two apart
  EXPECT_EQ(bitsOf(kernel_bits::multiplyAdd<TypeParam>(0.1, 10.0, 1.0)), bitsOf(0.0));
}

// Correctly rounded operations (+ - * / sqrt) give the host's bits on every backend.
TYPED_TEST(KernelBits, RoundedOperationsMatchTheHostBitForBit) {
  const int n = 100003;
  auto values = kernel_bits::roundedOpsOnSpace<TypeParam>(n);
  int mismatches = 0;
  for (int i = 0; i < n; ++i) {
    const double x = i;
    mismatches += bitsOf(values(i)) != bitsOf(std::sqrt(x) / 3.0 + x * 0.1 - 1.0 / (x + 0.5));
  }
  EXPECT_EQ(mismatches, 0);
  EXPECT_EQ(bitsOf(values(4)), bitsOf(2.0 / 3.0 + 0.4 - 1.0 / 4.5));
}

TYPED_TEST(KernelBits, IntegerReductionIsExact) {
  const std::int64_t n = 1000000;
  EXPECT_EQ(kernel_bits::integerSum<TypeParam>(n), n * (n - 1) / 2);
}

TYPED_TEST(KernelBits, CompatMinMaxClampKeepTheirTieAndOrderRules) {
  auto out = kernel_bits::minMaxClamp<TypeParam>();
  EXPECT_EQ(bitsOf(out(0)), bitsOf(-0.0));
  EXPECT_EQ(bitsOf(out(1)), bitsOf(0.0));
  EXPECT_EQ(out(2), 2.0);
  EXPECT_EQ(out(3), 0.0);
  EXPECT_EQ(out(4), -2.0);
  EXPECT_EQ(out(5), 4.25);
}

}  // namespace
}  // namespace kfield::test
