// One rank's part of a random geometric graph, without the whole graph: the points are drawn
// again (each from its own counter) and only those near the part's own are kept.
#include "BuildRows.hpp"
#include "PartFromRows.hpp"

#include "kfield/net/NetworkPart.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>
#include <utility>
#include <vector>

namespace kfield {
namespace {

// The curve's 2^32 cells fall into 2^16 stretches (each a 256 x 256 block of them): a point's id
// is where its stretch starts plus its place in the stretch, by (key, drawn index).
constexpr int kStretchBits = 16;
constexpr double kInfinity = std::numeric_limits<double>::infinity();

struct DrawnPoints {
  std::int64_t n;
  std::uint64_t seed;
  double side;

  template <class F>  // f(drawn index, x, y), every point
  void forEach(F&& f) const {
    for (std::int64_t i = 0; i < n; ++i) {
      const auto [x, y] = drawnPoint(side, seed, i);
      f(i, x, y);
    }
  }
  std::pair<double, double> at(std::int64_t i) const { return drawnPoint(side, seed, i); }
  std::uint64_t stretchOf(double x, double y) const {
    return hilbertKey(x, y, side) >> (kHilbertKeyBits - kStretchBits);
  }
};

// Where each stretch's ids begin (one more entry: n).
std::vector<std::int64_t> stretchStarts(const DrawnPoints& points) {
  std::vector<std::int64_t> start((std::size_t(1) << kStretchBits) + 1, 0);
  points.forEach([&](std::int64_t, double x, double y) { ++start[points.stretchOf(x, y) + 1]; });
  for (std::size_t s = 1; s < start.size(); ++s) start[s] += start[s - 1];
  return start;
}

// (drawn index, id) of every point in the wanted stretches, added to `ids`.
void numberStretches(const DrawnPoints& points, const std::vector<std::int64_t>& start,
                     const std::vector<char>& wanted,
                     std::vector<std::pair<std::int64_t, std::int64_t>>& ids) {
  std::vector<std::pair<std::uint64_t, std::int64_t>> keys;  // (key, drawn index)
  points.forEach([&](std::int64_t i, double x, double y) {
    const std::uint64_t key = hilbertKey(x, y, points.side);
    if (wanted[key >> (kHilbertKeyBits - kStretchBits)]) keys.emplace_back(key, i);
  });
  std::sort(keys.begin(), keys.end());
  std::size_t first = 0;  // of the current stretch in `keys`
  for (std::size_t k = 0; k < keys.size(); ++k) {
    const std::uint64_t stretch = keys[k].first >> (kHilbertKeyBits - kStretchBits);
    if (k > 0 && stretch != keys[k - 1].first >> (kHilbertKeyBits - kStretchBits)) first = k;
    ids.emplace_back(keys[k].second, start[stretch] + std::int64_t(k - first));
  }
}

struct Candidate {  // a point near the part, in its cell (of the box of cells around the part)
  std::int64_t cell, drawn;
  double x, y;
  std::int64_t id = -1;  // once numbered
};

}  // namespace

NetworkPart NetworkPart::randomGeometric(std::int64_t n, double radius, std::uint64_t seed,
                                         DeviceOrder order, IndexRange owned) {
  const char* who = "kfield::NetworkPart::randomGeometric";
  checkDevices(who, n);
  checkRadius(who, radius);
  const std::string name = rggDescription(n, radius, seed, order);
  const auto noPosition = [](std::int64_t) { return std::make_pair(0.0, 0.0); };
  if (owned.begin < 0 || owned.end > n ||
      owned.end <= owned.begin) {  // refused, or a part without devices
    return partFromRows(
        who, n, owned, PartPlaces::Positions, [](std::int64_t, const auto&) {}, noPosition, name);
  }
  const DrawnPoints points{n, seed, std::sqrt(double(n))};
  const std::int64_t m = owned.size();
  const std::string what = "devices [" + std::to_string(owned.begin) + ", " +
                           std::to_string(owned.end) + ") of a " + name;
  // Per owned device: its id twice (numbered, own) and its row's first entry; the cells, the
  // points near the part and the rows are checked once counted.
  checkNetworkBytes(who, what, impl::product({std::uint64_t(m), 16 + 16 + 8}));
  // (drawn index, id) of the points this part numbers: the owned ones first.
  std::vector<std::pair<std::int64_t, std::int64_t>> ids;
  std::vector<std::int64_t> start;
  std::vector<char> numbered;  // stretches whose points are in `ids`
  if (order == DeviceOrder::Drawn) {
    for (std::int64_t i = owned.begin; i < owned.end; ++i) ids.emplace_back(i, i);
  } else {
    start = stretchStarts(points);
    numbered.assign(start.size() - 1, 0);
    for (std::size_t s = 0; s + 1 < start.size(); ++s)
      numbered[s] = start[s] < owned.end && start[s + 1] > owned.begin;
    numberStretches(points, start, numbered, ids);
  }
  std::vector<std::pair<std::int64_t, std::int64_t>> own;  // (id, drawn index) of the owned points
  for (const auto& [drawn, id] : ids) {
    if (id >= owned.begin && id < owned.end) own.emplace_back(id, drawn);
  }
  std::sort(own.begin(), own.end());

  // Square cells wider than the radius (a margin for rounding), so that neighbors are at most
  // one cell apart, and at most about one per point.
  const double fits = std::min(std::floor(points.side / radius) - 1.0, std::floor(points.side));
  const std::int64_t along = fits < 1.0 ? 1 : std::int64_t(fits);
  const auto cellOf = [&](double x, double y) {
    const auto at = [&](double v) {
      return std::min(along - 1, std::int64_t(v * double(along) / points.side));
    };
    return at(y) * along + at(x);
  };
  const auto forCellsAround = [&](std::int64_t drawn,
                                  auto&& f) {  // f(cx, cy): its cell and the 8 around
    const auto [x, y] = points.at(drawn);
    const std::int64_t c = cellOf(x, y), cx = c % along, cy = c / along;
    for (std::int64_t ny = std::max<std::int64_t>(0, cy - 1); ny <= std::min(along - 1, cy + 1);
         ++ny) {
      for (std::int64_t nx = std::max<std::int64_t>(0, cx - 1); nx <= std::min(along - 1, cx + 1);
           ++nx)
        f(nx, ny);
    }
  };
  // The owned points' cells and those around them ("near"), in the box of cells that holds them;
  // every point in a near cell, sorted by cell (counting sort: drawn order within a cell).
  std::int64_t x0 = along, x1 = -1, y0 = along, y1 = -1;
  for (const auto& [id, drawn] : own) {
    forCellsAround(drawn, [&](std::int64_t cx, std::int64_t cy) {
      x0 = std::min(x0, cx), x1 = std::max(x1, cx), y0 = std::min(y0, cy), y1 = std::max(y1, cy);
    });
  }
  const std::int64_t boxWidth = x1 - x0 + 1, boxCells = boxWidth * (y1 - y0 + 1);
  const auto boxOf = [&](std::int64_t c) {  // a cell's place in the box, or -1 outside it
    const std::int64_t cx = c % along, cy = c / along;
    return cx < x0 || cx > x1 || cy < y0 || cy > y1 ? -1 : (cy - y0) * boxWidth + (cx - x0);
  };
  checkNetworkBytes(who, what + " (" + std::to_string(boxCells) + " cells around it)",
                    impl::product({std::uint64_t(boxCells) + 1, sizeof(std::int64_t) + 1}));
  std::vector<char> near(std::size_t(boxCells), 0);
  std::uint64_t nearCells = 0;
  for (const auto& [id, drawn] : own) {
    forCellsAround(drawn, [&](std::int64_t cx, std::int64_t cy) {
      char& mark = near[std::size_t((cy - y0) * boxWidth + (cx - x0))];
      nearCells += mark == 0;
      mark = 1;
    });
  }
  // Every point in a near cell, by cell (drawn order within one): counted, then placed; placed
  // in drawn order, each takes its id from `ids` (sorted by drawn index) in one merge.
  const auto nearCell = [&](double x, double y) {  // its place in the box, or -1
    const std::int64_t b = boxOf(cellOf(x, y));
    return b >= 0 && near[std::size_t(b)] ? b : std::int64_t(-1);
  };
  std::vector<std::int64_t> cellStart(std::size_t(boxCells) + 1, 0);
  points.forEach([&](std::int64_t, double x, double y) {
    const std::int64_t b = nearCell(x, y);
    if (b >= 0) ++cellStart[std::size_t(b) + 1];
  });
  for (std::size_t c = 1; c < cellStart.size(); ++c) cellStart[c] += cellStart[c - 1];
  checkNetworkBytes(
      who, what + " (" + std::to_string(cellStart.back()) + " points near it)",
      impl::product({std::uint64_t(cellStart.back()), sizeof(Candidate) + sizeof(std::int64_t)}));
  std::vector<Candidate> candidates(std::size_t(cellStart.back()));
  std::sort(ids.begin(), ids.end());
  {
    std::vector<std::int64_t> fill(cellStart.begin(), cellStart.end() - 1);
    std::size_t j = 0;
    points.forEach([&](std::int64_t i, double x, double y) {
      const std::int64_t b = nearCell(x, y);
      if (b < 0) return;
      std::int64_t id = order == DeviceOrder::Drawn ? i : -1;
      while (j < ids.size() && ids[j].first < i) ++j;
      if (j < ids.size() && ids[j].first == i) id = ids[j].second;
      candidates[std::size_t(fill[std::size_t(b)]++)] = {b, i, x, y, id};
    });
  }

  // f(candidate index of each neighbor) of an owned point, as the whole graph finds them.
  const double r2 = radius * radius;
  const auto forNeighbors = [&](std::int64_t drawn, auto&& f) {
    // Not a structured binding: nvcc (C++17) refuses to capture one.
    const std::pair<double, double> at = points.at(drawn);
    const double x = at.first, y = at.second;
    forCellsAround(drawn, [&](std::int64_t cx, std::int64_t cy) {
      const auto b = std::size_t((cy - y0) * boxWidth + (cx - x0));  // inside the box: near
      for (std::int64_t k = cellStart[b]; k < cellStart[b + 1]; ++k) {
        const Candidate& q = candidates[std::size_t(k)];
        if (q.drawn != drawn && withinRadius(x, y, q.x, q.y, r2)) f(k);
      }
    });
  };
  std::int64_t entries = m;
  for (const auto& [id, drawn] : own) forNeighbors(drawn, [&](std::int64_t) { ++entries; });
  checkNetworkBytes(who, what + " (" + std::to_string(entries) + " entries in its rows)",
                    networkBytes(std::uint64_t(entries), std::uint64_t(entries), 2 * sizeof(double),
                                 2 * sizeof(std::int64_t)));
  std::vector<std::int64_t> offsets{0};
  std::vector<std::int32_t> heard;  // the owned rows, by candidate index (n < 2^31)
  offsets.reserve(std::size_t(m) + 1);
  heard.reserve(std::size_t(entries - m));
  for (const auto& [id, drawn] : own) {
    forNeighbors(drawn, [&](std::int64_t k) { heard.push_back(std::int32_t(k)); });
    offsets.push_back(std::int64_t(heard.size()));
  }

  if (order == DeviceOrder::Hilbert) {  // the ghosts' stretches, numbered too
    std::vector<char> wanted(numbered.size(), 0);
    bool any = false;
    for (std::int32_t k : heard) {
      const Candidate& q = candidates[std::size_t(k)];
      if (q.id >= 0) continue;
      wanted[points.stretchOf(q.x, q.y)] = 1;
      any = true;
    }
    if (any) {
      numberStretches(points, start, wanted, ids);
      std::sort(ids.begin(), ids.end());
      for (std::int32_t k : heard) {
        Candidate& q = candidates[std::size_t(k)];
        if (q.id < 0)
          q.id = std::lower_bound(ids.begin(), ids.end(), std::make_pair(q.drawn, std::int64_t(-1)))
                     ->second;
      }
    }
  }
  std::vector<std::int32_t> rows(heard.size() + std::size_t(m));  // by id, each with its device
  std::vector<std::tuple<std::int64_t, double, double>> ghosts;   // (id, x, y)
  for (std::int64_t d = 0; d < m; ++d) {
    const std::int64_t first = offsets[d] + d, last = offsets[d + 1] + d + 1;
    rows[first] = std::int32_t(own[d].first);
    for (std::int64_t k = offsets[d]; k < offsets[d + 1]; ++k) {
      const Candidate& q = candidates[std::size_t(heard[k])];
      rows[first + 1 + (k - offsets[d])] = std::int32_t(q.id);
      if (q.id < owned.begin || q.id >= owned.end) ghosts.emplace_back(q.id, q.x, q.y);
    }
    std::sort(rows.begin() + first, rows.begin() + last);
  }
  std::sort(ghosts.begin(), ghosts.end());
  ghosts.erase(std::unique(ghosts.begin(), ghosts.end()), ghosts.end());
  // What the rows were found with, freed (assigning {} would keep the capacity).
  std::vector<Candidate>().swap(candidates);
  std::vector<std::int32_t>().swap(heard);
  std::vector<std::pair<std::int64_t, std::int64_t>>().swap(ids);
  std::vector<std::int64_t>().swap(cellStart);
  return partFromRows(
      who, n, owned, PartPlaces::Positions,
      [&](std::int64_t id, const auto& f) {
        const std::int64_t d = id - owned.begin;
        for (std::int64_t k = offsets[d] + d; k < offsets[d + 1] + d + 1; ++k) f(rows[k], 0.0);
      },
      [&](std::int64_t id) {
        if (id >= owned.begin && id < owned.end)
          return points.at(own[std::size_t(id - owned.begin)].second);
        const auto at = std::lower_bound(ghosts.begin(), ghosts.end(),
                                         std::make_tuple(id, -kInfinity, -kInfinity));
        return std::make_pair(std::get<1>(*at), std::get<2>(*at));
      },
      name);
}

}  // namespace kfield
