// Networks in the plane: neighbors within a radius, found with cell lists.
#include "BuildRows.hpp"

#include "kfield/Random.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace kfield {
namespace {

// Devices sorted into square cells of side >= radius, so that a device's neighbors lie in its
// cell and the 8 around it; at most about one cell per device, however small the radius.
class Cells {
 public:
  Cells(const std::vector<double>& x, const std::vector<double>& y, double radius)
      : x_(x), y_(y), r2_(radius * radius) {
    const auto n = static_cast<std::int64_t>(x.size());
    double maxX = x[0], maxY = y[0];
    minX_ = x[0], minY_ = y[0];
    for (std::int64_t i = 0; i < n; ++i) {
      minX_ = std::min(minX_, x[i]), maxX = std::max(maxX, x[i]);
      minY_ = std::min(minY_, y[i]), maxY = std::max(maxY, y[i]);
    }
    // In floating point, clamped before any conversion: extent / radius may be huge.
    const double along = std::max(1.0, std::floor(std::sqrt(double(n))));
    cw_ = std::int64_t(std::min(std::floor((maxX - minX_) / radius) + 1.0, along));
    ch_ = std::int64_t(std::min(std::floor((maxY - minY_) / radius) + 1.0, along));
    side_ = std::max({radius, (maxX - minX_) / double(cw_), (maxY - minY_) / double(ch_)});
    // Counting sort of devices by cell, ids ascending within a cell.
    start_.assign(std::size_t(cw_ * ch_ + 1), 0);
    for (std::int64_t i = 0; i < n; ++i) ++start_[cellOf(i) + 1];
    for (std::size_t c = 1; c < start_.size(); ++c) start_[c] += start_[c - 1];
    members_.resize(std::size_t(n));
    std::vector<std::int64_t> fill(start_.begin(), start_.end() - 1);
    for (std::int64_t i = 0; i < n; ++i) members_[fill[cellOf(i)]++] = std::int32_t(i);
  }

  // f(j) for every device j != i within the radius of i.
  template <class F>
  void forNeighbors(std::int64_t i, F&& f) const {
    const std::int64_t c = cellOf(i), cx = c % cw_, cy = c / cw_;
    for (std::int64_t ny = std::max<std::int64_t>(0, cy - 1); ny <= std::min(ch_ - 1, cy + 1);
         ++ny) {
      for (std::int64_t nx = std::max<std::int64_t>(0, cx - 1); nx <= std::min(cw_ - 1, cx + 1);
           ++nx) {
        const std::int64_t cell = ny * cw_ + nx;
        for (std::int64_t k = start_[cell]; k < start_[cell + 1]; ++k) {
          const std::int32_t j = members_[k];
          if (j != i && withinRadius(x_[i], y_[i], x_[j], y_[j], r2_)) f(j);
        }
      }
    }
  }

  // Devices that device i compares itself with (its cell and the 8 around it).
  std::uint64_t candidates(std::int64_t i) const {
    const std::int64_t c = cellOf(i), cx = c % cw_, cy = c / cw_;
    std::uint64_t count = 0;
    for (std::int64_t ny = std::max<std::int64_t>(0, cy - 1); ny <= std::min(ch_ - 1, cy + 1);
         ++ny) {
      const std::int64_t lo = ny * cw_ + std::max<std::int64_t>(0, cx - 1);
      const std::int64_t hi = ny * cw_ + std::min(cw_ - 1, cx + 1);
      count += std::uint64_t(start_[hi + 1] - start_[lo]);
    }
    return count;
  }

 private:
  std::int64_t cellOf(std::int64_t i) const {
    const std::int64_t cx = std::min(cw_ - 1, std::int64_t((x_[i] - minX_) / side_));
    const std::int64_t cy = std::min(ch_ - 1, std::int64_t((y_[i] - minY_) / side_));
    return cy * cw_ + cx;
  }

  const std::vector<double>& x_;
  const std::vector<double>& y_;
  double r2_, minX_, minY_, side_;
  std::int64_t cw_, ch_;
  std::vector<std::int64_t> start_;
  std::vector<std::int32_t> members_;
};

std::string roughly(double count) {
  char text[32];
  std::snprintf(text, sizeof text, count < 1e6 ? "%.0f" : "%.2g", count);
  return text;
}

}  // namespace

Network Network::fromPositions(std::vector<double> x, std::vector<double> y, double radius) {
  const char* who = "kfield::Network::fromPositions";
  const auto n = static_cast<std::int64_t>(x.size());
  checkDevices(who, n);
  if (y.size() != x.size()) {
    impl::invalidArgument(who, std::to_string(x.size()) + " x coordinates but " +
                                   std::to_string(y.size()) + " y coordinates");
  }
  checkRadius(who, radius);
  for (std::int64_t i = 0; i < n; ++i) {
    if (!std::isfinite(x[i]) || !std::isfinite(y[i])) {
      impl::invalidArgument(who, "device " + std::to_string(i) + " has a non-finite position");
    }
  }
  const Cells cells(x, y, radius);
  const std::uint64_t limit = hostMemoryBytes(), perDevice = 2 * sizeof(double);
  // The pairs compared bound the entries. When that bound does not fit, a sample of devices
  // (a few million comparisons) estimates the degree before any time goes into counting.
  std::uint64_t bound = 0;
  for (std::int64_t i = 0; i < n; ++i) bound = impl::total({bound, cells.candidates(i)});
  if (networkBytes(std::uint64_t(n), bound, perDevice, 0) > limit) {
    std::uint64_t sampled = 0, found = 0, work = 0;
    const std::int64_t stride = std::max<std::int64_t>(1, n / 4096);
    for (std::int64_t i = 0; i < n && work < (1u << 24); i += stride, ++sampled) {
      work += cells.candidates(i);
      found += 1;
      cells.forNeighbors(i, [&](std::int32_t) { ++found; });
    }
    const double entries = double(found) / double(sampled) * double(n);
    const auto estimate = static_cast<std::uint64_t>(std::min(entries, 1.8e19));
    checkNetworkBytes(who,
                      "radius " + impl::numberText(radius) + " (about " +
                          roughly((entries - double(n)) / 2) + " edges among " + std::to_string(n) +
                          " devices)",
                      networkBytes(std::uint64_t(n), estimate, perDevice, 0));
  }
  std::int64_t entries = n;
  for (std::int64_t i = 0; i < n; ++i) cells.forNeighbors(i, [&](std::int32_t) { ++entries; });
  checkNetworkBytes(who,
                    "radius " + impl::numberText(radius) + " (" +
                        std::to_string((entries - n) / 2) + " edges among " + std::to_string(n) +
                        " devices)",
                    networkBytes(std::uint64_t(n), std::uint64_t(entries), perDevice, 0));
  std::ostringstream description;
  description << "positions of " << n << " devices, radius " << radius;
  Network net = build(
      n, entries, false,
      [&](std::int64_t i, Row& row) {
        cells.forNeighbors(i, [&](std::int32_t j) { row.emplace_back(j, 0.0); });
      },
      description.str());
  net.data_->x = std::move(x);
  net.data_->y = std::move(y);
  return net;
}

namespace {

// The index of cell (x, y) of a 2^16 x 2^16 grid along the Hilbert curve that fills it.
std::uint64_t hilbertIndex(std::uint32_t x, std::uint32_t y) {
  constexpr std::uint32_t kSide = 1u << 16;
  std::uint64_t d = 0;
  for (std::uint32_t s = kSide / 2; s > 0; s /= 2) {
    const std::uint32_t rx = (x & s) > 0, ry = (y & s) > 0;
    d += std::uint64_t(s) * s * ((3 * rx) ^ ry);
    if (ry == 0) {  // turn the quadrant so that the curve enters and leaves it in order
      if (rx == 1) x = kSide - 1 - x, y = kSide - 1 - y;
      std::swap(x, y);
    }
  }
  return d;
}

// Devices by their points' places along the curve over the square [0, side)^2.
std::vector<std::int64_t> hilbertOrder(const std::vector<double>& x, const std::vector<double>& y,
                                       double side) {
  const auto n = static_cast<std::int64_t>(x.size());
  std::vector<std::pair<std::uint64_t, std::int64_t>> keys(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) keys[i] = {hilbertKey(x[i], y[i], side), i};
  std::sort(keys.begin(), keys.end());  // ties (one cell): by drawn index
  std::vector<std::int64_t> order(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) order[i] = keys[i].second;
  return order;
}

}  // namespace

std::uint64_t hilbertKey(double x, double y, double side) {
  const auto cell = [side](double v) {
    return static_cast<std::uint32_t>(
        std::min(65535.0, std::max(0.0, std::floor(v / side * 65536.0))));
  };
  return hilbertIndex(cell(x), cell(y));
}

std::pair<double, double> drawnPoint(double side, std::uint64_t seed, std::int64_t i) {
  return {uniform01(seed, 2 * std::uint64_t(i)) * side,
          uniform01(seed, 2 * std::uint64_t(i) + 1) * side};
}

std::string rggDescription(std::int64_t n, double radius, std::uint64_t seed, DeviceOrder order) {
  std::ostringstream description;
  description << "random geometric graph of " << n << " devices, radius " << radius << ", seed "
              << seed << (order == DeviceOrder::Hilbert ? ", numbered along a Hilbert curve" : "");
  return description.str();
}

void checkRadius(const char* who, double radius) {
  if (!(radius > 0.0) || !std::isfinite(radius)) {
    impl::invalidArgument(who,
                          "the radius must be finite and > 0, got " + impl::numberText(radius));
  }
}

Network Network::randomGeometric(std::int64_t n, double radius, std::uint64_t seed,
                                 DeviceOrder order) {
  const char* who = "kfield::Network::randomGeometric";
  checkDevices(who, n);
  checkRadius(who, radius);  // before a single point is drawn
  checkNetworkBytes(who, "a random geometric graph of " + std::to_string(n) + " devices",
                    networkBytes(std::uint64_t(n), std::uint64_t(n),
                                 // positions; along a curve also keys, order and moved positions
                                 (order == DeviceOrder::Hilbert ? 7 : 2) * sizeof(double), 0));
  const double side = std::sqrt(double(n));
  std::vector<double> x(n), y(n);
  for (std::int64_t i = 0; i < n; ++i) std::tie(x[i], y[i]) = drawnPoint(side, seed, i);
  if (order == DeviceOrder::Hilbert) {  // device i: the i-th drawn point along the curve
    const std::vector<std::int64_t> along = hilbertOrder(x, y, side);
    std::vector<double> ax(x.size()), ay(y.size());
    for (std::int64_t i = 0; i < n; ++i) ax[i] = x[along[i]], ay[i] = y[along[i]];
    x.swap(ax), y.swap(ay);
  }
  Network net = fromPositions(std::move(x), std::move(y), radius);
  net.data_->description = rggDescription(n, radius, seed, order);
  return net;
}

}  // namespace kfield
