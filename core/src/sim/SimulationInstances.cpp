// The host backends' simulations, compiled once (sim/impl/SimulationInstances.hpp).
#include "kfield/sim/Simulation.hpp"

namespace kfield {
#define KFIELD_IMPL_SIMULATION(Space) template class BasicSimulation<Space>;
KFIELD_FOR_EACH_LIBRARY_HOST_SPACE(KFIELD_IMPL_SIMULATION)
}  // namespace kfield
