// Copies between planes (or packed buffers) by columns: what the simulation's carry and the
// reversal's checkpoints both move.
#ifndef KFIELD_IMPL_COLUMNS_HPP
#define KFIELD_IMPL_COLUMNS_HPP

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kfield::impl {

// dst[r * dstLd + c] = src[r * srcLd + c] for r < rows, c < count.
template <class ExecSpace>
void copyColumns(const ExecSpace& space, double* dst, std::int64_t dstLd, const double* src,
                 std::int64_t srcLd, std::int64_t rows, std::int64_t count) {
  if (rows == 0 || count == 0) return;
  Kokkos::parallel_for(
      "kfield::copy_columns",
      Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2>>(space, {0, 0}, {rows, count}),
      KOKKOS_LAMBDA(std::int64_t r, std::int64_t c) { dst[r * dstLd + c] = src[r * srcLd + c]; });
}

}  // namespace kfield::impl

#endif
