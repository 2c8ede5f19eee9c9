// Elementwise sums in a fixed order: the same bits for every thread count and backend.
#ifndef KFIELD_SUM_ORDEREDSUM_HPP
#define KFIELD_SUM_ORDEREDSUM_HPP

#include "kfield/impl/Errors.hpp"
#include "kfield/impl/ViewChecks.hpp"
#include "kfield/sum/impl/OrderedSumPass.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace kfield {

// The read-only view orderedSum takes its sources as: dst's element type, layout and device.
template <class DstView>
using SourceView = Kokkos::View<typename DstView::const_value_type*, typename DstView::array_layout,
                                typename DstView::device_type>;

// dst(i) = ((src[0](i) + src[1](i)) + src[2](i)) + ... for i < n, in exactly the order of src.
// dst may be src[0] itself; no other source may overlap dst. Every view needs >= n elements.
// Throws std::invalid_argument naming the offending input.
template <class ExecSpace, class DstView>
void orderedSum(const ExecSpace& space, const DstView& dst,
                const std::vector<SourceView<DstView>>& src, std::int64_t n) {
  impl::staticCheckView<ExecSpace, DstView>();
  static_assert(DstView::rank == 1, "orderedSum takes rank-1 Views");
  const char* fn = "kfield::orderedSum";
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
      impl::invalidArgument(fn, name +
                                    " overlaps dst; only src[0] may alias dst, and only "
                                    "as the same view");
    }
  }
  // Passes of up to 8 sources; later passes start from dst, which holds the sum so far.
  impl::OrderedSumPass<DstView, SourceView<DstView>> pass{dst, {}, 0};
  std::size_t next = 0;
  while (next < src.size()) {
    pass.count = 0;
    if (next > 0) pass.src[pass.count++] = dst;
    while (pass.count < impl::kSourcesPerPass && next < src.size()) {
      pass.src[pass.count++] = src[next++];
    }
    if (pass.count == 1 && pass.src[0].data() == dst.data()) break;  // dst = src[0]: done
    Kokkos::parallel_for("kfield::sum::ordered_sum", Kokkos::RangePolicy<ExecSpace>(space, 0, n),
                         pass);
  }
}

template <class DstView>
void orderedSum(const DstView& dst, const std::vector<SourceView<DstView>>& src, std::int64_t n) {
  orderedSum(typename DstView::execution_space(), dst, src, n);
}

}  // namespace kfield

#endif
