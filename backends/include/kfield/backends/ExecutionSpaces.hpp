// The execution spaces kfield runs on: those the Kokkos it was built against enables.
#ifndef KFIELD_BACKENDS_EXECUTIONSPACES_HPP
#define KFIELD_BACKENDS_EXECUTIONSPACES_HPP

#include <Kokkos_Core.hpp>

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

// M(Space) for each host space whose simulations and gradient passes the library compiles once
// (sim/impl/SimulationInstances.hpp), so that files using them only link to them. None in a
// file that defines KFIELD_INSTANTIATE_IN_PLACE (it compiles them itself, with its own flags),
// and none on a CUDA build, which compiles them where they are used.
#ifdef KOKKOS_ENABLE_SERIAL
#define KFIELD_IMPL_SERIAL_INSTANCE(M) M(Kokkos::Serial)
#else
#define KFIELD_IMPL_SERIAL_INSTANCE(M)
#endif
#ifdef KOKKOS_ENABLE_OPENMP
#define KFIELD_IMPL_OPENMP_INSTANCE(M) M(Kokkos::OpenMP)
#else
#define KFIELD_IMPL_OPENMP_INSTANCE(M)
#endif
#if defined(KFIELD_INSTANTIATE_IN_PLACE) || defined(KOKKOS_ENABLE_CUDA)
#define KFIELD_FOR_EACH_LIBRARY_HOST_SPACE(M)
#else
#define KFIELD_FOR_EACH_LIBRARY_HOST_SPACE(M) \
  KFIELD_IMPL_SERIAL_INSTANCE(M) KFIELD_IMPL_OPENMP_INSTANCE(M)
#endif

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
