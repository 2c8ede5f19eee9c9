#include "support/ErrorOf.hpp"
#include "support/FieldReference.hpp"
#include "support/TestSpaces.hpp"

#include <kfield/field/Library.hpp>
#include <kfield/field/Programs.hpp>
#include <kfield/sim/Simulation.hpp>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

namespace kfield::test {
namespace {

template <class Space>
class Simulation : public ::testing::Test {};
TYPED_TEST_SUITE(Simulation, Spaces, SpaceNames);

template <class Space>
using Sim = BasicSimulation<Space>;

TracedProgram hopProgram() {
  return trace([](Program& p) { return lib::hopGradient(p, p.sense<bool>("source")); }, "hop");
}
TracedProgram distanceProgram() {
  return trace([](Program& p) { return lib::distanceGradient(p, p.sense<bool>("source")); },
               "distance");
}

TYPED_TEST(Simulation, HopGradientIsBreadthFirstSearchForEverySample) {
  const Network net = Network::randomGeometric(4000, 1.6, 5);
  const std::vector<std::vector<std::int64_t>> sources{{0}, {17, 3000}, {3999}};
  Sim<TypeParam> sim(hopProgram(), net, 3);
  for (std::size_t s = 0; s < sources.size(); ++s) {
    for (auto d : sources[s]) sim.sensor("source").set(d, std::int64_t(s), true);
  }
  sim.runUntilStable(10000);
  const auto out = sim.output();
  for (std::size_t s = 0; s < sources.size(); ++s) {
    const auto hops = bfsHops(net, sources[s]);
    for (std::int64_t d = 0; d < net.devices(); ++d) {
      ASSERT_EQ(out(d, s), hops[d]) << "sample " << s << " device " << d;
    }
  }
}

// In the synchronous model a device k hops away is exact from round k + 1 on.
TYPED_TEST(Simulation, HopGradientConvergesOneHopPerRound) {
  const Network net = Network::grid(30, 20, 8);
  const auto hops = bfsHops(net, {31});
  for (std::int64_t rounds : {1, 2, 5, 12, 40}) {
    Sim<TypeParam> sim(hopProgram(), net, 1);
    sim.sensor("source").set(31, true);
    sim.run(rounds);
    const auto out = sim.output();
    for (std::int64_t d = 0; d < net.devices(); ++d) {
      if (hops[d] <= rounds - 1) {
        ASSERT_EQ(out(d, 0), hops[d]) << rounds << " rounds, device " << d;
      } else {
        ASSERT_GT(out(d, 0), rounds - 1) << rounds << " rounds, device " << d;
      }
    }
  }
}

TYPED_TEST(Simulation, DistanceGradientIsDijkstraBitForBit) {
  const Network net = Network::randomGeometric(3000, 1.8, 11);
  Sim<TypeParam> sim(distanceProgram(), net, 2);
  sim.sensor("source").set(5, 0, true).set(2000, 1, true).set(2999, 1, true);
  sim.runUntilStable(100000);
  const auto out = sim.output();
  const std::vector<std::vector<std::int64_t>> sources{{5}, {2000, 2999}};
  for (int s = 0; s < 2; ++s) {
    const auto dist = dijkstra(net, sources[s]);
    for (std::int64_t d = 0; d < net.devices(); ++d) {
      ASSERT_EQ(bitsOf(out(d, s)), bitsOf(dist[d])) << "sample " << s << " device " << d;
    }
  }
}

// A line 0 - 1 - 2, source at 0, edges of length 2: the rounds by hand.
TYPED_TEST(Simulation, LineOfThreeRoundByRound) {
  const std::string path = ::testing::TempDir() + "kfield_line.txt";
  { std::ofstream(path) << "0 1 2\n1 2 2\n"; }
  const Network net = Network::fromEdgeList(path);
  const double inf = lib::kInfinity;
  const std::vector<std::vector<double>> expected{{0, inf, inf}, {0, 2, inf}, {0, 2, 4}, {0, 2, 4}};
  Sim<TypeParam> sim(distanceProgram(), net, 1);
  sim.sensor("source").set(0, true);
  for (const auto& row : expected) {
    sim.run(1);
    const auto out = sim.output();
    for (int d = 0; d < 3; ++d) EXPECT_EQ(out(d, 0), row[d]) << "round " << sim.rounds()[0];
  }
  // the plain rep + nbr form moves one hop every two rounds: 0, inf.. then 2 at round 3
  auto slow = trace([](Program& p) {
    const auto source = p.sense<bool>("source");
    return p.remember(lib::kInfinity, [&](kfield::Field<double> d) {
      return p.mux(source, 0.0, (p.neighbors(d) + p.edgeLength()).excludeSelf().min());
    });
  });
  Sim<TypeParam> slowSim(slow, net, 1);
  slowSim.sensor("source").set(0, true);
  slowSim.run(2);
  EXPECT_EQ(slowSim.output()(1, 0), inf);
  slowSim.run(1);
  EXPECT_EQ(slowSim.output()(1, 0), 2.0);
}

// Per-sample stop rounds: each sample ends exactly as a run of its own length would.
TYPED_TEST(Simulation, SamplesStoppingAtDifferentRoundsMatchSeparateRuns) {
  const Network net = Network::grid(40, 40);
  const std::vector<std::int64_t> rounds{3, 30, 0, 11, 30, 7};
  Sim<TypeParam> batch(distanceProgram(), net, 6);
  for (int s = 0; s < 6; ++s) batch.sensor("source").set(s * 200 + 7, s, true);
  batch.run(rounds);
  const auto out = batch.output();
  for (int s = 0; s < 6; ++s) {
    Sim<TypeParam> alone(distanceProgram(), net, 1);
    alone.sensor("source").set(s * 200 + 7, true);
    alone.run(rounds[s]);
    const auto one = alone.output();
    for (std::int64_t d = 0; d < net.devices(); ++d) {
      ASSERT_EQ(bitsOf(out(d, s)), bitsOf(one(d, 0))) << "sample " << s << " device " << d;
    }
    EXPECT_EQ(batch.rounds()[s], rounds[s]);
  }
}

#ifdef KOKKOS_ENABLE_SERIAL
TYPED_TEST(Simulation, SameBitsAsSerial) {
  const Network net = Network::randomGeometric(5000, 1.5, 2);
  auto program = trace([](Program& p) {
    const auto d = lib::distanceGradient(p, p.sense<bool>("source"));
    return (p.neighbors(d) * p.edgeLength()).sum() / 3.0;  // a sum in CSR order
  });
  auto run = [&](auto space) {
    Sim<decltype(space)> sim(program, net, 4);
    for (int s = 0; s < 4; ++s) sim.sensor("source").set(s * 1000 + 1, s, true);
    sim.run(25);
    return sim.output();
  };
  const auto here = run(TypeParam()), serial = run(Kokkos::Serial());
  for (std::int64_t d = 0; d < net.devices(); ++d) {
    for (int s = 0; s < 4; ++s) ASSERT_EQ(bitsOf(here(d, s)), bitsOf(serial(d, s))) << d;
  }
}
#endif

// A parameter is read by every device, the same everywhere; a run waits until each is set.
TYPED_TEST(Simulation, ParametersAreSetBeforeARunAndReadEverywhere) {
  const TracedProgram program = trace(
      [](Program& p) {
        const auto w = p.parameter("w", 2);
        return w[0] * toDouble(p.uid()) + w[1] + p.parameter("w", 2)[1];
      },
      "weights");
  ASSERT_EQ(program.parameters.size(), 1u);
  EXPECT_EQ(program.parameterWidth(), 2);
  const Network net = Network::grid(5, 1);
  Sim<TypeParam> sim(program, net, 2);
  EXPECT_EQ(errorOf([&] { sim.run(1); }),
            "kfield::Simulation: program 'weights': parameter 'w' is not set");
  EXPECT_EQ(errorOf([&] { sim.parameter("w", {1.0}); }),
            "kfield::Simulation: parameter 'w' has width 2, got 1 values");
  EXPECT_EQ(errorOf([&] { sim.parameter("v", {1.0}); }),
            "kfield::Simulation: program 'weights' has no parameter named 'v'");
  sim.parameter("w", {0.5, 0.25});
  sim.run(1);
  const auto out = sim.output();
  for (std::int64_t d = 0; d < 5; ++d) {
    for (std::int64_t s = 0; s < 2; ++s) EXPECT_EQ(out(d, s), 0.5 * double(d) + 0.5);
  }
  EXPECT_EQ(errorOf([] {
              trace([](Program& p) {
                const auto first = p.parameter("w", 2);
                return first[0] + p.parameter("w", 3)[0];
              });
            }),
            "kfield::trace: parameter 'w' is declared with widths 2 and 3");
  EXPECT_EQ(errorOf([] { trace([](Program& p) { return p.parameter("w", 0)[0]; }); }),
            "kfield::trace: parameter 'w': width must be >= 1, got 0");
}

TYPED_TEST(Simulation, BadSimulationInputIsRefusedByName) {
  const Network net = Network::grid(3, 3);
  Sim<TypeParam> sim(hopProgram(), net, 2);
  EXPECT_EQ(errorOf([&] { sim.sensor("obstacle"); }),
            "kfield::Simulation: program 'hop' reads no sensor named 'obstacle'");
  EXPECT_EQ(errorOf([&] { sim.sensor("source").set(9, true); }),
            "kfield::Simulation: sensor 'source': device 9 is not in [0, 9)");
  EXPECT_EQ(errorOf([&] { sim.sensor("source").set(0, 2, true); }),
            "kfield::Simulation: sensor 'source': sample 2 is not in [0, 2)");
  EXPECT_EQ(errorOf([&] { sim.sensor("source").set(4, 2.5); }),
            "kfield::Simulation: sensor 'source' is boolean (0 or 1), got 2.5 at device 4");
  EXPECT_EQ(errorOf([&] { sim.run(-1); }), "kfield::Simulation: rounds must be >= 0, got -1");
  EXPECT_EQ(errorOf([&] { sim.run(std::vector<std::int64_t>{1}); }),
            "kfield::Simulation: run: 1 round counts for 2 samples");
  EXPECT_EQ(errorOf([&] { Sim<TypeParam>(hopProgram(), net, 0); }),
            "kfield::Simulation: samples must be >= 1, got 0");
  const Network bare = Network::fromCsr({0, 2, 4}, {0, 1, 0, 1}, {}, {}, {}, "two devices");
  EXPECT_EQ(errorOf([&] {
              Sim<TypeParam>(lib::findProgram("distance-gradient")->build(bare, {}), bare, 1);
            }),
            "kfield::Simulation: program 'distance-gradient' reads edge lengths, but network 'two "
            "devices' has none "
            "(neither lengths nor positions)");
}

}  // namespace
}  // namespace kfield::test

namespace kfield::test {
namespace {

// Every library program, three samples with their own sources: stopped after `first` rounds
// (or once stable), its carry restored into a new simulation, continued: the same bits as a
// run that never stopped, and the same carry.
template <class Space>
BasicSimulation<Space> libraryRun(const lib::LibraryProgram& p, const Network& net) {
  BasicSimulation<Space> sim(p.build(net, {}), net, 3);
  for (const lib::ParameterDefault& d : p.parameters) {
    sim.parameter(d.name, lib::defaultParameter(p, d.name, net));
  }
  for (std::int64_t s = 0; s < 3; ++s) {
    for (const std::string& name : p.sensors) {
      if (name == "source") sim.sensor(name).set(7 * s, s, true);
      if (name == "destination") sim.sensor(name).set(net.devices() - 1 - s, s, true);
      if (name == "obstacle") sim.sensor(name).set(13 + s, s, true);
      if (name == "value") {
        for (std::int64_t d = 0; d < net.devices(); ++d)
          sim.sensor(name).set(d, s, double(d % 5) + s);
      }
    }
  }
  return sim;
}

std::vector<std::uint64_t> bitsOfPlane(const HostPlane& p) {
  std::vector<std::uint64_t> bits;
  for (std::size_t r = 0; r < p.extent(0); ++r) {
    for (std::size_t c = 0; c < p.extent(1); ++c) bits.push_back(bitsOf(p(r, c)));
  }
  return bits;
}

void expectSameCarry(const SimulationCarry& a, const SimulationCarry& b, const std::string& what) {
  EXPECT_EQ(a.rounds, b.rounds) << what;
  EXPECT_EQ(bitsOfPlane(a.states), bitsOfPlane(b.states)) << what;
  EXPECT_EQ(bitsOfPlane(a.stateKeys), bitsOfPlane(b.stateKeys)) << what;
  EXPECT_EQ(bitsOfPlane(a.exports), bitsOfPlane(b.exports)) << what;
  EXPECT_EQ(bitsOfPlane(a.presence), bitsOfPlane(b.presence)) << what;
  EXPECT_EQ(bitsOfPlane(a.output), bitsOfPlane(b.output)) << what;
}

TYPED_TEST(Simulation, ARestoredCarryContinuesBitForBit) {
  const Network net = Network::grid(9, 6);
  for (const lib::LibraryProgram& p : lib::programs()) {
    auto whole = libraryRun<TypeParam>(p, net);
    whole.run({12, 9, 11});  // samples stop at different rounds: positions reorder
    whole.run(3);
    auto first = libraryRun<TypeParam>(p, net);
    first.run({7, 9, 4});
    auto second = libraryRun<TypeParam>(p, net);
    second.restore(first.carry());
    second.run({5, 0, 7});
    second.run(3);
    EXPECT_EQ(bitsOfPlane(second.output()), bitsOfPlane(whole.output())) << p.name;
    expectSameCarry(second.carry(), whole.carry(), p.name);

    auto stable = libraryRun<TypeParam>(p, net);  // until stable, stopped and resumed
    stable.runUntilStable(5);
    auto resumed = libraryRun<TypeParam>(p, net);
    resumed.restore(stable.carry());
    resumed.runUntilStable(200);
    auto straight = libraryRun<TypeParam>(p, net);
    straight.runUntilStable(205);
    EXPECT_EQ(bitsOfPlane(resumed.output()), bitsOfPlane(straight.output()))
        << p.name << " until stable";
  }
}

// A sample that stops while others run on, then runs again, reads its own last exports: the
// same bits as running its rounds in one go (each round swaps the export planes of every
// column, the stopped ones' too).
TYPED_TEST(Simulation, ASampleThatStoppedContinuesFromItsOwnLastRound) {
  const Network net = Network::grid(9, 6);
  for (const lib::LibraryProgram& p : lib::programs()) {
    auto resumed = libraryRun<TypeParam>(p, net);
    resumed.run({9, 4, 6});
    resumed.run({5, 5, 0});
    resumed.run({0, 2, 3});
    auto straight = libraryRun<TypeParam>(p, net);
    straight.run({14, 11, 9});
    EXPECT_EQ(bitsOfPlane(resumed.output()), bitsOfPlane(straight.output())) << p.name;
    expectSameCarry(resumed.carry(), straight.carry(), p.name);
  }
}

// Lowers the team scratch a round may ask for while in scope (0: the backend's own limit).
struct ScratchCap {
  explicit ScratchCap(std::uint64_t bytes) { impl::roundScratchCap() = bytes; }
  ~ScratchCap() { impl::roundScratchCap() = 0; }
};

// Smaller tiles in team scratch, and values spilled to the space's memory with each team
// walking several tiles: the same bits and the same carry as the backend's own tiles.
TYPED_TEST(Simulation, SmallerTilesAndSpilledValuesGiveTheSameBits) {
  const Network net = Network::grid(23, 17);
  for (const lib::LibraryProgram& p : lib::programs()) {
    auto plain = libraryRun<TypeParam>(p, net);
    plain.run({12, 9, 11});
    const std::uint64_t perDevice = std::uint64_t(std::max(plain.program().slots, 1)) * 3 * 8;
    for (std::uint64_t cap : {5 * perDevice, perDevice, std::uint64_t(1)}) {
      const ScratchCap scoped(cap);
      auto capped = libraryRun<TypeParam>(p, net);
      capped.run({12, 9, 11});
      const std::string what = p.name + ", team scratch capped at " + std::to_string(cap);
      EXPECT_EQ(bitsOfPlane(capped.output()), bitsOfPlane(plain.output())) << what;
      expectSameCarry(capped.carry(), plain.carry(), what);
    }
  }
}

TEST(RoundScratch, TilesShrinkToTheLimitThenValuesSpill) {
  // 10 slots, 4 live samples: 320 bytes a device; 128 devices a tile of 512 elements.
  auto plan = impl::planRoundScratch(10, 4, 1000, 512, 512, 1 << 20, 8);
  EXPECT_EQ(plan.tileDevices, 128);
  EXPECT_EQ(plan.tiles, 8);
  EXPECT_EQ(plan.teamBytes, 40960u);
  EXPECT_FALSE(plan.spill);
  EXPECT_EQ(plan.teams, 8);
  plan = impl::planRoundScratch(10, 4, 1000, 512, 512, 40000, 8);  // 125 devices fit
  EXPECT_EQ(plan.tileDevices, 125);
  EXPECT_EQ(plan.tiles, 8);
  EXPECT_EQ(plan.teamBytes, 40000u);
  EXPECT_FALSE(plan.spill);
  // 50 slots x 1000 samples is 400 kB a device, over a GPU's ~40 KiB: spilled, one device a
  // tile, as many teams as run at once.
  plan = impl::planRoundScratch(50, 1000, 100000, 256, 256, 40936, 2112);
  EXPECT_EQ(plan.tileDevices, 1);
  EXPECT_EQ(plan.tiles, 100000);
  EXPECT_EQ(plan.teamBytes, 400000u);
  EXPECT_TRUE(plan.spill);
  EXPECT_EQ(plan.teams, 2112);
  plan = impl::planRoundScratch(50, 1000, 7, 256, 256, 40936, 2112);  // fewer tiles than teams
  EXPECT_EQ(plan.teams, 7);
  // A tile no larger than the network.
  plan = impl::planRoundScratch(3, 2, 5, 512, 512, 1 << 20, 8);
  EXPECT_EQ(plan.tileDevices, 5);
  EXPECT_EQ(plan.tiles, 1);
  // Sizes that overflow 64 bits saturate: spilled, and refused when the buffer is allocated.
  plan = impl::planRoundScratch(1 << 30, std::int64_t(1) << 40, 4, 512, 512, 1 << 20, 8);
  EXPECT_TRUE(plan.spill);
  EXPECT_EQ(plan.teamBytes, impl::kSaturated);
}

TEST(RoundScratch, LongTilesShortenToGiveEveryTeamSeveral) {
  // Tiles of 8192 device-samples where each of the teams running at once still gets
  // kTilesPerTeam (8) of them, else shorter, down to 512.
  auto plan = impl::planRoundScratch(6, 1, 1000000, 8192, 512, 1 << 26, 2);
  EXPECT_EQ(plan.tileDevices, 8192);
  EXPECT_EQ(plan.tiles, 123);
  plan = impl::planRoundScratch(6, 64, 10000, 8192, 512, 1 << 26, 2);  // 64 samples a device
  EXPECT_EQ(plan.tileDevices, 128);
  EXPECT_EQ(plan.tiles, 79);
  plan = impl::planRoundScratch(6, 1, 10000, 8192, 512, 1 << 26, 2);  // 16 tiles for 2 teams
  EXPECT_EQ(plan.tileDevices, 625);
  EXPECT_EQ(plan.tiles, 16);
  plan = impl::planRoundScratch(6, 1, 10000, 8192, 512, 1 << 26, 16);  // no shorter than 512
  EXPECT_EQ(plan.tileDevices, 512);
  EXPECT_EQ(plan.tiles, 20);
  plan = impl::planRoundScratch(6, 64, 10000, 8192, 512, 1 << 26, 16);
  EXPECT_EQ(plan.tileDevices, 79);  // 10000 / 128 teams' tiles, over 8 devices of 64 samples
  EXPECT_EQ(plan.tiles, 127);
}

TYPED_TEST(Simulation, ACarryOfAnotherShapeIsRefused) {
  const Network net = Network::grid(9, 6);
  const lib::LibraryProgram& hop = *lib::findProgram("hop-gradient");
  auto sim = libraryRun<TypeParam>(hop, net);
  SimulationCarry c = sim.carry();
  c.rounds.pop_back();
  EXPECT_EQ(errorOf([&] { sim.restore(c); }),
            "kfield::Simulation: restore: the carry has round counts for 2 samples, not 3");
  const Network other = Network::grid(9, 5);
  auto small = libraryRun<TypeParam>(hop, other);
  EXPECT_EQ(
      errorOf([&] { sim.restore(small.carry()); }),
      "kfield::Simulation: restore: the carry's exports are 45 x 3, this simulation's 54 x 3");
}

}  // namespace
}  // namespace kfield::test
