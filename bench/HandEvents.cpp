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

void HandAsyncHops::periods(std::int64_t count) {
  const auto& offsets = net_.offsets();
  const auto& neighbors = net_.neighbors();
  for (std::int64_t s = 0; s < samples_; ++s) {
    double* hops = hops_.data() + s * n_;
    std::uint8_t* fired = fired_.data() + s * n_;
    const std::int64_t source = sourceOf(s, net_);
    // What device d computes when it fires, from what its neighbors sent before.
    auto value = [&](std::int64_t d) {
      double best = kInf;
      for (std::int64_t k = offsets[std::size_t(d)]; k < offsets[std::size_t(d) + 1]; ++k) {
        const std::int32_t j = neighbors[std::size_t(k)];
        if (j != d && fired[j] != 0) best = std::min(best, hops[j] + 1.0);
      }
      return d == source ? 0.0 : best;
    };
    for (std::int64_t k = period_; k < period_ + count; ++k) {
      for (std::int64_t d = 0; d < n_; ++d) {
        events_[std::size_t(d)] = {schedule_.firingTime(k, d, s), std::int32_t(d)};
      }
      std::sort(events_.begin(), events_.end());
      for (std::size_t i = 0; i < events_.size();) {
        std::size_t end = i + 1;
        while (end < events_.size() && events_[end].first == events_[i].first) ++end;
        if (end == i + 1) {
          const std::int32_t d = events_[i].second;
          hops[d] = value(d), fired[d] = 1;
        } else {  // together: every value from what was sent before, then all sent
          tied_.clear();
          for (std::size_t e = i; e < end; ++e) tied_.push_back(value(events_[e].second));
          for (std::size_t e = i; e < end; ++e) {
            hops[events_[e].second] = tied_[e - i], fired[events_[e].second] = 1;
          }
        }
        i = end;
      }
    }
  }
  period_ += count;
  firings_ += count * n_ * samples_;
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
