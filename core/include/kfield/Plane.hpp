// A plane: rows x samples, samples last (contiguous), so a kernel over samples is coalesced on
// a GPU and vectorised on a CPU. For a field, rows are devices (times the value's width).
// The updates here touch samples in place and never sum across them: they give the same bits
// for every thread count and backend.
#ifndef KFIELD_PLANE_HPP
#define KFIELD_PLANE_HPP

#include "kfield/impl/Errors.hpp"
#include "kfield/impl/PlaneAccess.hpp"
#include "kfield/impl/ViewChecks.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

namespace kfield {

template <class MemorySpace>
using Plane = Kokkos::View<double**, Kokkos::LayoutRight, MemorySpace>;
using HostPlane = Plane<Kokkos::HostSpace>;

// moved(r, s) = plane(r, from(s)): the sample columns of a plane in another order.
template <class ExecSpace, class PlaneView, class From>
PlaneView gatherSamples(const ExecSpace& space, const PlaneView& plane, const From& from) {
  impl::staticCheckView<ExecSpace, PlaneView>();
  const auto samples = static_cast<std::int64_t>(plane.extent(1));
  PlaneView moved(Kokkos::ViewAllocateWithoutInitializing(plane.label()), plane.extent(0), samples);
  Kokkos::parallel_for(
      "kfield::plane::gather_samples",
      Kokkos::RangePolicy<ExecSpace>(space, 0, std::int64_t(plane.extent(0)) * samples),
      KOKKOS_LAMBDA(std::int64_t t) {
        const std::int64_t r = t / samples, s = t % samples;
        moved(r, s) = plane(r, from(s));
      });
  return moved;
}

// acc[s] += g[s] for s < count (for every row of a rows x samples plane): one step's share of
// a gradient that sums over steps, taken by the samples still live (a prefix).
template <class ExecSpace, class AccView, class GView>
void accumulatePrefix(const ExecSpace& space, const AccView& acc, const GView& g,
                      std::int64_t count) {
  impl::staticCheckView<ExecSpace, AccView>();
  impl::staticCheckView<ExecSpace, GView>();
  static_assert(int(AccView::rank) == int(GView::rank), "acc and g must have the same rank");
  const char* who = "kfield::accumulatePrefix";
  const std::int64_t rows = impl::prefixRows(who, acc, count, "acc");
  if (impl::prefixRows(who, g, count, "g") != rows) {
    impl::invalidArgument(
        who, "acc has " + std::to_string(rows) + " rows, g has " + std::to_string(g.extent(0)));
  }
  if (impl::overlaps(acc, g)) impl::invalidArgument(who, "g overlaps acc");
  if (rows == 0 || count == 0) return;
  Kokkos::parallel_for(
      "kfield::plane::accumulate_prefix", Kokkos::RangePolicy<ExecSpace>(space, 0, rows * count),
      KOKKOS_LAMBDA(std::int64_t t) {
        const std::int64_t r = t / count, s = t % count;
        impl::sampleAt(acc, r, s) = impl::sampleAt(acc, r, s) + impl::sampleAt(g, r, s);
      });
}

template <class AccView, class GView>
void accumulatePrefix(const AccView& acc, const GView& g, std::int64_t count) {
  accumulatePrefix(typename AccView::execution_space(), acc, g, count);
}

// plane[s] = value for s < count (for every row of a rows x samples plane).
template <class ExecSpace, class PlaneView>
void fillPrefix(const ExecSpace& space, const PlaneView& plane,
                typename PlaneView::const_value_type value, std::int64_t count) {
  impl::staticCheckView<ExecSpace, PlaneView>();
  const std::int64_t rows = impl::prefixRows("kfield::fillPrefix", plane, count, "plane");
  if (rows == 0 || count == 0) return;
  Kokkos::parallel_for(
      "kfield::plane::fill_prefix", Kokkos::RangePolicy<ExecSpace>(space, 0, rows * count),
      KOKKOS_LAMBDA(std::int64_t t) { impl::sampleAt(plane, t / count, t % count) = value; });
}

template <class PlaneView>
void fillPrefix(const PlaneView& plane, typename PlaneView::const_value_type value,
                std::int64_t count) {
  fillPrefix(typename PlaneView::execution_space(), plane, value, count);
}

}  // namespace kfield

#endif
