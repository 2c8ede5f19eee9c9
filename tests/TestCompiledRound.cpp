// Compiled rounds (kfield/sim/CompiledRound.hpp): the library's programs run their compiled
// rounds on host backends and give the round kernel's bits; the checked-in library source is
// what the generator writes; programs the generator cannot compile are refused by name.
#include "support/ErrorOf.hpp"
#include "support/LibraryRuns.hpp"
#include "support/TestSpaces.hpp"

#include <kfield/field/Library.hpp>
#include <kfield/field/Programs.hpp>
#include <kfield/sim/CompiledRound.hpp>
#include <kfield/sim/Simulation.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace kfield::test {
namespace {

template <class Space>
class CompiledRounds : public ::testing::Test {};
TYPED_TEST_SUITE(CompiledRounds, Spaces, SpaceNames);

template <class Space>
constexpr bool compiledHere() {  // host backends run compiled rounds
  return !RoundTuning<Space>::kTeamLanes &&
         std::is_same<typename Space::memory_space, Kokkos::HostSpace>::value;
}

// Rounds of the program with and without its compiled round: every plane kept across rounds,
// the same bits, after each of several runs (the first round of each sample is the kernel's).
template <class Space>
void expectCompiledMatchesKernel(const TracedProgram& program, const Network& net,
                                 std::int64_t samples) {
  BasicSimulation<Space> compiled(program, net, samples), kernel(program, net, samples);
  kernel.useCompiledRounds(false);
  setInputs(compiled, program, net.devices(), samples);
  setInputs(kernel, program, net.devices(), samples);
  if (compiledHere<Space>()) {
    ASSERT_TRUE(compiled.hasCompiledRound()) << program.name;
  }
  const std::string what = program.name + ", " + std::to_string(samples) + " samples";
  for (std::int64_t rounds : {1, 2, 7}) {
    compiled.run(rounds);
    kernel.run(rounds);
    const SimulationCarry a = compiled.carry(), b = kernel.carry();
    expectSameBits(a.output, b.output, what + ": output");
    expectSameBits(a.exports, b.exports, what + ": exports");
    expectSameBits(a.states, b.states, what + ": states");
  }
}

TYPED_TEST(CompiledRounds, EveryCompiledLibraryProgramGivesTheKernelsBits) {
  const Network grid = Network::grid(9, 7);
  const Network rgg = Network::randomGeometric(150, 1.6, 5);
  int compiledPrograms = 0;
  for (const lib::LibraryProgram& entry : lib::programs()) {
    for (const Network* net : {&grid, &rgg}) {
      const TracedProgram program = entry.build(*net, {});
      if (!canCompileRound(program)) continue;
      if (compiledHere<TypeParam>() &&
          !BasicSimulation<TypeParam>(program, *net, 1).hasCompiledRound()) {
        // The library leaves rounds over 256 operations interpreted (libraryRoundsSource).
        EXPECT_GT(program.ops.size(), 256u)
            << program.name << " is not in the library's compiled rounds";
        continue;
      }
      ++compiledPrograms;
      // One sample (scalar blocks), a partial block, a full one and one past it.
      for (std::int64_t samples : {1, 3, 64, 70}) {
        expectCompiledMatchesKernel<TypeParam>(program, *net, samples);
      }
    }
  }
  // The gradients, the G block, the collections and the other programs without branches.
  EXPECT_GE(compiledPrograms, 2 * 8);
}

// Planes of at least 2^23 values: the rows written for the next round go to memory with
// streaming stores (whole blocks of 64 samples), the rest plainly; the same bits. A grid of
// 363 x 363 devices at 64 samples: 8.4 million values a plane.
TYPED_TEST(CompiledRounds, StreamedRowsOfLargePlanesGiveTheKernelsBits) {
  const Network grid = Network::grid(363, 363);
  ASSERT_GE(grid.devices() * 64, std::int64_t(1) << 23);
  for (const char* name : {"hop-gradient", "nearest-source", "collect-weighted"}) {
    const TracedProgram program = lib::findProgram(name)->build(grid, {});
    BasicSimulation<TypeParam> compiled(program, grid, 64), kernel(program, grid, 64);
    kernel.useCompiledRounds(false);
    setInputs(compiled, program, grid.devices(), 64);
    setInputs(kernel, program, grid.devices(), 64);
    compiled.run(3);
    kernel.run(3);
    const SimulationCarry a = compiled.carry(), b = kernel.carry();
    expectSameBits(a.output, b.output, std::string(name) + ": output");
    expectSameBits(a.exports, b.exports, std::string(name) + ": exports");
  }
}

TEST(CompiledRoundSource, TheGBlockAndWeightedCollectionHaveOne) {
  const Network net = Network::grid(5, 5);
  for (const char* name :
       {"hop-gradient", "distance-gradient", "nearest-source", "collect-weighted"}) {
    const TracedProgram program = lib::findProgram(name)->build(net, {});
    std::string why;
    EXPECT_TRUE(canCompileRound(program, &why)) << why;
    EXPECT_NE(findCompiledRound(program), nullptr) << name;
  }
}

TEST(CompiledRoundSource, ProgramsWithBranchesAreLeftToTheKernel) {
  const TracedProgram program = trace(
      [](Program& p) {
        return p.branch(
            p.sense<bool>("obstacle"), [&] { return p.constant(0.0); },
            [&] { return lib::hopGradient(p, p.sense<bool>("source")); });
      },
      "avoiding");
  std::string why;
  EXPECT_FALSE(canCompileRound(program, &why));
  EXPECT_NE(why.find("program 'avoiding', operation "), std::string::npos) << why;
  EXPECT_NE(why.find("branch"), std::string::npos) << why;
  EXPECT_EQ(findCompiledRound(program), nullptr);
  const std::string error = errorOf([&] { compiledRoundsSource({program}, "table"); });
  EXPECT_NE(error.find("kfield::compiledRoundsSource: program 'avoiding'"), std::string::npos)
      << error;
}

TEST(CompiledRoundSource, TableNamesMustBeCppNames) {
  const TracedProgram program = lib::findProgram("hop-gradient")->build(Network::grid(3, 3), {});
  for (const char* bad : {"", "1table", "my table", "a::", "::a", "a:b"}) {
    const std::string error = errorOf([&] { compiledRoundsSource({program}, bad); });
    EXPECT_NE(error.find("is not a C++ name"), std::string::npos) << bad << ": " << error;
  }
  const std::string source = compiledRoundsSource({program}, "mine::rounds");
  EXPECT_NE(source.find("namespace mine {"), std::string::npos);
  EXPECT_NE(source.find("std::vector<kfield::CompiledRoundEntry> rounds()"), std::string::npos);
}

// The library's compiled rounds are checked in; when the generator or a library program
// changes, this says which build target regenerates them (and writes the new source beside
// the build).
TEST(CompiledRoundSource, TheLibrarySourceIsWhatTheGeneratorWrites) {
  const std::string path =
      std::string(KFIELD_TEST_SOURCE_DIR) + "/core/src/sim/compiled/LibraryRounds.cpp";
  std::ifstream in(path);
  ASSERT_TRUE(in) << "cannot read " << path;
  std::stringstream text;
  text << in.rdbuf();
  const std::string expected = libraryRoundsSource();
  if (text.str() != expected) {
    const std::string fresh = "LibraryRounds.cpp.generated";
    std::ofstream(fresh) << expected;
    FAIL() << path << " is not what kfield::libraryRoundsSource() writes now: regenerate it with "
           << "cmake --build BUILD --target kfield_regenerate_library_rounds (or copy " << fresh
           << ", in the test's working directory, over it)";
  }
}

}  // namespace
}  // namespace kfield::test
