// What a learner's checkpoint holds: its parameters and optimizer state at a step, the rate,
// the identities of the system it ran, and the numerical contract that fixed its bits.
#ifndef KFIELD_LEARN_LEARNERSTATE_HPP
#define KFIELD_LEARN_LEARNERSTATE_HPP

#include "kfield/learn/Identity.hpp"
#include "kfield/learn/Pointwise.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace kfield {

// What fixes the bits of a run besides its inputs; stored with the learner state.
std::string learnerNumericalContract();

struct LearnerState {
  std::int64_t parameterCount = 0;
  std::vector<Word> parameters;
  std::vector<Word> state;
  std::int64_t step = 0;
  Word rate = 0;
  Digest systemIdentity{};
  Digest learnerIdentity{};
  std::string numericalContract;
};

}  // namespace kfield

#endif
