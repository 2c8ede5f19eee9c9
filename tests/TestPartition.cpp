#include "support/ErrorOf.hpp"
#include "support/LearnerReference.hpp"

#include <kfield/learn/Partition.hpp>

#include <gtest/gtest.h>

namespace kfield::test {
namespace {

TEST(Partition, RepartitionSplitsLargerFirst) {
  const DataParallelSystem sys = leastSquaresSystem(2, 10, {0, 9, 10}, rules::sgd(2), 0.1);
  const DataParallelSystem r = repartitioned(sys, 4);
  std::vector<std::size_t> sizes;
  for (const auto& o : r.owners) sizes.push_back(o.size());
  EXPECT_EQ(sizes, (std::vector<std::size_t>{3, 3, 2, 2}));
  EXPECT_EQ(r.owners[2][0], sys.owners[0][6]);
  EXPECT_EQ(repartitioned(sys, 12).owners[11].size(), 0u);
  EXPECT_EQ(errorOf([&] { repartitioned(sys, 0); }),
            "kfield::repartitioned: owners = 0, need at least 1");
}

TEST(Partition, SlotClassesAndSeparability) {
  // k = 2, m = 5 (q = 2 per-coordinate words, one shared): slots p0 p1 | m0 m1 v0 v1 t | g0 g1 |
  // rate
  const std::vector<std::int64_t> classes{1, 2, 1, 2, 1, 2, 0, 1, 2, 0};
  for (std::int64_t slot = 0; slot < 10; ++slot)
    EXPECT_EQ(slotClass(2, 5, 2, slot), classes[slot]) << slot;
  const DataParallelSystem adam = leastSquaresSystem(3, 10, {0, 4, 10}, rules::adam(3), 0.01);
  EXPECT_TRUE(separable(adam, 2));
  EXPECT_FALSE(
      separable(adam, 1));  // the second moments would count as shared, read per coordinate
  EXPECT_EQ(separabilityProblem(adam, 1),
            "update assignment 4 writes slot 6 (shared) and reads slot 12 (coordinate 0)");
  EXPECT_EQ(separabilityProblem(adam, 4), "q k = 12 per-coordinate state words, but m = 9");
  const auto owned = ownedProgram(adam, 2, [](std::int64_t c) { return c == 1; });
  // Shared sets stay; each `each` keeps only instance 1.
  ASSERT_EQ(owned.assignments.size(), 6u);
  EXPECT_EQ(owned.assignments[3].dest, 4);
  EXPECT_EQ(owned.assignments[3].count, 1);
  EXPECT_EQ(owned.assignments[5].dest, 1);
}

}  // namespace
}  // namespace kfield::test
