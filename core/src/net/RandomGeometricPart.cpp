// One rank's part of a random geometric graph, without the whole graph: the points are drawn
// again (each from its own counter) and only those near the part's own are kept.
#include "BuildRows.hpp"
#include "PartFromRows.hpp"

#include "kfield/net/NetworkPart.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace kfield {
namespace {

// The curve's 2^32 cells fall into 2^16 stretches (each a 256 x 256 block of them): a point's id
// is where its stretch starts plus its place in the stretch, by (key, drawn index).
constexpr int kStretchBits = 16;

struct DrawnPoints {
  std::int64_t n;
  std::uint64_t seed;
  double side;
  DeviceOrder order;

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
                     const std::vector<char>& wanted, std::vector<std::pair<std::int64_t, std::int64_t>>& ids) {
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

struct Candidate {  // a point near the part, in its cell
  std::int64_t cell, drawn;
  double x, y;
  bool operator<(const Candidate& o) const { return cell != o.cell ? cell < o.cell : drawn < o.drawn; }
};

}  // namespace

NetworkPart NetworkPart::randomGeometric(std::int64_t n, double radius, std::uint64_t seed, DeviceOrder order,
                                         IndexRange owned) {
  const char* who = "kfield::NetworkPart::randomGeometric";
  checkDevices(who, n);
  checkRadius(who, radius);
  const std::string name = rggDescription(n, radius, seed, order);
  const auto noPosition = [](std::int64_t) { return std::make_pair(0.0, 0.0); };
  if (owned.begin < 0 || owned.end > n || owned.end <= owned.begin) {  // refused, or a part without devices
    return partFromRows(who, n, owned, PartPlaces::Positions, [](std::int64_t, const auto&) {}, noPosition, name);
  }
  const DrawnPoints points{n, seed, std::sqrt(double(n)), order};
  const std::int64_t m = owned.size();
  const std::string what = "devices [" + std::to_string(owned.begin) + ", " + std::to_string(owned.end) + ") of a " + name;
  // Per owned device: its id twice (numbered, own), its 9 cells, its row's first entry.
  checkNetworkBytes(who, what, impl::product({std::uint64_t(m), 16 + 16 + 9 * 8 + 8}));
  // (drawn index, id) of the points this part numbers: the owned ones first.
  std::vector<std::pair<std::int64_t, std::int64_t>> ids;
  std::vector<std::int64_t> start;
  std::vector<char> numbered;  // stretches whose points are in `ids`
  if (order == DeviceOrder::Drawn) {
    for (std::int64_t i = owned.begin; i < owned.end; ++i) ids.emplace_back(i, i);
  } else {
    start = stretchStarts(points);
    numbered.assign(start.size() - 1, 0);
    for (std::size_t s = 0; s + 1 < start.size(); ++s) numbered[s] = start[s] < owned.end && start[s + 1] > owned.begin;
    numberStretches(points, start, numbered, ids);
  }
  std::vector<std::pair<std::int64_t, std::int64_t>> own;  // (id, drawn index) of the owned points
  for (const auto& [drawn, id] : ids) {
    if (id >= owned.begin && id < owned.end) own.emplace_back(id, drawn);
  }
  std::sort(own.begin(), own.end());

  // Square cells wider than the radius (a margin for rounding): neighbors are one cell apart.
  const double fits = std::floor(points.side / radius) - 1.0;
  const std::int64_t along = fits < 1.0 ? 1 : fits > double(1 << 20) ? (1 << 20) : std::int64_t(fits);
  const auto cellOf = [&](double x, double y) {
    const auto at = [&](double v) { return std::min(along - 1, std::int64_t(v * double(along) / points.side)); };
    return at(y) * along + at(x);
  };
  std::vector<std::int64_t> near;  // the owned points' cells and those around them
  for (const auto& [id, drawn] : own) {
    const auto [x, y] = points.at(drawn);
    const std::int64_t c = cellOf(x, y), cx = c % along, cy = c / along;
    for (std::int64_t ny = std::max<std::int64_t>(0, cy - 1); ny <= std::min(along - 1, cy + 1); ++ny) {
      for (std::int64_t nx = std::max<std::int64_t>(0, cx - 1); nx <= std::min(along - 1, cx + 1); ++nx) {
        near.push_back(ny * along + nx);
      }
    }
  }
  std::sort(near.begin(), near.end());
  near.erase(std::unique(near.begin(), near.end()), near.end());
  const double perCell = double(n) / (double(along) * double(along));  // points expected in a cell
  checkNetworkBytes(who, what,
                    impl::product({std::uint64_t(double(near.size()) * perCell) + std::uint64_t(m), sizeof(Candidate)}));
  std::vector<Candidate> candidates;
  points.forEach([&](std::int64_t i, double x, double y) {
    const std::int64_t c = cellOf(x, y);
    if (std::binary_search(near.begin(), near.end(), c)) candidates.push_back({c, i, x, y});
  });
  std::sort(candidates.begin(), candidates.end());

  // f(drawn index of each neighbor) of an owned point, as the whole graph finds them.
  const double r2 = radius * radius;
  const auto forNeighbors = [&](std::int64_t drawn, auto&& f) {
    const auto [x, y] = points.at(drawn);
    const std::int64_t c = cellOf(x, y), cx = c % along, cy = c / along;
    for (std::int64_t ny = std::max<std::int64_t>(0, cy - 1); ny <= std::min(along - 1, cy + 1); ++ny) {
      for (std::int64_t nx = std::max<std::int64_t>(0, cx - 1); nx <= std::min(along - 1, cx + 1); ++nx) {
        const Candidate lo{ny * along + nx, -1, 0, 0}, hi{ny * along + nx + 1, -1, 0, 0};
        for (auto q = std::lower_bound(candidates.begin(), candidates.end(), lo);
             q != std::lower_bound(candidates.begin(), candidates.end(), hi); ++q) {
          if (q->drawn != drawn && withinRadius(x, y, q->x, q->y, r2)) f(q->drawn);
        }
      }
    }
  };
  std::int64_t entries = m;
  for (const auto& [id, drawn] : own) forNeighbors(drawn, [&](std::int64_t) { ++entries; });
  checkNetworkBytes(who, what + " (" + std::to_string(entries) + " entries in its rows)",
                    networkBytes(std::uint64_t(entries), std::uint64_t(entries), 2 * sizeof(double), 2 * sizeof(std::int64_t)));
  std::vector<std::int64_t> offsets{0}, heard;  // the owned rows, by drawn index
  for (const auto& [id, drawn] : own) {
    forNeighbors(drawn, [&](std::int64_t j) { heard.push_back(j); });
    offsets.push_back(std::int64_t(heard.size()));
  }

  std::sort(ids.begin(), ids.end());  // by drawn index, to look ids up
  const auto numberedAs = [&](std::int64_t drawn) {
    if (order == DeviceOrder::Drawn) return drawn;
    const auto at = std::lower_bound(ids.begin(), ids.end(), std::make_pair(drawn, std::int64_t(-1)));
    return at != ids.end() && at->first == drawn ? at->second : std::int64_t(-1);
  };
  if (order == DeviceOrder::Hilbert) {  // the ghosts' stretches, numbered too
    std::vector<char> wanted(numbered.size(), 0);
    bool any = false;
    for (std::int64_t j : heard) {
      if (numberedAs(j) >= 0) continue;
      const auto [x, y] = points.at(j);
      wanted[points.stretchOf(x, y)] = 1;
      any = true;
    }
    if (any) {
      numberStretches(points, start, wanted, ids);
      std::sort(ids.begin(), ids.end());
    }
  }
  std::vector<std::int64_t> rows(heard.size() + std::size_t(m));  // by id, each with its device
  std::vector<std::pair<std::int64_t, std::int64_t>> local;        // (id, drawn index) of local devices
  for (std::int64_t d = 0; d < m; ++d) {
    const std::int64_t first = offsets[d] + d, last = offsets[d + 1] + d + 1;
    rows[first] = own[d].first;
    for (std::int64_t k = offsets[d]; k < offsets[d + 1]; ++k) {
      rows[first + 1 + (k - offsets[d])] = numberedAs(heard[k]);
      local.emplace_back(rows[first + 1 + (k - offsets[d])], heard[k]);
    }
    std::sort(rows.begin() + first, rows.begin() + last);
    local.push_back(own[d]);
  }
  std::sort(local.begin(), local.end());
  local.erase(std::unique(local.begin(), local.end()), local.end());
  return partFromRows(
      who, n, owned, PartPlaces::Positions,
      [&](std::int64_t id, const auto& f) {
        const std::int64_t d = id - owned.begin;
        for (std::int64_t k = offsets[d] + d; k < offsets[d + 1] + d + 1; ++k) f(rows[k], 0.0);
      },
      [&](std::int64_t id) {
        return points.at(std::lower_bound(local.begin(), local.end(), std::make_pair(id, std::int64_t(-1)))->second);
      },
      name);
}

}  // namespace kfield
