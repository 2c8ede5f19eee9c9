// A network of devices: who hears whom, as compressed sparse rows sorted by device id.
#ifndef KFIELD_NET_NETWORK_HPP
#define KFIELD_NET_NETWORK_HPP

#include "kfield/impl/Upload.hpp"
#include "kfield/net/NetworkView.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace kfield {

// Devices 0..N-1 with neighbor lists (symmetric, but for directed edge lists). Built on the host
// once (O(N) for every builder) and never changed after: copies share the arrays. Every builder
// refuses, before allocating, a network that would not fit in this machine's memory. How a random
// geometric graph numbers its devices: in the order its points are drawn, or along a Hilbert curve
// over the square, so that runs of ids are regions of the plane (a partition into blocks of ids is
// then a spatial one, with small halos).
enum class DeviceOrder { Drawn, Hilbert };

class Network {
 public:
  // W x H devices at unit spacing, id = y * W + x; 4 (von Neumann) or 8 (Moore) neighbors;
  // edge length = Euclidean distance between positions.
  static Network grid(std::int64_t width, std::int64_t height, int neighborhood = 4);

  // Devices at the given 2-D positions; i and j are neighbors when their distance is at most
  // radius. Built with cell lists (at most about one cell per device): O(N) for bounded
  // density. Refuses a radius whose edges would not fit in memory, saying how many.
  static Network fromPositions(std::vector<double> x, std::vector<double> y, double radius);

  // n devices uniform in a square of side sqrt(n) (one device per unit of area), from a
  // counter-based generator: the same graph for the same (n, radius, seed, order) everywhere.
  static Network randomGeometric(std::int64_t n, double radius, std::uint64_t seed = 1,
                                 DeviceOrder order = DeviceOrder::Drawn);

  // A text file of `src dst [length]` lines, one undirected edge each ('#' starts a comment):
  // ids are whole numbers, the length a decimal number >= 0; devices are 0..max id; an edge
  // without a length has length 1. Repeated edges must agree. Directed: each line is an arc,
  // `src dst`: dst hears src (src is in dst's neighbor list, not the other way round).
  static Network fromEdgeList(const std::string& path, bool directed = false);

  // A network given as its arrays (what io::readNetwork reads back from an export): CSR rows
  // (offsets[0] = 0, rows strictly increasing by id, each holding the device itself), entry
  // lengths (empty, or one per entry: finite, >= 0, 0 on the self entry), positions (empty,
  // or one x and one y per device, finite). Refuses what breaks these, naming the row.
  static Network fromCsr(std::vector<std::int64_t> offsets, std::vector<std::int32_t> neighbors,
                         std::vector<double> lengths, std::vector<double> x, std::vector<double> y,
                         std::string description);

  // "grid:WxH[:4|:8]", "rgg:N:RADIUS[:SEED][:hilbert]", "edges:FILE" or "arcs:FILE" (directed), as
  // `kfield run --network` takes. Errors name the spec: "network 'rgg:10:-1': the radius must be
  // finite and > 0, got -1".
  static Network fromSpec(const std::string& spec);

  std::int64_t devices() const { return static_cast<std::int64_t>(data_->offsets.size()) - 1; }
  std::int64_t entries() const { return static_cast<std::int64_t>(data_->neighbors.size()); }
  const std::vector<std::int64_t>& offsets() const { return data_->offsets; }
  const std::vector<std::int32_t>& neighbors() const { return data_->neighbors; }
  // Entry lengths in CSR order (0 for the self entry): as given by an edge list, or computed
  // from the positions; a network keeps only what it was given.
  std::vector<double> lengths() const;
  bool hasPositions() const { return data_->gridWidth > 0 || !data_->x.empty(); }
  bool hasLengths() const {
    return hasPositions() || !data_->lengths.empty();
  }                               // given or from positions
  std::vector<double> x() const;  // empty without positions
  std::vector<double> y() const;
  const std::string& description() const { return data_->description; }
  // Bytes the network holds.
  std::uint64_t bytes() const;

  // For each entry k (device d hears j), the entry of j's row that holds d: where j's message
  // to d is found. Throws std::invalid_argument naming a pair without one (a directed
  // network): "network 'arcs:f': device 3 hears device 5, but 5 does not hear 3".
  std::vector<std::int64_t> reverseEntries() const;

  // Device i's neighbors (itself included), in fold order.
  std::vector<std::int32_t> neighborsOf(std::int64_t i) const;

  // The network on a memory space, for kernels; lengths only when asked for. On the host the
  // views are the network's own arrays (no copy), valid while the network or a copy lives.
  template <class MemorySpace>
  NetworkView<MemorySpace> on(bool withLengths = true) const;

 private:
  struct Arrays {
    std::vector<std::int64_t> offsets{0};
    std::vector<std::int32_t> neighbors;
    std::vector<double> lengths;  // only when given (edge lists)
    std::vector<double> x, y;     // only for networks of points
    std::int64_t gridWidth = 0;   // grids: positions are (id % width, id / width)
    std::string description;
  };
  using Row = std::vector<std::pair<std::int32_t, double>>;  // (neighbor, given length)
  // Row by row: fillRow(i, row) lists device i's neighbors other than itself, in any order;
  // they are sorted and the self entry is put in its place. `entries` (self entries
  // included) is exact: the arrays are allocated once, at their size.
  template <class FillRow>
  static Network build(std::int64_t devices, std::int64_t entries, bool givenLengths,
                       FillRow&& fillRow, std::string description);

  std::shared_ptr<Arrays> data_ = std::make_shared<Arrays>();
};

template <class MemorySpace>
NetworkView<MemorySpace> Network::on(bool withLengths) const {
  NetworkView<MemorySpace> view;
  if constexpr (std::is_same<MemorySpace, Kokkos::HostSpace>::value) {
    using Unmanaged = Kokkos::MemoryTraits<Kokkos::Unmanaged>;
    view.offsets = Kokkos::View<const std::int64_t*, Kokkos::HostSpace, Unmanaged>(
        data_->offsets.data(), data_->offsets.size());
    view.neighbors = Kokkos::View<const std::int32_t*, Kokkos::HostSpace, Unmanaged>(
        data_->neighbors.data(), data_->neighbors.size());
  } else {
    view.offsets = impl::upload<MemorySpace>(data_->offsets, "kfield::network::offsets");
    view.neighbors = impl::upload<MemorySpace>(data_->neighbors, "kfield::network::neighbors");
  }
  if (withLengths) view.lengths = impl::upload<MemorySpace>(lengths(), "kfield::network::lengths");
  return view;
}

}  // namespace kfield

#endif
