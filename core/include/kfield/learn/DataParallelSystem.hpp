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

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace kfield {

using Word = std::uint64_t;  // a 64-bit slot word holding a binary64
Word wordOf(double value);
double valueOf(Word word);

struct DataParallelSystem {
  std::int64_t parameters = 0;   // k
  std::int64_t sampleWidth = 0;  // s
  pointwise::Program contribution;
  pointwise::Program update;
  std::vector<Word> initialParameters;
  std::vector<Word> initialState;  // m words
  Word rate = 0;
  // owners[o] holds owner o's samples, each samples[j] of sampleWidth words, in order.
  std::vector<std::vector<std::vector<Word>>> owners;

  std::int64_t stateWords() const { return static_cast<std::int64_t>(initialState.size()); }
  std::int64_t totalMass() const;  // the number of samples
};

// The condition `admitted` checks, in the order it checks them.
enum class Admission {
  Admitted,
  NoParameters,              // k > 0
  ContributionSlots,         // contribution.slots == 2k + s
  UpdateSlots,               // update.slots == 2k + m + 1
  InitialParameters,         // k initial parameter words
  ContributionWritesOutside, // every contribution assignment writes within [k + s, 2k + s)
  UpdateWritesOutside,       // every update assignment writes within [0, k + m)
  FewerThanTwoOwners,
  NoSamples,                 // total mass > 0
  MassTooLarge,              // total mass < 2^53
  SampleWidth,               // every sample has s words
  MalformedProgram,          // a program that is not well formed (pointwise::validate)
};

const char* name(Admission condition);

struct AdmissionResult {
  Admission condition = Admission::Admitted;
  std::string detail;  // which value failed, for the message
  explicit operator bool() const { return condition == Admission::Admitted; }
};

AdmissionResult admitted(const DataParallelSystem& system);
// Throws std::invalid_argument "<what>: not admitted: <condition>: <detail>" unless admitted.
void requireAdmitted(const DataParallelSystem& system, const std::string& what);

// ---- identities ----
// Bytes go to a sink in pieces, so a system with gigabytes of samples is hashed without
// holding its identity in memory.
using ByteSink = std::function<void(const unsigned char* data, std::size_t size)>;

// The rule: k, s (words), both programs (their encodings), initial parameters and initial
// state (each a length word then the words), the rate word.
void writeRuleIdentity(const DataParallelSystem& system, const ByteSink& sink);
// "alpha-data-parallel-v1;" + rule + per owner: its sample count, then each sample as a
// length word and its words.
void writeSystemIdentity(const DataParallelSystem& system, const ByteSink& sink);
// "alpha-data-parallel-learner-v1;" + rule + the sample count + every sample in owner order:
// the same bytes for every split of the same sequence.
void writeLearnerIdentity(const DataParallelSystem& system, const ByteSink& sink);

std::vector<unsigned char> systemIdentityBytes(const DataParallelSystem& system);
std::vector<unsigned char> learnerIdentityBytes(const DataParallelSystem& system);

using Digest = std::array<unsigned char, 32>;  // SHA-256
Digest systemIdentity(const DataParallelSystem& system);
Digest learnerIdentity(const DataParallelSystem& system);
Digest sha256(const std::vector<unsigned char>& bytes);
std::string hex(const Digest& digest);

// ---- placement ----
// The same learner with its sample sequence split into `owners` contiguous shares whose
// sizes differ by at most one, larger first. Throws std::invalid_argument for owners < 1.
DataParallelSystem repartitioned(const DataParallelSystem& system, std::int64_t owners);
// The sizes such a split gives: share j of `total` among `parts`.
std::int64_t shareSize(std::int64_t total, std::int64_t parts, std::int64_t j);
std::int64_t shareBegin(std::int64_t total, std::int64_t parts, std::int64_t j);

// ---- coordinate separability (optimizer-state partitioning) ----
// With q per-coordinate state words (word j of coordinate i at state index j k + i) and the
// other m - q k words shared: the class of an update slot is i + 1 when it belongs to
// coordinate i (parameter i, one of its state words, mean i) and 0 when shared (a shared
// state word, the rate).
std::int64_t slotClass(std::int64_t k, std::int64_t m, std::int64_t q, std::int64_t slot);
// Separable when q k <= m and every coordinate assignment reads only its coordinate and shared
// slots and every shared assignment only shared slots. `separabilityProblem` names the first
// assignment (and instance) that breaks it; empty when separable.
std::string separabilityProblem(const DataParallelSystem& system, std::int64_t q);
bool separable(const DataParallelSystem& system, std::int64_t q);
// The update assignments one owner runs: every shared one and those of the coordinates it
// owns, in program order (an `each` keeps the runs of its owned instances). Throws
// std::invalid_argument when the update is not separable under q.
pointwise::Program ownedProgram(const DataParallelSystem& system, std::int64_t q,
                                const std::function<bool(std::int64_t coordinate)>& owns);

}  // namespace kfield

#endif
