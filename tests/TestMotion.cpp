// Moving devices (Simulation with a Motion): the neighborhoods rebuilt on the device equal a
// from-scratch Network::fromPositions every round, a moving run equals a chain of still
// simulations, one per round, each on that round's network (exchanges' messages carried
// across by a host reference of the rule), and the models move devices as they say.
#include "support/ErrorOf.hpp"
#include "support/LibraryRuns.hpp"
#include "support/TempFolder.hpp"
#include "support/TestSpaces.hpp"

#include <kfield/field/Program.hpp>
#include <kfield/field/Programs.hpp>
#include <kfield/impl/Bits.hpp>
#include <kfield/sim/Simulation.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

namespace kfield::test {
namespace {

template <class Space>
class Moving : public ::testing::Test {};
TYPED_TEST_SUITE(Moving, Spaces, SpaceNames);

void expectSameNetwork(const Network& got, const Network& want, const std::string& what) {
  ASSERT_EQ(got.offsets(), want.offsets()) << what;
  ASSERT_EQ(got.neighbors(), want.neighbors()) << what;
  const std::vector<double> a = got.lengths(), b = want.lengths();
  for (std::size_t k = 0; k < a.size(); ++k)
    ASSERT_TRUE(sameBits(a[k], b[k])) << what << ": entry " << k;
}

// The rule for an exchange's messages when neighborhoods change, on the host: what device d
// sent neighbor j stays d's message to j while j stays its neighbor; a new neighbor reads d's
// own entry (the sent field outside its domain).
HostPlane moveMessages(const HostPlane& exports, const TracedProgram& program,
                       const Network& before, const Network& after) {
  const std::int64_t n = before.devices();
  const auto edgeRow = static_cast<std::int64_t>(program.exports.size()) * n;
  const std::int64_t oldEntries = before.entries(), newEntries = after.entries();
  HostPlane moved("moved", std::size_t(edgeRow + program.edgePlanes * newEntries),
                  exports.extent(1));
  for (std::int64_t r = 0; r < edgeRow; ++r) {
    for (std::size_t s = 0; s < exports.extent(1); ++s) moved(r, s) = exports(r, s);
  }
  for (std::size_t i = 0; i < program.exports.size(); ++i) {
    const std::int64_t e = program.exports[i].edge;
    if (e < 0) continue;
    for (std::int64_t d = 0; d < n; ++d) {
      const std::vector<std::int32_t> was = before.neighborsOf(d);
      for (std::int64_t k = after.offsets()[d]; k < after.offsets()[d + 1]; ++k) {
        const std::int32_t j = after.neighbors()[k];
        const auto at = std::find(was.begin(), was.end(), j);
        const std::int64_t src =
            at == was.end() ? std::int64_t(i) * n + d
                            : edgeRow + e * oldEntries + before.offsets()[d] + (at - was.begin());
        for (std::size_t s = 0; s < exports.extent(1); ++s)
          moved(edgeRow + e * newEntries + k, s) = exports(src, s);
      }
    }
  }
  return moved;
}

Motion motionOf(Motion::Model model, double speed, double radius, std::int64_t rebuildEvery) {
  Motion m;
  m.model = model, m.speed = speed, m.radius = radius, m.rebuildEvery = rebuildEvery, m.seed = 7;
  return m;
}

TYPED_TEST(Moving, RebuiltNeighborhoodsEqualAFromScratchBuildEveryRound) {
  const TracedProgram program = lib::programs().front().build(Network::grid(2, 2), {});
  for (const Motion::Model model : {Motion::Model::Straight, Motion::Model::Waypoint}) {
    for (const std::int64_t every : {1, 3}) {
      const Network start = Network::randomGeometric(500, 1.5, 3);
      BasicSimulation<TypeParam> sim(program, start, 2, motionOf(model, 0.7, 1.5, every));
      setInputs(sim, program, start.devices(), 2);
      std::vector<double> builtX = start.x(), builtY = start.y();
      for (int r = 0; r < 12; ++r) {
        const std::string what = std::string(Motion::modelName(model)) + ", every " +
                                 std::to_string(every) + ", round " + std::to_string(r);
        expectSameNetwork(sim.network(), Network::fromPositions(builtX, builtY, 1.5), what);
        sim.run(1);
        const auto [x, y] = sim.positions();
        const Motion m = *sim.motion();
        for (std::size_t d = 0; d < x.size(); ++d) {
          ASSERT_TRUE(x[d] >= m.xmin && x[d] <= m.xmax && y[d] >= m.ymin && y[d] <= m.ymax) << what;
        }
        if ((r + 1) % every == 0) builtX = x, builtY = y;
      }
      // The devices did move: some neighborhoods are new.
      EXPECT_NE(sim.network().neighbors(), start.neighbors());
    }
  }
}

// Straight: every device moves `speed` per round along its own direction, turning only at the
// area's sides; Waypoint: `speed` towards its waypoint, or onto it.
TYPED_TEST(Moving, ModelsMoveDevicesAtTheirSpeed) {
  const TracedProgram program = lib::programs().front().build(Network::grid(2, 2), {});
  const Network start = Network::randomGeometric(300, 1.5, 8);
  for (const Motion::Model model : {Motion::Model::Straight, Motion::Model::Waypoint}) {
    BasicSimulation<TypeParam> sim(program, start, 1, motionOf(model, 0.3, 1.5, 1));
    setInputs(sim, program, start.devices(), 1);
    auto [x0, y0] = sim.positions();
    std::int64_t full = 0, shorter = 0, straightTurns = 0;
    std::vector<double> dx0(x0.size(), 0.0), dy0(x0.size(), 0.0);
    for (int r = 0; r < 30; ++r) {
      sim.run(1);
      const auto [x, y] = sim.positions();
      for (std::size_t d = 0; d < x.size(); ++d) {
        const double dx = x[d] - x0[d], dy = y[d] - y0[d];
        const double step = std::sqrt(dx * dx + dy * dy);
        ASSERT_LE(step, 0.3 + 1e-12) << Motion::modelName(model) << " device " << d;
        (step > 0.3 - 1e-12 ? full : shorter) += 1;
        if (model == Motion::Model::Straight && r > 0 &&
            std::abs(dx * dy0[d] - dy * dx0[d]) > 1e-12) {
          ++straightTurns;
        }
        dx0[d] = dx, dy0[d] = dy;
      }
      x0 = x, y0 = y;
    }
    EXPECT_GT(full, 20 * shorter) << Motion::modelName(model);
    // Turns only at the sides: a device crosses the area (side 17) in about 57 rounds.
    if (model == Motion::Model::Straight) {
      EXPECT_LT(straightTurns, 300 * 30 / 10);
    }
  }
}

// A moving run equals a chain of still simulations, one round each, on that round's network,
// restored from the round before: states and exports carried, exchanges' messages moved by
// the host rule. Two samples.
template <class Space>
void expectStillRoundsOnEachRoundsNetwork(const TracedProgram& program, const Network& start,
                                          const Motion& motion, int rounds,
                                          const std::string& what) {
  BasicSimulation<Space> sim(program, start, 2, motion);
  setInputs(sim, program, start.devices(), 2);
  SimulationCarry carry = sim.carry();
  carry.motion.reset();
  Network before = sim.network();
  for (int r = 0; r < rounds; ++r) {
    const Network now = sim.network();
    carry.exports = moveMessages(carry.exports, program, before, now);
    BasicSimulation<Space> still(program, now, 2);
    setInputs(still, program, start.devices(), 2);
    still.restore(carry);
    still.run(1);
    sim.run(1);
    expectSameBits(sim.output(), still.output(), what + ", round " + std::to_string(r));
    carry = still.carry();
    before = now;
  }
}

// Every library program, rebuilt every round and every 2.
TYPED_TEST(Moving, ARunEqualsStillRoundsOnEachRoundsNetwork) {
  const Network start = Network::randomGeometric(160, 1.7, 5);
  for (const lib::LibraryProgram& entry : lib::programs()) {
    const TracedProgram program = entry.build(start, {});
    for (const std::int64_t every : {1, 2}) {
      expectStillRoundsOnEachRoundsNetwork<TypeParam>(
          program, start, motionOf(Motion::Model::Waypoint, 0.6, 1.7, every), 8,
          entry.name + ", every " + std::to_string(every));
    }
  }
}

// Crowded devices: rows longer than 16 entries and more than 64 candidates around a device
// take the rebuild's other paths; rows and edge lengths (the distance gradient reads them)
// must still be a from-scratch build's.
TYPED_TEST(Moving, CrowdedNeighborhoodsEqualAFromScratchBuild) {
  const auto distance =
      std::find_if(lib::programs().begin(), lib::programs().end(),
                   [](const lib::LibraryProgram& e) { return e.name == "distance-gradient"; });
  ASSERT_NE(distance, lib::programs().end());
  for (const double radius : {2.4, 3.2, 5.0}) {
    const Network start = Network::randomGeometric(300, radius, 4);
    const std::string what = "radius " + std::to_string(radius);
    std::int64_t longest = 0;
    for (std::int64_t d = 0; d < start.devices(); ++d) {
      longest = std::max<std::int64_t>(longest, start.offsets()[d + 1] - start.offsets()[d]);
    }
    EXPECT_GT(longest, 16) << what;
    const Motion motion = motionOf(Motion::Model::Waypoint, 0.8, radius, 1);
    BasicSimulation<TypeParam> sim(lib::programs().front().build(start, {}), start, 1, motion);
    setInputs(sim, sim.program(), start.devices(), 1);
    for (int r = 0; r < 4; ++r) {
      const auto [x, y] = sim.positions();
      expectSameNetwork(sim.network(), Network::fromPositions(x, y, radius),
                        what + ", round " + std::to_string(r));
      sim.run(1);
    }
    expectStillRoundsOnEachRoundsNetwork<TypeParam>(distance->build(start, {}), start, motion, 4,
                                                    what);
  }
}

TYPED_TEST(Moving, AScheduleOfOnePeriodGivesTheBitsOfSynchronousRounds) {
  const Network start = Network::randomGeometric(200, 1.6, 2);
  for (const lib::LibraryProgram& entry : lib::programs()) {
    const TracedProgram program = entry.build(start, {});
    const Motion motion = motionOf(Motion::Model::Straight, 0.4, 1.6, 2);
    BasicSimulation<TypeParam> rounds(program, start, 2, motion);
    BasicSimulation<TypeParam> periods(program, start, 2, {Schedule{1.0, 0.0, 3}, motion});
    setInputs(rounds, program, start.devices(), 2);
    setInputs(periods, program, start.devices(), 2);
    rounds.run(5), periods.run(5);
    rounds.run(2), periods.run(2);
    expectSameBits(rounds.output(), periods.output(), entry.name);
    EXPECT_EQ(rounds.positions(), periods.positions()) << entry.name;
  }
}

TYPED_TEST(Moving, RestoringACarryContinuesBitForBit) {
  const Network start = Network::randomGeometric(200, 1.6, 6);
  for (const char* name : {"collect-weighted", "hop-gradient"}) {
    const auto it = std::find_if(lib::programs().begin(), lib::programs().end(),
                                 [&](const lib::LibraryProgram& e) { return e.name == name; });
    ASSERT_NE(it, lib::programs().end()) << name;
    const TracedProgram program = it->build(start, {});
    const Motion motion = motionOf(Motion::Model::Waypoint, 0.5, 1.6, 3);
    BasicSimulation<TypeParam> whole(program, start, 2, motion), first(program, start, 2, motion);
    setInputs(whole, program, start.devices(), 2);
    setInputs(first, program, start.devices(), 2);
    whole.run(10);
    first.run(4);
    BasicSimulation<TypeParam> second(program, start, 2, motion);
    setInputs(second, program, start.devices(), 2);
    second.restore(first.carry());
    second.run(6);
    expectSameBits(whole.output(), second.output(), name);
    EXPECT_EQ(whole.positions(), second.positions()) << name;
    EXPECT_EQ(whole.network().neighbors(), second.network().neighbors()) << name;
    // A still simulation refuses the carry, and the other way round.
    BasicSimulation<TypeParam> still(program, start, 2);
    EXPECT_NE(errorOf([&] {
                still.restore(first.carry());
              }).find("restore: the carry is of a run of devices moving (waypoint"),
              std::string::npos);
    EXPECT_NE(errorOf([&] {
                second.restore(still.carry());
              }).find("restore: the carry is of a run on a still network"),
              std::string::npos);
  }
}

// The velocity model: the program's output (x, y) moves the devices, bouncing at the sides.
TYPED_TEST(Moving, TheProgramsOutputCanBeTheVelocity) {
  const auto program = trace([](Program& p) {
    const auto k = p.sense<double>("k");
    return p.tuple(k * 0.25, p.constant(-0.5));
  });
  const Network start = Network::grid(6, 5);  // area [0, 5] x [0, 4]
  BasicSimulation<TypeParam> sim(program, start, 1, motionOf(Motion::Model::Velocity, 0.0, 1.0, 1));
  for (std::int64_t d = 0; d < start.devices(); ++d) sim.sensor("k").set(d, double(d % 3));
  sim.run(3);
  const auto [x, y] = sim.positions();
  const std::vector<double> x0 = start.x(), y0 = start.y();
  auto reflect = [](double v, double lo, double hi) {  // a step is shorter than the area
    return v < lo ? 2 * lo - v : v > hi ? 2 * hi - v : v;
  };
  for (std::int64_t d = 0; d < start.devices(); ++d) {
    // Each round's output moves the devices after it: three rounds, three steps.
    double wx = x0[d], wy = y0[d];
    for (int r = 0; r < 3; ++r)
      wx = reflect(wx + 0.25 * double(d % 3), 0, 5), wy = reflect(wy - 0.5, 0, 4);
    EXPECT_EQ(x[d], wx) << d;
    EXPECT_EQ(y[d], wy) << d;
  }
  const auto infinite = trace([](Program& p) {
    const auto k = p.sense<double>("k");
    return p.tuple(p.constant(1.0) / k, k);
  });
  BasicSimulation<TypeParam> bad(infinite, start, 1,
                                 motionOf(Motion::Model::Velocity, 0.0, 1.0, 1));
  for (std::int64_t d = 0; d < start.devices(); ++d) bad.sensor("k").set(d, d == 4 ? 0.0 : 1.0);
  EXPECT_EQ(errorOf([&] { bad.run(1); }),
            "kfield::Simulation: motion: device 4's velocity (the program's output) is not finite: "
            "(inf, 0)");
}

TYPED_TEST(Moving, BadMotionsAndCallsGiveOneLineErrors) {
  const TracedProgram program = lib::programs().front().build(Network::grid(2, 2), {});
  const Network grid = Network::grid(5, 5);
  auto make = [&](const Motion& m, const Network& net = Network::grid(5, 5),
                  std::int64_t samples = 1) {
    return errorOf([&] { BasicSimulation<TypeParam> sim(program, net, samples, m); });
  };
  Motion m = motionOf(Motion::Model::Waypoint, -1.0, 1.0, 1);
  EXPECT_EQ(make(m), "kfield::Simulation: motion: speed must be a finite number >= 0, got -1");
  m.speed = 1.0, m.radius = 0.0;
  EXPECT_EQ(make(m), "kfield::Simulation: motion: radius must be a finite number > 0, got 0");
  m.radius = 1.0, m.rebuildEvery = 0;
  EXPECT_EQ(make(m),
            "kfield::Simulation: motion: neighborhoods must be rebuilt every K >= 1 rounds, got 0");
  m.rebuildEvery = 1, m.xmin = 1.0, m.xmax = 4.0, m.ymin = 0.0, m.ymax = 4.0;
  EXPECT_EQ(
      make(m),
      "kfield::Simulation: motion: device 0 starts at (0, 0), outside the area [1, 4] x [0, 4]");
  m.xmin = 0.0, m.xmax = -1.0;
  EXPECT_EQ(
      make(Motion{Motion::Model::Velocity}),
      "kfield::Simulation: motion: the velocity model moves each device by the program's output "
      "(x, y): it needs one sample and an output of width >= 2; program '" +
          program.name + "' has width 1, with 1 samples");
  TempFolder folder;
  const std::string path = folder / "edges.txt";
  { std::ofstream(path) << "0 1\n1 2\n"; }
  EXPECT_NE(make(m, Network::fromEdgeList(path))
                .find("has no positions: a moving simulation needs devices with positions"),
            std::string::npos);
  BasicSimulation<TypeParam> sim(program, grid, 2, m);
  setInputs(sim, program, grid.devices(), 2);
  EXPECT_EQ(
      errorOf([&] {
        sim.run({2, 3});
      }),
      "kfield::Simulation: run: the samples of a moving simulation share one network, so they "
      "run the same rounds; got 2 for sample 0 and 3 for sample 1");
  EXPECT_EQ(errorOf([&] { sim.runUntilStable(5); }),
            "kfield::Simulation: runUntilStable needs a still network: the samples of a moving "
            "simulation share its network and run the same rounds; use run");
}

}  // namespace
}  // namespace kfield::test
