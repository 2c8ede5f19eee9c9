// The learner that the checkpoint tests and their writer process (CheckpointWriter.cpp) both
// build: least squares under SGD or Adam, its samples split among `owners`.
#ifndef KFIELD_TEST_CHECKPOINTSYSTEM_HPP
#define KFIELD_TEST_CHECKPOINTSYSTEM_HPP

#include "support/LearnerReference.hpp"

#include <kfield/learn/Partition.hpp>

#include <string>

namespace kfield::test {

inline rules::UpdateRule checkpointRule(const std::string& name, std::int64_t k) {
  return name == "adam" ? rules::adam(k) : rules::sgd(k);
}

inline DataParallelSystem checkpointSystem(const std::string& rule, std::int64_t owners,
                                           std::int64_t k = 6, std::int64_t samples = 517) {
  return repartitioned(leastSquaresSystem(k, samples, {0, samples}, checkpointRule(rule, k), 0.02),
                       owners);
}

// The state of a learner of `sys` (owners in process) after `steps` steps.
template <class Space>
LearnerState runFor(const DataParallelSystem& sys, std::int64_t steps) {
  DataParallelLearner<Space> learner(sys);
  learner.run(steps);
  return learner.state();
}

}  // namespace kfield::test

#endif
