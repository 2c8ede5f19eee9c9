// A data-parallel learner as a mathematical object (docs/learner.md): k parameters and m
// optimizer-state words replicated on every owner, immutable samples of width s split among
// owners, a per-sample contribution program and an update program. One step is
//   numerator = sum over all samples of contribution(parameters, sample)
//   mean      = numerator / (number of samples)
//   (parameters, state) := update(parameters, state, mean, rate)
// with the sum taken by the canonical reduction (kfield/sum/Canonical.hpp) over the global
// sample sequence in owner order, so no split of the samples changes a bit.
//
// Slots (Pointwise.hpp): the contribution has 2k + s: parameters [0, k), the sample
// [k, k + s), its output [k + s, 2k + s) (which starts at +0.0 for every sample). The update
// has 2k + m + 1: parameters [0, k), state [k, k + m), mean [k + m, 2k + m), rate 2k + m; it
// writes only [0, k + m).
#ifndef KFIELD_LEARN_DATAPARALLELSYSTEM_HPP
#define KFIELD_LEARN_DATAPARALLELSYSTEM_HPP

#include "kfield/learn/Pointwise.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace kfield {

struct DataParallelSystem {
  std::int64_t parameters = 0;   // k
  std::int64_t sampleWidth = 0;  // s
  PointwiseProgram contribution;
  PointwiseProgram update;
  std::vector<Word> initialParameters;
  std::vector<Word> initialState;  // m words
  Word rate = 0;
  // A contribution that is not a pointwise program (the gradient of a field program through its
  // rounds, diff::fieldSystem) is named by these identity bytes instead; `contribution` is then
  // empty, and the learner takes the contribution object whose bytes these are. Empty: the
  // contribution is the pointwise program.
  std::vector<unsigned char> contributionIdentity;
  // owners[o] holds owner o's samples, each samples[j] of sampleWidth words, in order.
  std::vector<std::vector<std::vector<Word>>> owners;
  // A system held in part (io::loadSamples over MPI ranks: each rank reads only its share):
  // ownerSizes[o] is owner o's sample count, and owners[o] is empty where this rank does not
  // run owner o. Empty: `owners` holds every sample.
  std::vector<std::int64_t> ownerSizes;

  std::int64_t stateWords() const { return static_cast<std::int64_t>(initialState.size()); }
  bool heldInPart() const { return !ownerSizes.empty(); }
  std::int64_t ownerSize(std::size_t owner) const;
  std::int64_t totalMass() const;  // the number of samples
};

// The condition `admitted` checks, in the order it checks them.
enum class Admission {
  Admitted,
  NoParameters,               // k > 0
  ContributionSlots,          // contribution.slots == 2k + s (0 when given by identity)
  UpdateSlots,                // update.slots == 2k + m + 1
  InitialParameters,          // k initial parameter words
  ContributionWritesOutside,  // every contribution assignment writes within [k + s, 2k + s)
  UpdateWritesOutside,        // every update assignment writes within [0, k + m)
  FewerThanTwoOwners,
  NoSamples,         // total mass > 0
  MassTooLarge,      // total mass < 2^53
  SampleWidth,       // every sample has s words
  MalformedProgram,  // a program that is not well formed (pointwise::validate)
  OwnerSizes,        // held in part: a size per owner, each held owner holding its size
};

std::string describe(Admission condition);

struct AdmissionResult {
  Admission condition = Admission::Admitted;
  std::string detail;  // which value failed, for the message
  explicit operator bool() const { return condition == Admission::Admitted; }
};

AdmissionResult admitted(const DataParallelSystem& system);
// Throws std::invalid_argument "<who>: not admitted: <condition>: <detail>" unless admitted.
void requireAdmitted(const DataParallelSystem& system, const std::string& who);

}  // namespace kfield

#endif
