// Exact distances to the nearest of a set of sources along a network's edge lengths
// (Dijkstra), the reference a distance gradient is checked and trained against.
#ifndef KFIELD_NET_SHORTESTPATHS_HPP
#define KFIELD_NET_SHORTESTPATHS_HPP

#include "kfield/net/Network.hpp"

#include <cstdint>
#include <vector>

namespace kfield {

struct ShortestPaths {
  // Per device: the distance to the nearest source (+inf where none is reached) and the edges
  // of the fewest-edge path among the shortest ones (-1 where none is reached). Distances add
  // the lengths from the source outwards, as a distance gradient does, so they are its bits.
  std::vector<double> distance;
  std::vector<std::int64_t> edges;
  // Rounds after which a distance gradient holds these distances on every reached device: the
  // most edges of any path above, plus one.
  std::int64_t roundsToSettle() const;
};

// Devices with blocked[d] != 0 (when given, one per device) are obstacles: no path goes
// through them and they are not reached. Throws std::invalid_argument naming a source outside
// the network or blocked, a mask of the wrong size, or a network without lengths (neither
// positions nor given lengths).
ShortestPaths shortestPaths(const Network& network, const std::vector<std::int64_t>& sources,
                            const std::vector<char>& blocked = {});

// Component of each device (numbered by their least device, in order) and how many there are;
// blocked devices (as above) belong to none (-1) and join none.
std::vector<std::int64_t> components(const Network& network, std::int64_t* count = nullptr,
                                     const std::vector<char>& blocked = {});

}  // namespace kfield

#endif
