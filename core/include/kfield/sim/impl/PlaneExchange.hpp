// What a simulation that runs one part of a distributed network (DistributedSimulation.hpp)
// asks of the other parts: the exports its ghosts made, and agreement on what every part
// decides alone (which samples changed, which device overflowed first).
#ifndef KFIELD_SIM_IMPL_PLANEEXCHANGE_HPP
#define KFIELD_SIM_IMPL_PLANEEXCHANGE_HPP

#include "kfield/IndexRange.hpp"
#include "kfield/Plane.hpp"
#include "kfield/sim/impl/RoundPlanes.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <vector>

namespace kfield::impl {

// The planes a halo moves rows of (Halo.hpp): a round's exports and presence keys, or what a
// gradient's reverse needs of the devices that read a part's own (DistributedGradient.hpp).
constexpr int kHaloPlanes = 6;
template <class Memory>
using HaloPlanes = Kokkos::Array<Plane<Memory>, kHaloPlanes>;

// What the planes hold per device and entry: `exports` export rows of `devices` each, then
// `edgePlanes` planes of `entries` messages from row `edgeRow`; presence keys mirror the export
// rows when `keyed`.
struct HaloLayout {
  std::int64_t exports = 0, edgePlanes = 0, edgeRow = 0;
  bool keyed = false;
};

template <class Memory>
class PlaneExchange {
 public:
  virtual ~PlaneExchange() = default;
  // Before a round: start sending the last round's exports that other parts hear, for sample
  // positions [0, live); `finish` brings the ghosts' rows in (their exports, presence keys and
  // messages, as their owners wrote them). Between the two, the round computes `interior()`:
  // local devices that hear no ghost.
  virtual void start(const RoundPlanes<Memory>& planes, std::int64_t live) = 0;
  virtual void finish(const RoundPlanes<Memory>& planes, std::int64_t live) = 0;
  virtual IndexRange interior() const = 0;
  // After a round that tracked changes: a position changed when it changed in any part.
  virtual void combineChanged(const Kokkos::View<int*, Memory>& changed, std::int64_t live) = 0;
  // Per entry, a local device or -1: the smallest global id over every part (-1: none).
  virtual void combineFirst(std::vector<std::int64_t>& devices) = 0;
};

}  // namespace kfield::impl

#endif
