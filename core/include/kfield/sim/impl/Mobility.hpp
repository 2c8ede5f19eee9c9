// Moving devices (Motion.hpp) and their neighborhoods, rebuilt on the device: cell lists of
// side >= radius over the motion's area; one pass over the members in cell order scans the
// 3 x 3 cells around each and sorts its row into places of its own, then the rows are copied
// to where the devices' ids put them (a row too long for its places is built there). The rows
// hold exactly what Network::fromPositions finds (the same comparison, the same lengths),
// whatever order the cells were filled in.
#ifndef KFIELD_SIM_IMPL_MOBILITY_HPP
#define KFIELD_SIM_IMPL_MOBILITY_HPP

#include "kfield/Plane.hpp"
#include "kfield/Random.hpp"
#include "kfield/backends/MemoryLimit.hpp"
#include "kfield/field/TracedProgram.hpp"
#include "kfield/impl/Errors.hpp"
#include "kfield/impl/KokkosCompat.hpp"
#include "kfield/impl/Sizes.hpp"
#include "kfield/impl/Upload.hpp"
#include "kfield/net/Network.hpp"
#include "kfield/sim/Motion.hpp"
#include "kfield/sim/impl/RoundPlanes.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace kfield::impl {

// x moved past [lo, hi] is reflected back in (as often as it takes); v turns round when it
// bounced an odd number of times.
KOKKOS_INLINE_FUNCTION void bounce(double& x, double& v, double lo, double hi) {
  if (x >= lo && x <= hi) return;
  const double width = hi - lo;
  if (!(width > 0.0)) {
    x = lo;
    return;
  }
  double t = math::fmod(x - lo, 2.0 * width);
  if (t < 0.0) t += 2.0 * width;
  if (t <= width) {
    x = lo + t;
  } else {
    x = lo + (2.0 * width - t);
    v = -v;
  }
}

// The cells' members near member k (in cell order, positions copied beside): the 3 x 3 cells
// around k's, k itself included, as up to three runs of members (one per row of cells).
template <class Memory>
struct Around {
  Kokkos::View<std::int64_t*, Memory> cellStart;
  Kokkos::View<double*, Memory> mx, my;
  double xmin, ymin, side, r2;
  std::int64_t cw, ch;

  // Member k's runs [lo[r], hi[r]); returns how many.
  KOKKOS_INLINE_FUNCTION int runs(std::int64_t k, std::int64_t* lo, std::int64_t* hi) const {
    const std::int64_t cx = cellX(mx(k)), cy = cellY(my(k));
    const std::int64_t left = math::max(std::int64_t(0), cx - 1),
                       right = math::min(cw - 1, cx + 1) + 1;
    int r = 0;
    for (std::int64_t ny = math::max(std::int64_t(0), cy - 1); ny <= math::min(ch - 1, cy + 1);
         ++ny, ++r) {
      lo[r] = cellStart(ny * cw + left);
      hi[r] = cellStart(ny * cw + right);
    }
    return r;
  }
  // Member i's squared distance to member k: Network::fromPositions' expression.
  KOKKOS_INLINE_FUNCTION double distance2(std::int64_t k, std::int64_t i) const {
    const double dx = mx(i) - mx(k), dy = my(i) - my(k);
    return dx * dx + dy * dy;
  }
  KOKKOS_INLINE_FUNCTION std::int64_t cellX(double x) const {
    return math::clamp(std::int64_t((x - xmin) / side), std::int64_t(0), cw - 1);
  }
  KOKKOS_INLINE_FUNCTION std::int64_t cellY(double y) const {
    return math::clamp(std::int64_t((y - ymin) / side), std::int64_t(0), ch - 1);
  }
};

template <class ExecSpace>
class Mobility {
 public:
  using Memory = typename ExecSpace::memory_space;
  using Values = Kokkos::View<double*, Memory>;
  // A device's motion: where it is, where its neighborhood was last built from, and per model
  // (a, b) = its velocity (Straight, Velocity) or waypoint (Waypoint), leg = waypoints reached.
  static constexpr int kStateRows = 7;

  Mobility() = default;
  Mobility(const Motion& motion, const Network& network, bool withLengths, bool withReverse,
           ExecSpace space, const std::string& who)
      : motion_(motion),
        space_(space),
        devices_(network.devices()),
        withLengths_(withLengths),
        withReverse_(withReverse),
        who_(who) {
    motion.check(who);
    if (!network.hasPositions()) {
      invalidArgument(who, "network '" + network.description() +
                               "' has no positions: a moving simulation needs devices with "
                               "positions (a grid, an rgg or points)");
    }
    const std::vector<double> x = network.x(), y = network.y();
    if (!motion_.hasArea()) {
      motion_.xmin = *std::min_element(x.begin(), x.end());
      motion_.xmax = *std::max_element(x.begin(), x.end());
      motion_.ymin = *std::min_element(y.begin(), y.end());
      motion_.ymax = *std::max_element(y.begin(), y.end());
    }
    for (std::int64_t d = 0; d < devices_; ++d) {
      const auto i = static_cast<std::size_t>(d);
      if (!(x[i] >= motion_.xmin && x[i] <= motion_.xmax && y[i] >= motion_.ymin &&
            y[i] <= motion_.ymax)) {
        invalidArgument(who, "motion: device " + std::to_string(d) + " starts at (" +
                                 numberText(x[i]) + ", " + numberText(y[i]) +
                                 "), outside the area " + areaText());
      }
    }
    const auto n = static_cast<std::uint64_t>(devices_);
    const MemoryLimit limit = memoryLimit<Memory>();
    // State rows, the cells' copies of positions and members, each device's place among them, and
    // the CSR's offsets and degrees.
    requireMemory(who, "the motion of " + std::to_string(devices_) + " devices",
                  product({n, kStateRows * 8 + 2 * 8 + 4 + 4 + 8 + 3 * 8 + 8}), limit.bytes,
                  limit.where);
    state_ = Kokkos::View<double**, Kokkos::LayoutRight, Memory>("kfield::mobility::state",
                                                                 kStateRows, n);
    Kokkos::deep_copy(Kokkos::subview(state_, 0, Kokkos::ALL()),
                      upload<Memory>(x, "kfield::mobility::x0"));
    Kokkos::deep_copy(Kokkos::subview(state_, 1, Kokkos::ALL()),
                      upload<Memory>(y, "kfield::mobility::y0"));
    setUpCells();
    start();
    rebuild();
  }

  const Motion& motion() const { return motion_; }
  std::int64_t entries() const { return entries_[current_]; }
  // The rows of the last rebuild, for kernels (lengths and reverse entries when asked for).
  NetworkView<Memory> view() const { return view(current_); }
  // The rows before the last rebuild (what an exchange's edge planes were written for).
  NetworkView<Memory> previous() const { return view(1 - current_); }

  // Every device moves by dt; the Velocity model reads its velocity from `output`'s first
  // column (component c of device d in row c x devices + d). Throws, naming the device, when a
  // velocity is not finite.
  void move(double dt, const Plane<Memory>& output) {
    const auto state = state_;
    const Motion m = motion_;
    const double step = m.speed * dt;
    const std::int64_t n = devices_;
    Kokkos::View<std::int64_t, Memory> bad("kfield::mobility::bad");
    Kokkos::deep_copy(space_, bad, std::numeric_limits<std::int64_t>::max());
    Kokkos::parallel_for(
        "kfield::mobility::move", Kokkos::RangePolicy<ExecSpace>(space_, 0, n),
        KOKKOS_LAMBDA(std::int64_t d) {
          double x = state(0, d), y = state(1, d), a = state(2, d), b = state(3, d);
          if (m.model == Motion::Model::Waypoint) {
            const double dx = a - x, dy = b - y;
            const double dist = math::sqrt(dx * dx + dy * dy);
            if (dist <= step) {
              x = a, y = b;
              const double leg = state(6, d) + 1.0;
              state(6, d) = leg;
              waypoint(m, d, leg, a, b);
            } else {
              const double f = step / dist;
              x = math::clamp(x + dx * f, m.xmin, m.xmax);
              y = math::clamp(y + dy * f, m.ymin, m.ymax);
            }
          } else {
            if (m.model == Motion::Model::Velocity) {
              a = output(d, 0), b = output(n + d, 0);
              if (!(a - a == 0.0 && b - b == 0.0) /* NaN or infinite */) {
                Kokkos::atomic_fetch_min(&bad(), d);
                return;
              }
            }
            x += a * dt, y += b * dt;
            bounce(x, a, m.xmin, m.xmax);
            bounce(y, b, m.ymin, m.ymax);
          }
          state(0, d) = x, state(1, d) = y, state(2, d) = a, state(3, d) = b;
        });
    const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), bad);
    if (host() != std::numeric_limits<std::int64_t>::max()) {
      const auto d = static_cast<std::size_t>(host());
      auto vx =
          Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), Kokkos::subview(output, d, 0));
      auto vy = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(),
                                                    Kokkos::subview(output, n + d, 0));
      invalidArgument(who_, "motion: device " + std::to_string(host()) +
                                "'s velocity (the program's output) is not finite: (" +
                                numberText(vx()) + ", " + numberText(vy()) + ")");
    }
  }

  // The neighborhoods of where the devices are now, and what each device sent each neighbor
  // (`program`'s exchanges' edge planes in `planes`) moved to the neighbor's entry in the new
  // row. A neighbor new to the device was sent nothing: it reads the device's own entry, the
  // value of the sent field outside its domain.
  void rebuild(RoundPlanes<Memory>& planes, const TracedProgram& program, std::int64_t samples);
  void rebuild() {
    Kokkos::deep_copy(space_, Kokkos::subview(state_, 4, Kokkos::ALL()),
                      Kokkos::subview(state_, 0, Kokkos::ALL()));
    Kokkos::deep_copy(space_, Kokkos::subview(state_, 5, Kokkos::ALL()),
                      Kokkos::subview(state_, 1, Kokkos::ALL()));
    build();
  }

  // The state rows, devices x kStateRows (row r of device d at r x devices + d), for carries.
  std::vector<double> state() const {
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), state_);
    return std::vector<double>(host.data(), host.data() + host.size());
  }
  // Restores state() and the neighborhoods built from its positions.
  void restore(const std::vector<double>& values) {
    if (values.size() != state_.size()) {
      invalidArgument(who_, "restore: the carry's motion has " + std::to_string(values.size()) +
                                " values, this simulation's " + std::to_string(state_.size()));
    }
    const auto n = static_cast<std::size_t>(devices_);
    for (std::size_t d = 0; d < n; ++d) {
      for (const std::size_t r :
           {std::size_t(0), std::size_t(4)}) {  // where it is, where it was built
        const double x = values[r * n + d], y = values[(r + 1) * n + d];
        if (!(x >= motion_.xmin && x <= motion_.xmax && y >= motion_.ymin && y <= motion_.ymax)) {
          invalidArgument(who_, "restore: the carry's motion puts device " + std::to_string(d) +
                                    " at (" + numberText(x) + ", " + numberText(y) +
                                    "), outside the area " + areaText());
        }
      }
    }
    Kokkos::deep_copy(state_, Kokkos::View<const double**, Kokkos::LayoutRight, Kokkos::HostSpace,
                                           Kokkos::MemoryUnmanaged>(
                                  values.data(), kStateRows, static_cast<std::size_t>(devices_)));
    build();
  }

  // Where the devices are now, and where the current neighborhoods were built from.
  std::vector<double> row(int r) const {
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(),
                                                    Kokkos::subview(state_, r, Kokkos::ALL()));
    return std::vector<double>(host.data(), host.data() + host.size());
  }

  // The current neighborhoods as a host network (with the positions they were built from).
  Network network() const {
    const NetworkView<Memory> v = view();
    auto offsets = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v.offsets);
    auto neighbors = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v.neighbors);
    return Network::fromCsr(
        std::vector<std::int64_t>(offsets.data(), offsets.data() + offsets.size()),
        std::vector<std::int32_t>(neighbors.data(), neighbors.data() + neighbors.size()), {},
        row(4), row(5), std::to_string(devices_) + " moving devices (" + motion_.text() + ")");
  }

  std::string areaText() const {
    return "[" + numberText(motion_.xmin) + ", " + numberText(motion_.xmax) + "] x [" +
           numberText(motion_.ymin) + ", " + numberText(motion_.ymax) + "]";
  }

 private:
  // Waypoint `leg` of device d, uniform in the area.
  KOKKOS_INLINE_FUNCTION static void waypoint(const Motion& m, std::int64_t d, double leg,
                                              double& a, double& b) {
    const std::uint64_t stream = mix64(m.seed, std::uint64_t(d));
    const auto k = static_cast<std::uint64_t>(leg);
    a = m.xmin + (m.xmax - m.xmin) * uniform01(stream, 2 * k);
    b = m.ymin + (m.ymax - m.ymin) * uniform01(stream, 2 * k + 1);
  }

 public:  // the members that launch kernels: nvcc refuses device lambdas in private members
  // Velocities (a direction uniform on the circle, by rejection: only correctly rounded
  // operations, the same bits everywhere) or first waypoints.
  void start() {
    const auto state = state_;
    const Motion m = motion_;
    Kokkos::parallel_for(
        "kfield::mobility::start", Kokkos::RangePolicy<ExecSpace>(space_, 0, devices_),
        KOKKOS_LAMBDA(std::int64_t d) {
          double a = 0.0, b = 0.0;
          if (m.model == Motion::Model::Waypoint) {
            waypoint(m, d, 0.0, a, b);
          } else if (m.model == Motion::Model::Straight) {
            const std::uint64_t stream = mix64(m.seed, std::uint64_t(d));
            a = m.speed;  // after 64 rejections (odds 1e-43): along x
            for (std::uint64_t t = 0; t < 64; ++t) {
              const double u = 2.0 * uniform01(stream, 2 * t) - 1.0;
              const double v = 2.0 * uniform01(stream, 2 * t + 1) - 1.0;
              const double r2 = u * u + v * v;
              if (r2 <= 1.0 && r2 > 1e-6) {
                const double r = math::sqrt(r2);
                a = m.speed * (u / r), b = m.speed * (v / r);
                break;
              }
            }
          }
          state(2, d) = a, state(3, d) = b, state(6, d) = 0.0;
        });
  }

  void setUpCells() {
    const double r = motion_.radius;
    const double w = motion_.xmax - motion_.xmin, h = motion_.ymax - motion_.ymin;
    const double along = std::max(1.0, std::floor(std::sqrt(double(devices_))));
    cw_ = std::int64_t(std::min(std::floor(w / r) + 1.0, along));
    ch_ = std::int64_t(std::min(std::floor(h / r) + 1.0, along));
    side_ = std::max({r, w / double(cw_), h / double(ch_)});
    const auto cells = static_cast<std::size_t>(cw_ * ch_);
    const auto n = static_cast<std::size_t>(devices_);
    cellStart_ = Kokkos::View<std::int64_t*, Memory>("kfield::mobility::cell_start", cells + 1);
    cellFill_ = Kokkos::View<std::int64_t*, Memory>("kfield::mobility::cell_fill", cells);
    cellOf_ = Kokkos::View<std::int64_t*, Memory>("kfield::mobility::cell_of", n);
    members_ = Kokkos::View<std::int32_t*, Memory>("kfield::mobility::members", n);
    position_ = Kokkos::View<std::int32_t*, Memory>("kfield::mobility::position", n);
    memberX_ = Values("kfield::mobility::member_x", n);
    memberY_ = Values("kfield::mobility::member_y", n);
    for (int b = 0; b < 2; ++b) {
      offsets_[b] = Kokkos::View<std::int64_t*, Memory>("kfield::mobility::offsets", n + 1);
    }
  }

  // The CSR of the positions in rows 4 and 5, into the buffer not in use (the one in use is
  // what the rows before read: Simulation moves exchanges' edge planes across).
  void build() {
    current_ = 1 - current_;
    const int c = current_;
    const auto state = state_;
    const std::int64_t n = devices_;
    const Around<Memory> around{cellStart_,
                                memberX_,
                                memberY_,
                                motion_.xmin,
                                motion_.ymin,
                                side_,
                                motion_.radius * motion_.radius,
                                cw_,
                                ch_};
    const double r2 = around.r2;
    const std::int64_t cells = cw_ * ch_;
    const auto cellStart = cellStart_, cellFill = cellFill_, cellOf = cellOf_;
    const auto members = members_, position = position_;
    const auto mx = memberX_, my = memberY_;
    const auto offsets = offsets_[c];
    const auto degree = cellOf_;  // free once the members are placed
    using Range = Kokkos::RangePolicy<ExecSpace>;
    // On one thread the counts are plain increments: an atomic's lock would keep the scattered
    // misses these two passes wait on from overlapping.
    const bool shared = space_.concurrency() > 1;
    Kokkos::deep_copy(space_, cellFill, 0);
    Kokkos::parallel_for(
        "kfield::mobility::cells", Range(space_, 0, n), KOKKOS_LAMBDA(std::int64_t d) {
          const std::int64_t cell =
              around.cellY(state(5, d)) * around.cw + around.cellX(state(4, d));
          cellOf(d) = cell;
          if (shared) {
            Kokkos::atomic_fetch_add(&cellFill(cell), std::int64_t(1));
          } else {
            ++cellFill(cell);
          }
        });
    Kokkos::parallel_scan(
        "kfield::mobility::cell_starts", Range(space_, 0, cells + 1),
        KOKKOS_LAMBDA(std::int64_t k, std::int64_t & sum, bool last) {
          if (last) cellStart(k) = sum;
          if (k < cells) sum += cellFill(k);
        });
    // Each cell's next place, from its start: one scattered access per device.
    Kokkos::deep_copy(space_, cellFill,
                      Kokkos::subview(cellStart, std::make_pair(std::int64_t(0), cells)));
    Kokkos::parallel_for(
        "kfield::mobility::members", Range(space_, 0, n), KOKKOS_LAMBDA(std::int64_t d) {
          const std::int64_t k =
              shared ? Kokkos::atomic_fetch_add(&cellFill(cellOf(d)), std::int64_t(1))
                     : cellFill(cellOf(d))++;
          members(k) = std::int32_t(d);
          position(d) = std::int32_t(k);
          mx(k) = state(4, d), my(k) = state(5, d);
        });
    // Each member's row, in cell order so that neighboring work items scan the same cells,
    // into `slots` places of its own: its kept candidates, each id at its rank among them
    // (ids differ, and counting ranks takes no branches). A row longer than that is left to
    // the copy below. Its length goes where the device's id puts it, for the offsets.
    const std::int64_t slots = stage(entries_[1 - c]);
    const auto staged = staged_;
    const auto stagedLengths = withLengths_ ? stagedLengths_ : Values();
    const bool withLengths = withLengths_;
    Kokkos::parallel_for(
        "kfield::mobility::rows", Range(space_, 0, n), KOKKOS_LAMBDA(std::int64_t k) {
          std::int64_t lo[3], hi[3];
          const int runs = around.runs(k, lo, hi);
          std::int32_t ids[kMaxSlots + 1];
          std::int64_t at[kMaxSlots + 1];
          std::int64_t found = 0;
          for (int r = 0; r < runs; ++r) {
            for (std::int64_t i = lo[r]; i < hi[r]; ++i) {
              const std::int64_t w =
                  found < kMaxSlots ? found : kMaxSlots;  // past it: only counted
              ids[w] = members(i);
              at[w] = i;
              found += around.distance2(k, i) <= r2 ? 1 : 0;
            }
          }
          degree(members(k)) = found;  // the device itself included
          if (found > slots) return;
          const std::int64_t lanes = (found + 7) / 8 * 8;
          std::int32_t rank[kMaxSlots];
          for (std::int64_t a = found; a < lanes; ++a) ids[a] = kAboveAllIds;
          for (std::int64_t a = 0; a < lanes; ++a) rank[a] = 0;
          for (std::int64_t j = 0; j < found; ++j) {
            const std::int32_t v = ids[j];
            for (std::int64_t a = 0; a < lanes; ++a) rank[a] += v < ids[a] ? 1 : 0;
          }
          const std::int64_t begin = k * slots;
          for (std::int64_t a = 0; a < found; ++a) {
            staged(begin + rank[a]) = ids[a];
            // Network::lengths' expression, sqrt(dx * dx + dy * dy): 0 for the device itself.
            if (withLengths)
              stagedLengths(begin + rank[a]) = math::sqrt(around.distance2(k, at[a]));
          }
        });
    Kokkos::parallel_scan(
        "kfield::mobility::offsets", Range(space_, 0, n + 1),
        KOKKOS_LAMBDA(std::int64_t d, std::int64_t & sum, bool last) {
          if (last) offsets(d) = sum;
          if (d < n) sum += degree(d);
        });
    std::int64_t entries = 0;
    Kokkos::deep_copy(space_, entries, Kokkos::subview(offsets, n));
    space_.fence();
    reserve(c, entries);
    entries_[c] = entries;
    // The rows go where the devices' ids put them, read from the members' places: copied in
    // id order, the writes stream (written in cell order, each would wait on its own miss).
    const auto rows = neighbors_[c];
    const auto rowLengths = withLengths_ ? lengths_[c] : Values();
    Kokkos::parallel_for(
        "kfield::mobility::copy_rows", Range(space_, 0, n), KOKKOS_LAMBDA(std::int64_t d) {
          const std::int64_t k = position(d), to = offsets(d), size = offsets(d + 1) - to;
          // A later device's places, scattered: asked for ahead (a hint; its address only).
          if (d + kCopyAhead < n) {
            prefetch(
                reinterpret_cast<const double*>(staged.data() + position(d + kCopyAhead) * slots),
                slots / 2);
          }
          if (size <= slots) {
            for (std::int64_t i = 0; i < size; ++i) rows(to + i) = staged(k * slots + i);
            for (std::int64_t i = 0; withLengths && i < size; ++i)
              rowLengths(to + i) = stagedLengths(k * slots + i);
            return;
          }
          std::int64_t lo[3], hi[3];
          const int runs = around.runs(k, lo, hi);
          std::int64_t filled = 0;
          for (int r = 0; r < runs; ++r) {
            for (std::int64_t i = lo[r]; i < hi[r]; ++i) {
              if (around.distance2(k, i) <= r2) rows(to + filled++) = members(i);
            }
          }
          sortRow(&rows(to), size);
          for (std::int64_t i = 0; withLengths && i < size; ++i) {
            const std::int64_t j = rows(to + i);
            const double dx = state(4, j) - state(4, d), dy = state(5, j) - state(5, d);
            rowLengths(to + i) = math::sqrt(dx * dx + dy * dy);
          }
        });
    if (withReverse_) {
      const auto reverse = reverse_[c];
      Kokkos::parallel_for(
          "kfield::mobility::reverse", Range(space_, 0, n), KOKKOS_LAMBDA(std::int64_t d) {
            for (std::int64_t k = offsets(d); k < offsets(d + 1); ++k) {
              const std::int64_t j = rows(k);
              std::int64_t lo = offsets(j), hi = offsets(j + 1);  // d is in j's row: symmetric
              while (hi - lo > 1) {
                const std::int64_t mid = lo + (hi - lo) / 2;
                (rows(mid) <= d ? lo : hi) = mid;
              }
              reverse(k) = lo;
            }
          });
    }
  }

 private:
  // Places per member for its row, a multiple of 16 and at most kMaxSlots: the last build's
  // mean row and 2.5 standard deviations of a Poisson count (8 at the first build); longer
  // rows take the slow path. Only the speed depends on it. Returns how many.
  std::int64_t stage(std::int64_t lastEntries) {
    const double mean = lastEntries > 0 ? double(lastEntries) / double(devices_) : 8.0;
    const auto fit = static_cast<std::int64_t>(std::ceil(mean + 2.5 * std::sqrt(mean)));
    const std::int64_t slots = std::min<std::int64_t>(kMaxSlots, (fit + 15) / 16 * 16);
    const auto want = static_cast<std::uint64_t>(slots) * static_cast<std::uint64_t>(devices_);
    if (staged_.extent(0) < want) {
      const MemoryLimit limit = memoryLimit<Memory>();
      requireMemory(
          who_, "the staged neighborhoods of " + std::to_string(devices_) + " moving devices",
          product({want, std::uint64_t(4 + (withLengths_ ? 8 : 0))}), limit.bytes, limit.where);
      staged_ = {}, stagedLengths_ = {};
      staged_ = Kokkos::View<std::int32_t*, Memory>(
          Kokkos::view_alloc("kfield::mobility::staged", Kokkos::WithoutInitializing), want);
      if (withLengths_) {
        stagedLengths_ = Values(
            Kokkos::view_alloc("kfield::mobility::staged_lengths", Kokkos::WithoutInitializing),
            want);
      }
    }
    return slots;
  }

  // Rows up to kMaxSlots long can be staged; ids are below kAboveAllIds (int32).
  static constexpr int kMaxSlots = 64;
  static constexpr std::int64_t kCopyAhead = 16;  // devices between a row's prefetch and its copy
  static constexpr std::int32_t kAboveAllIds = 2147483647;

  // Insertion sort: rows are short.
  template <class T>
  KOKKOS_INLINE_FUNCTION static void sortRow(T* row, std::int64_t size) {
    for (std::int64_t i = 1; i < size; ++i) {
      const T v = row[i];
      std::int64_t j = i;
      for (; j > 0 && row[j - 1] > v; --j) row[j] = row[j - 1];
      row[j] = v;
    }
  }

  NetworkView<Memory> view(int c) const {
    NetworkView<Memory> v;
    const auto e = std::make_pair(std::int64_t(0), entries_[c]);
    v.offsets = offsets_[c];
    v.neighbors = Kokkos::subview(neighbors_[c], e);
    if (withLengths_) v.lengths = Kokkos::subview(lengths_[c], e);
    if (withReverse_) v.reverse = Kokkos::subview(reverse_[c], e);
    return v;
  }

  // Room for `entries` in buffer c, checked against the memory where it lives.
  void reserve(int c, std::int64_t entries) {
    if (static_cast<std::int64_t>(neighbors_[c].extent(0)) >= entries) return;
    const auto e = static_cast<std::uint64_t>(entries);
    const MemoryLimit limit = memoryLimit<Memory>();
    requireMemory(who_,
                  "the neighborhoods of " + std::to_string(devices_) + " moving devices (" +
                      std::to_string(entries) + " entries)",
                  product({e, std::uint64_t(4 + (withLengths_ ? 8 : 0) + (withReverse_ ? 8 : 0))}),
                  limit.bytes, limit.where);
    const auto size = static_cast<std::size_t>(entries + entries / 8);  // room to grow
    neighbors_[c] = {};
    neighbors_[c] = Kokkos::View<std::int32_t*, Memory>("kfield::mobility::neighbors", size);
    if (withLengths_) lengths_[c] = {}, lengths_[c] = Values("kfield::mobility::lengths", size);
    if (withReverse_) {
      reverse_[c] = {};
      reverse_[c] = Kokkos::View<std::int64_t*, Memory>("kfield::mobility::reverse", size);
    }
  }

  Motion motion_;
  ExecSpace space_;
  std::int64_t devices_ = 0;
  bool withLengths_ = false, withReverse_ = false;
  std::string who_;
  Kokkos::View<double**, Kokkos::LayoutRight, Memory> state_;  // kStateRows x devices
  std::int64_t cw_ = 1, ch_ = 1;
  double side_ = 1.0;
  Kokkos::View<std::int64_t*, Memory> cellStart_, cellFill_, cellOf_;
  // Per member (cell order) its device; per device its member. The rows staged in cell order,
  // stage()'s places per member, before they are copied out.
  Kokkos::View<std::int32_t*, Memory> members_, position_;
  Kokkos::View<std::int32_t*, Memory> staged_;
  Values stagedLengths_;
  Values memberX_, memberY_;
  // Two CSR buffers: the current one, and the one the rows before were run on.
  int current_ = 1;
  Kokkos::View<std::int64_t*, Memory> offsets_[2];
  Kokkos::View<std::int32_t*, Memory> neighbors_[2];
  Values lengths_[2];
  Kokkos::View<std::int64_t*, Memory> reverse_[2];
  std::int64_t entries_[2] = {0, 0};
};

// What each device sent each neighbor, moved to the rebuilt rows: rows from `edgeRow` of `old`
// hold `edgePlanes` edge planes over `before`'s entries, and go to `moved` over `after`'s. A
// neighbor new to the device was sent nothing: it reads the device's own entry (export row
// own(e) + d), the value of the sent field outside its domain.
template <class ExecSpace, class Net, class Rows, class Values>
void moveEdgeMessages(const ExecSpace& space, std::int64_t devices, const Net& before,
                      const Net& after, const Rows& own, const Values& old, const Values& moved,
                      std::int64_t edgeRow, std::int64_t edgePlanes) {
  const auto oldEntries = static_cast<std::int64_t>(before.neighbors.extent(0));
  const auto newEntries = static_cast<std::int64_t>(after.neighbors.extent(0));
  const auto samples = static_cast<std::int64_t>(moved.extent(1));
  Kokkos::parallel_for(
      "kfield::sim::move_edges", Kokkos::RangePolicy<ExecSpace>(space, 0, devices),
      KOKKOS_LAMBDA(std::int64_t d) {
        std::int64_t from = before.offsets(d);
        const std::int64_t fromEnd = before.offsets(d + 1);
        for (std::int64_t k = after.offsets(d); k < after.offsets(d + 1); ++k) {
          const std::int32_t j = after.neighbors(k);  // both rows ascend: one merge
          while (from < fromEnd && before.neighbors(from) < j) ++from;
          const bool kept = from < fromEnd && before.neighbors(from) == j;
          for (std::int64_t e = 0; e < edgePlanes; ++e) {
            const std::int64_t src = kept ? edgeRow + e * oldEntries + from : own(e) + d;
            const std::int64_t dst = edgeRow + e * newEntries + k;
            for (std::int64_t s = 0; s < samples; ++s) moved(dst, s) = old(src, s);
          }
        }
      });
}

template <class ExecSpace>
void Mobility<ExecSpace>::rebuild(RoundPlanes<Memory>& planes, const TracedProgram& program,
                                  std::int64_t samples) {
  rebuild();
  if (program.edgePlanes == 0) return;
  const NetworkView<Memory> before = previous(), after = view();
  std::vector<std::int64_t> ownRow(static_cast<std::size_t>(program.edgePlanes));
  for (std::size_t i = 0; i < program.exports.size(); ++i) {
    if (program.exports[i].edge >= 0) ownRow[program.exports[i].edge] = std::int64_t(i) * devices_;
  }
  const auto own = upload<Memory>(ownRow, "kfield::sim::edge_own_rows");
  const auto newEntries = static_cast<std::int64_t>(after.neighbors.extent(0));
  const std::int64_t edgeRow = planes.edgeRow, edgePlanes = program.edgePlanes;
  const std::uint64_t rows = total(
      {std::uint64_t(edgeRow), product({std::uint64_t(edgePlanes), std::uint64_t(newEntries)})});
  const MemoryLimit limit = memoryLimit<Memory>();
  requireMemory(who_, "the exchanges' messages over the rebuilt neighborhoods",
                product({rows, std::uint64_t(samples), sizeof(double)}), limit.bytes, limit.where);
  const Plane<Memory> old = planes.exportsPrev;
  Plane<Memory> moved(Kokkos::view_alloc(Kokkos::WithoutInitializing, old.label()), rows, samples);
  Kokkos::deep_copy(space_,
                    Kokkos::subview(moved, std::make_pair(std::int64_t(0), edgeRow), Kokkos::ALL()),
                    Kokkos::subview(old, std::make_pair(std::int64_t(0), edgeRow), Kokkos::ALL()));
  moveEdgeMessages(space_, devices_, before, after, own, old, moved, edgeRow, edgePlanes);
  planes.exportsPrev = moved;
  if (planes.exportsNow.extent(0) != rows) {  // rewritten by the next round before it is read
    planes.exportsNow = Plane<Memory>();
    planes.exportsNow = Plane<Memory>(old.label(), rows, samples);
  }
}

}  // namespace kfield::impl

#endif
