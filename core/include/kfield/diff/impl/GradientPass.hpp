// One pass of a gradient run over a contiguous block of samples: the recording forward with
// checkpoints, the reverse window by window, and the per-sample results.
#ifndef KFIELD_DIFF_IMPL_GRADIENTPASS_HPP
#define KFIELD_DIFF_IMPL_GRADIENTPASS_HPP

#include "kfield/Errors.hpp"
#include "kfield/Plane.hpp"
#include "kfield/backends/MemoryLimit.hpp"
#include "kfield/backends/Tuning.hpp"
#include "kfield/diff/CompiledReverse.hpp"
#include "kfield/diff/GradientResult.hpp"
#include "kfield/diff/Window.hpp"
#include "kfield/diff/impl/PassParts.hpp"
#include "kfield/diff/impl/ReverseRound.hpp"
#include "kfield/impl/Columns.hpp"
#include "kfield/impl/Sizes.hpp"
#include "kfield/impl/Upload.hpp"
#include "kfield/net/Network.hpp"
#include "kfield/sim/Simulation.hpp"
#include "kfield/sim/impl/SimulationAccess.hpp"
#include "kfield/sum/impl/TreeSum.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace kfield::diff::impl {

template <class Memory>
Transposed<Memory> transposedNetwork(const Network& net) {
  const auto& offsets = net.offsets();
  const auto& neighbors = net.neighbors();
  const auto devices = static_cast<std::size_t>(net.devices());
  std::vector<std::int64_t> start(devices + 1, 0);
  for (std::int32_t n : neighbors) ++start[static_cast<std::size_t>(n) + 1];
  for (std::size_t n = 0; n < devices; ++n) start[n + 1] += start[n];
  std::vector<std::int64_t> entries(neighbors.size());
  std::vector<std::int32_t> readers(neighbors.size());
  std::vector<std::int64_t> next(start.begin(), start.end() - 1);
  for (std::size_t d = 0; d < devices; ++d) {  // readers ascending, then entries ascending
    for (std::int64_t k = offsets[d]; k < offsets[d + 1]; ++k) {
      const auto at = static_cast<std::size_t>(next[static_cast<std::size_t>(neighbors[k])]++);
      entries[at] = k;
      readers[at] = static_cast<std::int32_t>(d);
    }
  }
  Transposed<Memory> t;
  t.offsets = kfield::impl::upload<Memory>(start, "kfield::diff::transposed_offsets");
  t.entries = kfield::impl::upload<Memory>(entries, "kfield::diff::transposed_entries");
  t.readers = kfield::impl::upload<Memory>(readers, "kfield::diff::transposed_readers");
  return t;
}

template <class ExecSpace>
struct PassSetup {
  using Memory = typename ExecSpace::memory_space;
  const TracedProgram& program;
  const Network& network;
  ExecSpace space;
  const Transposed<Memory>& transposed;
  const HostPlane& sensors;
  const HostPlane& target;
  const std::vector<double>& parameters;
  const std::vector<char>& differentiated;
  bool outputLoss = false;
  std::int64_t window = 1;
  bool valuesOnTape = false;              // Tape::Values
  bool compiledReverse = true;            // GradientOptions::compiledReverse
  CarryStore* spill = nullptr;            // window checkpoints there, not in memory
  PassParts<ExecSpace>* parts = nullptr;  // one part of a distributed network: the others
};

// The compiled reverse a pass runs (host backends, the carry tape), or none (its steps null).
template <class ExecSpace>
CompiledReverseEntry compiledReverseOf(const PassSetup<ExecSpace>& setup) {
  if constexpr (kfield::impl::SimulationAccess::runsCompiledRounds<ExecSpace>()) {
    if (setup.compiledReverse && !setup.valuesOnTape) {
      const CompiledReverseEntry e = findCompiledReverse(setup.program);
      if (e.own != nullptr) return e;
    }
  }
  return CompiledReverseEntry{nullptr, nullptr, 0, 0, 0, nullptr, nullptr, nullptr};
}

// Rows (of one sample each) of what a pass holds.
struct PassRows {
  std::uint64_t forward = 0;   // the simulation's planes
  std::uint64_t carry = 0;     // one checkpoint: states, their keys, exports, presence
  std::uint64_t tapeRow = 0;   // one round on the tape: its carry (and, compiled, its folds'
                               // results); or its values, exports before and after, keys
                               // (Tape::Values)
  std::uint64_t adjoints = 0;  // values', states', exports', parameters', sensors' adjoints,
                               // exchanges' received adjoints and send seeds, and one
                               // round's values (Tape::Carry; compiled, also a spare carry)
  std::uint64_t values = 0;    // value slots x devices
  // Compiled: the full values and their adjoints, held only for the samples' first round (the
  // interpreted reverse's), after the checkpoints are released.
  std::uint64_t firstRound = 0;
  kfield::impl::RoundPlanes<Kokkos::HostSpace>::Rows planes{};
};

template <class ExecSpace>
PassRows passRows(const PassSetup<ExecSpace>& setup) {
  const TracedProgram& p = setup.program;
  auto anyKeyed = [](const std::vector<PlaneInfo>& planes) {
    return std::any_of(planes.begin(), planes.end(), [](const PlaneInfo& x) { return x.keyed; });
  };
  const auto devices = static_cast<std::uint64_t>(setup.network.devices());
  PassRows r;
  r.planes = kfield::impl::RoundPlanes<Kokkos::HostSpace>::rows(
      devices, static_cast<std::uint64_t>(setup.network.entries()), p.sensors.size(),
      p.exports.size(), static_cast<std::uint64_t>(p.edgePlanes), anyKeyed(p.exports),
      p.states.size(), anyKeyed(p.states), static_cast<std::uint64_t>(p.outputWidth));
  const auto& pl = r.planes;
  using kfield::impl::product;
  using kfield::impl::total;
  r.forward = pl.total();
  r.carry = total({pl.states, pl.stateKeys, pl.exports, pl.presence});
  r.values = product({static_cast<std::uint64_t>(p.valueSlots), devices});
  const auto foldPlanes = static_cast<std::uint64_t>(compiledReverseOf(setup).foldPlanes);
  r.tapeRow = setup.valuesOnTape ? total({r.values, 2 * pl.exports, 2 * pl.presence, pl.stateKeys})
                                 : total({r.carry, product({foldPlanes, devices})});
  const auto differentiated = static_cast<std::uint64_t>(
      std::count(setup.differentiated.begin(), setup.differentiated.end(), char(1)));
  std::uint64_t selections = 0;
  for (const auto& op : p.valueOps) {
    selections += op.code == OpCode::Fold && (op.fold == FoldCode::Min || op.fold == FoldCode::Max);
  }
  const std::uint64_t edgeRows = pl.exports - pl.edgeRow;  // received adjoints, send seeds
  // What the own step keeps for the gather (full slot planes for a part's halo), a spare carry.
  const CompiledReverseEntry compiled = compiledReverseOf(setup);
  const std::uint64_t kept =
      compiled.own == nullptr ? total({r.values, setup.valuesOnTape ? 0 : r.values})
      : setup.parts           ? product({2, r.values})
                              : product({static_cast<std::uint64_t>(compiled.valuePlanes) +
                                             static_cast<std::uint64_t>(compiled.adjointPlanes),
                                         devices});
  r.firstRound = compiled.own ? product({2, r.values}) : 0;
  r.adjoints = total(
      {kept, compiled.own ? r.carry : 0, pl.states, pl.exports, product({2, edgeRows}),
       product({static_cast<std::uint64_t>(p.parameterWidth()) + differentiated + selections + 1,
                devices})});
  return r;
}

// Bytes per sample of a pass whose longest sample runs `longest` rounds.
template <class ExecSpace>
std::uint64_t passBytesPerSample(const PassSetup<ExecSpace>& setup, std::int64_t longest) {
  const PassRows r = passRows(setup);
  const WindowPlan plan = planWindows(longest, setup.window);
  const auto rows = static_cast<std::uint64_t>(std::min(setup.window, longest));
  using kfield::impl::product;
  // Spilled: one carry in memory, the one being written or read.
  const std::uint64_t checkpoints = setup.spill ? 1 : static_cast<std::uint64_t>(plan.count());
  return product(
      {kfield::impl::total({r.forward, std::max(product({checkpoints, r.carry}), r.firstRound),
                            product({rows, r.tapeRow}), r.adjoints}),
       sizeof(double)});
}

// Samples [first, first + n) of the batch, their results into `result`.
template <class ExecSpace>
struct Pass {
  static void run(const PassSetup<ExecSpace>& setup, const std::vector<std::int64_t>& allStops,
                  std::int64_t first, std::int64_t n, GradientResult& result);
};

}  // namespace kfield::diff::impl

#include "kfield/diff/impl/GradientPassRun.hpp"

#endif
