// What every network builder shares: rows filled one device at a time, sorted, with the self
// entry put in its place; the limit on the device count (ids are 32-bit); and the memory
// check made before anything is allocated.
#ifndef KFIELD_SRC_NET_BUILDROWS_HPP
#define KFIELD_SRC_NET_BUILDROWS_HPP

#include "kfield/impl/Errors.hpp"
#include "kfield/impl/Sizes.hpp"
#include "kfield/net/Network.hpp"
#include "kfield/rt/Topology.hpp"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace kfield {

constexpr std::int64_t kMaxDevices = std::numeric_limits<std::int32_t>::max();

inline void checkDevices(const char* who, std::int64_t n) {
  if (n < 1 || n > kMaxDevices) {
    impl::invalidArgument(who, "the number of devices must be in [1, " +
                                   std::to_string(kMaxDevices) + "], got " + std::to_string(n));
  }
}

// Grids (Grid.cpp): the shape checked (the device count, or std::invalid_argument naming the
// shape), the entry count, and the description.
std::int64_t checkGridShape(const char* who, std::int64_t width, std::int64_t height,
                            int neighborhood);
std::int64_t gridEntries(std::int64_t width, std::int64_t height, int neighborhood);
std::string gridDescription(std::int64_t width, std::int64_t height, int neighborhood);

// Random geometric graphs (RandomGeometric.cpp), what the whole graph and its parts share so
// they agree bit for bit: drawn point i (in the square of side sqrt(n), n devices), the place along
// the Hilbert curve that numbers a point, and whether two points are neighbors.
std::pair<double, double> drawnPoint(double side, std::uint64_t seed, std::int64_t i);
std::uint64_t hilbertKey(double x, double y, double side);  // in [0, 2^32)
constexpr int kHilbertKeyBits = 32;
inline bool withinRadius(double xi, double yi, double xj, double yj, double radius2) {
  const double dx = xj - xi, dy = yj - yi;
  return dx * dx + dy * dy <= radius2;
}
void checkRadius(const char* who, double radius);
std::string rggDescription(std::int64_t n, double radius, std::uint64_t seed, DeviceOrder order);

// Edge lists (EdgeList.cpp): the description of a list's network (the edge count left out when
// negative: a part does not know it), and its device count (the file read, every line checked).
std::string edgeListDescription(const std::string& path, std::int64_t devices, std::int64_t edges,
                                bool directed);
std::int64_t edgeListDevices(const std::string& path);

// Rows [first, first + offsets.size() - 1) of a network of n devices, as CSR arrays hold them
// (offsets from 0 to the entries), checked: each row's ids strictly increasing devices, the
// device itself among them, lengths (none, or one per entry) finite, >= 0, 0 on the self entry.
// Throws std::invalid_argument from `who` naming the row: "row 4: ids are not strictly increasing".
void checkRows(const char* who, std::int64_t n, std::int64_t first,
               const std::vector<std::int64_t>& offsets, const std::vector<std::int32_t>& neighbors,
               const std::vector<double>& lengths);

// The bytes of a network of `devices` and `entries` (self entries included), with `perDevice`
// and `perEntry` more bytes (positions, given lengths).
inline std::uint64_t networkBytes(std::uint64_t devices, std::uint64_t entries,
                                  std::uint64_t perDevice, std::uint64_t perEntry) {
  return impl::total({impl::product({devices + 1, sizeof(std::int64_t) + perDevice}),
                      impl::product({entries, sizeof(std::int32_t) + perEntry})});
}

// Refuses `what` ("a 46340x46340 grid") when its network does not fit in memory.
inline void checkNetworkBytes(const char* who, const std::string& what, std::uint64_t bytes) {
  impl::requireMemory(who, what, bytes, hostMemoryBytes(), "this machine's memory");
}

template <class FillRow>
Network Network::build(std::int64_t devices, std::int64_t entries, bool givenLengths,
                       FillRow&& fillRow, std::string description) {
  Network net;
  Arrays& a = *net.data_;
  a.offsets.reserve(static_cast<std::size_t>(devices) + 1);
  a.neighbors.reserve(static_cast<std::size_t>(entries));
  if (givenLengths) a.lengths.reserve(static_cast<std::size_t>(entries));
  Row row;
  for (std::int64_t i = 0; i < devices; ++i) {
    row.clear();
    fillRow(i, row);
    row.emplace_back(static_cast<std::int32_t>(i), 0.0);
    std::sort(row.begin(), row.end());
    for (const auto& [j, length] : row) {
      a.neighbors.push_back(j);
      if (givenLengths) a.lengths.push_back(length);
    }
    a.offsets.push_back(static_cast<std::int64_t>(a.neighbors.size()));
  }
  a.description = std::move(description);
  return net;
}

}  // namespace kfield

#endif
