// A learner resumed from a checkpoint continues with the bits of an uninterrupted run, under
// any owner count (and, run by ctest at 1 and 2 threads and by a writer process at either,
// any thread count); a checkpoint of another system is refused by its first difference; and a
// writer killed with SIGKILL at any moment leaves a checkpoint that loads and is on track.
#include "support/CheckpointSystem.hpp"
#include "support/ErrorOf.hpp"
#include "support/TempFolder.hpp"
#include "support/TestSpaces.hpp"

#include <kfield/io/Checkpoint.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

namespace kfield::test {
namespace {

template <class Space>
class Checkpoint : public ::testing::Test {};
TYPED_TEST_SUITE(Checkpoint, Spaces, SpaceNames);

TYPED_TEST(Checkpoint, ResumingGivesTheUninterruptedBitsUnderAnyOwnerCount) {
  TempFolder dir;
  for (const char* rule : {"sgd", "adam"}) {
    const LearnerState expected = runFor<TypeParam>(checkpointSystem(rule, 3), 9);
    EXPECT_EQ(wordsOf(expected), wordsOf(referenceRun(checkpointSystem(rule, 3), 9))) << rule;
    for (int savedUnder = 2; savedUnder <= 4; ++savedUnder) {
      io::saveCheckpoint(dir / "r.h5", runFor<TypeParam>(checkpointSystem(rule, savedUnder), 4));
      for (int resumedUnder = 2; resumedUnder <= 4; ++resumedUnder) {
        DataParallelLearner<TypeParam> learner(checkpointSystem(rule, resumedUnder));
        learner.resume(io::loadCheckpoint(dir / "r.h5"));
        learner.run(5);
        const LearnerState got = learner.state();
        EXPECT_EQ(got.step, 9);
        EXPECT_EQ(wordsOf(got), wordsOf(expected))
            << rule << ": saved under " << savedUnder << " owners, resumed under " << resumedUnder;
      }
    }
  }
}

TYPED_TEST(Checkpoint, PartitionedStateResumesLikeTheFullUpdate) {
  const auto sys = checkpointSystem("adam", 4);
  LearnerOptions partitioned;
  partitioned.partitionState = rules::adam(6).perCoordinateState;
  DataParallelLearner<TypeParam> first(sys, partitioned);
  first.run(3);
  DataParallelLearner<TypeParam> resumed(sys, partitioned);
  resumed.resume(first.state());
  resumed.run(4);
  EXPECT_EQ(wordsOf(resumed.state()), wordsOf(runFor<TypeParam>(sys, 7)));
}

std::string resumeError(const DataParallelSystem& sys, const LearnerState& saved) {
  return errorOf([&] {
    DataParallelLearner<TestSpace> learner(sys);
    learner.resume(saved);
  });
}

TYPED_TEST(Checkpoint, AnotherSystemIsRefusedByItsFirstDifference) {
  const DataParallelSystem sys = checkpointSystem("adam", 3);
  const LearnerState saved = runFor<TypeParam>(sys, 2);
  const std::string who =
      "kfield::DataParallelLearner::resume: the saved state is not of this learner's system: ";

  DataParallelSystem other = sys;  // one word of sample 300 (owner 1's share holds it)
  const std::int64_t first1 = std::int64_t(other.owners[0].size());
  other.owners[1][std::size_t(300 - first1)][2] = wordOf(0.5);
  EXPECT_EQ(resumeError(other, saved), who + "sample 300 differs");

  other = checkpointSystem("adam", 3);
  other.rate = wordOf(0.03);
  EXPECT_EQ(resumeError(other, saved), who + "rate 0.02 vs 0.03 (saved vs this learner)");

  const std::int64_t m = sys.stateWords();
  EXPECT_EQ(resumeError(checkpointSystem("sgd", 3), saved),
            who + "optimizer state words " + std::to_string(m) + " vs " +
                std::to_string(checkpointSystem("sgd", 3).stateWords()) +
                " (saved vs this learner)");
  EXPECT_EQ(resumeError(checkpointSystem("adam", 3, 6, 516), saved),
            who + "samples 517 vs 516 (saved vs this learner)");
  EXPECT_EQ(resumeError(checkpointSystem("adam", 3, 7), saved),
            who + "parameters 6 vs 7 (saved vs this learner)");

  other = sys;
  other.initialParameters[0] = wordOf(1.0);
  const std::string rule = resumeError(other, saved);
  EXPECT_EQ(rule.rfind(who + "the rule differs (contribution, update or initial values", 0), 0u)
      << rule;

  LearnerState contract = saved;  // a checkpoint written under another contract
  contract.numericalContract.replace(contract.numericalContract.find("contraction: off"), 16,
                                     "contraction: on");
  const std::string clause = resumeError(sys, contract);
  EXPECT_EQ(clause.rfind(who + "numerical contract: saved 'contraction: on", 0), 0u) << clause;
}

// The writer process (CheckpointWriter.cpp) saves after every step; it is killed at moments
// spread over its start, its steps and its writes, at 1 or 2 threads and 2 to 4 owners.
TYPED_TEST(Checkpoint, AWriterKilledAtAnyMomentLeavesALoadableCheckpointOnTrack) {
  constexpr std::int64_t k = 3000, samples = 64, last = 4000;
  const DataParallelSystem sys = checkpointSystem("adam", 2, k, samples);
  auto hashOf = [](const LearnerState& s) {
    std::uint64_t h = 0;
    for (Word w : wordsOf(s)) h = mix64(h, w);
    return h;
  };
  TempFolder dir;
  const std::string file = dir / "killed.h5";
  std::vector<std::uint64_t> track;  // the state's hash after each step
  {
    DataParallelLearner<TypeParam> reference(sys);
    io::saveCheckpoint(file, reference.state());
    track.push_back(hashOf(reference.state()));
    for (std::int64_t s = 1; s <= last; ++s) {
      reference.run(1);
      track.push_back(hashOf(reference.state()));
    }
  }
  int midWrite = 0;
  std::int64_t reached = 0;
  auto killAfter = [&](int trial, std::chrono::microseconds delay) {
    const std::string threads = std::to_string(1 + trial % 2),
                      owners = std::to_string(2 + trial % 3);
    const std::string params = std::to_string(k), count = std::to_string(samples),
                      until = std::to_string(last);
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      execl(KFIELD_TEST_CHECKPOINT_WRITER, "kfield_checkpoint_writer", file.c_str(),
            threads.c_str(), owners.c_str(), "adam", params.c_str(), count.c_str(), until.c_str(),
            static_cast<char*>(nullptr));
      _exit(127);
    }
    std::this_thread::sleep_for(delay);
    kill(child, SIGKILL);
    int status = 0;
    waitpid(child, &status, 0);
    ASSERT_TRUE(WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) == 0))
        << "trial " << trial << ": the writer failed (status " << status << ")";
    if (access((file + ".partial").c_str(), F_OK) == 0) ++midWrite;
    for (const std::string& version : {file, file + ".1"}) {
      if (version != file && access(version.c_str(), F_OK) != 0) continue;
      const LearnerState saved = io::loadCheckpoint(version);  // throws if damaged
      ASSERT_LE(saved.step, last);
      EXPECT_EQ(hashOf(saved), track[std::size_t(saved.step)])
          << "trial " << trial << ": " << version << " at step " << saved.step << " is off track";
      if (version == file) reached = saved.step;
    }
  };
  for (int trial = 0; trial < 30; ++trial) {
    killAfter(trial, std::chrono::microseconds(20000 + (mix64(7, std::uint64_t(trial)) % 180000)));
  }
  // On a loaded machine a writer may not start its first step within 0.2 s: later writers get
  // 0.5, 1, 2, ... s until one has saved a step.
  for (int trial = 30; reached == 0 && trial < 36; ++trial) {
    killAfter(trial, std::chrono::microseconds(500000) * (1 << (trial - 30)));
  }
  ASSERT_GT(reached, 0) << "the writer never saved a step: the test saw no writes";
  std::cout << "[ killed ] 30 writers; " << midWrite << " left a partial file; step " << reached
            << " reached\n";
  DataParallelLearner<TypeParam> resumed(checkpointSystem("adam", 3, k, samples));
  resumed.resume(io::loadCheckpoint(file));
  resumed.run(3);
  EXPECT_EQ(wordsOf(resumed.state()), wordsOf(runFor<TypeParam>(sys, reached + 3)));
}

}  // namespace
}  // namespace kfield::test
