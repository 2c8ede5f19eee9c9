// Gradients over the ranks of MPI_COMM_WORLD (ctest runs this binary under mpirun with 1 to 4
// ranks): every rank also reverses the whole network in its own process, and the two must give
// the same bits (losses, parameters' gradients, sensors' gradients), whatever the partition.
#include "support/DistributedRuns.hpp"
#include "support/ErrorOf.hpp"
#include "support/LibraryRuns.hpp"
#include "support/ProcessPrograms.hpp"
#include "support/TestSpaces.hpp"

#include <kfield/Config.hpp>
#include <kfield/diff/DistributedGradient.hpp>
#include <kfield/field/Library.hpp>
#include <kfield/field/Programs.hpp>
#if KFIELD_ENABLE_HDF5
#include "support/TempFolder.hpp"

#include <kfield/io/Spill.hpp>

#include <filesystem>
#endif

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace kfield::test {
namespace {

template <class Space>
class GradientOverRanks : public ::testing::Test {};
TYPED_TEST_SUITE(GradientOverRanks, Spaces, SpaceNames);

// Inputs as LibraryRuns sets them, every real sensor differentiated; the loss is the output
// itself, or its squared error from a target.
template <class G>
void setUp(G& g, const TracedProgram& program, std::int64_t devices, std::int64_t samples,
           bool squared) {
  setInputs(g, program, devices, samples);
  for (const SensorInfo& sensor : program.sensors) {
    if (sensor.type == SensorType::Double) g.differentiate(sensor.name);
  }
  if (!squared) {
    g.loss(diff::Loss::Output);
    return;
  }
  HostPlane target("target", static_cast<std::size_t>(program.outputWidth * devices),
                   static_cast<std::size_t>(samples));
  for (std::size_t r = 0; r < target.extent(0); ++r) {
    for (std::size_t s = 0; s < target.extent(1); ++s)
      target(r, s) = 0.1 * double((r * 5 + s) % 13);
  }
  g.target(target);
}

void expectSameResult(const diff::GradientResult& whole, const diff::GradientResult& part,
                      IndexRange owned, const std::string& what) {
  ASSERT_TRUE(sameBits(part.loss, whole.loss))
      << what << ": loss " << part.loss << " vs " << whole.loss;
  ASSERT_EQ(part.sampleLoss.size(), whole.sampleLoss.size()) << what;
  for (std::size_t s = 0; s < whole.sampleLoss.size(); ++s) {
    ASSERT_TRUE(sameBits(part.sampleLoss[s], whole.sampleLoss[s]))
        << what << ": loss of sample " << s;
  }
  ASSERT_EQ(part.gradient.size(), whole.gradient.size()) << what;
  for (std::size_t q = 0; q < whole.gradient.size(); ++q) {
    ASSERT_TRUE(sameBits(part.gradient[q], whole.gradient[q]))
        << what << ": parameter value " << q << ": " << part.gradient[q] << " vs "
        << whole.gradient[q];
    for (std::size_t s = 0; s < whole.sampleGradient.size(); ++s) {
      ASSERT_TRUE(sameBits(part.sampleGradient[s][q], whole.sampleGradient[s][q]))
          << what << ": parameter value " << q << ", sample " << s;
    }
  }
  ASSERT_EQ(part.sensorGradient.size(), whole.sensorGradient.size()) << what;
  for (const auto& entry : whole.sensorGradient) {
    const HostPlane& expected = entry.second;
    const HostPlane& got = part.sensorGradient.at(entry.first);
    ASSERT_EQ(std::int64_t(got.extent(0)), owned.size()) << what;
    for (std::int64_t i = 0; i < owned.size(); ++i) {
      for (std::size_t s = 0; s < expected.extent(1); ++s) {
        ASSERT_TRUE(sameBits(got(i, s), expected(owned.begin + i, s)))
            << what << ": sensor '" << entry.first << "', device " << owned.begin + i << ", sample "
            << s << ": " << got(i, s) << " vs " << expected(owned.begin + i, s);
      }
    }
  }
}

template <class Space>
void expectSameAsOneProcess(const TracedProgram& program, const Network& net,
                            const std::optional<DevicePartition>& partition, bool squared,
                            const std::string& what, const diff::GradientOptions& options = {}) {
  const std::int64_t samples = 3;
  const std::vector<std::int64_t> stops{7, 3, 5};  // samples stop at different rounds
  diff::BasicGradient<Space> whole(program, net, samples);
  setUp(whole, program, net.devices(), samples, squared);
  const diff::GradientResult expected = whole.run(stops, options);
  diff::BasicDistributedGradient<Space> g(program, net, samples, MPI_COMM_WORLD, partition);
  setUp(g, program, net.devices(), samples, squared);
  expectSameResult(expected, g.run(stops, options), g.owned(), what);
}

TracedProgram libraryProgram(const std::string& name, const Network& net) {
  for (const lib::LibraryProgram& entry : lib::programs()) {
    if (entry.name == name) return entry.build(net, {});
  }
  throw std::invalid_argument("no library program " + name);
}

bool reversible(const TracedProgram& program, const Network& net) {
  try {
    diff::Gradient(program, net, 1);
  } catch (const std::invalid_argument&) {
    return false;
  }
  return true;
}

TYPED_TEST(GradientOverRanks, EveryLibraryProgramGivesTheBitsOfOneProcess) {
  const int ranks = worldRanks();
  int reversed = 0;
  for (const Network& net :
       {Network::grid(11, 9), Network::grid(8, 7, 8), Network::randomGeometric(120, 1.6, 4)}) {
    for (const lib::LibraryProgram& entry : lib::programs()) {
      const TracedProgram program = entry.build(net, {});
      if (!reversible(program, net)) continue;
      ++reversed;
      const std::string what = entry.name + " on " + net.description();
      expectSameAsOneProcess<TypeParam>(program, net, std::nullopt, false, what + ", blocks");
      expectSameAsOneProcess<TypeParam>(program, net, lopsided(net.devices(), ranks), true,
                                        what + ", lopsided, squared error");
    }
  }
  EXPECT_GE(reversed, 3 * 12);
}

using F = Field<double>;
using N = NbrField<double>;

// What the library does not cover: an exchange whose send and fold select (min), neighbor
// fields across a branch, and processes (spawn) whose neighbor reads find copies by key.
std::vector<TracedProgram> exchangeAndSpawnPrograms() {
  auto traced = [](const std::string& name, F (*body)(Program&, const F&, const F&)) {
    return trace(
        [body](Program& p) {
          return body(p, p.sense<double>("x"), p.sense<double>("y")) * p.parameter("w");
        },
        name);
  };
  return {
      traced("exchange.min",
             [](Program& p, const F& x, const F& y) {
               const auto sent =
                   p.exchange(x, [&](const N& n) { return min(n, p.neighbors(y)) + x * 0.25; });
               return sent.excludeSelf().min() + sent.self();
             }),
      traced("exchange.branch",
             [](Program& p, const F& x, const F& y) {
               return p.branch(
                   x < 1.5,
                   [&] { return p.exchange(y, [&](const N& n) { return n * x + 1.0; }).sum(); },
                   [&] { return p.nbr(x, p.neighbors(y) - y).max(); });
             }),
      traced("spawn",
             [](Program& p, const F& x, const F& y) { return launchedProcesses(p, x, y, 50); }),
      traced("spawn.pairs",
             [](Program& p, const F& x, const F& y) { return pairKeyedProcesses(p, x, y, 50); }),
  };
}

TYPED_TEST(GradientOverRanks, ExchangesAndProcessesGiveTheBitsOfOneProcess) {
  const int ranks = worldRanks();
  for (const Network& net : {Network::grid(10, 8, 8), Network::randomGeometric(120, 1.6, 4)}) {
    for (const TracedProgram& program : exchangeAndSpawnPrograms()) {
      const std::string what = program.name + " on " + net.description();
      expectSameAsOneProcess<TypeParam>(program, net, std::nullopt, true, what + ", blocks");
      expectSameAsOneProcess<TypeParam>(program, net, lopsided(net.devices(), ranks), false,
                                        what + ", lopsided");
    }
  }
}

// Windows of recompute, either tape, passes of fewer samples (a budget) and checkpoints spilled
// to disk keep the bits.
TYPED_TEST(GradientOverRanks, WindowsTapesAndBudgetsKeepTheBits) {
  const int ranks = worldRanks();
  const Network net = Network::randomGeometric(120, 1.6, 4);
  const TracedProgram program = libraryProgram("learned-consensus", net);
  for (std::int64_t window : {1, 3}) {
    for (diff::Tape tape : {diff::Tape::Carry, diff::Tape::Values}) {
      diff::GradientOptions o;
      o.window = window;
      o.tape = tape;
      const std::string what = "window " + std::to_string(window) +
                               (tape == diff::Tape::Values ? ", values" : ", carry");
      expectSameAsOneProcess<TypeParam>(program, net, lopsided(net.devices(), ranks), true, what,
                                        o);
    }
  }
  diff::GradientOptions budget;
  diff::BasicGradient<TypeParam> sized(program, net, 3);
  setUp(sized, program, net.devices(), 3, true);
  budget.budgetBytes = 2 * static_cast<std::int64_t>(sized.bytesPerSample(7));  // passes of 2 and 1
  expectSameAsOneProcess<TypeParam>(program, net, std::nullopt, true, "a budget of one sample",
                                    budget);
#if KFIELD_ENABLE_HDF5
  TempFolder dir;  // every rank its own: each spills its own part's checkpoints
  diff::GradientOptions spilled;
  spilled.window = 3;
  spilled.spill = io::spillStore(dir.path());
  spilled.spillAlways = true;
  expectSameAsOneProcess<TypeParam>(program, net, lopsided(net.devices(), ranks), true,
                                    "checkpoints spilled", spilled);
  EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << "a spill file was left behind";
#endif
}

// A grid built by parts (no rank holds the whole) reverses as the whole grid does.
TYPED_TEST(GradientOverRanks, AGridBuiltByPartsGivesTheBitsOfTheWholeGrid) {
  const int ranks = worldRanks();
  const Network whole = Network::grid(13, 9);
  const TracedProgram program = libraryProgram("scaled-distance", whole);  // min folds: selections
  const std::int64_t samples = 2;
  diff::BasicGradient<TypeParam> one(program, whole, samples);
  setUp(one, program, whole.devices(), samples, true);
  const diff::GradientResult expected = one.run({6, 4});
  const DevicePartition partition = lopsided(whole.devices(), ranks);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  diff::BasicDistributedGradient<TypeParam> g(program,
                                              NetworkPart::grid(13, 9, 4, partition.part(rank)),
                                              partition, samples, MPI_COMM_WORLD);
  setUp(g, program, whole.devices(), samples, true);
  expectSameResult(expected, g.run({6, 4}), g.owned(), "grid by parts");
}

// So does a Hilbert-numbered rgg built by parts.
TYPED_TEST(GradientOverRanks, AnRggBuiltByPartsGivesTheBitsOfTheWholeRgg) {
  const int ranks = worldRanks();
  const Network whole = Network::randomGeometric(400, 1.5, 3, DeviceOrder::Hilbert);
  const TracedProgram program = libraryProgram("scaled-distance", whole);
  const std::int64_t samples = 2;
  diff::BasicGradient<TypeParam> one(program, whole, samples);
  setUp(one, program, whole.devices(), samples, true);
  const diff::GradientResult expected = one.run({5, 3});
  const DevicePartition partition = DevicePartition::blocks(whole.devices(), ranks);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  diff::BasicDistributedGradient<TypeParam> g(
      program,
      NetworkPart::randomGeometric(400, 1.5, 3, DeviceOrder::Hilbert, partition.part(rank)),
      partition, samples, MPI_COMM_WORLD);
  setUp(g, program, whole.devices(), samples, true);
  expectSameResult(expected, g.run({5, 3}), g.owned(), "rgg by parts");
}

TYPED_TEST(GradientOverRanks, BadInputIsRefusedByName) {
  const Network net = Network::grid(6, 5);
  const TracedProgram program = libraryProgram("hop-gradient", net);
  diff::BasicDistributedGradient<TypeParam> g(program, net, 2, MPI_COMM_WORLD);
  EXPECT_EQ(errorOf([&] { g.target(HostPlane("t", 29, 2)); }),
            "kfield::diff::DistributedGradient: the target is 29 x 2, expected (output width x "
            "devices) x "
            "samples = 30 x 2");
  EXPECT_EQ(errorOf([&] { g.sensor("source").set(30, 0, 1.0); }),
            "kfield::diff::DistributedGradient: sensor 'source': device 30 is not in [0, 30)");
  EXPECT_EQ(errorOf([&] {
              diff::BasicDistributedGradient<TypeParam>(
                  program, net, 2, MPI_COMM_WORLD, DevicePartition::blocks(30, worldRanks() + 1));
            }),
            "kfield::diff::DistributedGradient: the partition has " +
                std::to_string(worldRanks() + 1) + " parts of 30 devices, for " +
                std::to_string(worldRanks()) + " ranks and 30 devices");
  // A directed chain (1 hears 0, 2 hears 1): a reader on another rank would not be a ghost of
  // the device it reads, so gradients over ranks refuse it, on every rank.
  const Network chain =
      Network::fromCsr({0, 1, 3, 5}, {0, 0, 1, 1, 2}, {}, {}, {}, "a chain of arcs");
  EXPECT_EQ(errorOf([&] {
              diff::BasicDistributedGradient<TypeParam>(libraryProgram("scaled-distance", chain),
                                                        chain, 1, MPI_COMM_WORLD);
            }),
            "kfield::diff::DistributedGradient: a gradient over MPI ranks needs a symmetric "
            "network: device 1 hears "
            "device 0, but 0 does not hear 1");
}

}  // namespace
}  // namespace kfield::test
