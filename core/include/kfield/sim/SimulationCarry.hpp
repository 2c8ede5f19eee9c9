// What a simulation carries from one round to the next, on the host and in sample order: with
// the same program, network, sensors and parameters, a simulation restored from it continues
// with the bits of one that never stopped (io::loadRestart keeps it in HDF5).
#ifndef KFIELD_SIM_SIMULATIONCARRY_HPP
#define KFIELD_SIM_SIMULATIONCARRY_HPP

#include "kfield/Plane.hpp"
#include "kfield/sim/Motion.hpp"
#include "kfield/sim/Schedule.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace kfield {

struct SimulationCarry {
  std::vector<std::int64_t> rounds;  // rounds each sample has run
  // rows x samples each: remembered states and the keys of conditional ones, the last round's
  // exports and their presence keys, the output.
  HostPlane states, stateKeys, exports, presence, output;
  // A run on a Schedule: its schedule (the clock's rows follow the program's states). Empty:
  // synchronous rounds.
  std::optional<Schedule> schedule;
  // A moving simulation's motion, and its devices' motion state (7 rows x devices: position,
  // velocity or waypoint, where the neighborhoods were built from, waypoints reached); the
  // exports' edge rows are those of the neighborhoods built from there.
  std::optional<Motion> motion;
  std::vector<double> motionState;
};

}  // namespace kfield

#endif
