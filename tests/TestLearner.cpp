#include "support/ErrorOf.hpp"
#include "support/LearnerReference.hpp"
#include "support/TestSpaces.hpp"

#include <kfield/Random.hpp>
#include <kfield/learn/Learner.hpp>

#include <cmath>
#include <vector>

namespace kfield::test {
namespace {

template <class Space>
class Learner : public ::testing::Test {};
TYPED_TEST_SUITE(Learner, Spaces, SpaceNames);

constexpr std::int64_t kParams = 5;
constexpr std::int64_t kSamples = 1037;  // several pieces, none of them a power of two

template <class Space>
LearnerState runLearner(const DataParallelSystem& sys, std::int64_t steps,
                        LearnerOptions options = {}) {
  DataParallelLearner<Space> learner(sys, options);
  learner.run(steps);
  return learner.state();
}

// Least squares under Adam on samples from kfield's counter-based generator: the bits of the
// parameters and state after 7 steps, recorded once. Every build must give them (compiler
// flags such as -march=x86-64-v3, Kokkos 3 or 4, any backend or thread count); changing the
// numerical contract changes them, and then this record and the contract's version change.
TYPED_TEST(Learner, LeastSquaresGivesTheRecordedBits) {
  const std::int64_t k = 37, n = 700;
  DataParallelSystem sys = rules::leastSquaresSystem(k, rules::adam(k), 0.01);
  const std::int64_t cuts[] = {0, 150, 520, n};
  for (int o = 0; o < 3; ++o) {
    sys.owners.emplace_back();
    for (std::int64_t j = cuts[o]; j < cuts[o + 1]; ++j) {
      std::vector<Word> sample;
      double y = 0.0;
      for (std::int64_t i = 0; i < k; ++i) {
        const double x = 2.0 * uniform01(1, static_cast<std::uint64_t>(j * k + i)) - 1.0;
        y = y + double(i + 1) / double(k) * x;
        sample.push_back(wordOf(x));
      }
      sample.push_back(wordOf(y));
      sys.owners.back().push_back(sample);
    }
  }
  const LearnerState st = runLearner<TypeParam>(sys, 7);
  std::uint64_t hash = 0xcbf29ce484222325ull;  // FNV-1a over the words
  for (const auto* words : {&st.parameters, &st.state}) {
    for (Word w : *words) hash = (hash ^ w) * 0x100000001b3ull;
  }
  EXPECT_EQ(hash, 0x64b57b90964ee968ull) << std::hex << hash;
}

TYPED_TEST(Learner, LeastSquaresReachesTheClosedFormOptimum) {
  const auto sys =
      leastSquaresSystem(kParams, kSamples, {0, 400, kSamples}, rules::sgd(kParams), 0.5);
  const auto state = runLearner<TypeParam>(sys, 300);
  const auto optimum = leastSquaresOptimum(sys);
  for (std::int64_t i = 0; i < kParams; ++i) {
    EXPECT_NEAR(valueOf(state.parameters[static_cast<std::size_t>(i)]),
                optimum[static_cast<std::size_t>(i)], 1e-12)
        << "coordinate " << i;
  }
  EXPECT_EQ(state.step, 300);
}

TYPED_TEST(Learner, MatchesTheDefinitionBitForBit) {
  for (const auto& rule :
       {rules::sgd(kParams), rules::momentum(kParams, 0.9), rules::adam(kParams)}) {
    const auto sys = leastSquaresSystem(kParams, kSamples, {0, 600, kSamples}, rule, 0.05);
    EXPECT_EQ(wordsOf(runLearner<TypeParam>(sys, 12)), wordsOf(referenceRun(sys, 12)));
  }
}

// Owners 2..8 with random unequal shares (empty ones included) and every repartition give
// the bits of the first split.
TYPED_TEST(Learner, SameBitsForEveryOwnerSplit) {
  const auto base =
      leastSquaresSystem(kParams, kSamples, {0, 500, kSamples}, rules::adam(kParams), 0.05);
  const auto expected = wordsOf(runLearner<TypeParam>(base, 10));
  for (int owners = 2; owners <= 8; ++owners) {
    for (std::uint64_t seed : {1u, 2u}) {
      const auto sys = leastSquaresSystem(kParams, kSamples, ownerCuts(kSamples, owners, seed),
                                          rules::adam(kParams), 0.05);
      EXPECT_EQ(wordsOf(runLearner<TypeParam>(sys, 10, {1, -1, {}})), expected)
          << owners << " owners, seed " << seed;
    }
    EXPECT_EQ(wordsOf(runLearner<TypeParam>(repartitioned(base, owners), 10)), expected)
        << "repartitioned into " << owners;
  }
}

TYPED_TEST(Learner, FunctorContributionGivesTheProgramsBits) {
  const auto sys =
      leastSquaresSystem(kParams, kSamples, {0, 100, 700, kSamples}, rules::adam(kParams), 0.05);
  DataParallelLearner<TypeParam, rules::LeastSquaresGradient> learner(
      sys, rules::LeastSquaresGradient{kParams});
  learner.run(10);
  EXPECT_EQ(wordsOf(learner.state()), wordsOf(runLearner<TypeParam>(sys, 10)));
}

// ZeRO stage 1: each owner updates the coordinates it owns, the rest is gathered.
TYPED_TEST(Learner, PartitionedUpdateEqualsTheFullUpdate) {
  for (int owners : {2, 3, 7}) {
    for (const auto& rule : {rules::momentum(kParams, 0.9), rules::adam(kParams)}) {
      const auto sys = repartitioned(
          leastSquaresSystem(kParams, kSamples, {0, 1, kSamples}, rule, 0.05), owners);
      LearnerOptions partitioned;
      partitioned.checkEvery = 1;
      partitioned.partitionState = rule.perCoordinateState;
      EXPECT_EQ(wordsOf(runLearner<TypeParam>(sys, 8, partitioned)),
                wordsOf(runLearner<TypeParam>(sys, 8)))
          << owners << " owners, q = " << rule.perCoordinateState;
    }
  }
}

TYPED_TEST(Learner, RefusesWhatItCannotRun) {
  auto sys = leastSquaresSystem(kParams, 64, {0, 64}, rules::sgd(kParams), 0.1);
  EXPECT_EQ(errorOf([&] { DataParallelLearner<TypeParam> l(sys); }),
            "kfield::DataParallelLearner: not admitted: fewer than two owners: 1 owner(s)");
  sys = repartitioned(sys, 2);
  LearnerOptions negative;
  negative.checkEvery = -1;
  EXPECT_EQ(errorOf([&] { DataParallelLearner<TypeParam> l(sys, negative); }),
            "kfield::DataParallelLearner: checkEvery = -1 is negative");
  EXPECT_EQ(errorOf([&] { DataParallelLearner<TypeParam>(sys).run(-3); }),
            "kfield::DataParallelLearner::run: steps = -3 is negative");
  LearnerOptions q1;
  q1.partitionState = 1;
  EXPECT_EQ(
      errorOf([&] { DataParallelLearner<TypeParam> l(sys, q1); }),
      "kfield::DataParallelLearner: cannot partition the optimizer state (q = 1): the update is "
      "not separable: q k = 5 per-coordinate state words, but m = 0");
  // A coupled update: every parameter moves by the first coordinate's mean.
  sys.update.assignments = {
      pointwise::each(0, kParams, pointwise::Expr::indexed(0) - pointwise::Expr::slot(kParams))};
  LearnerOptions q0;
  q0.partitionState = 0;
  EXPECT_EQ(
      errorOf([&] { DataParallelLearner<TypeParam> l(sys, q0); }),
      "kfield::DataParallelLearner: cannot partition the optimizer state (q = 0): the update is "
      "not separable: update assignment 0 writes slot 1 (coordinate 1) and reads slot 5 "
      "(coordinate 0)");
}

TEST(LearnerReplicas, OwnersThatDisagreeStopTheRun) {
  EXPECT_NO_THROW(impl::checkHashes({5, 5, 5}, "owner", 3));
  try {
    impl::checkHashes({5, 5, 6}, "rank", 32);
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(
        e.what(),
        "kfield::DataParallelLearner: owners disagree after step 32: rank 2's parameters and state "
        "hash to 0000000000000006, rank 0's to 0000000000000005");
  }
}

}  // namespace
}  // namespace kfield::test
