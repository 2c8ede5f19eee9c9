#include "kfield/net/NetworkPart.hpp"

#include "BuildRows.hpp"

#include "kfield/impl/Errors.hpp"

#include <algorithm>
#include <tuple>
#include <utility>

namespace kfield {

namespace {

// The part of a network of n devices (and `entries` entries) that owns `owned`: forRow(d, f)
// calls f(j, length) for each entry of device d's row, in order (the length is ignored for
// networks of points: it follows from the positions, as the whole network computes it);
// positionOf(d) gives (x, y) when `positioned`.
template <class ForRow, class PositionOf>
NetworkPart cut(const char* who, std::int64_t n, std::int64_t entries, IndexRange owned,
                bool positioned, ForRow&& forRow, PositionOf&& positionOf, const std::string& name) {
  if (owned.begin < 0 || owned.end < owned.begin || owned.end > n) {
    impl::invalidArgument(who, "devices [" + std::to_string(owned.begin) + ", " +
                                   std::to_string(owned.end) + ") are not a run of the " +
                                   std::to_string(n) + " devices of network '" + name + "'");
  }
  const std::string description =
      name + ", devices [" + std::to_string(owned.begin) + ", " + std::to_string(owned.end) + ")";
  NetworkPart part;
  part.devices = n;
  part.entries = entries;
  part.ownedIds = owned;
  if (owned.size() == 0) {  // a rank without devices runs one device that nothing computes
    part.network = Network::fromCsr({0, 1}, {0}, {}, {}, {}, description);
    return part;
  }
  // (ghost, owned device that hears it, the entry's length): the ghosts' rows.
  std::vector<std::tuple<std::int64_t, std::int64_t, double>> heard;
  for (std::int64_t d = owned.begin; d < owned.end; ++d) {
    forRow(d, [&](std::int64_t j, double length) {
      if (j < owned.begin || j >= owned.end) heard.emplace_back(j, d, length);
    });
  }
  std::sort(heard.begin(), heard.end());
  for (const auto& h : heard) {
    if (part.ids.empty() || part.ids.back() != std::get<0>(h)) part.ids.push_back(std::get<0>(h));
  }
  const auto below = std::lower_bound(part.ids.begin(), part.ids.end(), owned.begin) - part.ids.begin();
  std::vector<std::int64_t> own(static_cast<std::size_t>(owned.size()));
  for (std::int64_t i = 0; i < owned.size(); ++i) own[i] = owned.begin + i;
  part.ids.insert(part.ids.begin() + below, own.begin(), own.end());
  part.owned = {below, below + owned.size()};

  const auto local = static_cast<std::int64_t>(part.ids.size());
  std::vector<std::int64_t> offsets{0};
  std::vector<std::int32_t> neighbors;
  std::vector<double> lengths, x, y;
  auto push = [&](std::int64_t global, double length) {
    neighbors.push_back(static_cast<std::int32_t>(part.localOf(global)));
    if (!positioned) lengths.push_back(length);
  };
  std::size_t next = 0;  // the next of `heard`: ghost rows come in id order
  for (std::int64_t i = 0; i < local; ++i) {
    const std::int64_t g = part.ids[i];
    if (i >= part.owned.begin && i < part.owned.end) {
      forRow(g, push);
    } else {
      bool self = false;
      for (; next < heard.size() && std::get<0>(heard[next]) == g; ++next) {
        const std::int64_t d = std::get<1>(heard[next]);
        if (!self && g < d) push(g, 0.0), self = true;
        push(d, std::get<2>(heard[next]));
      }
      if (!self) push(g, 0.0);
    }
    offsets.push_back(static_cast<std::int64_t>(neighbors.size()));
  }
  if (positioned) {
    for (std::int64_t g : part.ids) {
      const std::pair<double, double> p = positionOf(g);
      x.push_back(p.first), y.push_back(p.second);
    }
  }
  part.network = Network::fromCsr(std::move(offsets), std::move(neighbors), std::move(lengths),
                                  std::move(x), std::move(y), description);
  return part;
}

}  // namespace

NetworkPart NetworkPart::of(const Network& whole, IndexRange owned) {
  const auto& offsets = whole.offsets();
  const auto& neighbors = whole.neighbors();
  const bool positioned = whole.hasPositions();
  const std::vector<double> lengths = positioned ? std::vector<double>() : whole.lengths();
  const std::vector<double> x = positioned ? whole.x() : std::vector<double>();
  const std::vector<double> y = positioned ? whole.y() : std::vector<double>();
  return cut(
      "kfield::NetworkPart::of", whole.devices(), whole.entries(), owned, positioned,
      [&](std::int64_t d, const auto& f) {
        for (std::int64_t k = offsets[d]; k < offsets[d + 1]; ++k) {
          f(neighbors[k], lengths.empty() ? 0.0 : lengths[k]);
        }
      },
      [&](std::int64_t d) { return std::make_pair(x[d], y[d]); }, whole.description());
}

NetworkPart NetworkPart::grid(std::int64_t width, std::int64_t height, int neighborhood,
                              IndexRange owned) {
  const char* who = "kfield::NetworkPart::grid";
  const std::int64_t n = checkGridShape(who, width, height, neighborhood);
  if (owned.begin >= 0 && owned.end <= n && owned.begin <= owned.end) {  // its rows and a band of ghosts each side
    const auto devices = std::uint64_t(owned.size() + 2 * width);
    checkNetworkBytes(who, "devices [" + std::to_string(owned.begin) + ", " + std::to_string(owned.end) +
                               ") of a " + std::to_string(width) + "x" + std::to_string(height) + " grid",
                      networkBytes(devices, impl::product({devices, 9}), 16, 40));
  }
  return cut(
      who, n, gridEntries(width, height, neighborhood), owned, true,
      [&](std::int64_t d, const auto& f) {
        const std::int64_t x = d % width, y = d / width;
        for (std::int64_t dy = -1; dy <= 1; ++dy) {  // ascending ids, the device itself included
          for (std::int64_t dx = -1; dx <= 1; ++dx) {
            if (neighborhood == 4 && dx != 0 && dy != 0) continue;
            const std::int64_t nx = x + dx, ny = y + dy;
            if (nx >= 0 && nx < width && ny >= 0 && ny < height) f(ny * width + nx, 0.0);
          }
        }
      },
      [&](std::int64_t d) { return std::make_pair(double(d % width), double(d / width)); },
      gridDescription(width, height, neighborhood));
}

std::int64_t NetworkPart::localOf(std::int64_t id) const {
  const auto at = std::lower_bound(ids.begin(), ids.end(), id);
  return at != ids.end() && *at == id ? at - ids.begin() : -1;
}

}  // namespace kfield
