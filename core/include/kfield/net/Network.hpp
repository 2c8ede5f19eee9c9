// A network of devices: who hears whom, as compressed sparse rows sorted by device id.
#ifndef KFIELD_NET_NETWORK_HPP
#define KFIELD_NET_NETWORK_HPP

#include "kfield/impl/Upload.hpp"
#include "kfield/net/NetworkView.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace kfield {

// Devices 0..N-1 with symmetric neighbor lists. Built on the host once (O(N) for every
// builder), then copied to the execution space that runs the rounds.
class Network {
 public:
  // W x H devices at unit spacing, id = y * W + x; 4 (von Neumann) or 8 (Moore) neighbors;
  // edge length = Euclidean distance between positions.
  static Network grid(std::int64_t width, std::int64_t height, int neighborhood = 4);

  // Devices at the given 2-D positions; i and j are neighbors when their distance is at most
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
  std::int64_t entries() const { return static_cast<std::int64_t>(neighbors_.size()); }
  const std::vector<std::int64_t>& offsets() const { return offsets_; }
  const std::vector<std::int32_t>& neighbors() const { return neighbors_; }
  const std::vector<double>& lengths() const { return lengths_; }
  bool hasPositions() const { return !x_.empty(); }
  const std::vector<double>& x() const { return x_; }
  const std::vector<double>& y() const { return y_; }
  const std::string& description() const { return description_; }

  // Device i's neighbors (itself included), in fold order.
  std::vector<std::int32_t> neighborsOf(std::int64_t i) const;

  // The network copied to a memory space, for kernels.
  template <class MemorySpace>
  NetworkView<MemorySpace> on() const;

 private:
  using Row = std::vector<std::pair<std::int32_t, double>>;  // (neighbor, length)
  // Row by row: fillRow(i, row) lists device i's neighbors other than itself, in any order;
  // they are sorted and the self entry (length 0) is put in its place.
  template <class FillRow>
  static Network build(std::int64_t devices, FillRow&& fillRow, std::string description);

  std::vector<std::int64_t> offsets_{0};
  std::vector<std::int32_t> neighbors_;
  std::vector<double> lengths_;
  std::vector<double> x_, y_;
  std::string description_;
};

template <class MemorySpace>
NetworkView<MemorySpace> Network::on() const {
  return {impl::upload<MemorySpace>(offsets_, "kfield::network::offsets"),
          impl::upload<MemorySpace>(neighbors_, "kfield::network::neighbors"),
          impl::upload<MemorySpace>(lengths_, "kfield::network::lengths")};
}

}  // namespace kfield

#endif
