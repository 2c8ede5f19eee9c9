// Networks of devices in the plane: neighbors within a radius, found with cell lists.
#include "BuildRows.hpp"

#include "kfield/Random.hpp"

#include <cmath>
#include <sstream>
#include <string>

namespace kfield {

Network Network::fromPositions(std::vector<double> x, std::vector<double> y, double radius) {
  const auto n = static_cast<std::int64_t>(x.size());
  checkDevices("kfield::Network::fromPositions", n);
  if (y.size() != x.size()) {
    impl::invalidArgument("kfield::Network::fromPositions",
                          std::to_string(x.size()) + " x coordinates but " +
                              std::to_string(y.size()) + " y coordinates");
  }
  if (!(radius > 0.0) || !std::isfinite(radius)) {
    impl::invalidArgument("kfield::Network::fromPositions",
                          "the radius must be finite and > 0, got " + std::to_string(radius));
  }
  double minX = x[0], minY = y[0], maxX = x[0], maxY = y[0];
  for (std::int64_t i = 0; i < n; ++i) {
    if (!std::isfinite(x[i]) || !std::isfinite(y[i])) {
      impl::invalidArgument("kfield::Network::fromPositions",
                            "device " + std::to_string(i) + " has a non-finite position");
    }
    minX = std::min(minX, x[i]), maxX = std::max(maxX, x[i]);
    minY = std::min(minY, y[i]), maxY = std::max(maxY, y[i]);
  }
  // Cells of side radius: a device's neighbors lie in its cell and the 8 around it.
  auto cellsAlong = [&](double extent) {
    return std::min<std::int64_t>(std::int64_t(extent / radius) + 1, 1 << 20);
  };
  const std::int64_t cw = cellsAlong(maxX - minX), ch = cellsAlong(maxY - minY);
  const double side = std::max((maxX - minX) / double(cw), (maxY - minY) / double(ch));
  const double cell = std::max(radius, side);
  auto cellOf = [&](std::int64_t i, std::int64_t& cx, std::int64_t& cy) {
    cx = std::min(cw - 1, std::int64_t((x[i] - minX) / cell));
    cy = std::min(ch - 1, std::int64_t((y[i] - minY) / cell));
  };
  // Counting sort of devices by cell, ids ascending within a cell.
  std::vector<std::int64_t> start(cw * ch + 1, 0);
  for (std::int64_t i = 0; i < n; ++i) {
    std::int64_t cx, cy;
    cellOf(i, cx, cy);
    ++start[cy * cw + cx + 1];
  }
  for (std::size_t c = 1; c < start.size(); ++c) start[c] += start[c - 1];
  std::vector<std::int32_t> members(n);
  {
    std::vector<std::int64_t> fill(start.begin(), start.end() - 1);
    for (std::int64_t i = 0; i < n; ++i) {
      std::int64_t cx, cy;
      cellOf(i, cx, cy);
      members[fill[cy * cw + cx]++] = static_cast<std::int32_t>(i);
    }
  }
  const double r2 = radius * radius;
  std::ostringstream description;
  description << "positions of " << n << " devices, radius " << radius;
  Network net = build(
      n,
      [&](std::int64_t i, Row& row) {
        std::int64_t cx, cy;
        cellOf(i, cx, cy);
        for (std::int64_t ny = std::max<std::int64_t>(0, cy - 1); ny <= std::min(ch - 1, cy + 1);
             ++ny) {
          for (std::int64_t nx = std::max<std::int64_t>(0, cx - 1); nx <= std::min(cw - 1, cx + 1);
               ++nx) {
            const std::int64_t c = ny * cw + nx;
            for (std::int64_t k = start[c]; k < start[c + 1]; ++k) {
              const std::int32_t j = members[k];
              const double dx = x[j] - x[i], dy = y[j] - y[i];
              const double d2 = dx * dx + dy * dy;
              if (j != i && d2 <= r2) row.emplace_back(j, std::sqrt(d2));
            }
          }
        }
      },
      description.str());
  net.x_ = std::move(x);
  net.y_ = std::move(y);
  return net;
}

Network Network::randomGeometric(std::int64_t n, double radius, std::uint64_t seed) {
  checkDevices("kfield::Network::randomGeometric", n);
  const double side = std::sqrt(double(n));
  std::vector<double> x(n), y(n);
  for (std::int64_t i = 0; i < n; ++i) {
    x[i] = uniform01(seed, 2 * std::uint64_t(i)) * side;
    y[i] = uniform01(seed, 2 * std::uint64_t(i) + 1) * side;
  }
  Network net = fromPositions(std::move(x), std::move(y), radius);
  std::ostringstream description;
  description << "random geometric graph of " << n << " devices, radius " << radius << ", seed "
              << seed;
  net.description_ = description.str();
  return net;
}

}  // namespace kfield
