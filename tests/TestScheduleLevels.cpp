// Asynchronous firings level by level (the default) against the steps over every device
// (SimulationOptions::levels = false), to the bit: outputs, firings, clocks, states and exports,
// for every library program, several samples of different lengths, devices switched off and
// on, short retention, spawns and moving devices. The steps are themselves checked against an
// event-by-event replay (TestSchedule.cpp).
#include "support/ErrorOf.hpp"
#include "support/LibraryRuns.hpp"
#include "support/TestSpaces.hpp"

#include <kfield/field/Library.hpp>
#include <kfield/field/Programs.hpp>
#include <kfield/sim/Simulation.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace kfield::test {
namespace {

template <class Space>
class ScheduleLevels : public ::testing::Test {};
TYPED_TEST_SUITE(ScheduleLevels, Spaces, SpaceNames);

// The same calls on a simulation run by levels and one run by steps; every plane compared.
template <class Space>
void expectLevelsAsSteps(const TracedProgram& program, const Network& net, std::int64_t samples,
                         SimulationOptions options,
                         const std::function<void(BasicSimulation<Space>&)>& calls,
                         const std::string& what) {
  options.levels = true;
  BasicSimulation<Space> levels(program, net, samples, options);
  options.levels = false;
  BasicSimulation<Space> steps(program, net, samples, options);
  for (auto* sim : {&levels, &steps}) {
    setInputs(*sim, program, net.devices(), samples);
    calls(*sim);
  }
  expectSameBits(levels.output(), steps.output(), what + ": outputs");
  expectSameBits(levels.firings(), steps.firings(), what + ": firings");
  const SimulationCarry a = levels.carry(), b = steps.carry();
  expectSameBits(a.states, b.states, what + ": states and clocks");
  expectSameBits(a.exports, b.exports, what + ": exports");
}

TYPED_TEST(ScheduleLevels, EveryLibraryProgramFiresAsInSteps) {
  for (const Network& net : {Network::grid(9, 7), Network::randomGeometric(160, 1.6, 4)}) {
    for (const lib::LibraryProgram& entry : lib::programs()) {
      const TracedProgram program = entry.build(net, {});
      for (const Schedule& schedule : {Schedule{1.0, 0.5, 3}, Schedule{2.0, 2.0, 8, 2.5}}) {
        expectLevelsAsSteps<TypeParam>(
            program, net, 3, schedule,
            [](auto& sim) {
              sim.run(std::vector<std::int64_t>{3, 5, 0});
              sim.run(std::vector<std::int64_t>{4, 1, 6});
              sim.run(2);
            },
            entry.name + " on " + net.description() + ", " + schedule.text());
      }
    }
  }
}

// Devices switched off and on between runs, by switchOn and by a sensor, in some samples only.
TYPED_TEST(ScheduleLevels, SwitchedDevicesFireAsInSteps) {
  const Network net = Network::randomGeometric(300, 1.6, 3);
  const TracedProgram program = trace(
      [](Program& p) {
        return lib::hopGradient(p, p.sense<bool>("source") && !p.sense<bool>("failed"));
      },
      "failing-hops");
  for (const std::int64_t samples : {1, 4}) {
    expectLevelsAsSteps<TypeParam>(
        program, net, samples, Schedule{1.0, 0.7, 6, 1.4},
        [&](auto& sim) {
          sim.run(3);
          for (std::int64_t d = 0; d < 300; d += 7) sim.switchOn(d, d % samples, false);
          sim.run(4);
          for (std::int64_t d = 0; d < 300; d += 14) sim.switchOn(d, d % samples, true);
          sim.run(3);
        },
        "switchOn, " + std::to_string(samples) + " samples");
    expectLevelsAsSteps<TypeParam>(
        program, net, samples, Schedule{1.0, 0.9, 2},
        [&](auto& sim) {
          sim.switchOffBy("failed");
          for (std::int64_t d = 0; d < 300; d += 5) sim.sensor("failed").set(d, d % samples, true);
          sim.run(5);
          for (std::int64_t d = 0; d < 300; d += 10) {
            sim.sensor("failed").set(d, d % samples, false);
          }
          sim.run(5);
        },
        "switchOffBy, " + std::to_string(samples) + " samples");
  }
}

// Spawned processes (their copies' exports) and a spawn's overflow, whose error names the
// firing's time as the steps do.
TYPED_TEST(ScheduleLevels, SpawnsAndTheirOverflowsAsInSteps) {
  const Network net = Network::grid(8, 6);
  auto spawning = [](std::int32_t maxKeys) {
    return trace(
        [=](Program& p) {
          const Field<int> id = p.uid();
          const Field<int> launch = p.mux(p.time() < 1.0 && id % 9 == 0, id, p.constant(-1));
          return toDouble(p.spawn<double>(launch, maxKeys, [&](const Field<int>& key) {
                             return std::make_pair(lib::hopGradient(p, id == key), p.time() < 6.0);
                           }).count());
        },
        "spawning");
  };
  expectLevelsAsSteps<TypeParam>(
      spawning(8), net, 2, Schedule{1.0, 0.6, 5}, [](auto& sim) { sim.run(9); }, "spawn");
  std::string errors[2];
  for (const bool levels : {true, false}) {
    SimulationOptions options(Schedule{1.0, 0.6, 5});
    options.levels = levels;
    BasicSimulation<TypeParam> sim(spawning(2), net, 2, options);
    errors[levels] = errorOf([&] { sim.run(9); });
  }
  EXPECT_NE(errors[1].find("would hold more than 2 live processes at time"), std::string::npos)
      << errors[1];
  EXPECT_EQ(errors[1], errors[0]);
}

// Moving devices: the neighborhoods change between periods; each period's levels start afresh.
TYPED_TEST(ScheduleLevels, MovingDevicesFireAsInSteps) {
  const Network net = Network::randomGeometric(200, 1.5, 6);
  const TracedProgram program =
      trace([](Program& p) { return lib::hopGradient(p, p.sense<bool>("source")); }, "hops");
  Motion motion;
  motion.radius = 1.5;
  motion.speed = 0.2;
  motion.seed = 4;
  expectLevelsAsSteps<TypeParam>(
      program, net, 2, SimulationOptions(Schedule{1.0, 0.5, 7}, motion),
      [](auto& sim) { sim.run(8); }, "moving");
}

}  // namespace
}  // namespace kfield::test
