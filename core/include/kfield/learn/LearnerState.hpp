// What a learner's checkpoint holds: its parameters and optimizer state at a step, the rate,
// the identities of the system it ran, and the numerical contract that fixed its bits; and
// what tells a resumed learner, by name, how its system differs from the saved one.
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
  Digest systemIdentity{};   // depends on the owners' split
  Digest learnerIdentity{};  // the same for every split: what a resume checks
  std::string numericalContract;
  // What names a difference: the owner count it ran under (any may resume it), the sample
  // width and count, the rule's digest and each sample's hash in sequence order.
  std::int64_t owners = 0;
  std::int64_t sampleWidth = 0;
  std::int64_t samples = 0;
  Digest ruleIdentity{};
  std::vector<std::uint64_t> sampleHashes;
};

// How `current` (what a learner runs) differs from `saved` (a checkpoint), in the first way
// that explains it: the numerical contract's first differing clause, the sizes, the rate, the
// rule, the first differing sample; "" when a learner may resume `saved`.
std::string firstDifference(const LearnerState& saved, const LearnerState& current);

}  // namespace kfield

#endif
