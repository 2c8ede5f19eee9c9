// How a simulation runs beside its program, network and samples: synchronous rounds by default,
// asynchronous devices on a Schedule, moving devices with a Motion, or both.
#ifndef KFIELD_SIM_SIMULATIONOPTIONS_HPP
#define KFIELD_SIM_SIMULATIONOPTIONS_HPP

#include "kfield/sim/Motion.hpp"
#include "kfield/sim/Schedule.hpp"

#include <optional>
#include <utility>

namespace kfield {

struct SimulationOptions {
  // Asynchronous devices: each fires on its own clock (Schedule.hpp), in the global order of
  // firing times; a device that does not fire keeps its state and exports, and a neighbor is
  // heard once it has fired. run(R) then advances every sample by R periods: it runs the
  // firings before time (rounds so far + R) x period. Schedule{1, 0} fires as synchronous
  // rounds do, with their bits.
  std::optional<Schedule> schedule;
  // Moving devices (Motion.hpp): the network gives the devices and where they start; before
  // the first round, and after every motion.rebuildEvery rounds (periods on a Schedule), each
  // device's neighbors are the devices within motion.radius of it (a neighbor that left range
  // is not heard from that round on). Devices move after every round (period) by its length
  // in time (1; a Schedule's period). The samples share the network: every run runs them all
  // the same rounds.
  std::optional<Motion> motion;
  // On a jittered Schedule, the firings run level by level: a round over the devices that fire
  // together, each level found from the last one's (sim/impl/Levels.hpp). false: in steps,
  // each sweeping every device (the same bits; kept for ties, and to compare against).
  bool levels = true;

  SimulationOptions() = default;
  // A schedule, a motion, or both: Simulation(program, network, samples, schedule) reads as
  // it says.
  SimulationOptions(const Schedule& s) : schedule(s) {}  // NOLINT: converts on purpose
  SimulationOptions(const Motion& m) : motion(m) {}      // NOLINT: converts on purpose
  SimulationOptions(const Schedule& s, const Motion& m) : schedule(s), motion(m) {}
  SimulationOptions(std::optional<Schedule> s, std::optional<Motion> m)
      : schedule(std::move(s)), motion(std::move(m)) {}
};

}  // namespace kfield

#endif
