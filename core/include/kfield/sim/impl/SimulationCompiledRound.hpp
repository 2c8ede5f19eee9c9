// A simulation's round run by the program's compiled round (CompiledRound.hpp), in chunks of
// devices across the space. Definitions of BasicSimulation's members, reached through
// Simulation.hpp.
#ifndef KFIELD_SIM_IMPL_SIMULATIONCOMPILEDROUND_HPP
#define KFIELD_SIM_IMPL_SIMULATIONCOMPILEDROUND_HPP

#include "kfield/sim/Simulation.hpp"

namespace kfield {

template <class ExecSpace>
CompiledRoundArgs BasicSimulation<ExecSpace>::compiledArgs(std::int64_t live,
                                                           bool writeOutput) const {
  auto stride = [](const Plane<Memory>& p) { return static_cast<std::int64_t>(p.stride(0)); };
  auto orNull = [](const auto& view) { return view.extent(0) > 0 ? view.data() : nullptr; };
  CompiledRoundArgs a;
  a.sensors = planes_.sensors.data();
  a.sensorStride = stride(planes_.sensors);
  a.states = planes_.states.data();
  a.stateStride = stride(planes_.states);
  a.exportsPrev = planes_.exportsPrev.data();
  a.exportsNow = planes_.exportsNow.data();
  a.exportStride = stride(planes_.exportsNow);
  a.edgeRow = planes_.edgeRow;
  a.output = planes_.output.data();
  a.outputStride = stride(planes_.output);
  a.writeOutput = writeOutput;
  a.parameters = orNull(parameters_);
  a.constants = compiledConstants_.data();
  a.offsets = net_.offsets.data();
  a.neighbors = net_.neighbors.data();
  a.lengths = orNull(net_.lengths);
  a.reverse = orNull(net_.reverse);
  a.ids = orNull(net_.ids);
  a.devices = devices_;
  a.entries = static_cast<std::int64_t>(net_.neighbors.extent(0));
  a.live = live;
  return a;
}

template <class ExecSpace>
void BasicSimulation<ExecSpace>::runCompiled(IndexRange devices, std::int64_t live,
                                             bool writeOutput) {
  runCompiled(compiledArgs(live, writeOutput), devices);
}

template <class ExecSpace>
void BasicSimulation<ExecSpace>::runCompiled(const CompiledRoundArgs& a, IndexRange devices) {
  if constexpr (kCompiledRounds) {
    const CompiledRound run = compiled_;
    constexpr std::int64_t kChunk = 256;  // devices a thread takes at once
    const std::int64_t begin = devices.begin, end = devices.end;
    Kokkos::parallel_for(
        "kfield::sim::compiled_round",
        Kokkos::RangePolicy<ExecSpace>(space_, 0, (devices.size() + kChunk - 1) / kChunk),
        [=](std::int64_t chunk) {
          const std::int64_t first = begin + chunk * kChunk;
          run(a, first, std::min(end, first + kChunk));
        });
  } else {
    (void)a, (void)devices;
  }
}

}  // namespace kfield

#endif
