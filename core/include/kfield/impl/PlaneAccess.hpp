// Rank-1 and rank-2 Views read alike as rows of samples: the checks and element access of the
// plane updates in kfield/Plane.hpp.
#ifndef KFIELD_IMPL_PLANEACCESS_HPP
#define KFIELD_IMPL_PLANEACCESS_HPP

#include "kfield/impl/Errors.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

namespace kfield::impl {

// The rows of a prefix update over samples (rank 1: one row of samples; rank 2: a rows x
// samples plane), after checking that count lies in [0, samples].
template <class View>
std::int64_t prefixRows(const char* who, const View& v, std::int64_t count, const char* name) {
  static_assert(View::rank == 1 || View::rank == 2, "prefix updates take rank-1 or rank-2 Views");
  const auto samples = static_cast<std::int64_t>(v.extent(View::rank - 1));
  if (count < 0 || count > samples) {
    invalidArgument(who, "count must be in [0, " + std::to_string(samples) + "] (the samples of " +
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

}  // namespace kfield::impl

#endif
