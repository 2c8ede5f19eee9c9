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
};

namespace impl {
template <class List, class Space>
struct Append;
template <class... Spaces, class Space>
struct Append<SpaceList<Spaces...>, Space> {
  using type = SpaceList<Spaces..., Space>;
};
using SerialList =
#ifdef KOKKOS_ENABLE_SERIAL
    SpaceList<Kokkos::Serial>;
#else
    SpaceList<>;
#endif
using OpenMPList =
#ifdef KOKKOS_ENABLE_OPENMP
    typename Append<SerialList, Kokkos::OpenMP>::type;
#else
    SerialList;
#endif
}  // namespace impl

// Serial, OpenMP, Cuda: whichever of them Kokkos enables, always in that order.
using EnabledExecutionSpaces =
#ifdef KOKKOS_ENABLE_CUDA
    typename impl::Append<impl::OpenMPList, Kokkos::Cuda>::type;
#else
    impl::OpenMPList;
#endif

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
