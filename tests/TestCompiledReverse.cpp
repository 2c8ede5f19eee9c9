// Compiled reverse rounds (kfield/diff/CompiledReverse.hpp): gradients through them are the
// interpreted reverse's bits (the library's programs, and programs compiled at build time as a
// user compiles theirs); the checked-in library source is what the generator writes; programs
// the writer cannot compile are refused by name.
#include "support/ErrorOf.hpp"
#include "support/LibraryRuns.hpp"
#include "support/ReverseTestPrograms.hpp"
#include "support/TestSpaces.hpp"

#include <kfield/diff/CompiledReverse.hpp>
#include <kfield/diff/Gradient.hpp>
#include <kfield/field/Programs.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace kfield::test {
std::vector<diff::CompiledReverseEntry> testCompiledReverses();  // TestReverses.cpp (generated)

namespace {

template <class Space>
class CompiledReverses : public ::testing::Test {};
TYPED_TEST_SUITE(CompiledReverses, Spaces, SpaceNames);

template <class Space>
constexpr bool compiledHere() {  // host backends run compiled rounds and reverse rounds
  return !RoundTuning<Space>::kTeamLanes &&
         std::is_same<typename Space::memory_space, Kokkos::HostSpace>::value;
}

void expectSameResult(const diff::GradientResult& a, const diff::GradientResult& b,
                      const std::string& what) {
  EXPECT_TRUE(sameBits(a.loss, b.loss)) << what << ": loss";
  ASSERT_EQ(a.sampleGradient.size(), b.sampleGradient.size()) << what;
  for (std::size_t s = 0; s < a.sampleGradient.size(); ++s) {
    EXPECT_TRUE(sameBits(a.sampleLoss[s], b.sampleLoss[s])) << what << ": loss of sample " << s;
    for (std::size_t q = 0; q < a.sampleGradient[s].size(); ++q) {
      ASSERT_TRUE(sameBits(a.sampleGradient[s][q], b.sampleGradient[s][q]))
          << what << ": sample " << s << ", parameter value " << q << ": " << a.sampleGradient[s][q]
          << " and " << b.sampleGradient[s][q];
    }
  }
  ASSERT_EQ(a.sensorGradient.size(), b.sensorGradient.size()) << what;
  for (const auto& [name, plane] : a.sensorGradient) {
    expectSameBits(plane, b.sensorGradient.at(name), what + ": sensor " + name);
  }
}

// The gradient with and without the compiled reverse, every sensor of doubles differentiated,
// samples of different lengths (a round's live samples shrink), windows of 1, 4 and 16 rounds.
template <class Space>
void expectCompiledReverseMatches(const TracedProgram& program, const Network& net,
                                  std::int64_t samples, diff::Loss loss) {
  diff::BasicGradient<Space> g(program, net, samples);
  setInputs(g, program, net.devices(), samples);
  for (const SensorInfo& sensor : program.sensors) {
    if (sensor.type == SensorType::Double) g.differentiate(sensor.name);
  }
  g.loss(loss);
  HostPlane target("target", static_cast<std::size_t>(program.outputWidth * net.devices()),
                   static_cast<std::size_t>(samples));
  for (std::size_t r = 0; r < target.extent(0); ++r) {
    for (std::size_t s = 0; s < target.extent(1); ++s) target(r, s) = 0.125 * double((r + s) % 5);
  }
  g.target(target);
  std::vector<std::int64_t> stops;
  for (std::int64_t s = 0; s < samples; ++s) stops.push_back((s * 5 + 12) % 13);
  for (std::int64_t window : {1, 4, 16}) {
    diff::GradientOptions compiled, interpreted;
    compiled.window = interpreted.window = window;
    interpreted.compiledReverse = false;
    const std::string what = program.name + ", " + std::to_string(samples) + " samples, window " +
                             std::to_string(window);
    expectSameResult(g.run(stops, compiled), g.run(stops, interpreted), what);
  }
}

TYPED_TEST(CompiledReverses, EveryCompiledLibraryReverseGivesTheInterpretedBits) {
  const Network grid = Network::grid(9, 7);
  const Network rgg = Network::randomGeometric(150, 1.6, 5);
  int compiled = 0;
  for (const lib::LibraryProgram& entry : lib::programs()) {
    for (const Network* net : {&grid, &rgg}) {
      const TracedProgram program = entry.build(*net, {});
      if (diff::findCompiledReverse(program).own == nullptr) {
        // The library leaves reverses over 256 value operations interpreted.
        EXPECT_TRUE(!diff::canCompileReverse(program) || program.valueOps.size() > 256u)
            << program.name << " is not in the library's compiled reverse rounds";
        continue;
      }
      ++compiled;
      // One sample (scalar blocks), a partial block and one past a whole one.
      for (std::int64_t samples : {1, 3, 70}) {
        const diff::Loss loss = samples == 3 ? diff::Loss::Output : diff::Loss::SquaredError;
        expectCompiledReverseMatches<TypeParam>(program, *net, samples, loss);
      }
    }
  }
  // The gradients, the collections, consensus, gossip and the two learnable programs.
  EXPECT_GE(compiled, 2 * 9);
}

TYPED_TEST(CompiledReverses, ProgramsCompiledAtBuildTimeGiveTheInterpretedBits) {
  diff::registerCompiledReverses(testCompiledReverses());
  const Network rgg = Network::randomGeometric(120, 1.7, 11);
  for (const TracedProgram& program : reverseTestPrograms()) {
    ASSERT_NE(diff::findCompiledReverse(program).own, nullptr) << program.name;
    for (std::int64_t samples : {1, 5, 66}) {
      const diff::Loss loss = samples == 5 ? diff::Loss::Output : diff::Loss::SquaredError;
      expectCompiledReverseMatches<TypeParam>(program, rgg, samples, loss);
    }
  }
}

TEST(CompiledReverseSource, TheLearnableProgramsHaveOne) {
  const Network net = Network::grid(5, 5);
  for (const char* name : {"scaled-distance", "learned-consensus"}) {
    const TracedProgram program = lib::findProgram(name)->build(net, {});
    EXPECT_NE(diff::findCompiledReverse(program).own, nullptr) << name;
  }
}

TEST(CompiledReverseSource, ProgramsItCannotCompileAreRefusedByName) {
  const Network net = Network::grid(3, 3);
  for (const auto& [name, reason] : {std::pair<const char*, const char*>{"channel", "branch"},
                                     {"nearest-source", "lexicographic fold"},
                                     {"shared-clock", "clock"}}) {
    const TracedProgram program = lib::findProgram(name)->build(net, {});
    std::string why;
    EXPECT_FALSE(diff::canCompileReverse(program, &why)) << name;
    EXPECT_NE(why.find("program '" + std::string(name) + "', value operation "), std::string::npos)
        << why;
    EXPECT_NE(why.find(reason), std::string::npos) << why;
    EXPECT_EQ(diff::findCompiledReverse(program).own, nullptr) << name;
    const std::string error = errorOf([&] { diff::compiledReversesSource({program}, "table"); });
    EXPECT_NE(error.find("kfield::diff::compiledReversesSource: program '" + std::string(name)),
              std::string::npos)
        << error;
  }
}

TEST(CompiledReverseSource, TableNamesMustBeCppNames) {
  const TracedProgram program = lib::findProgram("scaled-distance")->build(Network::grid(3, 3), {});
  for (const char* bad : {"", "1table", "my table", "a::", "::a", "a:b"}) {
    const std::string error = errorOf([&] { diff::compiledReversesSource({program}, bad); });
    EXPECT_NE(error.find("is not a C++ name"), std::string::npos) << bad << ": " << error;
  }
  const std::string source = diff::compiledReversesSource({program}, "mine::reverses");
  EXPECT_NE(source.find("namespace mine {"), std::string::npos);
  EXPECT_NE(source.find("std::vector<kfield::diff::CompiledReverseEntry> reverses()"),
            std::string::npos);
}

// Checked in with the library's compiled rounds, and regenerated by the same build target.
TEST(CompiledReverseSource, TheLibrarySourceIsWhatTheGeneratorWrites) {
  const std::string path =
      std::string(KFIELD_TEST_SOURCE_DIR) + "/core/src/diff/compiled/LibraryReverses.cpp";
  std::ifstream in(path);
  ASSERT_TRUE(in) << "cannot read " << path;
  std::stringstream text;
  text << in.rdbuf();
  const std::string expected = diff::libraryReversesSource();
  if (text.str() != expected) {
    const std::string fresh = "LibraryReverses.cpp.generated";
    std::ofstream(fresh) << expected;
    FAIL() << path << " is not what kfield::diff::libraryReversesSource() writes now: regenerate "
           << "it with cmake --build BUILD --target kfield_regenerate_library_rounds (or copy "
           << fresh << ", in the test's working directory, over it)";
  }
}

}  // namespace
}  // namespace kfield::test
