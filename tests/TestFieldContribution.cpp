#include "support/ErrorOf.hpp"
#include "support/FieldReference.hpp"
#include "support/TestSpaces.hpp"

#include <kfield/diff/FieldContribution.hpp>
#include <kfield/field/Library.hpp>
#include <kfield/learn/Learner.hpp>

#include <cmath>
#include <map>
#include <vector>

namespace kfield::test {
namespace {

template <class Space>
class FieldContribution : public ::testing::Test {};
TYPED_TEST_SUITE(FieldContribution, Spaces, SpaceNames);

TracedProgram scaledDistance() {
  return trace(
      [](Program& p) {
        return lib::distanceGradient(p, p.sense<bool>("source"), p.parameter("scale"));
      },
      "scaled_distance");
}

// Scenarios of a distance gradient whose targets were made with scale 2: one source each,
// stopping at different rounds (all past convergence).
std::vector<std::vector<Word>> scenarios(const TracedProgram& program, const Network& net) {
  const std::vector<std::int64_t> sources{0, 13, 47, 30, 5, 22, 41};
  const std::vector<std::int64_t> stops{14, 20, 16, 15, 18, 14, 17};
  std::vector<std::vector<Word>> out;
  for (std::size_t j = 0; j < sources.size(); ++j) {
    std::vector<double> source(static_cast<std::size_t>(net.devices()), 0.0), target;
    source[static_cast<std::size_t>(sources[j])] = 1.0;
    for (double h : bfsHops(net, {sources[j]})) target.push_back(2.0 * h);
    out.push_back(diff::fieldSample(program, net, stops[j], {{"source", source}}, target));
  }
  return out;
}

template <class Space>
LearnerState train(const std::vector<std::size_t>& shares, std::int64_t steps,
                   diff::GradientOptions o = {}) {
  const TracedProgram program = scaledDistance();
  const Network net = Network::grid(8, 6);
  DataParallelSystem system = diff::fieldSystem(program, net, rules::sgd(1), 1e-4, {1.0});
  const auto all = scenarios(program, net);
  std::size_t next = 0;
  for (std::size_t share : shares) {
    system.owners.emplace_back(all.begin() + next, all.begin() + next + share);
    next += share;
  }
  DataParallelLearner<Space, diff::FieldContribution<Space>> learner(
      system, diff::FieldContribution<Space>(program, net, o));
  learner.run(steps);
  return learner.state();
}

TYPED_TEST(FieldContribution, TrainsTheScaleTowardTheTargets) {
  const double start = 1.0;
  const LearnerState s = train<TypeParam>({3, 4}, 6);
  const double scale = valueOf(s.parameters[0]);
  EXPECT_GT(scale, start);
  EXPECT_LT(std::fabs(scale - 2.0), 0.5 * std::fabs(start - 2.0)) << scale;
}

// The rows do not depend on how samples are split, cut into passes or windowed.
TYPED_TEST(FieldContribution, SameBitsForEveryOwnerSplitWindowAndBudget) {
  const LearnerState reference = train<TypeParam>({3, 4}, 4);
  diff::GradientOptions small;
  small.window = 3;
  small.tape = diff::Tape::Values;
  for (const auto& shares :
       std::vector<std::vector<std::size_t>>{{1, 6}, {2, 2, 3}, {1, 1, 1, 1, 3}}) {
    const LearnerState s = train<TypeParam>(shares, 4, small);
    EXPECT_EQ(s.parameters, reference.parameters) << shares.size() << " owners";
  }
}

TYPED_TEST(FieldContribution, RefusesAMismatchedSystemOrSample) {
  const TracedProgram program = scaledDistance();
  const Network net = Network::grid(8, 6);
  DataParallelSystem system = diff::fieldSystem(program, net, rules::sgd(1), 1e-4, {1.0});
  const auto all = scenarios(program, net);
  system.owners = {{all[0]}, {all[1]}};
  EXPECT_EQ(
      errorOf([&] { DataParallelLearner<TypeParam> learner(system); }),
      "kfield::PointwiseContribution: the system's contribution is given by its identity (a field "
      "program's gradient): construct the learner with that contribution "
      "(diff::FieldContribution)");
  EXPECT_EQ(
      errorOf([&] {
        DataParallelLearner<TypeParam, rules::LeastSquaresGradient> learner(
            system, rules::LeastSquaresGradient{1});
      }),
      "kfield::DataParallelLearner: the system's contribution is given by its identity (a field "
      "program's gradient): construct the learner with that contribution "
      "(diff::FieldContribution)");
  using Learner = DataParallelLearner<TypeParam, diff::FieldContribution<TypeParam>>;
  EXPECT_EQ(
      errorOf([&] {
        Learner learner(system, diff::FieldContribution<TypeParam>(program, Network::grid(6, 8)));
      }),
      "kfield::DataParallelLearner: the system's contribution is not this contribution (another "
      "program, network or loss)");
  system.owners[1][0][0] = wordOf(2.5);  // a stop round that is not whole
  Learner learner(system, diff::FieldContribution<TypeParam>(program, net));
  EXPECT_EQ(
      errorOf([&] { learner.run(1); }),
      "kfield::diff::FieldContribution: sample 1: the stop round 2.5 is not a whole number >= 0");
  EXPECT_EQ(errorOf([&] { diff::fieldSample(program, net, 3, {}, {}); }),
            "kfield::diff::fieldSample: no values for sensor 'source'");
  EXPECT_EQ(errorOf([&] {
              diff::fieldSystem(program, net, rules::sgd(1), 0.1, {1.0, 2.0});
            }),
            "kfield::diff::fieldSystem: 2 initial parameters for a parameter width of 1");
}

}  // namespace
}  // namespace kfield::test
