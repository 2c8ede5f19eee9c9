// A network on one memory space, for kernels: row i of the CSR is device i's neighborhood,
// itself included, sorted by id; that order is the order of every fold.
#ifndef KFIELD_NET_NETWORKVIEW_HPP
#define KFIELD_NET_NETWORKVIEW_HPP

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kfield {

template <class MemorySpace>
struct NetworkView {
  Kokkos::View<const std::int64_t*, MemorySpace> offsets;    // devices + 1
  Kokkos::View<const std::int32_t*, MemorySpace> neighbors;  // entries
  Kokkos::View<const double*, MemorySpace> lengths;          // entries; 0 for the self entry
  // Entry k (device d hears j): the entry of j's row that holds d (Network::reverseEntries);
  // only for programs that exchange.
  Kokkos::View<const std::int64_t*, MemorySpace> reverse;
  // Each device's id in the whole network when this is one part of it (NetworkPart.hpp);
  // empty: device i is id i.
  Kokkos::View<const std::int64_t*, MemorySpace> ids;
};

}  // namespace kfield

#endif
