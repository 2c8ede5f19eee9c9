#include "ErrorOf.hpp"
#include "LearnerReference.hpp"

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

}  // namespace
}  // namespace kfield::test
