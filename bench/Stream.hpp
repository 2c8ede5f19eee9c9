// STREAM-like kernels: the memory speed that kfield's own kernels are measured against.
#ifndef KFIELD_BENCH_STREAM_HPP
#define KFIELD_BENCH_STREAM_HPP

#include "BenchContext.hpp"

#include <cstdint>

namespace kfield::bench {

// Reads every element once into 8 independent running sums per block: no dependence chain
// and no reassociation, so the compiler vectorises it and it runs at read bandwidth.
template <class Space, class XView>
double readLanes(const Space& space, const XView& x, std::int64_t n) {
  constexpr int kLanes = 8;
  const std::int64_t block = 1 << 14;
  const std::int64_t blocks = (n + block - 1) / block;
  double total = 0.0;
  Kokkos::parallel_reduce(
      "kfield::bench::read_lanes", Kokkos::RangePolicy<Space>(space, 0, blocks),
      KOKKOS_LAMBDA(std::int64_t b, double& partial) {
        double lane[kLanes] = {};
        const std::int64_t first = b * block;
        const std::int64_t last = first + block < n ? first + block : n;
        std::int64_t i = first;
        for (; i + kLanes <= last; i += kLanes) {
          for (int l = 0; l < kLanes; ++l) lane[l] += x(i + l);
        }
        for (; i < last; ++i) lane[0] += x(i);
        for (int l = 0; l < kLanes; ++l) partial += lane[l];
      },
      total);
  return total;
}

}  // namespace kfield::bench

#endif
