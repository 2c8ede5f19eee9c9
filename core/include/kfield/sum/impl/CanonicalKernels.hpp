// The kernels behind kfield/sum/Canonical.hpp: aligned chunks reduced by one thread each,
// then their sums reduced the same way.
#ifndef KFIELD_SUM_IMPL_CANONICALKERNELS_HPP
#define KFIELD_SUM_IMPL_CANONICALKERNELS_HPP

#include "kfield/backends/Tuning.hpp"
#include "kfield/sum/impl/TreeSum.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kfield::impl {

template <class ExecSpace, class XView>
typename XView::non_const_value_type canonicalSumOfChunks(const ExecSpace& space, const XView& x,
                                                          std::int64_t n) {
  using T = typename XView::non_const_value_type;
  using Memory = typename ExecSpace::memory_space;
  const std::int64_t chunk = std::int64_t(1) << kfield::CanonicalTuning<ExecSpace>::kChunkLog2;
  if (n <= chunk) {
    Kokkos::View<T, Memory> root("kfield::sum::root");
    Kokkos::parallel_for(
        "kfield::sum::canonical_root", Kokkos::RangePolicy<ExecSpace>(space, 0, 1),
        KOKKOS_LAMBDA(int) { root() = treeSum<T>([&](std::int64_t i) { return x(i); }, n); });
    T result;
    Kokkos::deep_copy(result, root);
    return result;
  }
  // Aligned chunks are subtrees: reduce each, then reduce their sums the same way.
  const std::int64_t chunks = (n + chunk - 1) / chunk;
  Kokkos::View<T*, Memory> sums(Kokkos::ViewAllocateWithoutInitializing("kfield::sum::chunks"),
                                chunks);
  Kokkos::parallel_for(
      "kfield::sum::canonical_chunks", Kokkos::RangePolicy<ExecSpace>(space, 0, chunks),
      KOKKOS_LAMBDA(std::int64_t j) {
        const std::int64_t first = j * chunk;
        const std::int64_t len = n - first < chunk ? n - first : chunk;
        sums(j) = treeSum<T>([&](std::int64_t i) { return x(first + i); }, len);
      });
  return canonicalSumOfChunks(space, sums, chunks);
}

// One pass over aligned chunks of `chunk` samples (the last may be short), each thread taking
// `Width` coordinates of one chunk: sums(j, c) = canonical sum of chunk j at coordinate c.
template <class ExecSpace, class VectorsView, class SumsView>
void canonicalVectorChunks(const ExecSpace& space, const VectorsView& vectors, std::int64_t n,
                           std::int64_t chunk, const SumsView& sums) {
  using T = typename SumsView::non_const_value_type;
  using Tuning = kfield::CanonicalTuning<ExecSpace>;
  constexpr int Width = Tuning::kVectorWidth;
  constexpr int Rows = Tuning::kVectorChunkLog2 + 2;  // levels 0..log2(chunk), plus one in flight
  const auto width = static_cast<std::int64_t>(vectors.extent(1));
  const std::int64_t blocks = (width + Width - 1) / Width;
  const std::int64_t chunks = (n + chunk - 1) / chunk;
  Kokkos::parallel_for(
      "kfield::sum::canonical_vector_chunks",
      Kokkos::RangePolicy<ExecSpace>(space, 0, chunks * blocks), KOKKOS_LAMBDA(std::int64_t t) {
        const std::int64_t j = t / blocks;
        const std::int64_t c0 = (t % blocks) * Width;
        const int w = static_cast<int>(width - c0 < Width ? width - c0 : Width);
        const std::int64_t first = j * chunk;
        const std::int64_t len = n - first < chunk ? n - first : chunk;
        VectorTreeStack<T, Width, Rows> stack;
        const auto load = [&](std::int64_t s, int c) { return vectors(first + s, c0 + c); };
        for (std::int64_t s = 0; s < len; ++s) stack.pushSample(load, s, w);
        stack.fold([&](int c, T v) { sums(j, c0 + c) = v; }, w);
      });
}

}  // namespace kfield::impl

#endif
