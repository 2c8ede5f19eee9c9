// Simulations over the ranks of MPI_COMM_WORLD (ctest runs this binary under mpirun with 1 to
// 4 ranks): every rank also runs the whole network in its own process, and the two must give
// the same bits, whatever the partition.
#include "support/DistributedRuns.hpp"
#include "support/ErrorOf.hpp"
#include "support/LibraryRuns.hpp"
#include "support/TestSpaces.hpp"

#include <kfield/field/Library.hpp>
#include <kfield/field/Programs.hpp>
#include <kfield/sim/DistributedSimulation.hpp>
#include <kfield/sum/Canonical.hpp>

#include <mpi.h>

#include <string>
#include <vector>

namespace kfield::test {
namespace {

template <class Space>
class Distributed : public ::testing::Test {};
TYPED_TEST_SUITE(Distributed, Spaces, SpaceNames);

template <class Space>
HostPlane wholeOutput(const TracedProgram& program, const Network& net, std::int64_t samples,
                      const std::vector<std::int64_t>& rounds) {
  BasicSimulation<Space> sim(program, net, samples);
  setInputs(sim, program, net.devices(), samples);
  sim.run(rounds);
  return sim.output();
}

template <class Space>
void expectSameAsOneProcess(const TracedProgram& program, const Network& net,
                            const std::optional<DevicePartition>& partition,
                            const std::string& what) {
  const std::int64_t samples = 3;
  const std::vector<std::int64_t> rounds{12, 5, 9};  // samples stop at different rounds
  const HostPlane expected = wholeOutput<Space>(program, net, samples, rounds);
  BasicDistributedSimulation<Space> sim(program, net, samples, MPI_COMM_WORLD, partition);
  setInputs(sim, program, net.devices(), samples);
  sim.run(rounds);
  const HostPlane gathered = sim.gatherOutput(0);
  if (sim.rank() == 0) expectSameBits(gathered, expected, what + ", gathered");
  // Every rank's own rows, as one process has them.
  const HostPlane mine = sim.output();
  const IndexRange owned = sim.owned();
  const auto width = static_cast<std::int64_t>(program.outputWidth);
  for (std::int64_t c = 0; c < width; ++c) {
    for (std::int64_t i = 0; i < owned.size(); ++i) {
      for (std::int64_t s = 0; s < samples; ++s) {
        ASSERT_TRUE(sameBits(mine(c * owned.size() + i, s),
                             expected(c * net.devices() + owned.begin + i, s)))
            << what << ": device " << owned.begin + i << ", component " << c << ", sample " << s;
      }
    }
  }
  EXPECT_EQ(sim.rounds(), rounds) << what;
  // Sums over the devices, per sample: one process's canonical sums, on every rank.
  for (std::int64_t c = 0; c < width; ++c) {
    const auto rows = Kokkos::subview(
        expected, std::make_pair(c * net.devices(), (c + 1) * net.devices()), Kokkos::ALL);
    Kokkos::View<double*, Kokkos::HostSpace> sums("sums", samples);
    canonicalSumOfVectors(Kokkos::DefaultHostExecutionSpace(), rows, sums);
    const std::vector<double> got = sim.sumOverDevices(c);
    ASSERT_EQ(got.size(), std::size_t(samples)) << what;
    for (std::int64_t s = 0; s < samples; ++s) {
      EXPECT_TRUE(sameBits(got[s], sums(s)))
          << what << ": sum of component " << c << ", sample " << s;
    }
  }
}

TYPED_TEST(Distributed, EveryLibraryProgramGivesTheBitsOfOneProcess) {
  const int ranks = worldRanks();
  for (const Network& net :
       {Network::grid(23, 17), Network::grid(12, 11, 8), Network::randomGeometric(300, 1.6, 4)}) {
    for (const lib::LibraryProgram& entry : lib::programs()) {
      const TracedProgram program = entry.build(net, {});
      const std::string what = entry.name + " on " + net.description();
      expectSameAsOneProcess<TypeParam>(program, net, std::nullopt, what + ", blocks");
      expectSameAsOneProcess<TypeParam>(program, net, lopsided(net.devices(), ranks),
                                        what + ", lopsided");
    }
  }
}

// Numbered along a Hilbert curve, an rgg's blocks of ids are regions of the plane: a rank
// sends the devices along its region's edge, not nearly all of them (drawn numbering).
TYPED_TEST(Distributed, AnRggNumberedAlongAHilbertCurveHasSmallHalos) {
  auto largestHalo = [&](const Network& net) {
    const TracedProgram program = lib::findProgram("hop-gradient")->build(net, {});
    BasicDistributedSimulation<TypeParam> sim(program, net, 1, MPI_COMM_WORLD);
    unsigned long long bytes = sim.haloBytesPerRound(), most = 0;
    MPI_Allreduce(&bytes, &most, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    return most;
  };
  const auto drawn = largestHalo(Network::randomGeometric(20000, 1.5, 5));
  const auto curve = largestHalo(Network::randomGeometric(20000, 1.5, 5, DeviceOrder::Hilbert));
  if (worldRanks() == 1) {
    EXPECT_EQ(drawn + curve, 0u);
  } else {
    EXPECT_GT(drawn, 8 * 5000u) << "drawn numbering: most of a part's devices";
    EXPECT_LT(curve * 8, drawn) << "Hilbert numbering: " << curve << " bytes, drawn " << drawn;
  }
  const Network small = Network::randomGeometric(400, 1.6, 4, DeviceOrder::Hilbert);
  expectSameAsOneProcess<TypeParam>(lib::findProgram("collect-weighted")->build(small, {}), small,
                                    std::nullopt, "collect-weighted on a Hilbert-numbered rgg");
}

void expectSameCarry(const SimulationCarry& a, const SimulationCarry& b, const std::string& what) {
  EXPECT_EQ(a.rounds, b.rounds) << what;
  expectSameBits(a.states, b.states, what + ", states");
  expectSameBits(a.stateKeys, b.stateKeys, what + ", state keys");
  expectSameBits(a.exports, b.exports, what + ", exports");
  expectSameBits(a.presence, b.presence, what + ", presence keys");
  expectSameBits(a.output, b.output, what + ", output");
}

// The carry gathered from the ranks is one process's; restored into another partition (or
// into one process), the run goes on with one process's bits.
TYPED_TEST(Distributed, TheCarryIsOneProcessesAndRestoresIntoAnyPartition) {
  const int ranks = worldRanks();
  const Network net = Network::randomGeometric(300, 1.6, 4);
  const std::int64_t samples = 3;
  for (const lib::LibraryProgram& entry : lib::programs()) {
    const TracedProgram program = entry.build(net, {});
    BasicSimulation<TypeParam> whole(program, net, samples);
    setInputs(whole, program, net.devices(), samples);
    whole.run({5, 3, 4});
    BasicDistributedSimulation<TypeParam> sim(program, net, samples, MPI_COMM_WORLD);
    setInputs(sim, program, net.devices(), samples);
    sim.run({5, 3, 4});
    const SimulationCarry gathered = sim.carry(ranks - 1);
    if (sim.rank() == ranks - 1) expectSameCarry(gathered, whole.carry(), entry.name + ": carry");
    const SimulationCarry expected = whole.carry();
    BasicDistributedSimulation<TypeParam> resumed(program, net, samples, MPI_COMM_WORLD,
                                                  lopsided(net.devices(), ranks));
    setInputs(resumed, program, net.devices(), samples);
    resumed.restore(expected);
    resumed.run(7);
    whole.run(7);
    const SimulationCarry after = resumed.carry(0);
    if (resumed.rank() == 0) {
      expectSameCarry(after, whole.carry(), entry.name + ": restored and run");
      BasicSimulation<TypeParam> one(program, net, samples);  // the gathered carry, in one process
      setInputs(one, program, net.devices(), samples);
      one.restore(after);
      one.run(2);
      whole.run(2);
      expectSameBits(one.output(), whole.output(), entry.name + ": gathered carry in one process");
    }
  }
  const TracedProgram program = lib::findProgram("hop-gradient")->build(net, {});
  BasicDistributedSimulation<TypeParam> sim(program, net, samples, MPI_COMM_WORLD);
  SimulationCarry wrong = BasicSimulation<TypeParam>(program, net, samples).carry();
  wrong.exports = HostPlane("exports", 3, samples);
  EXPECT_EQ(errorOf([&] { sim.restore(wrong); }),
            "kfield::DistributedSimulation: restore: the carry's exports are 3 x 3, this "
            "simulation's 300 x 3");
}

// A part built without the whole network is the whole's part, and runs (collect-weighted: folds,
// an exchange's messages in the gathered carry) with the bits of one process.
template <class Space>
void expectRunsAsTheWhole(const Network& whole, const NetworkPart& part,
                          const DevicePartition& partition) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const std::string what = whole.description() + ", " + partition.text();
  const NetworkPart cut = NetworkPart::of(whole, partition.part(rank));
  EXPECT_EQ(part.ids, cut.ids) << what;
  EXPECT_EQ(part.network.offsets(), cut.network.offsets()) << what;
  EXPECT_EQ(part.network.neighbors(), cut.network.neighbors()) << what;
  EXPECT_EQ(part.network.lengths(), cut.network.lengths()) << what;
  EXPECT_EQ(part.network.x(), cut.network.x()) << what;
  EXPECT_EQ(part.network.description(), cut.network.description()) << what;
  EXPECT_EQ(part.name, whole.description()) << what;
  const TracedProgram program = lib::findProgram("collect-weighted")->build(whole, {});
  BasicSimulation<Space> one(program, whole, 2);
  setInputs(one, program, whole.devices(), 2);
  one.run(9);
  BasicDistributedSimulation<Space> sim(program, part, partition, 2, MPI_COMM_WORLD);
  setInputs(sim, program, whole.devices(), 2);
  sim.run(9);
  const SimulationCarry carry = sim.carry(0);
  if (rank == 0) expectSameCarry(carry, one.carry(), what);
}

// Each rank builds only its part of the grid: the same part as the whole grid's, and the bits
// (and the gathered carry, exchanges' messages included) of one process.
TYPED_TEST(Distributed, AGridBuiltByPartsRunsAsTheWholeGrid) {
  const int ranks = worldRanks();
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int hood : {4, 8}) {
    const Network whole = Network::grid(37, 23, hood);
    for (const DevicePartition& partition :
         {DevicePartition::blocks(whole.devices(), ranks), lopsided(whole.devices(), ranks)}) {
      expectRunsAsTheWhole<TypeParam>(whole, NetworkPart::grid(37, 23, hood, partition.part(rank)),
                                      partition);
    }
  }
  EXPECT_EQ(errorOf([] {
              NetworkPart::grid(0, 5, 4, {0, 0});
            }),
            "kfield::NetworkPart::grid: width and height must be >= 1, got 0x5");
  EXPECT_EQ(errorOf([] {
              NetworkPart::grid(4, 5, 4, {3, 21});
            }),
            "kfield::NetworkPart::grid: devices [3, 21) are not a run of the 20 devices of network "
            "'grid 4x5, 4 neighbors'");
  if (ranks > 1) {  // every rank passes rank 0's part: rank 1 is named, on every rank
    const NetworkPart wrong = NetworkPart::grid(10, 10, 4, {0, 100});
    std::vector<std::int64_t> bounds(std::size_t(ranks) + 1, 100);
    bounds[0] = 0;
    const TracedProgram program =
        lib::findProgram("hop-gradient")->build(Network::grid(10, 10), {});
    EXPECT_EQ(errorOf([&] {
                BasicDistributedSimulation<TypeParam>(
                    program, wrong, DevicePartition::fromBounds(bounds, 100), 1, MPI_COMM_WORLD);
              }),
              "kfield::DistributedSimulation: rank 1 holds devices [0, 100), but the partition "
              "gives it [100, 100)");
  }
}

// An rgg built by parts, in either numbering: each rank's part is the whole graph's, and the
// rounds run on the parts give one process's bits.
TYPED_TEST(Distributed, AnRggBuiltByPartsRunsAsTheWholeRgg) {
  const int ranks = worldRanks();
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (DeviceOrder order : {DeviceOrder::Drawn, DeviceOrder::Hilbert}) {
    const Network whole = Network::randomGeometric(1500, 1.4, 11, order);
    for (const DevicePartition& partition :
         {DevicePartition::blocks(whole.devices(), ranks), lopsided(whole.devices(), ranks)}) {
      expectRunsAsTheWhole<TypeParam>(
          whole, NetworkPart::randomGeometric(1500, 1.4, 11, order, partition.part(rank)),
          partition);
    }
  }
}

TYPED_TEST(Distributed, RunUntilStableStopsEverySampleWhereOneProcessDoes) {
  const Network net = Network::randomGeometric(400, 1.5, 9);
  const TracedProgram program = lib::findProgram("distance-gradient")->build(net, {});
  BasicSimulation<TypeParam> whole(program, net, 4);
  setInputs(whole, program, net.devices(), 4);
  const std::vector<std::int64_t> expected = whole.runUntilStable(200);
  BasicDistributedSimulation<TypeParam> sim(program, net, 4, MPI_COMM_WORLD,
                                            lopsided(net.devices(), worldRanks()));
  setInputs(sim, program, net.devices(), 4);
  EXPECT_EQ(sim.runUntilStable(200), expected);
  const HostPlane gathered = sim.gatherOutput(0);
  if (sim.rank() == 0) expectSameBits(gathered, whole.output(), "runUntilStable");
}

// Devices 40 and up start a process each; in round 2 device 39 hears two (from 40 and 48), on
// a rank other than the first. Every rank reports the first device over all ranks, as one
// process does.
TYPED_TEST(Distributed, ASpawnOverflowIsReportedAlikeOnEveryRank) {
  const Network net = Network::grid(9, 7);
  const TracedProgram program = trace(
      [](Program& p) {
        const Field<int> id = p.uid();
        const Field<int> round = p.remember(0, [](Field<int> r) { return r + 1; });
        const Field<int> launch = p.mux(round == 1 && id >= 40, id, p.constant(-1));
        return toDouble(p.spawn<double>(launch, 1, [&](const Field<int>& key) {
                           return std::make_pair(lib::hopGradient(p, id == key), round < 5);
                         }).count());
      },
      "keys-from-40");
  BasicSimulation<TypeParam> whole(program, net, 1);
  const std::string expected = errorOf([&] { whole.run(4); });
  EXPECT_NE(expected.find("device 39 would hold"), std::string::npos) << expected;
  BasicDistributedSimulation<TypeParam> sim(program, net, 1, MPI_COMM_WORLD);
  EXPECT_EQ(errorOf([&] { sim.run(4); }), expected);
}

// On a W x H grid cut into bands of whole rows, a rank sends each neighboring band one row of
// W devices per export and sample: O(sqrt(N / P)) bytes.
TYPED_TEST(Distributed, HaloBytesAreTheBandEdges) {
  const int ranks = worldRanks();
  const std::int64_t width = 40, height = 8 * ranks;
  const Network net = Network::grid(width, height);
  const TracedProgram program = lib::findProgram("hop-gradient")->build(net, {});
  BasicDistributedSimulation<TypeParam> sim(program, net, 5, MPI_COMM_WORLD);
  const std::int64_t peers = (sim.rank() > 0) + (sim.rank() + 1 < ranks);
  EXPECT_EQ(sim.haloPeers(), peers);
  EXPECT_EQ(sim.haloBytesPerRound(),
            std::uint64_t(peers * width * std::int64_t(program.exports.size()) * 5 * 8));
  EXPECT_EQ(sim.part().network.devices(), 8 * width + peers * width);
}

TYPED_TEST(Distributed, BadPartitionsAreRefused) {
  const int ranks = worldRanks();
  const Network net = Network::grid(10, 10);
  const TracedProgram program = lib::findProgram("hop-gradient")->build(net, {});
  const DevicePartition other = DevicePartition::blocks(100, ranks + 1);
  EXPECT_EQ(errorOf([&] {
              BasicDistributedSimulation<TypeParam>(program, net, 1, MPI_COMM_WORLD, other);
            }),
            "kfield::DistributedSimulation: the partition has " + std::to_string(ranks + 1) +
                " parts of 100 devices, for " + std::to_string(ranks) + " ranks and 100 devices");
  BasicDistributedSimulation<TypeParam> sim(program, net, 1, MPI_COMM_WORLD);
  EXPECT_EQ(errorOf([&] { sim.sumOverDevices(1); }),
            "kfield::DistributedSimulation: sumOverDevices: component 1 is not in [0, 1)");
  EXPECT_EQ(errorOf([&] { DevicePartition::fromSpec("bounds:9,3", 100, 3); }),
            "kfield::DevicePartition: partition 'bounds:9,3': bound 3 is below bound 9");
  EXPECT_EQ(errorOf([&] { DevicePartition::fromSpec("bounds:9", 100, 3); }),
            "kfield::DevicePartition: partition 'bounds:9': 1 inner bounds for 3 parts (give 2)");
  EXPECT_EQ(errorOf([&] { DevicePartition::fromSpec("bounds:9,x", 100, 3); }),
            "kfield::DevicePartition: partition 'bounds:9,x': 'x' is not a whole number");
  EXPECT_EQ(errorOf([&] { DevicePartition::fromSpec("bounds:9,120", 100, 3); }),
            "kfield::DevicePartition: partition 'bounds:9,120': bound 100 is below bound 120");
  EXPECT_EQ(errorOf([&] { DevicePartition::fromSpec("stripes", 100, 3); }),
            "kfield::DevicePartition: partition 'stripes': give 'blocks' or 'bounds:B1,B2,...'");
  EXPECT_EQ(DevicePartition::fromSpec("bounds:0,40", 100, 3).text(),
            "3 parts: [0, 0) [0, 40) [40, 100)");
  EXPECT_EQ(DevicePartition::blocks(10, 4).bounds(), (std::vector<std::int64_t>{0, 3, 6, 8, 10}));
  EXPECT_EQ(DevicePartition::fromSpec("bounds:0,40", 100, 3).ownerOf(0), 1);
}

}  // namespace
}  // namespace kfield::test
