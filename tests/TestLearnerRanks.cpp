// The learner with its owners spread over the ranks of MPI_COMM_WORLD; ctest runs this binary
// under mpirun with 1 to 4 ranks. Every rank also runs the same system with all owners in
// its own process: the two must agree bit for bit.
#include "support/ErrorOf.hpp"
#include "support/LearnerReference.hpp"
#include "support/TestSpaces.hpp"

#include <kfield/diff/FieldContribution.hpp>
#include <kfield/field/Library.hpp>
#include <kfield/learn/Learner.hpp>

#include <kfield/Config.hpp>
#if KFIELD_ENABLE_HDF5
#include <kfield/io/Checkpoint.hpp>
#include <kfield/io/SampleStore.hpp>
#endif

#include <mpi.h>
#include <unistd.h>

#include <cstdio>

#include <string>
#include <vector>

namespace kfield::test {
namespace {

template <class Space>
class LearnerRanks : public ::testing::Test {};
TYPED_TEST_SUITE(LearnerRanks, Spaces, SpaceNames);

constexpr std::int64_t kParams = 6;
constexpr std::int64_t kSamples = 1291;

LearnerOptions overRanks(std::int64_t partitionState = -1) {
  LearnerOptions options;
  options.checkEvery = 1;
  options.partitionState = partitionState;
  options.placement = OwnerPlacement::overRanks(MPI_COMM_WORLD);
  return options;
}

template <class Space>
std::vector<Word> run(const DataParallelSystem& sys, std::int64_t steps, LearnerOptions options) {
  DataParallelLearner<Space> learner(sys, options);
  learner.run(steps);
  return wordsOf(learner.state());
}

std::string tooManyRanks(int ranks, int owners) {
  return "kfield::DataParallelLearner: " + std::to_string(ranks) + " ranks but " +
         std::to_string(owners) + " owners: every rank needs at least one owner";
}

TYPED_TEST(LearnerRanks, SameBitsAsOneProcessForEveryOwnerCountAndSplit) {
  const int ranks = OwnerPlacement::overRanks(MPI_COMM_WORLD).ranks();
  for (const auto& rule : {rules::sgd(kParams), rules::adam(kParams)}) {
    const auto base = leastSquaresSystem(kParams, kSamples, {0, 700, kSamples}, rule, 0.05);
    const auto expected = run<TypeParam>(base, 9, {});
    for (int owners = 2; owners <= 8; ++owners) {
      for (std::uint64_t seed : {3u, 4u}) {
        const auto sys =
            leastSquaresSystem(kParams, kSamples, ownerCuts(kSamples, owners, seed), rule, 0.05);
        if (owners < ranks) {
          EXPECT_EQ(errorOf([&] { run<TypeParam>(sys, 1, overRanks()); }),
                    tooManyRanks(ranks, owners));
          continue;
        }
        EXPECT_EQ(run<TypeParam>(sys, 9, overRanks()), expected)
            << owners << " owners over " << ranks << " ranks, seed " << seed;
      }
    }
  }
}

TYPED_TEST(LearnerRanks, PartitionedStateOverRanksEqualsTheFullUpdate) {
  const int ranks = OwnerPlacement::overRanks(MPI_COMM_WORLD).ranks();
  for (const auto& rule : {rules::momentum(kParams, 0.9), rules::adam(kParams)}) {
    for (int owners = std::max(2, ranks); owners <= 7; owners += 2) {
      const auto sys = repartitioned(
          leastSquaresSystem(kParams, kSamples, {0, 1, kSamples}, rule, 0.05), owners);
      EXPECT_EQ(run<TypeParam>(sys, 7, overRanks(rule.perCoordinateState)),
                run<TypeParam>(sys, 7, {}))
          << owners << " owners over " << ranks << " ranks, q = " << rule.perCoordinateState;
    }
  }
}

// Every rank must hold the same system: a rank with another rate is named before any step.
TYPED_TEST(LearnerRanks, RanksHoldingDifferentSystemsAreRefused) {
  const auto placement = OwnerPlacement::overRanks(MPI_COMM_WORLD);
  if (placement.ranks() < 2) GTEST_SKIP() << "needs two ranks";
  const auto sys =
      leastSquaresSystem(kParams, 300, {0, 100, 200, 300, 300}, rules::sgd(kParams), 0.05);
  auto other = sys;
  other.rate = wordOf(0.06);
  const int last = placement.ranks() - 1;
  const auto& mine = placement.rank() == last ? other : sys;
  EXPECT_EQ(errorOf([&] { run<TypeParam>(mine, 1, overRanks()); }),
            "kfield::DataParallelLearner: rank " + std::to_string(last) +
                " holds a different system from rank 0 (identity " +
                describe(systemIdentity(other)) + ", rank 0's " + describe(systemIdentity(sys)) +
                ")");
}

// A field program's gradient as the contribution: 4 owners of uneven shares over the ranks,
// the same bits as one process.
TYPED_TEST(LearnerRanks, FieldContributionGivesOneProcessesBits) {
  const int ranks = OwnerPlacement::overRanks(MPI_COMM_WORLD).ranks();
  const TracedProgram program = trace(
      [](Program& p) {
        return lib::distanceGradient(p, p.sense<bool>("source"), p.parameter("scale"));
      },
      "scaled_distance");
  const Network net = Network::grid(6, 5);
  DataParallelSystem sys = diff::fieldSystem(program, net, rules::adam(1), 0.05, {1.0});
  const std::vector<std::size_t> shares{1, 3, 2, 2};
  std::int64_t j = 0;
  for (std::size_t share : shares) {
    sys.owners.emplace_back();
    for (std::size_t i = 0; i < share; ++i, ++j) {
      std::vector<double> source(static_cast<std::size_t>(net.devices()), 0.0), target;
      source[static_cast<std::size_t>((7 * j) % net.devices())] = 1.0;
      for (std::int64_t d = 0; d < net.devices(); ++d) target.push_back(0.5 * double(d % 7));
      sys.owners.back().push_back(
          diff::fieldSample(program, net, 5 + j, {{"source", source}}, target));
    }
  }
  auto train = [&](LearnerOptions options) {
    DataParallelLearner<TypeParam, diff::FieldContribution<TypeParam>> learner(
        sys, diff::FieldContribution<TypeParam>(program, net), options);
    learner.run(3);
    return wordsOf(learner.state());
  };
  if (ranks > 4) return;
  EXPECT_EQ(train(overRanks()), train({})) << ranks << " ranks";
}

#if KFIELD_ENABLE_HDF5
// A checkpoint written by rank 0 of a run over the ranks resumes in one process, and one
// written in one process resumes over the ranks; both with another owner count, both on track.
TYPED_TEST(LearnerRanks, CheckpointsMoveBetweenRankCounts) {
  const auto placement = OwnerPlacement::overRanks(MPI_COMM_WORLD);
  const int ranks = placement.ranks();
  // One file name for every rank: rank 0's process id.
  long id = static_cast<long>(getpid());
  MPI_Bcast(&id, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  const std::string path = ::testing::TempDir() + "kfield_ranks_" + std::to_string(id) + ".h5";
  auto system = [&](const rules::UpdateRule& rule, int owners) {
    return repartitioned(leastSquaresSystem(kParams, kSamples, {0, kSamples}, rule, 0.05), owners);
  };
  for (const auto& rule : {rules::sgd(kParams), rules::adam(kParams)}) {
    const auto expected = run<TypeParam>(system(rule, 2), 9, {});

    DataParallelLearner<TypeParam> overAll(system(rule, ranks + 2), overRanks());
    overAll.run(4);
    io::saveCheckpoint(path, overAll.state(), placement);  // collective: rank 0 writes
    DataParallelLearner<TypeParam> alone(system(rule, 3));
    alone.resume(io::loadCheckpoint(path));
    alone.run(5);
    EXPECT_EQ(wordsOf(alone.state()), expected) << "saved over " << ranks << " ranks";
    MPI_Barrier(MPI_COMM_WORLD);

    if (placement.rank() == 0) {
      DataParallelLearner<TypeParam> inProcess(system(rule, 5));
      inProcess.run(6);
      io::saveCheckpoint(path, inProcess.state());
    }
    MPI_Barrier(MPI_COMM_WORLD);
    DataParallelLearner<TypeParam> resumed(system(rule, ranks + 1), overRanks());
    resumed.resume(io::loadCheckpoint(path));
    resumed.run(3);
    EXPECT_EQ(wordsOf(resumed.state()), expected) << "resumed over " << ranks << " ranks";
    MPI_Barrier(MPI_COMM_WORLD);
  }
  if (placement.rank() == 0) std::remove(path.c_str());

  // Rank 0 cannot write: every rank hears it, none waits for a file that will not come.
  const std::string nowhere = "/nonexistent/folder/c.h5";
  const LearnerState some = DataParallelLearner<TypeParam>(system(rules::sgd(kParams), 3)).state();
  const std::string message = errorOf([&] { io::saveCheckpoint(nowhere, some, placement); });
  EXPECT_EQ(message, "kfield::io::saveCheckpoint: " + nowhere + ": rank 0 could not write it: " +
                         nowhere + ": its folder /nonexistent/folder does not exist");
}

// Each rank reads only its owners' shares of a sample store and holds nothing else; the
// learner over those shares has the identities and the bits of the whole system's learner,
// and its checkpoints resume in one process.
TYPED_TEST(LearnerRanks, SharesOfASampleStoreGiveOneProcessesBits) {
  const auto placement = OwnerPlacement::overRanks(MPI_COMM_WORLD);
  const int ranks = placement.ranks();
  long id = static_cast<long>(getpid());
  MPI_Bcast(&id, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  const std::string base = ::testing::TempDir() + "kfield_store_" + std::to_string(id);
  const DataParallelSystem whole = repartitioned(
      leastSquaresSystem(kParams, kSamples, {0, kSamples}, rules::adam(kParams), 0.05), 3);
  if (placement.rank() == 0) io::saveSamples(base + ".h5", whole);
  MPI_Barrier(MPI_COMM_WORLD);
  DataParallelSystem rule = whole;
  rule.owners.clear();
  for (int owners : {std::max(2, ranks), ranks + 1, 2 * ranks + 1}) {
    const DataParallelSystem mine = io::loadSamples(base + ".h5", rule, owners, placement);
    const IndexRange run = placement.ownersOf(placement.rank(), owners);
    for (int o = 0; o < owners; ++o) {
      const bool here = ranks == 1 || (o >= run.begin && o < run.end);  // 1 rank: in process
      EXPECT_EQ(mine.owners[std::size_t(o)].size(),
                here ? std::size_t(shareSize(kSamples, owners, o)) : 0u)
          << "owner " << o << " on rank " << placement.rank();
    }
    EXPECT_EQ(mine.heldInPart(), ranks > 1);
    const DataParallelSystem split = repartitioned(whole, owners);
    DataParallelLearner<TypeParam> overShares(mine, overRanks());
    DataParallelLearner<TypeParam> alone(split);
    EXPECT_EQ(overShares.state().systemIdentity, alone.state().systemIdentity) << owners;
    EXPECT_EQ(overShares.state().learnerIdentity, alone.state().learnerIdentity) << owners;
    EXPECT_EQ(overShares.state().sampleHashes, alone.state().sampleHashes) << owners;
    overShares.run(4);
    alone.run(4);
    EXPECT_EQ(wordsOf(overShares.state()), wordsOf(alone.state())) << owners << " owners";

    io::saveCheckpoint(base + ".c.h5", overShares.state(), placement);
    DataParallelLearner<TypeParam> resumed(whole);
    resumed.resume(io::loadCheckpoint(base + ".c.h5"));
    resumed.run(2);
    alone.run(2);
    EXPECT_EQ(wordsOf(resumed.state()), wordsOf(alone.state())) << owners << " owners";
    MPI_Barrier(MPI_COMM_WORLD);
  }
  if (ranks > 1) {  // a rank with another rule: every rank refuses, none waits
    DataParallelSystem other = rule;
    if (placement.rank() == 1) other.rate ^= 1;
    const DataParallelSystem mine = io::loadSamples(base + ".h5", other, ranks, placement);
    EXPECT_EQ(errorOf([&] { DataParallelLearner<TypeParam>(mine, overRanks()); }),
              "kfield::identityAcrossRanks: rank 1 holds another rule or another split of the "
              "samples than rank 0");
  }
  if (placement.rank() == 0) {
    std::remove((base + ".h5").c_str());
    std::remove((base + ".c.h5").c_str());
  }
}
#endif

}  // namespace
}  // namespace kfield::test
