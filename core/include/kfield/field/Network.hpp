// A network of devices: who hears whom, as compressed sparse rows sorted by device id.
#ifndef KFIELD_FIELD_NETWORK_HPP
#define KFIELD_FIELD_NETWORK_HPP

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace kfield {

// The network on one memory space, for kernels: row i of the CSR is device i's neighbourhood,
// itself included, sorted by id; that order is the order of every fold.
template <class MemorySpace>
struct NetworkView {
  Kokkos::View<const std::int64_t*, MemorySpace> offsets;    // devices + 1
  Kokkos::View<const std::int32_t*, MemorySpace> neighbours;  // entries
  Kokkos::View<const double*, MemorySpace> lengths;           // entries; 0 for the self entry
};

// Devices 0..N-1 with symmetric neighbour lists. Built on the host once (O(N) for every
// builder), then copied to the execution space that runs the rounds.
class Network {
 public:
  // W x H devices at unit spacing, id = y * W + x; 4 (von Neumann) or 8 (Moore) neighbours;
  // edge length = Euclidean distance between positions.
  static Network grid(std::int64_t width, std::int64_t height, int neighbourhood = 4);

  // Devices at the given 2-D positions; i and j are neighbours when their distance is at most
  // radius. Built with cell lists of side radius: O(N) for bounded density.
  static Network fromPositions(std::vector<double> x, std::vector<double> y, double radius);

  // n devices uniform in a square of side sqrt(n) (one device per unit of area), from a
  // counter-based generator: the same graph for the same (n, radius, seed) everywhere.
  static Network randomGeometric(std::int64_t n, double radius, std::uint64_t seed = 1);

  // A text file of `src dst [length]` lines, one undirected edge each ('#' starts a comment);
  // devices are 0..max id; an edge without a length has length 1. Repeated edges must agree.
  static Network fromEdgeList(const std::string& path);

  // "grid:WxH[:4|:8]", "rgg:N:RADIUS[:SEED]" or "edges:FILE", as `kfield run --network` takes.
  static Network fromSpec(const std::string& spec);

  std::int64_t devices() const { return static_cast<std::int64_t>(offsets_.size()) - 1; }
  std::int64_t entries() const { return static_cast<std::int64_t>(neighbours_.size()); }
  const std::vector<std::int64_t>& offsets() const { return offsets_; }
  const std::vector<std::int32_t>& neighbours() const { return neighbours_; }
  const std::vector<double>& lengths() const { return lengths_; }
  bool hasPositions() const { return !x_.empty(); }
  const std::vector<double>& x() const { return x_; }
  const std::vector<double>& y() const { return y_; }
  const std::string& description() const { return description_; }

  // Device i's neighbours (itself included), in fold order.
  std::vector<std::int32_t> neighboursOf(std::int64_t i) const;

  template <class MemorySpace>
  NetworkView<MemorySpace> on() const;

 private:
  using Row = std::vector<std::pair<std::int32_t, double>>;  // (neighbour, length)
  // Row by row: fillRow(i, row) lists device i's neighbours other than itself, in any order;
  // they are sorted and the self entry (length 0) is put in its place.
  template <class FillRow>
  static Network build(std::int64_t devices, FillRow&& fillRow, std::string description);

  std::vector<std::int64_t> offsets_{0};
  std::vector<std::int32_t> neighbours_;
  std::vector<double> lengths_;
  std::vector<double> x_, y_;
  std::string description_;
};

template <class MemorySpace>
NetworkView<MemorySpace> Network::on() const {
  auto copy = [](const auto& host, const char* label) {
    using T = typename std::decay_t<decltype(host)>::value_type;
    Kokkos::View<T*, MemorySpace> view(Kokkos::ViewAllocateWithoutInitializing(label),
                                       host.size());
    Kokkos::deep_copy(view, Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                                host.data(), host.size()));
    return view;
  };
  return {copy(offsets_, "kfield::network::offsets"),
          copy(neighbours_, "kfield::network::neighbours"),
          copy(lengths_, "kfield::network::lengths")};
}

}  // namespace kfield

#endif
