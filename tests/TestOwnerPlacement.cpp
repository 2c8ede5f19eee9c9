// In process, every owner is a replica held here and exchanges are the identity. (Over MPI
// ranks the placement is tested through the learner: TestLearnerRanks.)
#include <kfield/learn/OwnerPlacement.hpp>

#include <gtest/gtest.h>

#include <vector>

namespace kfield::test {
namespace {

TEST(OwnerPlacement, InProcessEveryOwnerIsAReplicaHere) {
  const OwnerPlacement placement;
  EXPECT_EQ(placement.ranks(), 1);
  EXPECT_EQ(placement.rank(), 0);
  EXPECT_EQ(placement.replicas(5), 5);
  EXPECT_EQ(placement.localReplicas(5).begin, 0);
  EXPECT_EQ(placement.localReplicas(5).end, 5);
  for (std::int64_t r = 0; r < 5; ++r) {
    EXPECT_EQ(placement.ownersOf(r, 5).begin, r);
    EXPECT_EQ(placement.ownersOf(r, 5).end, r + 1);
  }
  EXPECT_STREQ(placement.replicaNoun(), "owner");
}

TEST(OwnerPlacement, InProcessExchangesGiveBackWhatTheyGet) {
  const OwnerPlacement placement;
  const std::vector<unsigned char> bytes{1, 2, 3};
  EXPECT_EQ(placement.allgather(bytes), (std::vector<std::vector<unsigned char>>{bytes}));
  Partials<double> p = emptyPartials<double>(0, 3, 2);
  const double a[2] = {1.5, -2.0}, b[2] = {0.25, 4.0};
  appendNode(p, TreeNode{1, 0}, a);
  appendNode(p, TreeNode{0, 2}, b);
  const Partials<double> combined = placement.combine(p);
  EXPECT_EQ(combined.values, p.values);
  EXPECT_EQ(finishPartials(combined), (std::vector<double>{1.75, 2.0}));
}

}  // namespace
}  // namespace kfield::test
