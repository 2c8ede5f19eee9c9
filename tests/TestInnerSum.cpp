// Inner sums (kfield/sum/InnerSum.hpp) follow their documented order on every space: pinned
// by sums whose left-to-right value differs, against a host reference written from the
// definition, and through the pointwise `sum` and the least-squares functor.
#include "support/TestSpaces.hpp"

#include <kfield/impl/Bits.hpp>
#include <kfield/learn/Pointwise.hpp>
#include <kfield/learn/Rules.hpp>
#include <kfield/sum/InnerSum.hpp>

#include <cmath>
#include <random>
#include <vector>

namespace kfield::test {
namespace {

template <class Space>
class InnerSum : public ::testing::Test {};
TYPED_TEST_SUITE(InnerSum, Spaces, SpaceNames);

// The definition, spelled out: lane l sums terms l, l + 16, l + 32, ... from -0.0; then
// ((l0 + l8) + (l4 + l12)) + ((l2 + l10) + (l6 + l14)) + ... by halving.
double reference(const std::vector<double>& terms) {
  std::vector<double> lane(16, -0.0);
  for (std::size_t i = 0; i < terms.size(); ++i) lane[i % 16] = lane[i % 16] + terms[i];
  for (std::size_t h = 8; h >= 1; h /= 2) {
    for (std::size_t l = 0; l < h; ++l) lane[l] = lane[l] + lane[l + h];
  }
  return lane[0];
}

double leftToRight(const std::vector<double>& terms) {
  double acc = terms.at(0);
  for (std::size_t i = 1; i < terms.size(); ++i) acc = acc + terms[i];
  return acc;
}

struct TermsOf {
  const double* x;
  KOKKOS_INLINE_FUNCTION double operator()(std::int64_t i) const { return x[i]; }
};

// innerSum of the terms and innerDot of (terms, ones) on the device, and the same sum added
// in two pieces of `split` and the rest terms (InnerSumLanes::add from an offset).
template <class Space>
std::vector<double> onDevice(const std::vector<double>& terms, std::int64_t split) {
  using Memory = typename Space::memory_space;
  const auto n = static_cast<std::int64_t>(terms.size());
  Kokkos::View<double*, Memory> x("terms", terms.size()), ones("ones", terms.size()), out("out", 3);
  Kokkos::deep_copy(x, Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                           terms.data(), terms.size()));
  Kokkos::deep_copy(ones, 1.0);
  Kokkos::parallel_for(
      "test::inner_sum", Kokkos::RangePolicy<Space>(0, 1), KOKKOS_LAMBDA(int) {
        out(0) = innerSum(n, TermsOf{x.data()});
        out(1) = innerDot(n, x.data(), ones.data());
        InnerSumLanes lanes;
        lanes.add(0, x.data(), split);
        lanes.add(split, x.data() + split, n - split);
        out(2) = lanes.total();
      });
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  return {h(0), h(1), h(2)};
}

template <class Space>
void expectReferenceBits(const std::vector<double>& terms, const char* what) {
  const double expected = reference(terms);
  for (std::int64_t split : {std::int64_t(0), std::int64_t(terms.size() / 2),
                             std::int64_t(terms.size() > 16 ? 16 : 0)}) {
    const auto got = onDevice<Space>(terms, split);
    for (std::size_t j = 0; j < got.size(); ++j) {
      EXPECT_EQ(impl::bitsOf(got[j]), impl::bitsOf(expected))
          << what << ": n = " << terms.size() << ", form " << j << ", split " << split;
    }
  }
}

// 1e16 + 1 rounds back to 1e16 (a tie to even), so left to right loses the 1; in lanes the
// two 1e16s cancel first (lanes 0 and 2 meet at h = 2) and the 1 (lane 1) survives.
TYPED_TEST(InnerSum, TheDocumentedOrderNotLeftToRight) {
  const std::vector<double> terms{1e16, 1.0, -1e16};
  ASSERT_EQ(leftToRight(terms), 0.0);
  ASSERT_EQ(reference(terms), 1.0);
  expectReferenceBits<TypeParam>(terms, "crafted");
  // Terms 0 and 16 share lane 0, where the 1 is lost against 1e16 before lane 8's -1e16
  // cancels it; left to right, the 1 comes after the cancellation and stays.
  std::vector<double> shared(17, 0.0);
  shared[0] = 1e16, shared[8] = -1e16, shared[16] = 1.0;
  ASSERT_EQ(leftToRight(shared), 1.0);
  ASSERT_EQ(reference(shared), 0.0);
  expectReferenceBits<TypeParam>(shared, "shared lane");
}

TYPED_TEST(InnerSum, RandomTermsOfEveryLengthShape) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (std::size_t n : {1u, 2u, 15u, 16u, 17u, 31u, 32u, 33u, 1000u, 1001u}) {
    std::vector<double> terms(n);
    for (auto& t : terms) t = u(rng) * std::ldexp(1.0, static_cast<int>(rng() % 60) - 30);
    expectReferenceBits<TypeParam>(terms, "random");
  }
}

TYPED_TEST(InnerSum, SignedZerosAndTheEmptySum) {
  expectReferenceBits<TypeParam>({}, "empty");  // -0.0
  expectReferenceBits<TypeParam>({-0.0, -0.0, -0.0}, "negative zeros");
  expectReferenceBits<TypeParam>({0.0}, "one positive zero");
  EXPECT_EQ(impl::bitsOf(reference({})), impl::bitsOf(-0.0));
  EXPECT_EQ(impl::bitsOf(reference({0.0})), impl::bitsOf(0.0));
}

// The least-squares functor's first word on the device, at parameters w, x all ones, y = 0.
template <class Space>
double functorFirstWord(const std::vector<double>& w) {
  using Memory = typename Space::memory_space;
  const auto k = static_cast<std::int64_t>(w.size());
  Kokkos::View<double*, Memory> params("w", w.size()), sample("sample", w.size() + 1),
      out("out", w.size());
  Kokkos::deep_copy(params, Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                                w.data(), w.size()));
  Kokkos::deep_copy(sample, 1.0);
  Kokkos::deep_copy(Kokkos::subview(sample, k), 0.0);
  const rules::LeastSquaresGradient gradient{k};
  Kokkos::parallel_for(
      "test::functor_dot", Kokkos::RangePolicy<Space>(0, 1),
      KOKKOS_LAMBDA(int) { gradient(params.data(), sample.data(), out.data()); });
  double first = 0.0;
  Kokkos::deep_copy(first, Kokkos::subview(out, 0));
  return first;
}

// The pointwise `sum` and the least-squares functor use the same order.
TYPED_TEST(InnerSum, PointwiseSumAndTheFunctorsDotFollowIt) {
  std::vector<double> shared(17, 0.0);
  shared[0] = 1e16, shared[8] = -1e16, shared[16] = 1.0;
  PointwiseProgram p;
  p.slots = 18;
  p.assignments = {pointwise::sum(17, 17, pointwise::Expr::indexed(0))};
  std::vector<double> slots = shared;
  slots.push_back(0.0);
  pointwise::evaluate(p, slots);
  EXPECT_EQ(impl::bitsOf(slots[17]), impl::bitsOf(reference(shared)));

  // g_0 = 2 (w . x - y) x_0 with w = those terms, x all ones and y = 0.
  const double g0 = functorFirstWord<TypeParam>(shared);
  EXPECT_EQ(impl::bitsOf(g0), impl::bitsOf(2.0 * reference(shared)));
  EXPECT_NE(g0, 2.0 * leftToRight(shared));
}

}  // namespace
}  // namespace kfield::test
