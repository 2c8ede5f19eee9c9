// The planes a simulation keeps from round to round, listed once: the simulation allocates
// and reorders them through forEach, and the round kernel reads them from here.
#ifndef KFIELD_SIM_IMPL_ROUNDPLANES_HPP
#define KFIELD_SIM_IMPL_ROUNDPLANES_HPP

#include "kfield/Plane.hpp"

#include <cstdint>
#include <string>
#include <utility>

namespace kfield::impl {

template <class Memory>
struct RoundPlanes {
  Plane<Memory> sensors;                    // sensor x device rows
  Plane<Memory> exportsNow, exportsPrev;    // export x device: this round's and last round's
  Plane<Memory> presenceNow, presencePrev;  // keys of conditional exports (empty if none)
  Plane<Memory> states, stateKeys;          // state x device, and keys of conditional states
  Plane<Memory> output;                     // device rows

  // The sizes a program needs; `keyed...`: whether any export or state is conditional.
  RoundPlanes() = default;
  RoundPlanes(std::size_t devices, std::size_t samples, std::size_t sensorCount,
              std::size_t exportCount, bool keyedExports, std::size_t stateCount,
              bool keyedStates) {
    auto plane = [&](const char* label, std::size_t rows) {
      return Plane<Memory>(std::string(label), rows, samples);
    };
    sensors = plane("kfield::sim::sensors", sensorCount * devices);
    exportsNow = plane("kfield::sim::exports", exportCount * devices);
    exportsPrev = plane("kfield::sim::exports", exportCount * devices);
    presenceNow = plane("kfield::sim::presence", keyedExports ? exportCount * devices : 0);
    presencePrev = plane("kfield::sim::presence", keyedExports ? exportCount * devices : 0);
    states = plane("kfield::sim::states", stateCount * devices);
    stateKeys = plane("kfield::sim::state_keys", keyedStates ? stateCount * devices : 0);
    output = plane("kfield::sim::output", devices);
  }

  // f(plane) for every plane, in the order of the members.
  template <class F>
  void forEach(F&& f) {
    for (Plane<Memory>* p : {&sensors, &exportsNow, &exportsPrev, &presenceNow, &presencePrev,
                             &states, &stateKeys, &output}) {
      f(*p);
    }
  }

  // What this round wrote becomes what the next one reads.
  void endRound() {
    std::swap(exportsNow, exportsPrev);
    std::swap(presenceNow, presencePrev);
  }
};

}  // namespace kfield::impl

#endif
