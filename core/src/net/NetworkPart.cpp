#include "kfield/net/NetworkPart.hpp"

#include "BuildRows.hpp"
#include "PartFromRows.hpp"

#include "kfield/impl/Errors.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <utility>

namespace kfield {

NetworkPart NetworkPart::of(const Network& whole, IndexRange owned) {
  const auto& offsets = whole.offsets();
  const auto& neighbors = whole.neighbors();
  const bool positioned = whole.hasPositions();
  const std::vector<double> lengths = positioned ? std::vector<double>() : whole.lengths();
  const std::vector<double> x = positioned ? whole.x() : std::vector<double>();
  const std::vector<double> y = positioned ? whole.y() : std::vector<double>();
  return partFromRows(
      "kfield::NetworkPart::of", whole.devices(), owned,
      positioned        ? PartPlaces::Positions
      : lengths.empty() ? PartPlaces::Neither
                        : PartPlaces::Lengths,
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
  if (owned.begin >= 0 && owned.end <= n &&
      owned.begin <= owned.end) {  // its rows and a band of ghosts each side
    const auto devices = std::uint64_t(owned.size() + 2 * width);
    checkNetworkBytes(who,
                      "devices [" + std::to_string(owned.begin) + ", " + std::to_string(owned.end) +
                          ") of a " + std::to_string(width) + "x" + std::to_string(height) +
                          " grid",
                      networkBytes(devices, impl::product({devices, 9}), 16, 40));
  }
  return partFromRows(
      who, n, owned, PartPlaces::Positions,
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

NetworkPart NetworkPart::fromRows(
    std::int64_t n, IndexRange owned, const std::vector<std::int64_t>& offsets,
    const std::vector<std::int32_t>& neighbors, const std::vector<double>& lengths,
    const std::function<std::vector<std::pair<double, double>>(const std::vector<std::int64_t>&)>&
        positionsOf,
    const std::string& name) {
  const char* who = "kfield::NetworkPart::fromRows";
  checkDevices(who, n);
  const bool valid =
      owned.begin >= 0 && owned.end <= n && owned.begin <= owned.end;  // else refused below
  if (valid) {
    if (std::int64_t(offsets.size()) != owned.size() + 1) {
      impl::invalidArgument(who, std::to_string(offsets.size()) + " offsets for the " +
                                     std::to_string(owned.size()) + " rows of devices [" +
                                     std::to_string(owned.begin) + ", " +
                                     std::to_string(owned.end) + ")");
    }
    checkRows(who, n, owned.begin, offsets, neighbors, lengths);
  }
  const auto forRow = [&](std::int64_t d, const auto& f) {
    const auto r = std::size_t(d - owned.begin);
    for (std::int64_t k = offsets[r]; k < offsets[r + 1]; ++k)
      f(neighbors[k], lengths.empty() ? 0.0 : lengths[k]);
  };
  if (!positionsOf || !valid || owned.size() == 0) {
    return partFromRows(
        who, n, owned, lengths.empty() ? PartPlaces::Neither : PartPlaces::Lengths, forRow,
        [](std::int64_t) { return std::make_pair(0.0, 0.0); }, name);
  }
  // The part's devices (its own and the ghosts its rows hear), to ask their positions at once.
  std::vector<std::int64_t> ids(neighbors.begin(), neighbors.end());
  for (std::int64_t d = owned.begin; d < owned.end; ++d) ids.push_back(d);
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  const std::vector<std::pair<double, double>> at = positionsOf(ids);
  if (at.size() != ids.size()) {
    impl::invalidArgument(who, std::to_string(at.size()) + " positions for " +
                                   std::to_string(ids.size()) + " devices");
  }
  for (std::size_t i = 0; i < at.size(); ++i) {
    if (!std::isfinite(at[i].first) || !std::isfinite(at[i].second)) {
      impl::invalidArgument(who, "row " + std::to_string(ids[i]) + ": its position is not finite");
    }
  }
  return partFromRows(
      who, n, owned, PartPlaces::Positions, forRow,
      [&](std::int64_t id) {
        return at[std::size_t(std::lower_bound(ids.begin(), ids.end(), id) - ids.begin())];
      },
      name);
}

std::int64_t NetworkPart::localOf(std::int64_t id) const {
  const auto at = std::lower_bound(ids.begin(), ids.end(), id);
  return at != ids.end() && *at == id ? at - ids.begin() : -1;
}

}  // namespace kfield
