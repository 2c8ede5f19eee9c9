// The memory a memory space allocates from: what a size is refused against before it is
// allocated.
#ifndef KFIELD_BACKENDS_MEMORYLIMIT_HPP
#define KFIELD_BACKENDS_MEMORYLIMIT_HPP

#include "kfield/rt/Topology.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <limits>
#include <type_traits>

namespace kfield {

struct MemoryLimit {
  std::uint64_t bytes = 0;
  const char* where = "";  // for messages: "this machine's memory", "the GPU's memory"
};

template <class MemorySpace>
MemoryLimit memoryLimit() {
#ifdef KOKKOS_ENABLE_CUDA
  if constexpr (std::is_same<MemorySpace, Kokkos::CudaSpace>::value ||
                std::is_same<MemorySpace, Kokkos::CudaUVMSpace>::value) {
    std::size_t available = 0, total = 0;
    if (cudaMemGetInfo(&available, &total) != cudaSuccess) {
      return {std::numeric_limits<std::uint64_t>::max(), "the GPU's memory"};
    }
    return {static_cast<std::uint64_t>(total), "the GPU's memory"};
  } else {
    return {hostMemoryBytes(), "this machine's memory"};
  }
#else
  return {hostMemoryBytes(), "this machine's memory"};
#endif
}

}  // namespace kfield

#endif
