// Pass::run, and the kernels it launches besides the rounds and their adjoints.
#ifndef KFIELD_DIFF_IMPL_GRADIENTPASSRUN_HPP
#define KFIELD_DIFF_IMPL_GRADIENTPASSRUN_HPP

#include "kfield/diff/CompiledReverse.hpp"
#include "kfield/diff/impl/GradientPass.hpp"
#include "kfield/diff/impl/ReverseFolds.hpp"
#include "kfield/sim/impl/SimulationAccess.hpp"

namespace kfield::diff::impl {

// Rows base, base + 1, ... of column p: what treeSum loads (a functor, not a lambda, so that
// nvcc compiles it for the device).
template <class PlaneView>
struct ColumnOf {
  PlaneView plane;
  std::int64_t base, column;
  KOKKOS_INLINE_FUNCTION double operator()(std::int64_t d) const { return plane(base + d, column); }
};

// out(b, p) = the canonical sum over devices d of plane(b * devices + d, p): per block of
// device rows (a parameter value, a sample's loss terms) and sample.
template <class ExecSpace>
Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace> deviceSums(
    const ExecSpace& space, const Plane<typename ExecSpace::memory_space>& plane,
    std::int64_t blocks, std::int64_t devices) {
  const auto n = static_cast<std::int64_t>(plane.extent(1));
  Kokkos::View<double**, Kokkos::LayoutRight, typename ExecSpace::memory_space> out(
      "kfield::diff::device_sums", blocks, n);
  if (blocks > 0 && n > 0) {
    Kokkos::parallel_for(
        "kfield::diff::device_sums",
        Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2>>(space, {0, 0}, {blocks, n}),
        KOKKOS_LAMBDA(std::int64_t b, std::int64_t p) {
          out(b, p) = kfield::impl::treeSum<double>(
              ColumnOf<Plane<typename ExecSpace::memory_space>>{plane, b * devices, p}, devices);
        });
  }
  return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
}

// terms(d, p) = the loss of device d in sample position p.
template <class ExecSpace>
void lossTerms(const ExecSpace& space, const Plane<typename ExecSpace::memory_space>& output,
               const Plane<typename ExecSpace::memory_space>& target, bool outputLoss,
               const Plane<typename ExecSpace::memory_space>& terms) {
  Kokkos::parallel_for(
      "kfield::diff::loss_terms",
      Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2>>(
          space, {0, 0}, {std::int64_t(output.extent(0)), std::int64_t(output.extent(1))}),
      KOKKOS_LAMBDA(std::int64_t d, std::int64_t p) {
        const double e = output(d, p) - target(d, p);
        terms(d, p) = outputLoss ? output(d, p) : e * e;
      });
}

// One step of a compiled reverse round over devices [begin, end), in chunks across the space
// (host backends only: the step is a host function).
template <class ExecSpace>
void runCompiledStep(const ExecSpace& space, CompiledReverseStep step,
                     const CompiledReverseArgs& args, std::int64_t begin, std::int64_t end) {
  if constexpr (kfield::impl::SimulationAccess::runsCompiledRounds<ExecSpace>()) {
    constexpr std::int64_t kChunk = 256;  // devices a thread takes at once, as rounds do
    Kokkos::parallel_for(
        "kfield::diff::compiled_reverse",
        Kokkos::RangePolicy<ExecSpace>(space, 0, (end - begin + kChunk - 1) / kChunk),
        [=](std::int64_t chunk) {
          const std::int64_t first = begin + chunk * kChunk;
          step(args, first, std::min(end, first + kChunk));
        });
  } else {
    (void)space, (void)step, (void)args, (void)begin, (void)end;
  }
}

template <class ExecSpace>
void Pass<ExecSpace>::run(const PassSetup<ExecSpace>& setup,
                          const std::vector<std::int64_t>& allStops, std::int64_t first,
                          std::int64_t n, GradientResult& result) {
  using Memory = typename ExecSpace::memory_space;
  using Tuning = RoundTuning<ExecSpace>;
  const TracedProgram& program = setup.program;
  const ExecSpace& space = setup.space;
  const std::int64_t devices = setup.network.devices();

  // Positions: the pass's samples, longest first, so a round's live samples are a prefix.
  std::vector<idx_t> stops(allStops.begin() + first, allStops.begin() + first + n);
  const std::vector<idx_t> order = stopOrder(stops.data(), n);
  const std::vector<idx_t> live = liveCounts(stops.data(), n);
  const auto S = static_cast<std::int64_t>(live.size());
  const WindowPlan plan = planWindows(S, setup.window);
  const PassRows rows = passRows(setup);
  const std::int64_t widest = S > 0 ? live[0] : 0;
  const std::int64_t tapeRows = std::min(setup.window, S);
  std::vector<std::int64_t> checkpointAt(static_cast<std::size_t>(plan.count()) + 1, 0);
  for (idx_t k = 0; k < plan.count(); ++k) {
    checkpointAt[k + 1] =
        checkpointAt[k] + static_cast<std::int64_t>(rows.carry) * live[plan.start(k)];
  }
  {
    using kfield::impl::product;
    using kfield::impl::total;
    const auto un = static_cast<std::uint64_t>(n), uw = static_cast<std::uint64_t>(widest);
    const std::uint64_t forward = product({rows.forward, un, 8});
    const std::uint64_t reverse =
        product({total({std::max(setup.spill ? product({rows.carry, uw})
                                             : static_cast<std::uint64_t>(checkpointAt.back()),
                                 product({rows.firstRound, uw})),
                        product({static_cast<std::uint64_t>(tapeRows), rows.tapeRow, uw}),
                        product({rows.adjoints, un})}),
                 8});
    const MemoryLimit limit = memoryLimit<Memory>();
    std::string problem;  // over ranks: refused on every rank, before any rank waits on another
    try {
      kfield::impl::requireMemory("kfield::diff::Gradient",
                                  "the gradient of " + std::to_string(n) + " samples over " +
                                      std::to_string(S) + " rounds (window " +
                                      std::to_string(setup.window) + ")",
                                  total({forward, reverse}), limit.bytes, limit.where);
    } catch (const std::invalid_argument& e) {
      if (!setup.parts) throw;
      problem = reason(e);
    }
    if (setup.parts) setup.parts->failTogether(problem);
    result.forwardBytes = std::max(result.forwardBytes, forward);
    result.reverseBytes = std::max(result.reverseBytes, reverse);
    result.carryBytes = std::max(result.carryBytes, product({rows.carry, un, 8}));
  }

  BasicSimulation<ExecSpace> sim(program, setup.network, n, {}, space);
  using Access = kfield::impl::SimulationAccess;
  for (const ParameterInfo& p : program.parameters) {
    sim.parameter(p.name, std::vector<double>(setup.parameters.begin() + p.offset,
                                              setup.parameters.begin() + p.offset + p.width));
  }
  auto byPosition = [&](const HostPlane& bySample, const char* label) {
    HostPlane h(std::string(label), bySample.extent(0), static_cast<std::size_t>(n));
    for (std::size_t r = 0; r < bySample.extent(0); ++r) {
      for (std::int64_t p = 0; p < n; ++p) h(r, p) = bySample(r, first + order[p]);
    }
    return h;
  };
  Access::setSensorsByPosition(sim, byPosition(setup.sensors, "kfield::diff::sensors_pass"));
  const std::int64_t outputRows = program.outputWidth * devices;
  Plane<Memory> target("kfield::diff::target", outputRows, n);
  Kokkos::deep_copy(target, byPosition(setup.target, "kfield::diff::target_pass"));

  auto& planes = Access::planes(sim);
  const auto K = static_cast<std::int64_t>(planes.states.extent(0));
  const auto Kk = static_cast<std::int64_t>(planes.stateKeys.extent(0));
  const auto E = static_cast<std::int64_t>(planes.exportsPrev.extent(0));
  const auto Pk = static_cast<std::int64_t>(planes.presencePrev.extent(0));
  const auto V = static_cast<std::int64_t>(rows.values);
  auto carryPlanes = [&]() {
    return std::vector<Plane<Memory>*>{&planes.states, &planes.stateKeys, &planes.exportsPrev,
                                       &planes.presencePrev};
  };

  const ReverseFolds reverse = reverseFolds(program);
  const std::vector<int>&selectedRow = reverse.selectedRow, &gatherFolds = reverse.gather;
  const int selections = reverse.selections;
  // One part of a distributed network: its own devices computed, the ghosts' rows from their
  // owners (the rounds' exports before each round; the readers' values and adjoints before
  // each gather).
  PassParts<ExecSpace>* const parts = setup.parts;
  const IndexRange own = parts ? parts->computed() : IndexRange{0, devices};
  if (parts) {
    Access::attachPart(
        sim, parts->ids(), own,
        parts->begin(ReaderLayout{program.valueSlots, selections, Access::haloLayout(sim)}, n));
  }

  // The recording forward: the carry saved at every window start.
  // Buffers every element of which is written before it is read: not zeroed first.
  auto buffer = [](const char* label, std::int64_t size) {
    return Kokkos::View<double*, Memory>(
        Kokkos::ViewAllocateWithoutInitializing(std::string(label)),
        static_cast<std::size_t>(size));
  };
  // In memory: every window's checkpoint. Spilled: room for one, staged through the host.
  CarryStore* const spill = setup.spill;
  Kokkos::View<double*, Memory> checkpoints =
      buffer("kfield::diff::checkpoints",
             spill ? static_cast<std::int64_t>(rows.carry) * widest : checkpointAt.back());
  auto staged = spill ? Kokkos::create_mirror_view(checkpoints)
                      : decltype(Kokkos::create_mirror_view(checkpoints))();
  if (spill) spill->open(checkpointAt.back());
  // Checkpoint k's words at the start of the staging buffer (only they cross to the host).
  auto stagedWords = [&](idx_t k) {
    return std::make_pair(std::size_t(0),
                          static_cast<std::size_t>(checkpointAt[k + 1] - checkpointAt[k]));
  };
  struct CloseSpill {
    CarryStore* store;
    ~CloseSpill() {
      if (store) store->close();
    }
  } closeSpill{spill};
  // The carry between the simulation's planes (width n) and a packed copy of width w.
  auto saveCarry = [&](double* at, std::int64_t w) {
    for (Plane<Memory>* p : carryPlanes()) {
      const auto r = static_cast<std::int64_t>(p->extent(0));
      kfield::impl::copyColumns(space, at, w, p->data(), n, r, w);
      at += r * w;
    }
  };
  auto loadCarry = [&](const double* at, std::int64_t w, idx_t round) {
    for (Plane<Memory>* p : carryPlanes()) {
      const auto r = static_cast<std::int64_t>(p->extent(0));
      kfield::impl::copyColumns(space, p->data(), n, at, w, r, w);
      at += r * w;
    }
    for (std::int64_t p = 0; p < w; ++p) Access::setRound(sim, p, round);
  };
  recordForward(
      S, setup.window, 1, [] { return false; },
      [&](idx_t k) {
        const std::int64_t w = live[plan.start(k)];
        if (!spill) return saveCarry(checkpoints.data() + checkpointAt[k], w);
        saveCarry(checkpoints.data(), w);
        const auto words = stagedWords(k);
        Kokkos::deep_copy(space, Kokkos::subview(staged, words),
                          Kokkos::subview(checkpoints, words));
        space.fence();
        spill->write(checkpointAt[k], staged.data(), words.second);
      },
      [&](idx_t j, idx_t) {
        Access::runRound(sim, live[j], false, j + 1 == S || live[j + 1] < live[j]);
      });

  // A tuple output's loss: one canonical sum over its components' rows.
  Plane<Memory> terms("kfield::diff::loss_terms", outputRows, n);
  lossTerms(space, planes.output, target, setup.outputLoss, terms);
  // Per block of device rows (or all blocks as one sequence) and sample: the canonical sum over
  // the whole network's devices.
  auto overDevices = [&](const Plane<Memory>& plane, std::int64_t blocks, bool oneSequence) {
    if (!parts)
      return deviceSums(space, plane, oneSequence ? 1 : blocks,
                        oneSequence ? blocks * devices : devices);
    const auto all = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), plane);
    HostPlane mine("kfield::diff::owned_rows", static_cast<std::size_t>(blocks * own.size()),
                   static_cast<std::size_t>(n));
    for (std::int64_t b = 0; b < blocks; ++b) {
      for (std::int64_t i = 0; i < own.size(); ++i) {
        for (std::int64_t p = 0; p < n; ++p)
          mine(b * own.size() + i, p) = all(b * devices + own.begin + i, p);
      }
    }
    const std::vector<std::vector<double>> sums = parts->sums(mine, blocks, oneSequence);
    Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace> out(
        "kfield::diff::device_sums", sums.size(), static_cast<std::size_t>(n));
    for (std::size_t b = 0; b < sums.size(); ++b) {
      for (std::int64_t p = 0; p < n; ++p) out(b, p) = sums[b][static_cast<std::size_t>(p)];
    }
    return out;
  };
  const auto losses = overDevices(terms, program.outputWidth, true);
  for (std::int64_t p = 0; p < n; ++p) result.sampleLoss[first + order[p]] = losses(0, p);

  // The reverse.
  const std::int64_t rowSize = static_cast<std::int64_t>(rows.tapeRow) * widest;
  Kokkos::View<double*, Memory> tape = buffer("kfield::diff::tape", tapeRows * rowSize);
  // The compiled reverse (host backends, carry tape): every round but the samples' first.
  const CompiledReverseEntry compiled = compiledReverseOf(setup);
  // The interpreted reverse's values (Tape::Carry) and their adjoints (zeroed per round): with
  // a compiled reverse, made for the samples' first round only, once the checkpoints are gone.
  Kokkos::View<double*, Memory> valueAdjoints =
      buffer("kfield::diff::value_adjoints", compiled.own ? 0 : V * widest);
  const std::int64_t P = program.parameterWidth();
  std::vector<int> sensorRow(program.sensors.size(), -1);
  int differentiated = 0;
  for (std::size_t i = 0; i < sensorRow.size(); ++i) {
    if (setup.differentiated[i]) sensorRow[i] = differentiated++;
  }
  Plane<Memory> stateAdjoint("kfield::diff::state_adjoints", K, n);
  Plane<Memory> exportAdjoint("kfield::diff::export_adjoints", E, n);
  const std::int64_t edgeRows = E - planes.edgeRow;  // exchanges' edge planes x entries
  Plane<Memory> receivedAdjoint("kfield::diff::received_adjoints", edgeRows,
                                n);  // zeroed per round
  Plane<Memory> sendSeed("kfield::diff::send_seeds", edgeRows, n);
  Plane<Memory> parameterAdjoint("kfield::diff::parameter_adjoints", P * devices, n);
  Plane<Memory> sensorAdjoint("kfield::diff::sensor_adjoints", differentiated * devices, n);
  Plane<Memory> selected("kfield::diff::selected", selections * devices, n);
  const auto sensorRows = kfield::impl::upload<Memory>(sensorRow, "kfield::diff::sensor_rows");
  const auto selectedRows =
      kfield::impl::upload<Memory>(selectedRow, "kfield::diff::selected_rows");
  const auto folds = kfield::impl::upload<Memory>(gatherFolds, "kfield::diff::gather_folds");
  Kokkos::View<int*, Memory> freshAll("kfield::diff::fresh", n),
      freshNone("kfield::diff::not_fresh", n);
  Kokkos::deep_copy(freshAll, 1);

  // A tape row. Tape::Values: the round's values (slot x device x w), then exports before and
  // after the round, presence before and after, state keys before. Tape::Carry: the carry
  // before the round, as a checkpoint holds it; the values are the round's run once more.
  const bool onTape = setup.valuesOnTape;
  Kokkos::View<double*, Memory> roundValues =
      buffer("kfield::diff::round_values", onTape || compiled.own ? 0 : V * widest);
  bool interpretedReady = !compiled.own;
  auto interpretedBuffers = [&] {
    if (interpretedReady) return;
    interpretedReady = true;
    checkpoints =
        Kokkos::View<double*, Memory>();  // the last window's is loaded: none is read again
    valueAdjoints = buffer("kfield::diff::value_adjoints", V * widest);
    if (!onTape) roundValues = buffer("kfield::diff::round_values", V * widest);
  };
  // What the compiled own step keeps for the gather (a part's halo sends whole slot planes).
  const std::int64_t keptValueRows = parts ? V : compiled.valuePlanes * devices;
  const std::int64_t keptAdjointRows = parts ? V : compiled.adjointPlanes * devices;
  Kokkos::View<double*, Memory> keptValues =
      buffer("kfield::diff::kept_values", compiled.own ? keptValueRows * widest : 0);
  Kokkos::View<double*, Memory> keptAdjoints =
      buffer("kfield::diff::kept_adjoints", compiled.own ? keptAdjointRows * widest : 0);
  struct Row {
    double *values, *exportsPrev, *exportsNow, *presencePrev, *presenceNow, *stateKeys, *carry;
    double* folds;  // compiled: the round's folds' results (fold plane x device x w)
  };
  auto rowAt = [&](idx_t j) {
    const std::int64_t w = live[j];
    double* base = tape.data() + plan.row(j) * rowSize;
    Row r{};
    if (onTape) {
      r.values = base;
      r.exportsPrev = r.values + V * w;
      r.exportsNow = r.exportsPrev + E * w;
      r.presencePrev = r.exportsNow + E * w;
      r.presenceNow = r.presencePrev + Pk * w;
      r.stateKeys = r.presenceNow + Pk * w;
    } else {
      r.carry = base;
      r.stateKeys = base + K * w;
      r.exportsPrev = r.stateKeys + Kk * w;
      r.presencePrev = r.exportsPrev + E * w;
      r.folds = r.presencePrev + Pk * w;
    }
    return r;
  };
  std::int64_t reran = 0;
  auto gather = [&](idx_t k, idx_t count) {
    if (!spill) return loadCarry(checkpoints.data() + checkpointAt[k], count, plan.start(k));
    const auto words = stagedWords(k);
    spill->read(checkpointAt[k], staged.data(), words.second);
    Kokkos::deep_copy(space, Kokkos::subview(checkpoints, words), Kokkos::subview(staged, words));
    loadCarry(checkpoints.data(), count, plan.start(k));
  };
  const std::vector<double> reverseConstants =
      compiled.own ? compiledReverseConstants(program) : std::vector<double>();
  // Where a record step's next carry goes when it is not the next tape row (the window's last
  // round, or fewer samples next round).
  Kokkos::View<double*, Memory> spareCarry =
      buffer("kfield::diff::spare_carry", compiled.own ? rows.carry * widest : 0);
  auto carryHalo = [&](const Row& r, std::int64_t w) {
    if (!parts) return;  // the ghosts' rows of the carry the round read, as its halo brought them
    kfield::impl::RoundPlanes<Memory> last;
    last.exportsPrev = Plane<Memory>(r.exportsPrev, E, w);
    last.presencePrev = Plane<Memory>(r.presencePrev, Pk, w);
    Access::exchange(sim)->start(last, w);
    Access::exchange(sim)->finish(last, w);
  };
  auto readersHalo = [&](const Row& r, std::int64_t w, double* values, double* adjoints) {
    if (!parts) return;  // what the gather reads of the ghosts that read this part's devices
    kfield::impl::HaloPlanes<Memory> readers;
    readers[0] = Plane<Memory>(values, V, w);
    readers[1] = Plane<Memory>(adjoints, V, w);
    readers[2] = selected;
    readers[3] = onTape ? Plane<Memory>(r.presenceNow, Pk, w) : planes.presencePrev;
    readers[4] = receivedAdjoint;
    readers[5] = sendSeed;
    parts->readers(readers, w);
  };
  // What the compiled steps of round j read and write: its tape row (the carry before it, its
  // folds' results) and the pass's adjoints. The halo of the carry: the record step's.
  auto compiledArgs = [&](idx_t j) {
    const std::int64_t w = live[j];
    const Row r = rowAt(j);
    CompiledReverseArgs a;
    a.round = Access::compiledArgs(sim, w);
    a.round.constants = reverseConstants.data();
    a.round.states = r.carry;  // the carry before the round, as the tape holds it
    a.round.stateStride = w;
    a.round.exportsPrev = r.exportsPrev;
    a.round.exportsNow = nullptr;
    a.round.exportStride = w;
    a.foldTape = r.folds;
    auto stride = [](const Plane<Memory>& p) { return static_cast<std::int64_t>(p.stride(0)); };
    a.values = keptValues.data();
    a.adjoints = keptAdjoints.data();
    a.stateAdjoint = stateAdjoint.data();
    a.stateAdjointStride = stride(stateAdjoint);
    a.exportAdjoint = exportAdjoint.data();
    a.exportAdjointStride = stride(exportAdjoint);
    a.parameterAdjoint = parameterAdjoint.data();
    a.parameterAdjointStride = stride(parameterAdjoint);
    a.sensorAdjoint = sensorAdjoint.data();
    a.sensorAdjointStride = stride(sensorAdjoint);
    a.sensorRow = sensorRows.data();
    a.selected = selected.data();
    a.selectedStride = stride(selected);
    a.target = target.data();
    a.targetStride = stride(target);
    a.outputLoss = setup.outputLoss;
    a.liveNext = j + 1 < S ? live[j + 1] : 0;
    a.transposedOffsets = setup.transposed.offsets.data();
    a.transposedEntries = setup.transposed.entries.data();
    a.transposedReaders = setup.transposed.readers.data();
    return a;
  };
  auto compiledStepBack = [&](idx_t j, std::int64_t w) {
    const CompiledReverseArgs a = compiledArgs(j);
    runCompiledStep(space, compiled.own, a, own.begin, own.end);
    if (gatherFolds.empty()) return;
    readersHalo(rowAt(j), w, keptValues.data(), keptAdjoints.data());
    runCompiledStep(space, compiled.gather, a, own.begin, own.end);
  };
  // Round i from tape row i's carry into row i + 1's by the compiled round, with no copy
  // through the simulation's planes: where the round is compiled and not a first round, the
  // rows are as wide (no sample ended), the carry is states and exports only, and the network
  // is whole (a part's ghosts come through the simulation's halo).
  const bool directRounds = Access::hasCompiledRound(sim) && !parts && Kk == 0 && Pk == 0;
  auto direct = [&](idx_t i) { return directRounds && i > 0 && live[i + 1] == live[i]; };
  auto roundBetweenRows = [&](idx_t i) {
    const std::int64_t w = live[i];
    const Row from = rowAt(i), to = rowAt(i + 1);
    if (K > 0) kfield::impl::copyColumns(space, to.carry, w, from.carry, w, K, w);
    CompiledRoundArgs a = Access::compiledArgs(sim, w);
    a.states = to.carry;  // read and written in place, each device its own rows
    a.stateStride = w;
    a.exportsPrev = from.exportsPrev;
    a.exportsNow = to.exportsPrev;
    a.exportStride = w;
    a.output = nullptr;
    Access::runCompiledRound(sim, a, own);
  };
  // The record step of round j: its folds' results into its row, the carry after it into row
  // j + 1 (or the spare carry, copied there narrower where samples end).
  auto recordRound = [&](idx_t j, bool lastOfWindow) {
    const std::int64_t w = live[j];
    const Row from = rowAt(j);
    const bool intoNext = !lastOfWindow && live[j + 1] == w;
    double* next = intoNext ? rowAt(j + 1).carry : spareCarry.data();
    if (K > 0) kfield::impl::copyColumns(space, next, w, from.carry, w, K, w);  // then in place
    carryHalo(from, w);
    CompiledReverseArgs a = compiledArgs(j);
    a.round.states = next;
    a.round.exportsNow = next + (K + Kk) * w;
    runCompiledStep(space, compiled.record, a, own.begin, own.end);
    if (!lastOfWindow && !intoNext) {
      kfield::impl::copyColumns(space, rowAt(j + 1).carry, live[j + 1], next, w,
                                static_cast<std::int64_t>(rows.carry), live[j + 1]);
    }
  };
  auto recompute = [&](idx_t c, idx_t len) {
    if (compiled.own) {  // the simulation holds the window's checkpoint
      saveCarry(rowAt(c).carry, live[c]);
      for (idx_t j = c; j < c + len; ++j) {
        const bool last = j + 1 == c + len;
        if (j > 0) {
          recordRound(j, last), ++reran;
        } else if (!last) {  // a first round: the simulation's (its reverse is interpreted)
          Access::runRound(sim, live[0], false, false), ++reran;
          saveCarry(rowAt(1).carry, live[1]);
        }
      }
      return;
    }
    bool simHolds = true;  // the simulation's planes hold the carry before round j
    for (idx_t j = c; j < c + len; ++j) {
      const std::int64_t w = live[j];
      const Row r = rowAt(j);
      if (!onTape) {  // the carry before each round; the last round's own run comes later
        if (j > c && direct(j - 1)) {
          roundBetweenRows(j - 1), ++reran;
          simHolds = false;
          continue;
        }
        if (j > c) {
          if (!simHolds) loadCarry(rowAt(j - 1).carry, live[j - 1], j - 1);
          Access::runRound(sim, live[j - 1], false, false), ++reran;
          simHolds = true;
        }
        saveCarry(r.carry, w);
        continue;
      }
      kfield::impl::copyColumns(space, r.exportsPrev, w, planes.exportsPrev.data(), n, E, w);
      kfield::impl::copyColumns(space, r.presencePrev, w, planes.presencePrev.data(), n, Pk, w);
      kfield::impl::copyColumns(space, r.stateKeys, w, planes.stateKeys.data(), n, Kk, w);
      Access::runRound(sim, w, false, true,
                       Kokkos::View<double*, Memory>(r.values, static_cast<std::size_t>(V * w)));
      ++reran;
      kfield::impl::copyColumns(space, r.exportsNow, w, planes.exportsPrev.data(), n, E,
                                w);  // swapped: this round's
      kfield::impl::copyColumns(space, r.presenceNow, w, planes.presencePrev.data(), n, Pk, w);
    }
  };
  auto configure = [&](ReverseRoundBase<ExecSpace>& b, idx_t j, std::int64_t w) {
    const Row r = rowAt(j);
    auto& f = b.fwd;
    f = Access::tapeKernel(sim);
    f.planes.exportsPrev = Plane<Memory>(r.exportsPrev, E, w);
    f.planes.presencePrev = Plane<Memory>(r.presencePrev, Pk, w);
    f.planes.stateKeys = Plane<Memory>(r.stateKeys, Kk, w);
    f.planes.edgeRow = planes.edgeRow;
    if (onTape) {
      f.planes.exportsNow = Plane<Memory>(r.exportsNow, E, w);
      f.planes.presenceNow = Plane<Memory>(r.presenceNow, Pk, w);
    } else {  // the round just run again: its exports are the simulation's (swapped) planes
      f.planes.exportsNow = planes.exportsPrev;
      f.planes.presenceNow = planes.presencePrev;
    }
    f.fresh = j == 0 ? freshAll : freshNone;
    f.firstDevice = own.begin;
    f.endDevice = own.end;
    f.live = w;
    // The reverse pass keeps the short tiles it was measured with.
    f.tileDevices = std::max<std::int64_t>(1, Tuning::kLeastTileElements / w);
    b.values = onTape ? r.values : roundValues.data();
    b.adjoints = valueAdjoints.data();
    b.exportAdjoint = exportAdjoint;
    b.receivedAdjoint = receivedAdjoint;
    b.sendSeed = sendSeed;
    b.selected = selected;
    b.selectedRow = selectedRows;
    return (own.size() + f.tileDevices - 1) / f.tileDevices;
  };
  auto stepBack = [&](idx_t j, idx_t w) {
    if (compiled.own && j > 0) return compiledStepBack(j, w);
    interpretedBuffers();
    if (!onTape) {  // the round once more, from the carry before it, for its values
      loadCarry(rowAt(j).carry, w, j);
      Access::runRound(
          sim, w, false, true,
          Kokkos::View<double*, Memory>(roundValues.data(), static_cast<std::size_t>(V * w)));
      ++reran;
    }
    Kokkos::deep_copy(space, Kokkos::subview(valueAdjoints, std::make_pair(std::int64_t(0), V * w)),
                      0.0);
    if (edgeRows > 0) Kokkos::deep_copy(space, receivedAdjoint, 0.0);
    const Row r = rowAt(j);
    carryHalo(r, w);
    ReverseOwn<ExecSpace> ownStep;
    const std::int64_t tiles = configure(ownStep, j, w);
    ownStep.stateAdjoint = stateAdjoint;
    ownStep.parameterAdjoint = parameterAdjoint;
    ownStep.sensorAdjoint = sensorAdjoint;
    ownStep.sensorRow = sensorRows;
    ownStep.target = target;
    ownStep.loss = setup.outputLoss ? LossKind::Output : LossKind::SquaredError;
    ownStep.liveNext = j + 1 < S ? live[j + 1] : 0;
    Kokkos::parallel_for("kfield::diff::reverse_own",
                         Kokkos::TeamPolicy<ExecSpace>(space, tiles, Tuning::teamSize()), ownStep);
    if (gatherFolds.empty() && edgeRows == 0) return;
    readersHalo(r, w, onTape ? r.values : roundValues.data(), valueAdjoints.data());
    ReverseGather<ExecSpace> back;
    configure(back, j, w);
    back.transposed = setup.transposed;
    back.folds = folds;
    back.edgePlanes = program.edgePlanes;
    Kokkos::parallel_for("kfield::diff::reverse_gather",
                         Kokkos::TeamPolicy<ExecSpace>(space, tiles, Tuning::teamSize()), back);
  };
  reverseWindows(setup.window, live, gather, recompute, stepBack);

  // Per sample: parameters' gradients summed over devices; sensors' per device.
  const auto sums = overDevices(parameterAdjoint, P, false);
  for (std::int64_t p = 0; p < n; ++p) {
    auto& g = result.sampleGradient[static_cast<std::size_t>(first + order[p])];
    for (std::int64_t q = 0; q < P; ++q) g[static_cast<std::size_t>(q)] = sums(q, p);
  }
  if (differentiated > 0) {
    const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), sensorAdjoint);
    for (std::size_t i = 0; i < sensorRow.size(); ++i) {
      if (sensorRow[i] < 0) continue;
      HostPlane& out = result.sensorGradient.at(program.sensors[i].name);
      for (std::int64_t d = 0; d < devices; ++d) {
        for (std::int64_t p = 0; p < n; ++p) {
          out(d, first + order[p]) = host(sensorRow[i] * devices + d, p);
        }
      }
    }
  }
  Schedule& s = result.schedule;
  ++s.passes;
  s.recordedRounds += S;
  s.recomputedRounds += reran;
  s.checkpoints += plan.count();
  if (spill) s.spilledBytes += checkpointAt.back() * static_cast<std::int64_t>(sizeof(double));
  s.maxTapeRows = std::max(s.maxTapeRows, tapeRows);
  for (idx_t l : live) s.vjps += l;
}

}  // namespace kfield::diff::impl

// Like the simulations, the host backends' passes are compiled once, into the library
// (core/src/diff/PassInstances.cpp).
namespace kfield::diff::impl {
#define KFIELD_IMPL_EXTERN_PASS(Space) extern template struct Pass<Space>;
KFIELD_FOR_EACH_LIBRARY_HOST_SPACE(KFIELD_IMPL_EXTERN_PASS)
#undef KFIELD_IMPL_EXTERN_PASS
}  // namespace kfield::diff::impl

#endif
