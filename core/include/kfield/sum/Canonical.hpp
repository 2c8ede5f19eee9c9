// The canonical reduction over samples: one pairwise tree over all samples in index order.
//
// For samples x[0..n): if n == 0 the sum is +0.0. Otherwise pad the sequence on the right
// to P = 2^ceil(log2 n) with *absent* entries, and take the complete binary tree over the
// P positions: a node's value is left + right, in that operand order, when both children
// are present, its one present child when the right child is absent, and absent when both
// are. The root's value is the sum. Absent entries are not zeros: -0.0 survives and nothing
// is added to a lone value.
//
// Every aligned block of 2^q consecutive samples is a subtree, so a chunk, a thread, a GPU
// block or an owner can reduce its own aligned block, and the blocks' values combine into the
// same bits as one pass (see Partials.hpp for ranges that are not aligned). Within a thread
// a binary counter of subtree sums (impl/TreeSum.hpp) walks the samples left to right and
// performs exactly the tree's additions.
#ifndef KFIELD_SUM_CANONICAL_HPP
#define KFIELD_SUM_CANONICAL_HPP

#include "kfield/sum/impl/TreeSum.hpp"
#include "kfield/sum/impl/ViewChecks.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

namespace kfield {
namespace impl {

// How work is cut per backend; none of it changes the bits. Host threads walk long aligned
// chunks (cache-sized); a GPU wants many short ones, one per thread.
template <class ExecSpace>
struct CanonicalTuning {
  static constexpr int kChunkLog2 = 14;        // samples per thread in canonicalSum
  static constexpr int kVectorChunkLog2 = 12;  // samples per pass in canonicalSumOfVectors
  static constexpr int kVectorWidth = 32;      // coordinates per thread in canonicalSumOfVectors
};
#ifdef KOKKOS_ENABLE_CUDA
template <>
struct CanonicalTuning<Kokkos::Cuda> {
  static constexpr int kChunkLog2 = 8;
  static constexpr int kVectorChunkLog2 = 10;
  static constexpr int kVectorWidth = 1;  // adjacent threads read adjacent coordinates
};
#endif

template <class ExecSpace, class XView>
typename XView::non_const_value_type canonicalSumOfChunks(const ExecSpace& space, const XView& x,
                                                          std::int64_t n) {
  using T = typename XView::non_const_value_type;
  using Memory = typename ExecSpace::memory_space;
  const std::int64_t chunk = std::int64_t(1) << CanonicalTuning<ExecSpace>::kChunkLog2;
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

}  // namespace impl

// The canonical sum of x(0), ..., x(n-1), n = x.extent(0), on the given execution space.
template <class ExecSpace, class XView>
typename XView::non_const_value_type canonicalSum(const ExecSpace& space, const XView& x) {
  impl::staticCheckView<ExecSpace, XView>();
  static_assert(XView::rank == 1, "canonicalSum takes a rank-1 View of samples");
  using T = typename XView::non_const_value_type;
  const auto n = static_cast<std::int64_t>(x.extent(0));
  if (n == 0) return T(0);
  return impl::canonicalSumOfChunks(space, x, n);
}

template <class XView>
typename XView::non_const_value_type canonicalSum(const XView& x) {
  return canonicalSum(typename XView::execution_space(), x);
}

// out(r) = canonical sum over samples of plane(r, 0..samples): a plane is rows x samples,
// samples last (contiguous), so each row's samples stream through one thread.
template <class ExecSpace, class PlaneView, class OutView>
void canonicalSumOverSamples(const ExecSpace& space, const PlaneView& plane, const OutView& out) {
  impl::staticCheckView<ExecSpace, PlaneView>();
  impl::staticCheckView<ExecSpace, OutView>();
  static_assert(PlaneView::rank == 2 && OutView::rank == 1,
                "canonicalSumOverSamples takes a rows x samples plane and a rank-1 output");
  using T = typename OutView::non_const_value_type;
  const auto rows = static_cast<std::int64_t>(plane.extent(0));
  const auto samples = static_cast<std::int64_t>(plane.extent(1));
  if (static_cast<std::int64_t>(out.extent(0)) != rows) {
    impl::invalidArgument("canonicalSumOverSamples",
                          "out has " + std::to_string(out.extent(0)) + " rows, the plane has " +
                              std::to_string(rows));
  }
  if (impl::overlaps(plane, out)) {
    impl::invalidArgument("canonicalSumOverSamples", "out overlaps the plane");
  }
  Kokkos::parallel_for(
      "kfield::sum::canonical_over_samples", Kokkos::RangePolicy<ExecSpace>(space, 0, rows),
      KOKKOS_LAMBDA(std::int64_t r) {
        out(r) = samples == 0 ? T(0)
                              : impl::treeSum<T>([&](std::int64_t s) { return plane(r, s); },
                                                 samples);
      });
}

namespace impl {

// One pass over aligned chunks of `chunk` samples (the last may be short), each thread taking
// `Width` coordinates of one chunk: sums(j, c) = canonical sum of chunk j at coordinate c.
template <class ExecSpace, class VectorsView, class SumsView>
void canonicalVectorChunks(const ExecSpace& space, const VectorsView& vectors, std::int64_t n,
                           std::int64_t chunk, const SumsView& sums) {
  using T = typename SumsView::non_const_value_type;
  using Tuning = CanonicalTuning<ExecSpace>;
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

}  // namespace impl

// out(c) = canonical sum over samples s of vectors(s, c): a list of per-sample vectors of
// width k = vectors.extent(1), one sample per row.
template <class ExecSpace, class VectorsView, class OutView>
void canonicalSumOfVectors(const ExecSpace& space, const VectorsView& vectors, const OutView& out) {
  impl::staticCheckView<ExecSpace, VectorsView>();
  impl::staticCheckView<ExecSpace, OutView>();
  static_assert(VectorsView::rank == 2 && OutView::rank == 1,
                "canonicalSumOfVectors takes a samples x width View and a rank-1 output");
  using T = typename OutView::non_const_value_type;
  using Memory = typename ExecSpace::memory_space;
  const auto n = static_cast<std::int64_t>(vectors.extent(0));
  const auto width = static_cast<std::int64_t>(vectors.extent(1));
  if (static_cast<std::int64_t>(out.extent(0)) != width) {
    impl::invalidArgument("canonicalSumOfVectors",
                          "out has " + std::to_string(out.extent(0)) +
                              " entries, the vectors have width " + std::to_string(width));
  }
  if (impl::overlaps(vectors, out)) {
    impl::invalidArgument("canonicalSumOfVectors", "out overlaps the vectors");
  }
  if (n == 0) {
    Kokkos::deep_copy(space, out, T(0));
    return;
  }
  const std::int64_t chunk = std::int64_t(1) << impl::CanonicalTuning<ExecSpace>::kVectorChunkLog2;
  if (n <= chunk) {
    Kokkos::View<T**, Kokkos::LayoutRight, Memory> row("kfield::sum::vector_root", 1, width);
    impl::canonicalVectorChunks(space, vectors, n, chunk, row);
    Kokkos::deep_copy(space, out, Kokkos::subview(row, 0, Kokkos::ALL));
    return;
  }
  const std::int64_t chunks = (n + chunk - 1) / chunk;
  Kokkos::View<T**, Kokkos::LayoutRight, Memory> sums(
      Kokkos::ViewAllocateWithoutInitializing("kfield::sum::vector_chunks"), chunks, width);
  impl::canonicalVectorChunks(space, vectors, n, chunk, sums);
  canonicalSumOfVectors(space, sums, out);
}

}  // namespace kfield

#endif
