// Checks on Views that run before a kernel launches: what a View must be (at compile time)
// and whether two Views share memory.
#ifndef KFIELD_IMPL_VIEWCHECKS_HPP
#define KFIELD_IMPL_VIEWCHECKS_HPP

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <utility>

namespace kfield::impl {

template <class ExecSpace, class View>
constexpr void staticCheckView() {
  static_assert(Kokkos::is_view<View>::value, "kfield takes Kokkos::Views here");
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, typename View::memory_space>::accessible,
                "the View's memory is not accessible from this execution space");
}

// The bytes a view's elements may occupy: [data, data + span).
template <class View>
std::pair<std::uintptr_t, std::uintptr_t> byteRange(const View& v) {
  const auto begin = reinterpret_cast<std::uintptr_t>(v.data());
  return {begin, begin + v.span() * sizeof(typename View::value_type)};
}

template <class A, class B>
bool overlaps(const A& a, const B& b) {
  const auto ra = byteRange(a);
  const auto rb = byteRange(b);
  return ra.first < rb.second && rb.first < ra.second && a.span() > 0 && b.span() > 0;
}

}  // namespace kfield::impl

#endif
