// One pass of orderedSum: up to eight sources added left to right into the destination.
#ifndef KFIELD_SUM_IMPL_ORDEREDSUMPASS_HPP
#define KFIELD_SUM_IMPL_ORDEREDSUMPASS_HPP

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kfield::impl {

constexpr int kSourcesPerPass = 8;

template <class DstView, class SrcView>
struct OrderedSumPass {
  DstView dst;
  SrcView src[kSourcesPerPass];
  int count;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    auto acc = src[0](i);
    for (int j = 1; j < count; ++j) acc = acc + src[j](i);
    dst(i) = acc;
  }
};

}  // namespace kfield::impl

#endif
