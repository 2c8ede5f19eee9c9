// A network's part from its rows: what every NetworkPart builder ends with.
#ifndef KFIELD_SRC_NET_PARTFROMROWS_HPP
#define KFIELD_SRC_NET_PARTFROMROWS_HPP

#include "kfield/impl/Errors.hpp"
#include "kfield/net/NetworkPart.hpp"

#include <algorithm>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace kfield {

// What a part's network holds beside its rows, as the whole one does.
enum class PartPlaces { Positions, Lengths, Neither };

// The part of a network of n devices that owns `owned`: forRow(d, f)
// calls f(j, length) for each entry of device d's row, in order (the length is ignored for
// networks of points: it follows from the positions, as the whole network computes it);
// positionOf(d) gives (x, y) when the places are positions.
template <class ForRow, class PositionOf>
NetworkPart partFromRows(const char* who, std::int64_t n, IndexRange owned, PartPlaces places,
                         ForRow&& forRow, PositionOf&& positionOf, const std::string& name) {
  const bool positioned = places == PartPlaces::Positions;
  if (owned.begin < 0 || owned.end < owned.begin || owned.end > n) {
    impl::invalidArgument(who, "devices [" + std::to_string(owned.begin) + ", " +
                                   std::to_string(owned.end) + ") are not a run of the " +
                                   std::to_string(n) + " devices of network '" + name + "'");
  }
  const std::string description =
      name + ", devices [" + std::to_string(owned.begin) + ", " + std::to_string(owned.end) + ")";
  NetworkPart part;
  part.devices = n;
  part.name = name;
  part.ownedIds = owned;
  if (owned.size() == 0) {  // a rank without devices runs one device that nothing computes
    part.network =
        Network::fromCsr({0, 1}, {0}, {0.0}, {}, {}, description);  // a length: any program runs
    return part;
  }
  // (ghost, owned device that hears it, the entry's length): the ghosts' rows.
  std::vector<std::tuple<std::int64_t, std::int64_t, double>> heard;
  std::uint64_t ownedEntries = 0;
  for (std::int64_t d = owned.begin; d < owned.end; ++d) {
    forRow(d, [&](std::int64_t j, double length) {
      ++ownedEntries;
      if (j < owned.begin || j >= owned.end) heard.emplace_back(j, d, length);
    });
  }
  std::sort(heard.begin(), heard.end());
  for (const auto& h : heard) {
    if (part.ids.empty() || part.ids.back() != std::get<0>(h)) part.ids.push_back(std::get<0>(h));
  }
  const auto below =
      std::lower_bound(part.ids.begin(), part.ids.end(), owned.begin) - part.ids.begin();
  std::vector<std::int64_t> own(static_cast<std::size_t>(owned.size()));
  for (std::int64_t i = 0; i < owned.size(); ++i) own[i] = owned.begin + i;
  part.ids.insert(part.ids.begin() + below, own.begin(), own.end());
  part.owned = {below, below + owned.size()};

  const auto local = static_cast<std::int64_t>(part.ids.size());
  std::vector<std::int64_t> offsets{0};
  std::vector<std::int32_t> neighbors;
  std::vector<double> lengths, x, y;
  // Allocated once: the owned rows, and each ghost's row (itself and its hearers).
  const std::size_t entries =
      std::size_t(ownedEntries) + heard.size() + std::size_t(local - owned.size());
  offsets.reserve(std::size_t(local) + 1);
  neighbors.reserve(entries);
  if (places == PartPlaces::Lengths) lengths.reserve(entries);
  auto push = [&](std::int64_t global, double length) {
    neighbors.push_back(static_cast<std::int32_t>(part.localOf(global)));
    if (places == PartPlaces::Lengths) lengths.push_back(length);
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
    x.reserve(part.ids.size()), y.reserve(part.ids.size());
    for (std::int64_t g : part.ids) {
      const std::pair<double, double> p = positionOf(g);
      x.push_back(p.first), y.push_back(p.second);
    }
  }
  part.network = Network::fromCsr(std::move(offsets), std::move(neighbors), std::move(lengths),
                                  std::move(x), std::move(y), description);
  return part;
}

}  // namespace kfield

#endif
