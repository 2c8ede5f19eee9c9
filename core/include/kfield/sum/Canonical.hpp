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

#include "kfield/backends/Tuning.hpp"
#include "kfield/impl/Errors.hpp"
#include "kfield/impl/ViewChecks.hpp"
#include "kfield/sum/impl/CanonicalKernels.hpp"
#include "kfield/sum/impl/TreeSum.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

namespace kfield {
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
    impl::invalidArgument("kfield::canonicalSumOverSamples",
                          "out has " + std::to_string(out.extent(0)) + " rows, the plane has " +
                              std::to_string(rows));
  }
  if (impl::overlaps(plane, out)) {
    impl::invalidArgument("kfield::canonicalSumOverSamples", "out overlaps the plane");
  }
  Kokkos::parallel_for(
      "kfield::sum::canonical_over_samples", Kokkos::RangePolicy<ExecSpace>(space, 0, rows),
      KOKKOS_LAMBDA(std::int64_t r) {
        out(r) = samples == 0
                     ? T(0)
                     : impl::treeSum<T>([&](std::int64_t s) { return plane(r, s); }, samples);
      });
}

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
    impl::invalidArgument("kfield::canonicalSumOfVectors",
                          "out has " + std::to_string(out.extent(0)) +
                              " entries, the vectors have width " + std::to_string(width));
  }
  if (impl::overlaps(vectors, out)) {
    impl::invalidArgument("kfield::canonicalSumOfVectors", "out overlaps the vectors");
  }
  if (n == 0) {
    Kokkos::deep_copy(space, out, T(0));
    return;
  }
  const std::int64_t chunk = std::int64_t(1) << CanonicalTuning<ExecSpace>::kVectorChunkLog2;
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
