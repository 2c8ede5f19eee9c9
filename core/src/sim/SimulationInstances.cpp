// The host backends' simulations, compiled once (sim/impl/SimulationInstances.hpp).
#include "kfield/sim/Simulation.hpp"

#ifdef KFIELD_IMPL_HOST_INSTANCES
namespace kfield {
#ifdef KOKKOS_ENABLE_SERIAL
template class BasicSimulation<Kokkos::Serial>;
#endif
#ifdef KOKKOS_ENABLE_OPENMP
template class BasicSimulation<Kokkos::OpenMP>;
#endif
}  // namespace kfield
#endif
