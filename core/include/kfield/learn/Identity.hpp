// The identities of a data-parallel system, stored with every checkpoint: the system identity
// (the rule and the samples as owners hold them) and the placement-free learner identity (the
// rule and the sample sequence, the same for every split), as bytes and as SHA-256 digests.
#ifndef KFIELD_LEARN_IDENTITY_HPP
#define KFIELD_LEARN_IDENTITY_HPP

#include "kfield/learn/DataParallelSystem.hpp"
#include "kfield/learn/OwnerPlacement.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace kfield {

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
// The rule's bytes alone (writeRuleIdentity), to tell a changed rule from changed samples.
Digest ruleIdentity(const DataParallelSystem& system);
// A 64-bit hash of each sample's words, in owner order: names the first sample that differs.
// These and the functions above refuse a system held in part (identityAcrossRanks).
std::vector<std::uint64_t> sampleHashes(const DataParallelSystem& system);
std::string describe(const Digest& digest);  // 64 lowercase hex digits

// The identities of a system held in part (DataParallelSystem::ownerSizes; each rank holding
// the owners it runs): the digests and sample hashes of the whole system, computed with each
// rank hashing only its own samples and handing the running digests on in rank order.
// Collective over the placement. Throws std::invalid_argument when ranks hold another rule or
// split, or an owner that runs here is not held. Of a whole system: the functions above.
struct SpreadIdentity {
  Digest system{};
  Digest learner{};
  std::vector<std::uint64_t> sampleHashes;
};
SpreadIdentity identityAcrossRanks(const DataParallelSystem& system,
                                   const OwnerPlacement& placement);

}  // namespace kfield

#endif
