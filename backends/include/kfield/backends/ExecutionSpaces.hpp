// The execution spaces kfield runs on: those the Kokkos it was built against enables.
#ifndef KFIELD_BACKENDS_EXECUTIONSPACES_HPP
#define KFIELD_BACKENDS_EXECUTIONSPACES_HPP

#include <Kokkos_Core.hpp>

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace kfield {

template <class... Spaces>
struct SpaceList {
  static constexpr std::size_t size = sizeof...(Spaces);
  template <class Space>
  using Append = SpaceList<Spaces..., Space>;
};

// Serial, OpenMP, Cuda: whichever of them Kokkos enables, always in that order.
using EnabledExecutionSpaces = SpaceList<>
#ifdef KOKKOS_ENABLE_SERIAL
    ::Append<Kokkos::Serial>
#endif
#ifdef KOKKOS_ENABLE_OPENMP
    ::Append<Kokkos::OpenMP>
#endif
#ifdef KOKKOS_ENABLE_CUDA
    ::Append<Kokkos::Cuda>
#endif
    ;

// Names a space without constructing an instance (which needs an initialised Kokkos).
template <class Space>
struct SpaceTag {
  using type = Space;
};

// Calls f(SpaceTag<Space>{}) for every space of the list, in order.
template <class F, class... Spaces>
void forEachSpace(SpaceList<Spaces...>, F&& f) {
  (f(SpaceTag<Spaces>{}), ...);
}
template <class F>
void forEachEnabledSpace(F&& f) {
  forEachSpace(EnabledExecutionSpaces{}, std::forward<F>(f));
}

// Backend names as Kokkos spells them ("Serial", "OpenMP", "Cuda"). Needs no initialised Kokkos.
inline std::vector<std::string> enabledBackendNames() {
  std::vector<std::string> names;
  forEachEnabledSpace([&](auto tag) { names.emplace_back(decltype(tag)::type::name()); });
  return names;
}

}  // namespace kfield

#endif
