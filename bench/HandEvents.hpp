// What a user would write by hand, on one thread, for the asynchronous and moving benchmarks:
// the fastest simple sequential code for the same work, the baselines of Async/Engine and
// Mobility/Rebuild. Plain vectors on the host.
#ifndef KFIELD_BENCH_HANDEVENTS_HPP
#define KFIELD_BENCH_HANDEVENTS_HPP

#include <kfield/net/Network.hpp>
#include <kfield/sim/Schedule.hpp>

#include <cstdint>
#include <utility>
#include <vector>

namespace kfield::bench {

// The hop gradient with devices on their own clocks, in the exact order of their firings.
// Firing k of every device lies in [k x period, (k + 1) x period) (jitter <= period), so a
// period's firings sorted by (time, id) and run one after another, each reading its neighbors'
// values in place, are the event order; devices firing at the same time fire together (each
// hears the other's earlier value), as the engine's schedule says. A device hears a neighbor
// once that has fired (retention infinite, every device on). Samples one after another.
class HandAsyncHops {
 public:
  HandAsyncHops(const Network& net, const Schedule& schedule, std::int64_t samples);
  void periods(std::int64_t count);  // the next `count` periods of every sample
  double value(std::int64_t d, std::int64_t s) const { return hops_[std::size_t(s * n_ + d)]; }
  std::int64_t firings() const { return firings_; }

 private:
  const Network net_;
  Schedule schedule_;
  std::int64_t n_, samples_, period_ = 0, firings_ = 0;
  std::vector<double> hops_;                             // samples x devices
  std::vector<std::uint8_t> fired_;                      // samples x devices
  std::vector<std::pair<double, std::int32_t>> events_;  // one period's (time, device)
  std::vector<double> tied_;                             // values of a group firing together
};

// The same hop gradient in the same event order, level by level, as the fastest simple code
// for it would run on `threads` threads (OpenMP; 1: plain loops): each period, every device
// counts its neighbors that fire before it in the period; those with none left fire together,
// in place (no two neighbors are in a level), and each firing releases its later neighbors,
// the last release putting a device into the next level. A period with two neighbors firing
// at the same time runs as HandAsyncHops runs it. Samples one after another.
class HandLevelHops {
 public:
  HandLevelHops(const Network& net, const Schedule& schedule, std::int64_t samples, int threads);
  void periods(std::int64_t count);
  double value(std::int64_t d, std::int64_t s) const { return hops_[std::size_t(s * n_ + d)]; }
  std::int64_t firings() const { return firings_; }
  double levelsPerPeriod() const { return double(levels_) / double(period_ * samples_); }

 private:
  void period(std::int64_t k, std::int64_t s);
  const Network net_;
  Schedule schedule_;
  std::int64_t n_, samples_, period_ = 0, firings_ = 0, levels_ = 0;
  int threads_;
  std::vector<double> hops_;           // samples x devices
  std::vector<std::uint8_t> fired_;    // samples x devices
  std::vector<double> time_;           // this period's firing of each device
  std::vector<std::int32_t> pending_;  // neighbors still to fire before it
  std::vector<std::int32_t> level_, next_;
};

// Devices moving in straight lines (bouncing off the area's edges) and their neighborhoods
// (within `radius`, the device itself included, rows sorted by id), rebuilt with cell lists of
// side `radius`: a count and a scatter put the devices in cell order, then each device, in id
// order (its row's place then known), scans the 3 x 3 cells around its own, keeps those in range
// (no branch per candidate) and sorts its short row by insertion. The same rows as
// Network::fromPositions.
class HandRebuild {
 public:
  HandRebuild(const Network& start, double radius, double speed, std::uint64_t seed);
  void move();          // one step of every device
  void placeInCells();  // the count and the scatter only: what any cell-list rebuild does first
  // placeInCells, then each device's neighbors counted, in cell order (contiguous candidates),
  // no rows written: what any cell-list rebuild does before writing; returns the entries.
  std::int64_t countNeighbors();
  void rebuild();  // placeInCells, then the rows
  const std::vector<double>& x() const { return x_; }
  const std::vector<double>& y() const { return y_; }
  const std::vector<std::int64_t>& offsets() const { return offsets_; }
  std::vector<std::int32_t> neighbors() const {
    return {neighbors_.begin(), neighbors_.begin() + offsets_.back()};
  }
  // The devices in cell order (placeInCells), and the cell of a position: for checking it.
  const std::vector<std::int32_t>& members() const { return members_; }
  std::int64_t cellOf(double x, double y) const;

 private:
  // The members in the 3 x 3 cells around (x, y): runs [lo[r], hi[r]), one per row of cells;
  // returns how many.
  int runs(double x, double y, std::int32_t* lo, std::int32_t* hi) const;

  std::int64_t n_;
  double radius_, xmin_, xmax_, ymin_, ymax_;
  std::int64_t cw_, ch_;
  std::vector<double> x_, y_, vx_, vy_;
  std::vector<std::int32_t> cellStart_, fill_, cell_, members_;
  std::vector<double> mx_, my_;  // positions in cell order
  std::vector<std::int64_t> offsets_;
  std::vector<std::int32_t> neighbors_;
};

}  // namespace kfield::bench

#endif
