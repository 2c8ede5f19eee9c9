// The host backends' simulations are compiled once, into the library
// (core/src/sim/SimulationInstances.cpp), not in every file that runs one: which spaces, the
// backends say (KFIELD_FOR_EACH_LIBRARY_HOST_SPACE, backends/ExecutionSpaces.hpp).
#ifndef KFIELD_SIM_IMPL_SIMULATIONINSTANCES_HPP
#define KFIELD_SIM_IMPL_SIMULATIONINSTANCES_HPP

#include "kfield/backends/ExecutionSpaces.hpp"
#include "kfield/sim/Simulation.hpp"

namespace kfield {
#define KFIELD_IMPL_EXTERN_SIMULATION(Space) extern template class BasicSimulation<Space>;
KFIELD_FOR_EACH_LIBRARY_HOST_SPACE(KFIELD_IMPL_EXTERN_SIMULATION)
#undef KFIELD_IMPL_EXTERN_SIMULATION
}  // namespace kfield

#endif
