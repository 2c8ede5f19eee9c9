#include "kfield/net/NetworkPart.hpp"

#include "kfield/impl/Errors.hpp"

#include <algorithm>
#include <tuple>

namespace kfield {

NetworkPart NetworkPart::of(const Network& whole, IndexRange owned) {
  const std::int64_t n = whole.devices();
  if (owned.begin < 0 || owned.end < owned.begin || owned.end > n) {
    impl::invalidArgument("kfield::NetworkPart::of",
                          "devices [" + std::to_string(owned.begin) + ", " +
                              std::to_string(owned.end) + ") are not a run of the " +
                              std::to_string(n) + " devices of network '" + whole.description() + "'");
  }
  const std::string description = whole.description() + ", devices [" +
                                  std::to_string(owned.begin) + ", " + std::to_string(owned.end) + ")";
  NetworkPart part;
  part.devices = n;
  part.entries = whole.entries();
  part.ownedIds = owned;
  if (owned.size() == 0) {  // a rank without devices runs one device that nothing computes
    part.network = Network::fromCsr({0, 1}, {0}, {}, {}, {}, description);
    return part;
  }
  const auto& offsets = whole.offsets();
  const auto& neighbors = whole.neighbors();
  const bool positions = whole.hasPositions();
  const std::vector<double> lengths = positions ? std::vector<double>() : whole.lengths();
  // (ghost, owned device that hears it, the entry's length): the ghosts' rows.
  std::vector<std::tuple<std::int64_t, std::int64_t, double>> heard;
  for (std::int64_t d = owned.begin; d < owned.end; ++d) {
    for (std::int64_t k = offsets[d]; k < offsets[d + 1]; ++k) {
      const std::int64_t j = neighbors[k];
      if (j < owned.begin || j >= owned.end) heard.emplace_back(j, d, lengths.empty() ? 0.0 : lengths[k]);
    }
  }
  std::sort(heard.begin(), heard.end());
  for (const auto& h : heard) {
    if (part.ids.empty() || part.ids.back() != std::get<0>(h)) part.ids.push_back(std::get<0>(h));
  }
  const auto below = std::lower_bound(part.ids.begin(), part.ids.end(), owned.begin) - part.ids.begin();
  std::vector<std::int64_t> owners(static_cast<std::size_t>(owned.size()));
  for (std::int64_t i = 0; i < owned.size(); ++i) owners[i] = owned.begin + i;
  part.ids.insert(part.ids.begin() + below, owners.begin(), owners.end());
  part.owned = {below, below + owned.size()};

  const auto local = static_cast<std::int64_t>(part.ids.size());
  std::vector<std::int64_t> localOffsets{0};
  std::vector<std::int32_t> localNeighbors;
  std::vector<double> localLengths, x, y;
  auto push = [&](std::int64_t global, double length) {
    localNeighbors.push_back(static_cast<std::int32_t>(part.localOf(global)));
    if (!lengths.empty()) localLengths.push_back(length);
  };
  std::size_t next = 0;  // the next of `heard`: ghost rows come in id order
  for (std::int64_t i = 0; i < local; ++i) {
    const std::int64_t g = part.ids[i];
    if (i >= part.owned.begin && i < part.owned.end) {
      for (std::int64_t k = offsets[g]; k < offsets[g + 1]; ++k) {
        push(neighbors[k], lengths.empty() ? 0.0 : lengths[k]);
      }
    } else {
      bool self = false;
      for (; next < heard.size() && std::get<0>(heard[next]) == g; ++next) {
        const std::int64_t d = std::get<1>(heard[next]);
        if (!self && g < d) push(g, 0.0), self = true;
        push(d, std::get<2>(heard[next]));
      }
      if (!self) push(g, 0.0);
    }
    localOffsets.push_back(static_cast<std::int64_t>(localNeighbors.size()));
  }
  if (positions) {
    const std::vector<double> wx = whole.x(), wy = whole.y();
    for (std::int64_t g : part.ids) x.push_back(wx[g]), y.push_back(wy[g]);
  }
  part.network = Network::fromCsr(std::move(localOffsets), std::move(localNeighbors),
                                  std::move(localLengths), std::move(x), std::move(y), description);
  return part;
}

std::int64_t NetworkPart::localOf(std::int64_t id) const {
  const auto at = std::lower_bound(ids.begin(), ids.end(), id);
  return at != ids.end() && *at == id ? at - ids.begin() : -1;
}

}  // namespace kfield
