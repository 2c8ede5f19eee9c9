// The shipped rules: admitted systems, the per-coordinate state they declare, and SGD as its
// formula reads.
#include "support/LearnerReference.hpp"

#include <kfield/learn/Partition.hpp>
#include <kfield/learn/Rules.hpp>

#include <gtest/gtest.h>

#include <vector>

namespace kfield::test {
namespace {

TEST(Rules, DeclaredPerCoordinateStateIsSeparable) {
  for (const auto& rule : {rules::sgd(4), rules::momentum(4, 0.9), rules::adam(4)}) {
    DataParallelSystem sys = rules::leastSquaresSystem(4, rule, 0.1);
    sys.owners = {{std::vector<Word>(5, wordOf(1.0))}, {std::vector<Word>(5, wordOf(2.0))}};
    EXPECT_TRUE(admitted(sys)) << describe(admitted(sys).condition);
    EXPECT_EQ(separabilityProblem(sys, rule.perCoordinateState), "");
    EXPECT_EQ(sys.stateWords(), static_cast<std::int64_t>(rule.initialState.size()));
  }
  EXPECT_EQ(rules::adam(4).perCoordinateState, 2);
  EXPECT_EQ(rules::adam(4).initialState.size(), 2u * 4u + 3u);
}

TEST(Rules, SgdIsParameterMinusRateTimesMean) {
  const auto rule = rules::sgd(2);
  std::vector<double> slots{1.0, -2.0, 0.5, 0.25, 0.1};  // p0 p1 | g0 g1 | rate
  pointwise::evaluate(rule.update, slots);
  EXPECT_EQ(slots[0], 1.0 - 0.1 * 0.5);
  EXPECT_EQ(slots[1], -2.0 - 0.1 * 0.25);
}

TEST(Rules, LeastSquaresContributionIsTwiceTheResidualTimesX) {
  const std::int64_t k = 3;
  // w = (1, 2, 3), x = (0.5, -1, 2), y = 4: w . x - y = 0.5 - 2 + 6 - 4 = 0.5
  std::vector<double> slots{1, 2, 3, 0.5, -1, 2, 4, 0, 0, 0};
  pointwise::evaluate(rules::leastSquaresContribution(k), slots);
  EXPECT_EQ(std::vector<double>(slots.begin() + 7, slots.end()),
            (std::vector<double>{0.5, -1.0, 2.0}));
}

}  // namespace
}  // namespace kfield::test
