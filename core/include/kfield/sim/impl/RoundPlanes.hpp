// The planes a simulation keeps from round to round, listed once: the simulation allocates
// and reorders them through forEach, and the round kernel reads them from here.
#ifndef KFIELD_SIM_IMPL_ROUNDPLANES_HPP
#define KFIELD_SIM_IMPL_ROUNDPLANES_HPP

#include "kfield/Plane.hpp"
#include "kfield/impl/Sizes.hpp"

#include <cstdint>
#include <string>
#include <utility>

namespace kfield::impl {

template <class Memory>
struct RoundPlanes {
  Plane<Memory> sensors;  // sensor x device rows
  // export x device rows, then exchanges' edge plane x network entry rows: this round's and
  // last round's
  Plane<Memory> exportsNow, exportsPrev;
  Plane<Memory> presenceNow, presencePrev;  // keys of conditional exports (empty if none)
  Plane<Memory> states, stateKeys;          // state x device, and keys of conditional states
  Plane<Memory> output;                     // output component x device rows
  std::int64_t edgeRow = 0;                 // the exports planes' first edge row

  // Rows of each plane a program needs (exports: export and edge rows); `keyed...`: whether
  // any export or state is conditional. Counted, overflow-checked, before anything is
  // allocated.
  struct Rows {
    std::size_t sensors, exports, edgeRow, presence, states, stateKeys, output;
    std::uint64_t total() const {  // every plane, the two of each pair counted twice
      return impl::total({sensors, impl::product({2, exports}), impl::product({2, presence}),
                          states, stateKeys, output});
    }
  };
  static Rows rows(std::size_t devices, std::size_t entries, std::size_t sensorCount,
                   std::size_t exportCount, std::size_t edgePlanes, bool keyedExports,
                   std::size_t stateCount, bool keyedStates, std::size_t outputWidth) {
    using impl::product;
    const std::size_t exportRows = product({exportCount, devices});
    return {product({sensorCount, devices}),
            impl::total({exportRows, product({edgePlanes, entries})}),
            exportRows,
            keyedExports ? exportRows : 0,
            product({stateCount, devices}),
            keyedStates ? product({stateCount, devices}) : 0,
            product({outputWidth, devices})};
  }

  RoundPlanes() = default;
  RoundPlanes(const Rows& rows, std::size_t samples) {
    auto plane = [&](const char* label, std::size_t n) {
      return Plane<Memory>(std::string(label), n, samples);
    };
    sensors = plane("kfield::sim::sensors", rows.sensors);
    exportsNow = plane("kfield::sim::exports", rows.exports);
    exportsPrev = plane("kfield::sim::exports", rows.exports);
    presenceNow = plane("kfield::sim::presence", rows.presence);
    presencePrev = plane("kfield::sim::presence", rows.presence);
    states = plane("kfield::sim::states", rows.states);
    stateKeys = plane("kfield::sim::state_keys", rows.stateKeys);
    output = plane("kfield::sim::output", rows.output);
    edgeRow = static_cast<std::int64_t>(rows.edgeRow);
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
