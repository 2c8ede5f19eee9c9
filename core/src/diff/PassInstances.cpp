// The host backends' gradient passes, compiled once (diff/impl/GradientPassRun.hpp).
#include "kfield/diff/Gradient.hpp"

#ifdef KFIELD_IMPL_HOST_INSTANCES
namespace kfield::diff::impl {
#ifdef KOKKOS_ENABLE_SERIAL
template struct Pass<Kokkos::Serial>;
#endif
#ifdef KOKKOS_ENABLE_OPENMP
template struct Pass<Kokkos::OpenMP>;
#endif
}  // namespace kfield::diff::impl
#endif
