#include "kfield/field/Network.hpp"

#include "kfield/field/impl/CounterRng.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace kfield {
namespace {

[[noreturn]] void fail(const std::string& what) { throw std::invalid_argument(what); }

constexpr std::int64_t kMaxDevices = std::numeric_limits<std::int32_t>::max();

void checkDevices(const char* builder, std::int64_t n) {
  if (n < 1 || n > kMaxDevices) {
    fail(std::string(builder) + ": the number of devices must be in [1, " +
         std::to_string(kMaxDevices) + "], got " + std::to_string(n));
  }
}

}  // namespace

template <class FillRow>
Network Network::build(std::int64_t devices, FillRow&& fillRow, std::string description) {
  Network net;
  net.offsets_.reserve(devices + 1);
  Row row;
  for (std::int64_t i = 0; i < devices; ++i) {
    row.clear();
    fillRow(i, row);
    row.emplace_back(static_cast<std::int32_t>(i), 0.0);
    std::sort(row.begin(), row.end());
    for (const auto& [j, length] : row) {
      net.neighbours_.push_back(j);
      net.lengths_.push_back(length);
    }
    net.offsets_.push_back(static_cast<std::int64_t>(net.neighbours_.size()));
  }
  net.description_ = std::move(description);
  return net;
}

std::vector<std::int32_t> Network::neighboursOf(std::int64_t i) const {
  if (i < 0 || i >= devices()) {
    fail("Network::neighboursOf: device " + std::to_string(i) + " is not in [0, " +
         std::to_string(devices()) + ")");
  }
  return {neighbours_.begin() + offsets_[i], neighbours_.begin() + offsets_[i + 1]};
}

Network Network::grid(std::int64_t width, std::int64_t height, int neighbourhood) {
  if (width < 1 || height < 1) {
    fail("grid: width and height must be >= 1, got " + std::to_string(width) + "x" +
         std::to_string(height));
  }
  if (neighbourhood != 4 && neighbourhood != 8) {
    fail("grid: the neighbourhood must be 4 or 8, got " + std::to_string(neighbourhood));
  }
  if (width > kMaxDevices / height) {
    fail("grid: " + std::to_string(width) + "x" + std::to_string(height) + " is more than " +
         std::to_string(kMaxDevices) + " devices");
  }
  const double diagonal = std::sqrt(2.0);
  Network net = build(
      width * height,
      [&](std::int64_t i, Row& row) {
        const std::int64_t x = i % width, y = i / width;
        for (std::int64_t dy = -1; dy <= 1; ++dy) {
          for (std::int64_t dx = -1; dx <= 1; ++dx) {
            if ((dx == 0 && dy == 0) || (neighbourhood == 4 && dx != 0 && dy != 0)) continue;
            const std::int64_t nx = x + dx, ny = y + dy;
            if (nx < 0 || nx >= width || ny < 0 || ny >= height) continue;
            row.emplace_back(static_cast<std::int32_t>(ny * width + nx),
                             dx != 0 && dy != 0 ? diagonal : 1.0);
          }
        }
      },
      "grid " + std::to_string(width) + "x" + std::to_string(height) + ", " +
          std::to_string(neighbourhood) + " neighbours");
  net.x_.resize(width * height);
  net.y_.resize(width * height);
  for (std::int64_t i = 0; i < width * height; ++i) {
    net.x_[i] = double(i % width);
    net.y_[i] = double(i / width);
  }
  return net;
}

Network Network::fromPositions(std::vector<double> x, std::vector<double> y, double radius) {
  const auto n = static_cast<std::int64_t>(x.size());
  checkDevices("fromPositions", n);
  if (y.size() != x.size()) {
    fail("fromPositions: " + std::to_string(x.size()) + " x coordinates but " +
         std::to_string(y.size()) + " y coordinates");
  }
  if (!(radius > 0.0) || !std::isfinite(radius)) {
    fail("fromPositions: the radius must be finite and > 0, got " + std::to_string(radius));
  }
  double minX = x[0], minY = y[0], maxX = x[0], maxY = y[0];
  for (std::int64_t i = 0; i < n; ++i) {
    if (!std::isfinite(x[i]) || !std::isfinite(y[i])) {
      fail("fromPositions: device " + std::to_string(i) + " has a non-finite position");
    }
    minX = std::min(minX, x[i]), maxX = std::max(maxX, x[i]);
    minY = std::min(minY, y[i]), maxY = std::max(maxY, y[i]);
  }
  // Cells of side radius: a device's neighbours lie in its cell and the 8 around it.
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
        for (std::int64_t ny = std::max<std::int64_t>(0, cy - 1); ny <= std::min(ch - 1, cy + 1); ++ny) {
          for (std::int64_t nx = std::max<std::int64_t>(0, cx - 1); nx <= std::min(cw - 1, cx + 1); ++nx) {
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
  checkDevices("randomGeometric", n);
  const double side = std::sqrt(double(n));
  std::vector<double> x(n), y(n);
  for (std::int64_t i = 0; i < n; ++i) {
    x[i] = impl::uniform01(seed, 2 * std::uint64_t(i)) * side;
    y[i] = impl::uniform01(seed, 2 * std::uint64_t(i) + 1) * side;
  }
  Network net = fromPositions(std::move(x), std::move(y), radius);
  std::ostringstream description;
  description << "random geometric graph of " << n << " devices, radius " << radius << ", seed "
              << seed;
  net.description_ = description.str();
  return net;
}

Network Network::fromEdgeList(const std::string& path) {
  std::ifstream in(path);
  if (!in) fail("edges: cannot open '" + path + "'");
  struct Edge {
    std::int64_t a, b;
    double length;
    std::int64_t line;
  };
  std::vector<Edge> edges;
  std::int64_t maxId = -1;
  std::string text;
  for (std::int64_t line = 1; std::getline(in, text); ++line) {
    const std::string where = path + ":" + std::to_string(line) + ": ";
    const auto hash = text.find('#');
    if (hash != std::string::npos) text.erase(hash);
    std::istringstream fields(text);
    std::string first;
    if (!(fields >> first)) continue;  // blank or comment
    fields.clear();
    fields.seekg(0);
    std::int64_t a, b;
    if (!(fields >> a >> b)) fail(where + "expected 'src dst [length]', got '" + text + "'");
    double length = 1.0;
    std::string rest;
    if (fields >> rest) {
      std::size_t used = 0;
      try {
        length = std::stod(rest, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != rest.size()) fail(where + "length '" + rest + "' is not a number");
      if (fields >> rest) fail(where + "unexpected '" + rest + "' after the length");
    }
    if (a < 0 || b < 0 || a >= kMaxDevices || b >= kMaxDevices) {
      fail(where + "device ids must be in [0, " + std::to_string(kMaxDevices) + "), got " +
           std::to_string(a) + " " + std::to_string(b));
    }
    if (!(length >= 0.0) || !std::isfinite(length)) {
      fail(where + "length must be finite and >= 0, got " + rest);
    }
    if (a == b) fail(where + "device " + std::to_string(a) + " is joined to itself");
    maxId = std::max({maxId, a, b});
    edges.push_back({std::min(a, b), std::max(a, b), length, line});
  }
  if (maxId < 0) fail("edges: '" + path + "' lists no edge");
  std::sort(edges.begin(), edges.end(), [](const Edge& p, const Edge& q) {
    return p.a != q.a ? p.a < q.a : p.b != q.b ? p.b < q.b : p.line < q.line;
  });
  // Both directions of each distinct edge, grouped by source: degree count, then fill.
  std::vector<std::int64_t> degree(maxId + 2, 0);
  std::vector<Edge> distinct;
  for (const Edge& e : edges) {
    if (!distinct.empty() && distinct.back().a == e.a && distinct.back().b == e.b) {
      if (distinct.back().length != e.length) {
        fail(path + ":" + std::to_string(e.line) + ": edge " + std::to_string(e.a) + " " +
             std::to_string(e.b) + " has length " + std::to_string(e.length) + ", but line " +
             std::to_string(distinct.back().line) + " gave " +
             std::to_string(distinct.back().length));
      }
      continue;
    }
    distinct.push_back(e);
    ++degree[e.a + 1];
    ++degree[e.b + 1];
  }
  for (std::size_t i = 1; i < degree.size(); ++i) degree[i] += degree[i - 1];
  std::vector<std::pair<std::int32_t, double>> adjacency(degree.back());
  {
    std::vector<std::int64_t> fill(degree.begin(), degree.end() - 1);
    for (const Edge& e : distinct) {
      adjacency[fill[e.a]++] = {static_cast<std::int32_t>(e.b), e.length};
      adjacency[fill[e.b]++] = {static_cast<std::int32_t>(e.a), e.length};
    }
  }
  return build(
      maxId + 1,
      [&](std::int64_t i, Row& row) {
        row.assign(adjacency.begin() + degree[i], adjacency.begin() + degree[i + 1]);
      },
      "edge list '" + path + "' (" + std::to_string(maxId + 1) + " devices, " +
          std::to_string(distinct.size()) + " edges)");
}

Network Network::fromSpec(const std::string& spec) {
  auto parts = [&] {
    std::vector<std::string> out;
    std::string item;
    std::istringstream in(spec);
    while (std::getline(in, item, ':')) out.push_back(item);
    return out;
  }();
  auto number = [&](const std::string& text, const char* what) {
    std::size_t used = 0;
    double value = 0;
    try {
      value = std::stod(text, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (text.empty() || used != text.size()) {
      fail("network '" + spec + "': " + what + " '" + text + "' is not a number");
    }
    return value;
  };
  auto integer = [&](const std::string& text, const char* what) {
    const double value = number(text, what);
    if (value != std::floor(value) || value < 0 || value > 9.0e15) {
      fail("network '" + spec + "': " + what + " '" + text + "' is not a whole number >= 0");
    }
    return static_cast<std::int64_t>(value);
  };
  const std::string usage = " (expected grid:WxH[:4|:8], rgg:N:RADIUS[:SEED] or edges:FILE)";
  if (parts.empty()) fail("network '" + spec + "' is empty" + usage);
  if (parts[0] == "grid" && (parts.size() == 2 || parts.size() == 3)) {
    const auto x = parts[1].find('x');
    if (x == std::string::npos) fail("network '" + spec + "': size must be WxH" + usage);
    const int hood = parts.size() == 3 ? int(integer(parts[2], "neighbourhood")) : 4;
    return grid(integer(parts[1].substr(0, x), "width"), integer(parts[1].substr(x + 1), "height"),
                hood);
  }
  if (parts[0] == "rgg" && (parts.size() == 3 || parts.size() == 4)) {
    const std::uint64_t seed = parts.size() == 4 ? std::uint64_t(integer(parts[3], "seed")) : 1;
    return randomGeometric(integer(parts[1], "device count"), number(parts[2], "radius"), seed);
  }
  if (parts[0] == "edges" && parts.size() >= 2) {
    return fromEdgeList(spec.substr(6));  // the file name may itself hold ':'
  }
  fail("network '" + spec + "' is not understood" + usage);
}

}  // namespace kfield
