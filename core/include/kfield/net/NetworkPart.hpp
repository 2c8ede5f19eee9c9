// What one rank of a distributed simulation holds of a network: the devices it owns, the
// ghosts they hear (devices owned elsewhere), and the rows among them, numbered locally in
// global id order, so every owned row lists its neighbors in the whole network's fold order.
#ifndef KFIELD_NET_NETWORKPART_HPP
#define KFIELD_NET_NETWORKPART_HPP

#include "kfield/IndexRange.hpp"
#include "kfield/net/Network.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace kfield {

struct NetworkPart {
  // Local devices: the ghosts below the owned run, the owned ones, the ghosts above. An owned
  // device's row is its whole row; a ghost's row holds itself and the owned devices that hear
  // it (where what it sends them arrives). A part that owns no device holds one local device
  // that no round computes.
  Network network;
  std::vector<std::int64_t> ids;  // local device -> global id, ascending
  IndexRange owned;               // the owned devices' local indices
  IndexRange ownedIds;            // and their global ids
  std::int64_t devices =
      0;             // in the whole network (its entries: the owned rows' summed over the parts)
  std::string name;  // the whole network's description (an edge list's: no edge count)

  // Devices [owned.begin, owned.end) of `whole`.
  static NetworkPart of(const Network& whole, IndexRange owned);
  // Devices [owned.begin, owned.end) of Network::grid(width, height, neighborhood), built
  // without the whole grid: memory for the part only.
  static NetworkPart grid(std::int64_t width, std::int64_t height, int neighborhood,
                          IndexRange owned);
  // Devices [owned.begin, owned.end) of Network::randomGeometric(n, radius, seed, order), built
  // without the whole graph: the points are drawn again (a counter-based generator) and only
  // those near the owned ones kept. Numbered along the Hilbert curve, a part is a region, so its
  // memory is the region's (with the stretches of the curve its devices and ghosts lie on);
  // numbered as drawn, a part's devices are everywhere and it keeps nearly every point. Each
  // part draws all n points (three times along the curve): time O(n) per part.
  static NetworkPart randomGeometric(std::int64_t n, double radius, std::uint64_t seed,
                                     DeviceOrder order, IndexRange owned);
  // Devices [owned.begin, owned.end) of Network::fromEdgeList(path, directed), read without the
  // whole network: the file is read through (every line checked) and only the owned rows' edges
  // kept. Its name leaves out the edge count (known to the whole). Repeated edges that disagree
  // are refused by the parts that keep them (under MPI, raise what one part refuses on all).
  static NetworkPart fromEdgeList(const std::string& path, bool directed, IndexRange owned);

  // From the owned rows of a network of n devices, as a file holds them (HDF5 networks read by
  // parts): device owned.begin + r's row is neighbors[offsets[r], offsets[r + 1]) (offsets from 0;
  // global ids, ascending, the device itself included), with lengths (none, or one per entry);
  // positionOf(ids), when given, the positions of the part's devices (ascending ids). Refuses
  // rows that break this, naming the row, as Network::fromCsr does.
  static NetworkPart fromRows(
      std::int64_t n, IndexRange owned, const std::vector<std::int64_t>& offsets,
      const std::vector<std::int32_t>& neighbors, const std::vector<double>& lengths,
      const std::function<std::vector<std::pair<double, double>>(const std::vector<std::int64_t>&)>&
          positionsOf,
      const std::string& name);

  // The local index of a global id, or -1 when this part does not hold it.
  std::int64_t localOf(std::int64_t id) const;
};

}  // namespace kfield

#endif
