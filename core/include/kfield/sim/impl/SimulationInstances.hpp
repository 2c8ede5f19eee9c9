// The host backends' simulations are compiled once, into the library
// (core/src/sim/SimulationInstances.cpp), not in every file that runs one. A translation unit
// that defines KFIELD_INSTANTIATE_IN_PLACE compiles them itself, with its own flags (the FMA
// tests do). CUDA builds compile them where they are used.
#ifndef KFIELD_SIM_IMPL_SIMULATIONINSTANCES_HPP
#define KFIELD_SIM_IMPL_SIMULATIONINSTANCES_HPP

#include "kfield/sim/Simulation.hpp"

#include <Kokkos_Core.hpp>

#if !defined(KFIELD_INSTANTIATE_IN_PLACE) && !defined(KOKKOS_ENABLE_CUDA)
#define KFIELD_IMPL_HOST_INSTANCES 1
#endif

#ifdef KFIELD_IMPL_HOST_INSTANCES
namespace kfield {
#ifdef KOKKOS_ENABLE_SERIAL
extern template class BasicSimulation<Kokkos::Serial>;
#endif
#ifdef KOKKOS_ENABLE_OPENMP
extern template class BasicSimulation<Kokkos::OpenMP>;
#endif
}  // namespace kfield
#endif

#endif
