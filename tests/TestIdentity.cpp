#include "support/ErrorOf.hpp"
#include "support/LearnerReference.hpp"

#include <kfield/learn/Identity.hpp>
#include <kfield/learn/Partition.hpp>

#include <gtest/gtest.h>

namespace kfield::test {
namespace {

TEST(Identity, IdentitiesFollowTheRuleAndTheSamples) {
  const DataParallelSystem sys = smallSystem();
  const auto bytes = systemIdentityBytes(sys);
  const std::string prefix = "alpha-data-parallel-v1;";
  ASSERT_GT(bytes.size(), prefix.size());
  EXPECT_EQ(std::string(bytes.begin(), bytes.begin() + prefix.size()), prefix);
  EXPECT_EQ(bytes[prefix.size()], 3);  // k as a little-endian word
  const auto learner = learnerIdentityBytes(sys);
  EXPECT_EQ(std::string(learner.begin(), learner.begin() + 31), "alpha-data-parallel-learner-v1;");
  // Every rule word and every sample word is part of both identities.
  auto changes = [&](auto change) {
    DataParallelSystem other = sys;
    change(other);
    return systemIdentity(other) != systemIdentity(sys) &&
           learnerIdentity(other) != learnerIdentity(sys);
  };
  EXPECT_TRUE(changes([](auto& s) { s.rate ^= 1; }));
  EXPECT_TRUE(changes([](auto& s) { s.initialParameters[2] ^= 1; }));
  EXPECT_TRUE(changes([](auto& s) { s.initialState[4] ^= 1; }));
  EXPECT_TRUE(changes([](auto& s) { s.update.assignments[3].code[1] ^= 1; }));
  EXPECT_TRUE(changes([](auto& s) { s.contribution.assignments[0].dest += 1; }));
  EXPECT_TRUE(changes([](auto& s) { s.owners[1][5][3] ^= 1ull << 63; }));
  EXPECT_TRUE(changes([](auto& s) { std::swap(s.owners[0][0], s.owners[0][1]); }));
  // Placement changes the system identity only.
  for (int owners = 2; owners <= 8; ++owners) {
    const DataParallelSystem moved = repartitioned(sys, owners);
    EXPECT_EQ(learnerIdentityBytes(moved), learner);
    EXPECT_EQ(describe(learnerIdentity(moved)), describe(learnerIdentity(sys)));
    if (owners != 2) {
      EXPECT_NE(systemIdentity(moved), systemIdentity(sys));
    }
  }
}

TEST(Identity, Sha256) {
  const std::string abc = "abc";  // FIPS 180-2, appendix B.1
  EXPECT_EQ(describe(sha256(std::vector<unsigned char>(abc.begin(), abc.end()))),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  // Streaming the identity in pieces digests the same bytes as the whole.
  const DataParallelSystem sys = smallSystem();
  EXPECT_EQ(systemIdentity(sys), sha256(systemIdentityBytes(sys)));
  EXPECT_EQ(learnerIdentity(sys), sha256(learnerIdentityBytes(sys)));
}

// A system held in part is hashed by kfield's own SHA-256, carried between ranks; with every
// owner here it must give the whole system's digests (OpenSSL's). Sample widths 2..9 and owner
// sizes that put the piece boundaries at every offset within SHA-256's 64-byte blocks.
TEST(Identity, ASystemHeldInPartHasTheWholeSystemsIdentity) {
  for (std::int64_t k : {1, 2, 3, 5, 8}) {
    for (int owners : {2, 3, 7}) {
      DataParallelSystem whole = repartitioned(
          leastSquaresSystem(k, 13 + k, {0, 13 + k}, rules::adam(k), 0.01, std::uint64_t(k)),
          owners);
      DataParallelSystem part = whole;
      for (const auto& owned : whole.owners) part.ownerSizes.push_back(std::int64_t(owned.size()));
      const SpreadIdentity spread = identityAcrossRanks(part, OwnerPlacement{});
      EXPECT_EQ(describe(spread.system), describe(systemIdentity(whole))) << k << " " << owners;
      EXPECT_EQ(describe(spread.learner), describe(learnerIdentity(whole))) << k << " " << owners;
      EXPECT_EQ(spread.sampleHashes, sampleHashes(whole));
    }
  }
  DataParallelSystem part = smallSystem();
  part.ownerSizes = {std::int64_t(part.owners[0].size()), std::int64_t(part.owners[1].size()),
                     std::int64_t(part.owners[2].size())};
  const std::string refused = errorOf([&] { systemIdentity(part); });
  EXPECT_NE(refused.find("held in part"), std::string::npos) << refused;
  EXPECT_NE(errorOf([&] { repartitioned(part, 2); }).find("held in part"), std::string::npos);
  part.owners[1].clear();  // an owner that runs in this process must be held here
  EXPECT_EQ(errorOf([&] { identityAcrossRanks(part, OwnerPlacement{}); }),
            "kfield::identityAcrossRanks: owner 1 runs here but holds 0 of its " +
                std::to_string(part.ownerSizes[1]) + " samples");
  part.ownerSizes[1] = -1;
  EXPECT_EQ(admitted(part).condition, Admission::OwnerSizes);
  part.ownerSizes.pop_back();
  EXPECT_EQ(admitted(part).condition, Admission::OwnerSizes);
}

}  // namespace
}  // namespace kfield::test
