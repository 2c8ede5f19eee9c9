// Asynchronous firings level by level, one sample position at a time. Each device counts its
// neighbors whose next firing comes strictly before its own (`pending`); the devices with none
// pending and a firing before the horizon form a level and fire together, reading what their
// neighbors sent before (no two neighbors are in one level). Then each moves on to its next
// firing, counts afresh, and releases the neighbors it no longer precedes: the last release
// of a device puts it into the next level. A level is the step Clock::mark would find, so the
// firings and their order are the steps', but no step looks at a device that does not fire.
// Two neighbors firing at the same time (a tie) would share a level; the levels stop when one
// is found, and the steps go on from there.
#ifndef KFIELD_SIM_IMPL_LEVELS_HPP
#define KFIELD_SIM_IMPL_LEVELS_HPP

#include "kfield/sim/impl/Asynchronous.hpp"
#include "kfield/sim/impl/RoundPlanes.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <utility>
#include <vector>

namespace kfield::impl {

template <class ExecSpace>
struct Levels {
  using Memory = typename ExecSpace::memory_space;
  using Firing = typename Clock<ExecSpace>::Firing;

  Kokkos::View<std::int32_t*, Memory> pending;  // per device
  Kokkos::View<std::int32_t*, Memory> list;     // a level's devices, in id order
  Kokkos::View<int, Memory> tied;               // 1 once two neighbors tie before the horizon
  // Per device, the time of the firing after its next one: drawn a level ahead, so that no
  // comparison with a neighbor's time waits on the draw.
  Kokkos::View<double*, Memory> following;

  Levels() = default;
  explicit Levels(std::int64_t devices)
      : pending("kfield::sim::levels_pending", devices),
        list("kfield::sim::levels", devices),
        tied("kfield::sim::levels_tied"),
        following("kfield::sim::levels_following", devices) {}

  // The first level of position p: its devices' firing flags set (the others' cleared), its
  // size returned (-1 if two neighbors tie), and in `off` whether any device is switched off.
  std::int64_t start(ExecSpace space, const Clock<ExecSpace>& clock, const Firing& firing,
                     std::int64_t p, std::int64_t sample, double horizon, bool& off) const {
    Kokkos::deep_copy(space, tied, 0);
    const Clock<ExecSpace> c = clock;
    const auto pendingOf = pending;
    const auto tie = tied;
    const auto followingOf = following;
    std::int64_t offCount = 0;
    Kokkos::parallel_reduce(
        "kfield::sim::levels_start", Kokkos::RangePolicy<ExecSpace>(space, 0, c.devices),
        KOKKOS_LAMBDA(std::int64_t d, std::int64_t & n) {
          const double t = c.next(d, p);
          std::int32_t before = 0;
          bool ties = false;
          for (std::int64_t k = c.net.offsets(d); k < c.net.offsets(d + 1); ++k) {
            const std::int64_t j = c.net.neighbors(k);
            const double u = c.next(j, p);
            before += j != d && u < t;
            ties = ties || (j != d && u == t);
          }
          pendingOf(d) = before;
          followingOf(d) = c.schedule.firingTime(std::int64_t(c.count(d, p)) + 1, d, sample);
          const bool fires = t < horizon;
          const std::uint8_t turn = c.turn(d, p);
          n += turn != Clock<ExecSpace>::kFires;
          firing(d, p) = before == 0 && fires ? turn : 0;
          if (ties && fires) Kokkos::atomic_exchange(&tie(), 1);
        },
        offCount);
    off = offCount > 0;
    return collect(space, firing, p, c.devices);
  }

  // What follows a level's round, for each of its devices (`list`): if it fired it sends what it
  // sent (its export rows, now to previous: `exports` rows of export x device first, then the edge
  // planes' rows of its network entries), moves on, counts afresh, and releases its neighbors; its
  // own flag and those of the neighbors it releases say the next level. No neighbor of a device is
  // in its level, so no other device of the level reads what this writes.
  struct Release {
    Clock<ExecSpace> c;
    RoundPlanes<Memory> r;
    Firing firing;
    Kokkos::View<std::int32_t*, Memory> level, pending;
    Kokkos::View<double*, Memory> following;
    Kokkos::View<int, Memory> tied;
    std::int64_t exports, edgePlanes, entries, ss, p, sample;
    bool keyed, shared;
    bool someOff;  // whether any device is switched off: else every turn is a firing
    double horizon;

    KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
      const std::int64_t d = level(i);
      const std::int64_t begin = c.net.offsets(d), end = c.net.offsets(d + 1);
      const std::uint8_t f = firing(d, p);
      if (f == Clock<ExecSpace>::kFires) {
        for (std::int64_t x = 0; x < exports; ++x) {
          const std::int64_t row = x * c.devices + d;
          r.exportsPrev(row, p) = r.exportsNow(row, p);
          if (keyed) r.presencePrev(row, p) = r.presenceNow(row, p);
        }
        for (std::int64_t e = 0; e < edgePlanes; ++e) {
          for (std::int64_t k = begin; k < end; ++k) {
            const std::int64_t row = r.edgeRow + e * entries + k;
            r.exportsPrev(row, p) = r.exportsNow(row, p);
          }
        }
      }
      const double was = c.next(d, p);
      // Clock::moveOn, its next firing drawn a level ahead.
      const double t = following(d);
      const double k = c.count(d, p) + 1.0;
      c.count(d, p) = k;
      if (f == Clock<ExecSpace>::kFires) c.last(d, p) = was;
      c.next(d, p) = t;
      following(d) = c.schedule.firingTime(std::int64_t(k) + 1, d, sample);
      // The neighbor loop reads through pointers held in locals.
      const double* next = &c.next(0, p);
      std::int32_t* waiting = pending.data();
      const std::int32_t* neighbors = c.net.neighbors.data();
      const double until = horizon;
      const bool everyoneOn = !someOff;
      std::int32_t before = 0;
      int ties = 0;
      for (std::int64_t k = begin; k < end; ++k) {
        const std::int64_t j = neighbors[k];
        const int other = j != d;
        const double u = next[j * ss];
        before += other & (u < t);
        ties |= other & (u == t);
        // d came before j and no longer does: j waits on one neighbor fewer.
        if (!(other & (was < u) & !(t < u))) continue;
        // On one thread a plain decrement: an atomic's lock stalls each one.
        const std::int32_t left =
            shared ? Kokkos::atomic_fetch_sub(&waiting[j], std::int32_t(1)) - 1 : --waiting[j];
        if (left == 0 && u < until) {
          firing(j, p) = everyoneOn ? Clock<ExecSpace>::kFires : c.turn(j, p);
        }
      }
      waiting[d] = before;
      const bool fires = t < until;
      firing(d, p) = before == 0 && fires ? f : 0;  // no run switches it: its turn is f
      if (ties != 0 && fires) Kokkos::atomic_exchange(&tied(), 1);
    }
  };
  Release release(ExecSpace space, const Clock<ExecSpace>& clock, const Firing& firing,
                  const RoundPlanes<Memory>& planes, std::int64_t exports, std::int64_t edgePlanes,
                  std::int64_t p, std::int64_t sample, double horizon, bool someOff) const {
    return {clock,
            planes,
            firing,
            list,
            pending,
            following,
            tied,
            exports,
            edgePlanes,
            static_cast<std::int64_t>(clock.net.neighbors.extent(0)),
            static_cast<std::int64_t>(clock.states.stride(0)),
            p,
            sample,
            planes.presencePrev.extent(0) > 0,
            space.concurrency() > 1,
            someOff,
            horizon};
  }

  // The devices flagged at position p into `list`, in id order (a scan over blocks of
  // devices); their count, or -1 if two neighbors tie.
  std::int64_t collect(ExecSpace space, const Firing& firing, std::int64_t p,
                       std::int64_t devices) const {
    constexpr std::int64_t kBlock = 64;
    const auto level = list;
    const std::uint8_t* flags = firing.data() + p;
    const auto step = static_cast<std::int64_t>(firing.stride(0));
    std::int64_t size = 0;
    Kokkos::parallel_scan(
        "kfield::sim::levels_collect",
        Kokkos::RangePolicy<ExecSpace>(space, 0, (devices + kBlock - 1) / kBlock),
        KOKKOS_LAMBDA(std::int64_t b, std::int64_t & at, bool last) {
          const std::int64_t first = b * kBlock;
          const std::int64_t end = first + kBlock < devices ? first + kBlock : devices;
          if (!last) {
            std::int64_t n = 0;
            for (std::int64_t d = first; d < end; ++d) n += flags[d * step] != 0;
            at += n;
            return;
          }
          // Without a branch per device (which would mispredict): every device written at the
          // block's next place, which only a flagged one keeps; then the block's list copied.
          std::int32_t mine[kBlock + 1];
          int n = 0;
          for (std::int64_t d = first; d < end; ++d) {
            mine[n] = static_cast<std::int32_t>(d);
            n += flags[d * step] != 0;
          }
          for (int i = 0; i < n; ++i) level(at + i) = mine[i];
          at += n;
        },
        size);
    int anyTie = 0;
    Kokkos::deep_copy(anyTie, tied);
    return anyTie != 0 ? -1 : size;
  }
};

// Blocks of sample positions copied out of the planes and back: each plane's column of a
// position becomes a row of its own (the devices' values contiguous), so a position's levels
// read its own values only, not the cache lines its neighbors' samples share.
template <class ExecSpace>
struct SampleRows {
  using Memory = typename ExecSpace::memory_space;
  using Firing = typename Clock<ExecSpace>::Firing;
  static constexpr std::int64_t kBlock = 8;

  RoundPlanes<Memory> rows;  // each plane kBlock x the planes' rows
  Firing firing;             // kBlock x devices

  SampleRows(const RoundPlanes<Memory>& planes, std::int64_t devices) : rows(planes) {
    rows.forEach([&](Plane<Memory>& p) {
      p = p.extent(0) > 0 ? Plane<Memory>("kfield::sim::sample_rows", kBlock, p.extent(0))
                          : Plane<Memory>();
    });
    firing = Firing("kfield::sim::sample_firing", kBlock, devices);
  }

  // Whether the rows still have the planes' shapes (a moving network's edge planes change).
  bool fits(RoundPlanes<Memory> planes) const {
    RoundPlanes<Memory> mine = rows;
    std::vector<std::size_t> a, b;
    planes.forEach([&](Plane<Memory>& p) { a.push_back(p.extent(0)); });
    mine.forEach([&](Plane<Memory>& p) { b.push_back(p.extent(1)); });
    return a == b;
  }

  // Positions [first, first + m) of `planes` into rows 0 to m - 1 (back: the reverse, but the
  // sensors, which no round writes).
  void gather(ExecSpace space, RoundPlanes<Memory> planes, std::int64_t first,
              std::int64_t m) const {
    copy(space, planes, first, m, false);
  }
  void scatter(ExecSpace space, RoundPlanes<Memory> planes, std::int64_t first,
               std::int64_t m) const {
    copy(space, planes, first, m, true);
  }

  // Row q as planes of one sample position (devices' rows one value apart).
  RoundPlanes<Memory> planesOf(std::int64_t q) const {
    RoundPlanes<Memory> r = rows;
    r.forEach([&](Plane<Memory>& p) {
      if (p.extent(0) > 0) p = Plane<Memory>(p.data() + q * p.extent(1), p.extent(1), 1);
    });
    return r;
  }
  Firing firingOf(std::int64_t q) const {
    return Firing(firing.data() + q * firing.extent(1), firing.extent(1), 1);
  }

 private:
  void copy(ExecSpace space, RoundPlanes<Memory> planes, std::int64_t first, std::int64_t m,
            bool back) const {
    RoundPlanes<Memory> mine = rows;
    std::vector<std::pair<Plane<Memory>, Plane<Memory>>> pairs;
    planes.forEach([&](Plane<Memory>& p) { pairs.emplace_back(p, Plane<Memory>()); });
    std::size_t i = 0;
    mine.forEach([&](Plane<Memory>& p) { pairs[i++].second = p; });
    for (std::size_t k = back ? 1 : 0; k < pairs.size(); ++k) {  // the sensors come first
      const Plane<Memory> wide = pairs[k].first, narrow = pairs[k].second;
      if (wide.extent(0) == 0) continue;
      Kokkos::parallel_for(
          "kfield::sim::sample_rows", Kokkos::RangePolicy<ExecSpace>(space, 0, wide.extent(0)),
          KOKKOS_LAMBDA(std::int64_t r) {
            for (std::int64_t q = 0; q < m; ++q) {
              if (back) {
                wide(r, first + q) = narrow(q, r);
              } else {
                narrow(q, r) = wide(r, first + q);
              }
            }
          });
    }
  }
};

}  // namespace kfield::impl

#endif
