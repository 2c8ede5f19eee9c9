// Elementwise sums in a fixed order, and the prefix updates of per-sample planes whose live
// samples are a prefix: the same bits for every thread count and backend.
#ifndef KFIELD_SUM_ORDEREDSUM_HPP
#define KFIELD_SUM_ORDEREDSUM_HPP

#include "kfield/sum/impl/ViewChecks.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace kfield {

// The read-only view orderedSum takes its sources as: dst's element type, layout and device.
template <class DstView>
using SourceView = Kokkos::View<typename DstView::const_value_type*,
                                typename DstView::array_layout, typename DstView::device_type>;

namespace impl {

constexpr int kSourcesPerPass = 8;

template <class DstView>
struct OrderedSumPass {
  DstView dst;
  SourceView<DstView> src[kSourcesPerPass];
  int count;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    auto acc = src[0](i);
    for (int j = 1; j < count; ++j) acc = acc + src[j](i);
    dst(i) = acc;
  }
};

}  // namespace impl

// dst(i) = ((src[0](i) + src[1](i)) + src[2](i)) + ... for i < n, in exactly the order of src.
// dst may be src[0] itself; no other source may overlap dst. Every view needs >= n elements.
// Throws std::invalid_argument naming the offending input.
template <class ExecSpace, class DstView>
void orderedSum(const ExecSpace& space, const DstView& dst,
                const std::vector<SourceView<DstView>>& src, std::int64_t n) {
  impl::staticCheckView<ExecSpace, DstView>();
  static_assert(DstView::rank == 1, "orderedSum takes rank-1 Views");
  const char* fn = "orderedSum";
  if (n < 0) impl::invalidArgument(fn, "n must be >= 0, got " + std::to_string(n));
  if (src.empty()) impl::invalidArgument(fn, "needs at least one source");
  auto tooShort = [&](const std::string& name, std::size_t extent) {
    if (static_cast<std::int64_t>(extent) < n) {
      impl::invalidArgument(fn, name + " has " + std::to_string(extent) +
                                    " elements, fewer than n = " + std::to_string(n));
    }
  };
  tooShort("dst", dst.extent(0));
  for (std::size_t j = 0; j < src.size(); ++j) {
    const std::string name = "src[" + std::to_string(j) + "]";
    tooShort(name, src[j].extent(0));
    const bool same = src[j].data() == dst.data() && src[j].stride(0) == dst.stride(0);
    if (impl::overlaps(src[j], dst) && !(j == 0 && same)) {
      impl::invalidArgument(fn, name + " overlaps dst; only src[0] may alias dst, and only "
                                       "as the same view");
    }
  }
  // Passes of up to 8 sources; later passes start from dst, which holds the sum so far.
  impl::OrderedSumPass<DstView> pass{dst, {}, 0};
  std::size_t next = 0;
  while (next < src.size()) {
    pass.count = 0;
    if (next > 0) pass.src[pass.count++] = dst;
    while (pass.count < impl::kSourcesPerPass && next < src.size()) {
      pass.src[pass.count++] = src[next++];
    }
    if (pass.count == 1 && pass.src[0].data() == dst.data()) break;  // dst = src[0]: done
    Kokkos::parallel_for("kfield::sum::ordered_sum",
                         Kokkos::RangePolicy<ExecSpace>(space, 0, n), pass);
  }
}

template <class DstView>
void orderedSum(const DstView& dst, const std::vector<SourceView<DstView>>& src, std::int64_t n) {
  orderedSum(typename DstView::execution_space(), dst, src, n);
}

namespace impl {

// Checks and the row count of a prefix update over samples: rank 1 is one row of samples,
// rank 2 is a rows x samples plane.
template <class View>
std::int64_t prefixRows(const char* fn, const View& v, std::int64_t count, const char* name) {
  static_assert(View::rank == 1 || View::rank == 2, "prefix updates take rank-1 or rank-2 Views");
  const auto samples = static_cast<std::int64_t>(v.extent(View::rank - 1));
  if (count < 0 || count > samples) {
    invalidArgument(fn, "count must be in [0, " + std::to_string(samples) + "] (the samples of " +
                            name + "), got " + std::to_string(count));
  }
  return View::rank == 1 ? 1 : static_cast<std::int64_t>(v.extent(0));
}

template <class View>
KOKKOS_INLINE_FUNCTION auto& sampleAt(const View& v, std::int64_t r, std::int64_t s) {
  if constexpr (View::rank == 1) {
    (void)r;
    return v(s);
  } else {
    return v(r, s);
  }
}

}  // namespace impl

// acc[s] += g[s] for s < count (for every row of a rows x samples plane): one step's share of
// a gradient that sums over steps, taken by the samples still live (a prefix).
template <class ExecSpace, class AccView, class GView>
void accumulatePrefix(const ExecSpace& space, const AccView& acc, const GView& g,
                      std::int64_t count) {
  impl::staticCheckView<ExecSpace, AccView>();
  impl::staticCheckView<ExecSpace, GView>();
  static_assert(int(AccView::rank) == int(GView::rank), "acc and g must have the same rank");
  const char* fn = "accumulatePrefix";
  const std::int64_t rows = impl::prefixRows(fn, acc, count, "acc");
  if (impl::prefixRows(fn, g, count, "g") != rows) {
    impl::invalidArgument(fn, "acc has " + std::to_string(rows) + " rows, g has " +
                                  std::to_string(g.extent(0)));
  }
  if (impl::overlaps(acc, g)) impl::invalidArgument(fn, "g overlaps acc");
  if (rows == 0 || count == 0) return;
  Kokkos::parallel_for(
      "kfield::sum::accumulate_prefix", Kokkos::RangePolicy<ExecSpace>(space, 0, rows * count),
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
  const std::int64_t rows = impl::prefixRows("fillPrefix", plane, count, "plane");
  if (rows == 0 || count == 0) return;
  Kokkos::parallel_for(
      "kfield::sum::fill_prefix", Kokkos::RangePolicy<ExecSpace>(space, 0, rows * count),
      KOKKOS_LAMBDA(std::int64_t t) { impl::sampleAt(plane, t / count, t % count) = value; });
}

template <class PlaneView>
void fillPrefix(const PlaneView& plane, typename PlaneView::const_value_type value,
                std::int64_t count) {
  fillPrefix(typename PlaneView::execution_space(), plane, value, count);
}

}  // namespace kfield

#endif
