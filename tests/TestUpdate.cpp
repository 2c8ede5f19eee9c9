// An update program compiled for an execution space gives the definition's bits (host
// evaluation, one instance at a time) for every shipped rule.
#include "support/ErrorOf.hpp"
#include "support/TestSpaces.hpp"

#include <kfield/learn/Rules.hpp>
#include <kfield/learn/Update.hpp>

#include <random>
#include <string>
#include <vector>

namespace kfield::test {
namespace {

template <class Space>
class Update : public ::testing::Test {};
TYPED_TEST_SUITE(Update, Spaces, SpaceNames);

// Three steps of `program` on the device against the definition (host evaluation); returns
// the kernel that ran it.
template <class Space>
std::string expectDefinitionBits(const PointwiseProgram& program,
                                 const std::vector<Word>& initialState, std::int64_t k) {
  using Memory = typename Space::memory_space;
  const auto m = static_cast<std::int64_t>(initialState.size());
  std::mt19937_64 rng(static_cast<std::uint64_t>(m));
  std::uniform_real_distribution<double> u(0.0, 1.0);  // second moments stay >= 0
  std::vector<double> slots(static_cast<std::size_t>(2 * k + m + 1));
  for (double& v : slots) v = u(rng);
  for (std::int64_t c = 2 * k; c < m; ++c) {  // Adam's step counter and powers start as shipped
    slots[static_cast<std::size_t>(k + c)] = valueOf(initialState[static_cast<std::size_t>(c)]);
  }
  slots.back() = 0.05;  // the rate
  Kokkos::View<double*, Memory> device("slots", slots.size());
  Kokkos::deep_copy(device, Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                                slots.data(), slots.size()));
  const PointwiseUpdate<Space> update(program, k, m);
  double* base = device.data();
  for (int step = 0; step < 3; ++step) {
    update.run(Space(), base, base + k, base + k + m, base + 2 * k + m);
    pointwise::evaluate(program, slots);
  }
  auto got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), device);
  for (std::size_t j = 0; j < slots.size(); ++j) {
    EXPECT_EQ(bitsOf(got(j)), bitsOf(slots[j])) << "m = " << m << ", slot " << j;
    if (bitsOf(got(j)) != bitsOf(slots[j])) break;
  }
  return update.kernel();
}

// The shipped rules run by their own kernels; k = 1000 is wide enough that an interpreted
// update's eaches spread over threads.
TYPED_TEST(Update, ShippedRulesMatchTheDefinitionBitForBit) {
  const std::int64_t k = 1000;
  EXPECT_EQ(expectDefinitionBits<TypeParam>(rules::sgd(k).update, {}, k), "sgd");
  const auto momentum = rules::momentum(k, 0.75);
  EXPECT_EQ(expectDefinitionBits<TypeParam>(momentum.update, momentum.initialState, k), "momentum");
  for (const auto& adam : {rules::adam(k), rules::adam(k, 0.8, 0.99, 1e-6)}) {
    EXPECT_EQ(expectDefinitionBits<TypeParam>(adam.update, adam.initialState, k), "adam");
  }
}

// A program that differs from a shipped rule in one constant is interpreted, and still gives
// its own definition's bits.
TYPED_TEST(Update, ProgramsNearAShippedRuleAreInterpreted) {
  using pointwise::Expr;
  const std::int64_t k = 1000;
  auto adam = rules::adam(k);
  adam.update.assignments[1] = pointwise::set(3 * k + 1, Expr::slot(3 * k + 1) * Expr(0.8));
  EXPECT_EQ(expectDefinitionBits<TypeParam>(adam.update, adam.initialState, k), "interpreted");
  auto sgd = rules::sgd(k);
  sgd.update.assignments[0] =
      pointwise::each(0, k, Expr::indexed(0) - Expr::slot(2 * k) * Expr::indexed(k) * Expr(1.0));
  EXPECT_EQ(expectDefinitionBits<TypeParam>(sgd.update, {}, k), "interpreted");
}

TYPED_TEST(Update, WritingTheMeanIsRefused) {
  PointwiseProgram bad;
  bad.slots = 2 * 2 + 0 + 1;
  bad.assignments = {pointwise::set(2, pointwise::Expr(1.0))};  // slot 2: the mean
  EXPECT_EQ(
      errorOf([&] { PointwiseUpdate<TypeParam>(bad, 2, 0); }),
      "kfield::PointwiseUpdate: assignment 0 writes slot 2, which this program may not write");
}

}  // namespace
}  // namespace kfield::test
