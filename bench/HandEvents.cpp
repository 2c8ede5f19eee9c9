#include "HandEvents.hpp"

#include "HandRounds.hpp"

#include <kfield/Random.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace kfield::bench {
namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
}  // namespace

HandAsyncHops::HandAsyncHops(const Network& net, const Schedule& schedule, std::int64_t samples)
    : net_(net),
      schedule_(schedule),
      n_(net.devices()),
      samples_(samples),
      hops_(std::size_t(n_ * samples), kInf),
      fired_(std::size_t(n_ * samples), 0),
      events_(std::size_t(n_)) {}

namespace {

// Period k of sample s in event order: its firings sorted by (time, id) and run one after
// another, each reading its neighbors' values in place; firings at the same time together.
void periodInOrder(const Network& net, const Schedule& schedule, std::int64_t k, std::int64_t s,
                   double* hops, std::uint8_t* fired,
                   std::vector<std::pair<double, std::int32_t>>& events,
                   std::vector<double>& tied) {
  const auto& offsets = net.offsets();
  const auto& neighbors = net.neighbors();
  const std::int64_t n = net.devices(), source = sourceOf(s, net);
  // What device d computes when it fires, from what its neighbors sent before.
  auto value = [&](std::int64_t d) {
    double best = kInf;
    for (std::int64_t e = offsets[std::size_t(d)]; e < offsets[std::size_t(d) + 1]; ++e) {
      const std::int32_t j = neighbors[std::size_t(e)];
      if (j != d && fired[j] != 0) best = std::min(best, hops[j] + 1.0);
    }
    return d == source ? 0.0 : best;
  };
  events.resize(std::size_t(n));
  for (std::int64_t d = 0; d < n; ++d) {
    events[std::size_t(d)] = {schedule.firingTime(k, d, s), std::int32_t(d)};
  }
  std::sort(events.begin(), events.end());
  for (std::size_t i = 0; i < events.size();) {
    std::size_t end = i + 1;
    while (end < events.size() && events[end].first == events[i].first) ++end;
    if (end == i + 1) {
      const std::int32_t d = events[i].second;
      hops[d] = value(d), fired[d] = 1;
    } else {  // together: every value from what was sent before, then all sent
      tied.clear();
      for (std::size_t e = i; e < end; ++e) tied.push_back(value(events[e].second));
      for (std::size_t e = i; e < end; ++e) {
        hops[events[e].second] = tied[e - i], fired[events[e].second] = 1;
      }
    }
    i = end;
  }
}

}  // namespace

void HandAsyncHops::periods(std::int64_t count) {
  for (std::int64_t s = 0; s < samples_; ++s) {
    for (std::int64_t k = period_; k < period_ + count; ++k) {
      periodInOrder(net_, schedule_, k, s, hops_.data() + s * n_, fired_.data() + s * n_, events_,
                    tied_);
    }
  }
  period_ += count;
  firings_ += count * n_ * samples_;
}

HandLevelHops::HandLevelHops(const Network& net, const Schedule& schedule, std::int64_t samples,
                             int threads)
    : net_(net),
      schedule_(schedule),
      n_(net.devices()),
      samples_(samples),
      threads_(threads),
      hops_(std::size_t(n_ * samples), kInf),
      fired_(std::size_t(n_ * samples), 0),
      time_(std::size_t(n_)),
      pending_(std::size_t(n_)),
      level_(std::size_t(n_)),
      next_(std::size_t(n_)) {}

void HandLevelHops::periods(std::int64_t count) {
  for (std::int64_t s = 0; s < samples_; ++s) {
    for (std::int64_t k = period_; k < period_ + count; ++k) period(k, s);
  }
  period_ += count;
  firings_ += count * n_ * samples_;
}

void HandLevelHops::period(std::int64_t k, std::int64_t s) {
  const std::int64_t* offsets = net_.offsets().data();
  const std::int32_t* neighbors = net_.neighbors().data();
  double* hops = hops_.data() + s * n_;
  std::uint8_t* fired = fired_.data() + s * n_;
  double* time = time_.data();
  std::int32_t* pending = pending_.data();
  const std::int64_t source = sourceOf(s, net_), n = n_;
  const Schedule schedule = schedule_;
  int ties = 0;
  std::int64_t size = 0;
#pragma omp parallel num_threads(threads_) if (threads_ > 1)
  {
#pragma omp for
    for (std::int64_t d = 0; d < n; ++d) time[d] = schedule.firingTime(k, d, s);
#pragma omp for reduction(| : ties)
    for (std::int64_t d = 0; d < n; ++d) {
      std::int32_t before = 0;
      for (std::int64_t e = offsets[d]; e < offsets[d + 1]; ++e) {
        const std::int32_t j = neighbors[e];
        before += j != d && time[j] < time[d];
        ties |= j != d && time[j] == time[d];
      }
      pending[d] = before;
    }
  }
  if (ties != 0) {  // rare: the sequential order, equal times together
    std::vector<std::pair<double, std::int32_t>> events;
    std::vector<double> tied;
    return periodInOrder(net_, schedule_, k, s, hops, fired, events, tied);
  }
  for (std::int64_t d = 0; d < n; ++d) {
    if (pending[d] == 0) level_[std::size_t(size++)] = std::int32_t(d);
  }
  std::int32_t* level = level_.data();
  while (size > 0) {
    ++levels_;
    std::int64_t nextSize = 0;
    std::int32_t* next = next_.data();
#pragma omp parallel for num_threads(threads_) if (threads_ > 1 && size > 256)
    for (std::int64_t i = 0; i < size; ++i) {
      const std::int32_t d = level[i];
      double best = kInf;
      for (std::int64_t e = offsets[d]; e < offsets[d + 1]; ++e) {
        const std::int32_t j = neighbors[e];
        if (j != d && fired[j] != 0) best = std::min(best, hops[j] + 1.0);
      }
      hops[d] = d == source ? 0.0 : best, fired[d] = 1;
      for (std::int64_t e = offsets[d]; e < offsets[d + 1]; ++e) {
        const std::int32_t j = neighbors[e];
        if (!(time[d] < time[j])) continue;
        std::int32_t left;
        if (threads_ > 1) {
#pragma omp atomic capture
          left = --pending[j];
        } else {
          left = --pending[j];
        }
        if (left != 0) continue;
        std::int64_t at;
        if (threads_ > 1) {
#pragma omp atomic capture
          at = nextSize++;
        } else {
          at = nextSize++;
        }
        next[at] = j;
      }
    }
    std::swap(level_, next_);
    level = level_.data();
    size = nextSize;
  }
}

HandRebuild::HandRebuild(const Network& start, double radius, double speed, std::uint64_t seed)
    : n_(start.devices()), radius_(radius), x_(start.x()), y_(start.y()) {
  xmin_ = *std::min_element(x_.begin(), x_.end()), xmax_ = *std::max_element(x_.begin(), x_.end());
  ymin_ = *std::min_element(y_.begin(), y_.end()), ymax_ = *std::max_element(y_.begin(), y_.end());
  cw_ = std::int64_t((xmax_ - xmin_) / radius) + 1,
  ch_ = std::int64_t((ymax_ - ymin_) / radius) + 1;
  vx_.resize(std::size_t(n_)), vy_.resize(std::size_t(n_));
  for (std::int64_t d = 0; d < n_; ++d) {  // a direction uniform on the circle
    const double a = 2.0 * 3.141592653589793 * uniform01(mix64(seed, std::uint64_t(d)), 0);
    vx_[std::size_t(d)] = speed * std::cos(a), vy_[std::size_t(d)] = speed * std::sin(a);
  }
  cellStart_.resize(std::size_t(cw_ * ch_ + 1)), fill_.resize(std::size_t(cw_ * ch_));
  cell_.resize(std::size_t(n_)), members_.resize(std::size_t(n_));
  mx_.resize(std::size_t(n_)), my_.resize(std::size_t(n_)), offsets_.resize(std::size_t(n_ + 1));
  neighbors_.resize(std::size_t(n_) * 10);  // grown in rebuild() when rows are longer
}

void HandRebuild::move() {
  auto bounce = [](double& p, double& v, double lo, double hi) {
    p += v;
    if (p < lo) p = lo + (lo - p), v = -v;
    if (p > hi) p = hi - (p - hi), v = -v;
  };
  for (std::size_t d = 0; d < x_.size(); ++d) {
    bounce(x_[d], vx_[d], xmin_, xmax_);
    bounce(y_[d], vy_[d], ymin_, ymax_);
  }
}

std::int64_t HandRebuild::cellOf(double x, double y) const {
  const std::int64_t cx = std::min(cw_ - 1, std::int64_t((x - xmin_) / radius_));
  const std::int64_t cy = std::min(ch_ - 1, std::int64_t((y - ymin_) / radius_));
  return cy * cw_ + cx;
}

void HandRebuild::placeInCells() {
  std::fill(fill_.begin(), fill_.end(), 0);
  for (std::int64_t d = 0; d < n_; ++d) {
    const auto c = std::int32_t(cellOf(x_[std::size_t(d)], y_[std::size_t(d)]));
    cell_[std::size_t(d)] = c;
    ++fill_[std::size_t(c)];
  }
  std::int32_t at = 0;
  for (std::size_t c = 0; c < fill_.size(); ++c)
    cellStart_[c] = at, at += fill_[c], fill_[c] = cellStart_[c];
  cellStart_.back() = at;
  for (std::int64_t d = 0; d < n_; ++d) {
    const std::int32_t k = fill_[std::size_t(cell_[std::size_t(d)])]++;
    members_[std::size_t(k)] = std::int32_t(d);
    mx_[std::size_t(k)] = x_[std::size_t(d)], my_[std::size_t(k)] = y_[std::size_t(d)];
  }
}

int HandRebuild::runs(double x, double y, std::int32_t* lo, std::int32_t* hi) const {
  const std::int64_t c = cellOf(x, y), cx = c % cw_, cy = c / cw_;
  const std::int64_t left = std::max<std::int64_t>(0, cx - 1), right = std::min(cw_ - 1, cx + 1);
  int r = 0;
  for (std::int64_t ny = std::max<std::int64_t>(0, cy - 1); ny <= std::min(ch_ - 1, cy + 1);
       ++ny, ++r) {
    lo[r] = cellStart_[std::size_t(ny * cw_ + left)];
    hi[r] = cellStart_[std::size_t(ny * cw_ + right + 1)];
  }
  return r;
}

std::int64_t HandRebuild::countNeighbors() {
  placeInCells();
  const double r2 = radius_ * radius_;
  std::int64_t entries = 0;
  for (std::int64_t k = 0; k < n_; ++k) {
    const double px = mx_[std::size_t(k)], py = my_[std::size_t(k)];
    std::int32_t lo[3], hi[3];
    for (int r = 0, count = runs(px, py, lo, hi); r < count; ++r) {
      for (std::int32_t i = lo[r]; i < hi[r]; ++i) {
        const double dx = mx_[std::size_t(i)] - px, dy = my_[std::size_t(i)] - py;
        entries += dx * dx + dy * dy <= r2 ? 1 : 0;
      }
    }
  }
  return entries;
}

void HandRebuild::rebuild() {
  placeInCells();
  const double r2 = radius_ * radius_;
  std::int64_t at = 0;
  for (std::int64_t d = 0; d < n_; ++d) {
    offsets_[std::size_t(d)] = at;
    const double px = x_[std::size_t(d)], py = y_[std::size_t(d)];
    std::int32_t lo[3], hi[3];
    const int count = runs(px, py, lo, hi);
    // Room for every candidate: the row's entries are written before they are kept.
    std::int64_t candidates = 0;
    for (int r = 0; r < count; ++r) candidates += hi[r] - lo[r];
    if (neighbors_.size() < std::size_t(at + candidates))
      neighbors_.resize(std::size_t(at + candidates) * 5 / 4);
    std::int32_t* row = neighbors_.data() + at;
    std::int64_t m = 0;
    for (int r = 0; r < count; ++r) {
      for (std::int32_t i = lo[r]; i < hi[r]; ++i) {
        const double dx = mx_[std::size_t(i)] - px, dy = my_[std::size_t(i)] - py;
        row[m] = members_[std::size_t(i)];
        m += dx * dx + dy * dy <= r2 ? 1 : 0;
      }
    }
    for (std::int64_t i = 1; i < m; ++i) {
      const std::int32_t v = row[i];
      std::int64_t j = i;
      for (; j > 0 && row[j - 1] > v; --j) row[j] = row[j - 1];
      row[j] = v;
    }
    at += m;
  }
  offsets_[std::size_t(n_)] = at;
}

}  // namespace kfield::bench
