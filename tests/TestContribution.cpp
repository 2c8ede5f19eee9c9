// A contribution program on the device gives the bits of its host evaluation, and of the C++
// functor written for the same operations.
#include "support/ErrorOf.hpp"
#include "support/LearnerReference.hpp"
#include "support/TestSpaces.hpp"

#include <kfield/learn/Contribution.hpp>
#include <kfield/learn/Rules.hpp>

#include <vector>

namespace kfield::test {
namespace {

template <class Space>
class Contribution : public ::testing::Test {};
TYPED_TEST_SUITE(Contribution, Spaces, SpaceNames);

// out[i] for every sample, computed by `contribution` on the device at parameters w.
template <class Space, class F>
std::vector<double> perSample(const F& contribution, const DataParallelSystem& sys,
                              const std::vector<double>& w) {
  using Memory = typename Space::memory_space;
  const std::int64_t k = sys.parameters, s = sys.sampleWidth;
  std::vector<double> samples;
  for (const auto& owned : sys.owners) {
    for (const auto& sample : owned) {
      for (Word x : sample) samples.push_back(valueOf(x));
    }
  }
  const auto n = static_cast<std::int64_t>(samples.size()) / s;
  Kokkos::View<double*, Memory> x("x", samples.size()), params("w", w.size()), out("out", n * k);
  Kokkos::deep_copy(x, Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                           samples.data(), samples.size()));
  Kokkos::deep_copy(params, Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                                w.data(), w.size()));
  Kokkos::parallel_for(
      "test::contribution", Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(std::int64_t j) {
        contribution(params.data(), x.data() + j * s, out.data() + j * k);
      });
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  return std::vector<double>(h.data(), h.data() + h.extent(0));
}

// k = 7 puts one term in each of 7 lanes; k = 37 fills two rows of lanes and part of a third.
TYPED_TEST(Contribution, ProgramAndFunctorGiveTheDefinitionsBits) {
  for (const std::int64_t k : {std::int64_t(7), std::int64_t(37)}) {
    const auto sys = leastSquaresSystem(k, 300, {0, 120, 300}, rules::sgd(k), 0.1);
    std::vector<double> w;
    for (std::int64_t i = 0; i < k; ++i) w.push_back(0.25 * double(i) - 0.6);
    std::vector<double> expected;
    for (const auto& owned : sys.owners) {
      for (const auto& sample : owned) {
        std::vector<double> slots(w);
        for (Word x : sample) slots.push_back(valueOf(x));
        slots.resize(static_cast<std::size_t>(2 * k + sys.sampleWidth), 0.0);
        pointwise::evaluate(sys.contribution, slots);
        expected.insert(expected.end(), slots.end() - k, slots.end());
      }
    }
    const auto program = perSample<TypeParam>(PointwiseContribution<TypeParam>::of(sys), sys, w);
    const auto functor = perSample<TypeParam>(rules::LeastSquaresGradient{k}, sys, w);
    ASSERT_EQ(program.size(), expected.size());
    for (std::size_t j = 0; j < expected.size(); ++j) {
      ASSERT_EQ(bitsOf(program[j]), bitsOf(expected[j])) << "program, word " << j;
      ASSERT_EQ(bitsOf(functor[j]), bitsOf(expected[j])) << "functor, word " << j;
    }
  }
}

TYPED_TEST(Contribution, WritingTheParametersIsRefused) {
  DataParallelSystem sys = smallSystem();
  sys.contribution.assignments[0].dest = 1;
  EXPECT_EQ(errorOf([&] { PointwiseContribution<TypeParam>::of(sys); }),
            "kfield::PointwiseContribution: assignment 0 writes slot 1, which this program may not "
            "write");
}

}  // namespace
}  // namespace kfield::test
