// An update program compiled for an execution space gives the definition's bits (host
// evaluation, one instance at a time) for every shipped rule.
#include "ErrorOf.hpp"
#include "TestSpaces.hpp"

#include <kfield/learn/Rules.hpp>
#include <kfield/learn/Update.hpp>

#include <random>
#include <vector>

namespace kfield::test {
namespace {

template <class Space>
class Update : public ::testing::Test {};
TYPED_TEST_SUITE(Update, Spaces, SpaceNames);

TYPED_TEST(Update, ShippedRulesMatchTheDefinitionBitForBit) {
  using Memory = typename TypeParam::memory_space;
  const std::int64_t k = 1000;  // wide enough that its eaches spread over threads
  for (const auto& rule : {rules::sgd(k), rules::momentum(k, 0.9), rules::adam(k)}) {
    const auto m = static_cast<std::int64_t>(rule.initialState.size());
    std::mt19937_64 rng(static_cast<std::uint64_t>(m));
    std::uniform_real_distribution<double> u(0.0, 1.0);  // second moments stay >= 0
    std::vector<double> slots(static_cast<std::size_t>(2 * k + m + 1));
    for (double& v : slots) v = u(rng);
    for (std::int64_t c = 2 * k; c < m; ++c) {  // Adam's step counter and powers start as shipped
      slots[static_cast<std::size_t>(k + c)] =
          valueOf(rule.initialState[static_cast<std::size_t>(c)]);
    }
    slots.back() = 0.05;  // the rate
    Kokkos::View<double*, Memory> device("slots", slots.size());
    Kokkos::deep_copy(device,
                      Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                          slots.data(), slots.size()));
    const PointwiseUpdate<TypeParam> update(rule.update, k, m);
    double* base = device.data();
    for (int step = 0; step < 3; ++step) {
      update.run(TypeParam(), base, base + k, base + k + m, base + 2 * k + m);
      pointwise::evaluate(rule.update, slots);
    }
    auto got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), device);
    for (std::size_t j = 0; j < slots.size(); ++j) {
      ASSERT_EQ(bitsOf(got(j)), bitsOf(slots[j])) << "m = " << m << ", slot " << j;
    }
  }
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
