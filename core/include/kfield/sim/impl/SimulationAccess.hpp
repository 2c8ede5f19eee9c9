// The one friend of a simulation (Simulation.hpp): what the reversal (diff/), a distributed
// network's part (DistributedSimulation.hpp) and sensor handles do to it, each a named call.
// Nothing else reaches into a simulation's members.
#ifndef KFIELD_SIM_IMPL_SIMULATIONACCESS_HPP
#define KFIELD_SIM_IMPL_SIMULATIONACCESS_HPP

#include "kfield/IndexRange.hpp"
#include "kfield/Plane.hpp"
#include "kfield/sim/Simulation.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <memory>

namespace kfield::impl {

struct SimulationAccess {
  template <class ExecSpace>
  using Sim = BasicSimulation<ExecSpace>;
  template <class ExecSpace>
  using Memory = typename ExecSpace::memory_space;

  // One round of sample positions [0, live): tracking which samples changed, writing the
  // output or not, and with a tape (slot x device x live values) keeping every value there.
  template <class ExecSpace>
  static void runRound(Sim<ExecSpace>& sim, std::int64_t live, bool trackChanges, bool writeOutput,
                       const Kokkos::View<double*, Memory<ExecSpace>>& tape = {}) {
    sim.round(live, trackChanges, writeOutput, tape);
  }
  // The planes rounds read and write, by sample position.
  template <class ExecSpace>
  static RoundPlanes<Memory<ExecSpace>>& planes(Sim<ExecSpace>& sim) {
    return sim.planes_;
  }
  template <class ExecSpace>
  static const RoundPlanes<Memory<ExecSpace>>& planes(const Sim<ExecSpace>& sim) {
    return sim.planes_;
  }
  // Every sensor at once, rows x sample positions (the positions as they are now).
  template <class ExecSpace>
  static void setSensorsByPosition(Sim<ExecSpace>& sim, const HostPlane& values) {
    Kokkos::deep_copy(sim.planes_.sensors, values);
    sim.sensorsDirty_ = false;
  }
  // One sensor value of a device and sample, checked (what a sensor handle sets).
  template <class ExecSpace>
  static void setSensor(Sim<ExecSpace>& sim, std::int32_t index, std::int64_t device,
                        std::int64_t sample, double value) {
    sim.setSensor(index, device, sample, value);
  }
  // Sample position p has run `round` rounds, and its last exports are in the "previous"
  // planes (a carry just loaded there).
  template <class ExecSpace>
  static void setRound(Sim<ExecSpace>& sim, std::int64_t position, std::int64_t round) {
    sim.roundsDone_[static_cast<std::size_t>(position)] = round;
    sim.exportsSwapped_[static_cast<std::size_t>(position)] = 0;
  }
  // Makes the simulation one part of a distributed network: its devices' global ids (empty:
  // the local ids are global), the devices its rounds compute, and the exchange that brings the
  // ghosts' exports in before each round.
  template <class ExecSpace>
  static void attachPart(Sim<ExecSpace>& sim,
                         const Kokkos::View<const std::int64_t*, Memory<ExecSpace>>& ids,
                         IndexRange computed,
                         std::shared_ptr<PlaneExchange<Memory<ExecSpace>>> exchange) {
    sim.net_.ids = ids;
    sim.active_ = computed;
    sim.exchange_ = std::move(exchange);
  }
  template <class ExecSpace>
  static const std::shared_ptr<PlaneExchange<Memory<ExecSpace>>>& exchange(
      const Sim<ExecSpace>& sim) {
    return sim.exchange_;
  }
  // Refuses, in a simulation's words, a network that a program which exchanges values cannot
  // run on (one that is not symmetric).
  template <class ExecSpace>
  static void requireExchangeNetwork(const TracedProgram& program, const Network& network) {
    if (program.edgePlanes > 0) Sim<ExecSpace>::reverseEntries(program, network);
  }
  // What a halo moves of the simulation's planes.
  template <class ExecSpace>
  static HaloLayout haloLayout(const Sim<ExecSpace>& sim) {
    return sim.haloLayout();
  }
  // Whether the space runs compiled rounds (host backends without team lanes).
  template <class ExecSpace>
  static constexpr bool runsCompiledRounds() {
    return Sim<ExecSpace>::kCompiledRounds;
  }
  // What a compiled round reads (host backends): the reversal's compiled reverse rounds.
  template <class ExecSpace>
  static CompiledRoundArgs compiledArgs(const Sim<ExecSpace>& sim, std::int64_t live) {
    return sim.compiledArgs(live, false);
  }
  // Whether the simulation runs its rounds compiled (it has one, and uses it).
  template <class ExecSpace>
  static bool hasCompiledRound(const Sim<ExecSpace>& sim) {
    return sim.compiled_ != nullptr && sim.useCompiled_;
  }
  // A synchronous round (no sample in its first) by the compiled round, on planes of the
  // caller's (args: compiledArgs with their pointers replaced), over devices [begin, end).
  template <class ExecSpace>
  static void runCompiledRound(Sim<ExecSpace>& sim, const CompiledRoundArgs& args,
                               IndexRange devices) {
    sim.runCompiled(args, devices);
  }
  // The kernel of a round kept on a tape, over the simulation's network and parameters; the
  // planes and the round's own settings are the caller's (the reversal's forward half).
  template <class ExecSpace>
  static RoundKernel<ExecSpace> tapeKernel(const Sim<ExecSpace>& sim) {
    return sim.assembly_.kernel(true, sim.net_, sim.parameters_, RoundPlanes<Memory<ExecSpace>>{},
                                sim.devices_);
  }
};

}  // namespace kfield::impl

#endif
