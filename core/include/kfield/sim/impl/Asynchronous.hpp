// Asynchronous simulation (Simulation on a Schedule): devices fire in the global order of their
// firing times. A step fires every device whose next firing comes no later than any of its
// neighbors' (and before the horizon), together with the neighbors it ties with: no firing it
// could hear is pending, and it fires before any firing that could hear it, so running those
// devices at once gives the bits of running every firing in time order. A firing reads the
// messages its neighbors sent strictly before it.
#ifndef KFIELD_SIM_IMPL_ASYNCHRONOUS_HPP
#define KFIELD_SIM_IMPL_ASYNCHRONOUS_HPP

#include "kfield/Plane.hpp"
#include "kfield/field/TracedProgram.hpp"
#include "kfield/net/NetworkView.hpp"
#include "kfield/sim/Schedule.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <limits>
#include <utility>

namespace kfield::impl {

// The program as an asynchronous simulation runs it: every state and export keyed, so that a
// neighbor is heard only once it has fired and a device's first firing starts its states
// afresh. Calls keyed already keep their keys; the others get kKeyedByClock (key 1).
inline TracedProgram keyedByClock(TracedProgram program) {
  auto keyOps = [](std::vector<Op>& ops) {
    for (Op& op : ops) {
      const bool kept = op.code == OpCode::RememberRead || op.code == OpCode::RememberWrite ||
                        op.code == OpCode::ShareRead || op.code == OpCode::Export ||
                        op.code == OpCode::ExchangeSend || op.code == OpCode::SpawnKey;
      if (kept && op.keyed == 0) op.keyed = kKeyedByClock;
    }
  };
  auto keyEntries = [](std::vector<EntryOp>& entries) {
    for (EntryOp& x : entries) {
      const bool reads = x.code == EntryCode::Neighbor || x.code == EntryCode::Received;
      if (reads && x.keyed == 0) x.keyed = kKeyedByClock;
    }
  };
  keyOps(program.ops);
  keyOps(program.valueOps);
  keyEntries(program.entries);
  keyEntries(program.valueEntries);
  for (PlaneInfo& p : program.exports) p.keyed = true;
  for (PlaneInfo& p : program.states) p.keyed = true;
  return program;
}

// The clock's state rows per device (Kokkos kernels over device x sample position): firing
// slots so far, the next one's time, the last firing's (NaN before the first, and while
// switched off), and whether the device is switched on (1) or off (0). A switched-off device
// keeps its place in the order of firings, but its firings are silent: it runs nothing.
template <class ExecSpace>
struct Clock {
  using Memory = typename ExecSpace::memory_space;
  using Firing = Kokkos::View<std::uint8_t**, Kokkos::LayoutRight, Memory>;
  static constexpr int kRows = 4;
  // kTies: fires unless a tie cannot (only while marking); kSilent: a switched-off device's turn
  static constexpr std::uint8_t kFires = 1, kTies = 2, kSilent = 3;
  static constexpr std::int64_t kChunk = 16;  // sample positions a mark compares at once

  Schedule schedule;
  Plane<Memory> states;
  std::int64_t row = 0;  // the clock's first state row
  std::int64_t devices = 0;
  NetworkView<Memory> net;

  KOKKOS_INLINE_FUNCTION double& count(std::int64_t d, std::int64_t p) const {
    return states(row + d, p);
  }
  KOKKOS_INLINE_FUNCTION double& next(std::int64_t d, std::int64_t p) const {
    return states(row + devices + d, p);
  }
  KOKKOS_INLINE_FUNCTION double& last(std::int64_t d, std::int64_t p) const {
    return states(row + 2 * devices + d, p);
  }
  KOKKOS_INLINE_FUNCTION double& on(std::int64_t d, std::int64_t p) const {
    return states(row + 3 * devices + d, p);
  }

  // After lockstep steps (BasicSimulation::runLockstep): every device at position p has passed
  // counts(p) firings, the last one a period before the next; a device off keeps NaN as its
  // last firing.
  void passLockstep(ExecSpace space, const Kokkos::View<const double*, Memory>& counts,
                    std::int64_t live) const {
    const Clock c = *this;
    const double period = schedule.period;
    Kokkos::parallel_for(
        "kfield::sim::clock_lockstep", Kokkos::RangePolicy<ExecSpace>(space, 0, devices),
        KOKKOS_LAMBDA(std::int64_t d) {
          for (std::int64_t p = 0; p < live; ++p) {
            const double k = counts(p);
            c.count(d, p) = k;
            c.next(d, p) = k * period;
            c.last(d, p) = c.on(d, p) != 0.0 ? (k - 1.0) * period : c.last(d, p);
          }
        });
  }

  // Every device before its first firing; `sampleOf`: the sample at each position.
  void start(ExecSpace space, const Kokkos::View<const std::int64_t*, Memory>& sampleOf,
             std::int64_t positions) const {
    const Clock c = *this;
    const double none = std::numeric_limits<double>::quiet_NaN();
    Kokkos::parallel_for(
        "kfield::sim::clock_start",
        Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2>>(space, {0, 0}, {devices, positions}),
        KOKKOS_LAMBDA(std::int64_t d, std::int64_t p) {
          c.count(d, p) = 0.0;
          c.next(d, p) = c.schedule.firingTime(0, d, sampleOf(p));
          c.last(d, p) = none;
          c.on(d, p) = 1.0;
        });
  }

  // A device's turn: a firing, or a silent one while it is switched off.
  KOKKOS_INLINE_FUNCTION std::uint8_t turn(std::int64_t d, std::int64_t p) const {
    return on(d, p) != 0.0 ? kFires : kSilent;
  }
  // Device d's mark at position p (Clock::mark), given its neighbors' earliest next firing:
  // kFires or kSilent when its own comes first and before the horizon, kTies when a neighbor's
  // comes at the same time, else 0. Arithmetic, not branches (see mark).
  KOKKOS_INLINE_FUNCTION std::uint8_t flag(std::int64_t d, std::int64_t p, double earliest,
                                           double horizon) const {
    const double t = next(d, p);
    const int fires = t < horizon && !(earliest < t), ties = earliest == t;
    const int own = turn(d, p);
    return static_cast<std::uint8_t>(fires * (ties * kTies + (1 - ties) * own));
  }

  // Marks the devices of the first `live` positions that fire in the next step; returns how
  // many (device, sample) firings that is. horizon(p): position p fires only before it.
  // `tied`: a flag in the space's memory.
  // Lockstep schedules (no jitter) first move the devices marked last step on (as advance
  // does), in the same pass.
  std::int64_t mark(ExecSpace space, const Firing& firing,
                    const Kokkos::View<const double*, Memory>& horizon, std::int64_t live,
                    const Kokkos::View<int, Memory>& tied) const {
    const Clock c = *this;
    // Devices in parallel, each over its sample positions (contiguous in the clock's rows).
    Kokkos::RangePolicy<ExecSpace> pairs(space, 0, devices);
    std::int64_t fired = 0;
    if (schedule.jitter == 0.0) {  // all of a sample's devices fire at k * period together
      // moveOn and turn, a loop each (the compiler vectorizes each, not one loop of them all).
      // On a lockstep schedule a device's next firing is always count * period
      // (firingTime(count), the same bits), whether it moved on or not.
      const double period = schedule.period;
      const std::int64_t ss = static_cast<std::int64_t>(states.stride(0));
      const std::int64_t fs = static_cast<std::int64_t>(firing.stride(0));
      Kokkos::parallel_reduce(
          "kfield::sim::clock_mark_lockstep", pairs,
          KOKKOS_LAMBDA(std::int64_t d, std::int64_t & n) {
            double* KOKKOS_RESTRICT count = &c.count(d, 0);
            double* KOKKOS_RESTRICT next = count + c.devices * ss;
            double* KOKKOS_RESTRICT last = next + c.devices * ss;
            const double* KOKKOS_RESTRICT on = last + c.devices * ss;
            const double* KOKKOS_RESTRICT until = horizon.data();
            std::uint8_t* KOKKOS_RESTRICT flags = firing.data() + d * fs;
            for (std::int64_t p = 0; p < live; ++p) {
              const double fired = next[p];  // loaded whatever the flag: a select
              last[p] = flags[p] == kFires ? fired : last[p];
            }
            for (std::int64_t p = 0; p < live; ++p) count[p] += flags[p] != 0 ? 1.0 : 0.0;
            for (std::int64_t p = 0; p < live; ++p) next[p] = count[p] * period;
            for (std::int64_t p = 0; p < live; ++p) flags[p] = next[p] < until[p] ? kFires : 0;
            for (std::int64_t p = 0; p < live; ++p) {
              flags[p] = static_cast<std::uint8_t>(on[p] != 0.0 ? flags[p] : kSilent * flags[p]);
            }
            std::int64_t m = 0;
            for (std::int64_t p = 0; p < live; ++p) m += flags[p] != 0;
            n += m;
          },
          fired);
      return fired;
    }
    Kokkos::deep_copy(space, tied, 0);
    const double never = std::numeric_limits<double>::infinity();
    // A device's neighbors' earliest next firing decides it, found without a branch per
    // neighbor: whether one comes first is a coin toss under jitter, which a branch would
    // mispredict. Several samples: each neighbor's clock row over a chunk of them at once.
    Kokkos::parallel_reduce(
        "kfield::sim::clock_mark", pairs,
        KOKKOS_LAMBDA(std::int64_t d, std::int64_t & n) {
          const std::int64_t begin = c.net.offsets(d), end = c.net.offsets(d + 1);
          int ties = 0;
          if (live == 1) {
            double earliest = never;
            for (std::int64_t k = begin; k < end; ++k) {
              const std::int64_t j = c.net.neighbors(k);
              const double u = c.next(j, 0);
              earliest = j != d && u < earliest ? u : earliest;
            }
            const std::uint8_t f = c.flag(d, 0, earliest, horizon(0));
            firing(d, 0) = f;
            ties = f == kTies;
            n += f != 0;
          }
          for (std::int64_t first = 0; live > 1 && first < live; first += kChunk) {
            const std::int64_t m = live - first < kChunk ? live - first : kChunk;
            double earliest[kChunk];
            for (std::int64_t q = 0; q < m; ++q) earliest[q] = never;
            for (std::int64_t k = begin; k < end; ++k) {
              const std::int64_t j = c.net.neighbors(k);
              if (j == d) continue;
              const double* KOKKOS_RESTRICT u = &c.next(j, first);
              for (std::int64_t q = 0; q < m; ++q)
                earliest[q] = u[q] < earliest[q] ? u[q] : earliest[q];
            }
            std::int64_t fires = 0;
            for (std::int64_t q = 0; q < m; ++q) {
              const std::uint8_t f = c.flag(d, first + q, earliest[q], horizon(first + q));
              firing(d, first + q) = f;
              ties |= f == kTies;
              fires += f != 0;
            }
            n += fires;
          }
          if (ties != 0) Kokkos::atomic_exchange(&tied(), 1);
        },
        fired);
    int anyTied = 0;
    Kokkos::deep_copy(anyTied, tied);
    if (anyTied == 0) return fired;
    // Devices that fire at the same time fire together or not at all (each hears the other's
    // earlier message): drop those with a tied neighbor that cannot fire, until none is left.
    Kokkos::View<std::uint8_t**, Kokkos::LayoutRight, Memory> drop("kfield::sim::clock_drop",
                                                                   devices, live);
    for (;;) {
      std::int64_t dropped = 0;
      Kokkos::parallel_reduce(
          "kfield::sim::clock_ties", pairs,
          KOKKOS_LAMBDA(std::int64_t d, std::int64_t & n) {
            for (std::int64_t p = 0; p < live; ++p) {
              std::uint8_t x = 0;
              if (firing(d, p) == kTies) {
                const double t = c.next(d, p);
                for (std::int64_t k = c.net.offsets(d); k < c.net.offsets(d + 1); ++k) {
                  const std::int64_t j = c.net.neighbors(k);
                  if (j != d && c.next(j, p) == t && firing(j, p) == 0) x = 1;
                }
              }
              drop(d, p) = x;
              n += x;
            }
          },
          dropped);
      if (dropped == 0) break;
      Kokkos::parallel_for(
          "kfield::sim::clock_drop", pairs, KOKKOS_LAMBDA(std::int64_t d) {
            for (std::int64_t p = 0; p < live; ++p) {
              if (drop(d, p) != 0) firing(d, p) = 0;
            }
          });
    }
    fired = 0;
    Kokkos::parallel_reduce(
        "kfield::sim::clock_count", pairs,
        KOKKOS_LAMBDA(std::int64_t d, std::int64_t & n) {
          for (std::int64_t p = 0; p < live; ++p) {
            std::uint8_t& f = firing(d, p);
            if (f == kTies) f = c.turn(d, p);
            n += f != 0;
          }
        },
        fired);
    return fired;
  }

  // Over the first `live` positions: the devices switched off (first) and those on that have
  // not fired since (second).
  std::pair<std::int64_t, std::int64_t> unheard(ExecSpace space, std::int64_t live) const {
    const Clock c = *this;
    Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2>> pairs(space, {0, 0}, {devices, live});
    std::int64_t off = 0, silent = 0;
    Kokkos::parallel_reduce(
        "kfield::sim::clock_off", pairs,
        KOKKOS_LAMBDA(std::int64_t d, std::int64_t p, std::int64_t & n) { n += c.on(d, p) == 0.0; },
        off);
    Kokkos::parallel_reduce(
        "kfield::sim::clock_silent", pairs,
        KOKKOS_LAMBDA(std::int64_t d, std::int64_t p, std::int64_t & n) {
          n += c.last(d, p) != c.last(d, p);  // NaN: not fired
        },
        silent);
    return {off, silent - off};
  }

  // Switches every device by a boolean plane (Simulation::switchOffBy): off where
  // switchedOff(row + d, p) is 1, on where 0, over all `positions`; returns how many changed.
  // One switched off is heard by no one, and forgets its last firing, until it fires again.
  std::int64_t follow(ExecSpace space, const Plane<Memory>& switchedOff, std::int64_t offRow,
                      std::int64_t positions) const {
    const Clock c = *this;
    const double none = std::numeric_limits<double>::quiet_NaN();
    std::int64_t changed = 0;
    Kokkos::parallel_reduce(
        "kfield::sim::clock_follow",
        Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2>>(space, {0, 0}, {devices, positions}),
        KOKKOS_LAMBDA(std::int64_t d, std::int64_t p, std::int64_t & n) {
          const double on = switchedOff(offRow + d, p) != 0.0 ? 0.0 : 1.0;
          if (c.on(d, p) == on) return;
          c.on(d, p) = on;
          if (on == 0.0) c.last(d, p) = none;
          ++n;
        },
        changed);
    return changed;
  }

  // A device that fired (f: kFires, or kSilent) moves on to its next firing; `sample`: its
  // sample.
  KOKKOS_INLINE_FUNCTION void moveOn(std::int64_t d, std::int64_t p, std::uint8_t f,
                                     std::int64_t sample) const {
    const double k = count(d, p) + 1.0;
    count(d, p) = k;
    if (f == kFires) last(d, p) = next(d, p);
    next(d, p) = schedule.firingTime(static_cast<std::int64_t>(k), d, sample);
  }

  // The devices that fired move on to their next firing, and are marked as not firing.
  void advance(ExecSpace space, const Firing& firing,
               const Kokkos::View<const std::int64_t*, Memory>& sampleOf, std::int64_t live) const {
    const Clock c = *this;
    Kokkos::parallel_for(
        "kfield::sim::clock_advance", Kokkos::RangePolicy<ExecSpace>(space, 0, devices),
        KOKKOS_LAMBDA(std::int64_t d) {
          for (std::int64_t p = 0; p < live; ++p) {
            if (firing(d, p) == 0) continue;
            c.moveOn(d, p, firing(d, p), sampleOf(p));
            firing(d, p) = 0;
          }
        });
  }
};

}  // namespace kfield::impl

#endif
