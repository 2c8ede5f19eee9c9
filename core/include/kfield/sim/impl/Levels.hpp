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

namespace kfield::impl {

template <class ExecSpace>
struct Levels {
  using Memory = typename ExecSpace::memory_space;
  using List = Kokkos::View<std::int32_t*, Memory>;

  Kokkos::View<std::int32_t*, Memory> pending;  // per device
  List lists[2];                                // this level's devices, and the next one's
  // [0]: the next level's size; [1]: 1 once two neighbors tie before the horizon
  Kokkos::View<std::int32_t[2], Memory> found;

  Levels() = default;
  explicit Levels(std::int64_t devices)
      : pending("kfield::sim::levels_pending", devices),
        lists{List("kfield::sim::levels", devices), List("kfield::sim::levels", devices)},
        found("kfield::sim::levels_found") {}

  // Where a level's bookkeeping puts what it finds (a kernel's copy of the views).
  struct Sink {
    Kokkos::View<std::int32_t*, Memory> pending;
    List next;
    Kokkos::View<std::int32_t[2], Memory> found;
    KOKKOS_INLINE_FUNCTION void push(std::int32_t d) const {
      next(Kokkos::atomic_fetch_add(&found(0), 1)) = d;
    }
    KOKKOS_INLINE_FUNCTION void tie() const { Kokkos::atomic_exchange(&found(1), 1); }
  };
  Sink sink(int next) const { return {pending, lists[next], found}; }

  // The first level of position p (the clock's firing flags of the position set for it):
  // returns its size in lists[0], or -1 if two neighbors tie.
  std::int64_t start(ExecSpace space, const Clock<ExecSpace>& clock,
                     const typename Clock<ExecSpace>::Firing& firing, std::int64_t p,
                     double horizon) const {
    Kokkos::deep_copy(space, found, 0);
    const Sink out = sink(0);
    const Clock<ExecSpace> c = clock;
    Kokkos::parallel_for(
        "kfield::sim::levels_start", Kokkos::RangePolicy<ExecSpace>(space, 0, c.devices),
        KOKKOS_LAMBDA(std::int64_t d) {
          const double t = c.next(d, p);
          std::int32_t before = 0;
          bool tied = false;
          for (std::int64_t k = c.net.offsets(d); k < c.net.offsets(d + 1); ++k) {
            const std::int64_t j = c.net.neighbors(k);
            const double u = c.next(j, p);
            before += j != d && u < t;
            tied = tied || (j != d && u == t);
          }
          out.pending(d) = before;
          const bool fires = t < horizon;
          firing(d, p) = before == 0 && fires ? c.turn(d, p) : 0;
          if (before == 0 && fires) out.push(static_cast<std::int32_t>(d));
          if (tied && fires) out.tie();
        });
    return foundSize(space);
  }

  // After the round of level `size` (in lists[now]): the devices that fired send what they
  // sent (their export rows, now to previous: `exports` rows of export x device first, then
  // the edge planes' rows of their network entries), move on, count afresh, and release their
  // neighbors. Returns the next level's size (in lists[1 - now]), or -1 if two neighbors tie.
  std::int64_t release(ExecSpace space, const Clock<ExecSpace>& clock,
                       const typename Clock<ExecSpace>::Firing& firing,
                       const RoundPlanes<Memory>& planes, std::int64_t exports,
                       std::int64_t edgePlanes, int now, std::int64_t size, std::int64_t p,
                       std::int64_t sample, double horizon) const {
    Kokkos::deep_copy(space, found, 0);
    const Sink out = sink(1 - now);
    const List level = lists[now];
    const Clock<ExecSpace> c = clock;
    const RoundPlanes<Memory> r = planes;
    const std::int64_t entries = static_cast<std::int64_t>(c.net.neighbors.extent(0));
    const bool keyed = r.presencePrev.extent(0) > 0;
    Kokkos::parallel_for(
        "kfield::sim::levels_release", Kokkos::RangePolicy<ExecSpace>(space, 0, size),
        KOKKOS_LAMBDA(std::int64_t i) {
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
          c.moveOn(d, p, f, sample);
          const double t = c.next(d, p);
          std::int32_t before = 0;
          bool tied = false;
          for (std::int64_t k = begin; k < end; ++k) {
            const std::int64_t j = c.net.neighbors(k);
            if (j == d) continue;
            const double u = c.next(j, p);
            before += u < t;
            tied = tied || u == t;
            // d came before j and no longer does: j waits on one neighbor fewer.
            if (was < u && !(t < u) &&
                Kokkos::atomic_fetch_sub(&out.pending(j), std::int32_t(1)) == 1 && u < horizon) {
              firing(j, p) = c.turn(j, p);
              out.push(static_cast<std::int32_t>(j));
            }
          }
          out.pending(d) = before;
          const bool fires = t < horizon;
          firing(d, p) = before == 0 && fires ? c.turn(d, p) : 0;
          if (before == 0 && fires) out.push(static_cast<std::int32_t>(d));
          if (tied && fires) out.tie();
        });
    return foundSize(space);
  }

 private:
  std::int64_t foundSize(ExecSpace space) const {
    const auto host = Kokkos::create_mirror_view(found);
    Kokkos::deep_copy(space, host, found);
    space.fence();
    return host(1) != 0 ? -1 : host(0);
  }
};

}  // namespace kfield::impl

#endif
