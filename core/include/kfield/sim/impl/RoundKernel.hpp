// One synchronous round: every device of a tile replays the program's operations over its
// live samples, values in team scratch (or where RoundScratch.hpp puts them), reading its
// neighbors' exports of the last round.
#ifndef KFIELD_SIM_IMPL_ROUNDKERNEL_HPP
#define KFIELD_SIM_IMPL_ROUNDKERNEL_HPP

#include "kfield/Random.hpp"
#include "kfield/backends/Tuning.hpp"
#include "kfield/field/impl/Bytecode.hpp"
#include "kfield/impl/Bits.hpp"
#include "kfield/impl/IntegerMath.hpp"
#include "kfield/impl/KokkosCompat.hpp"
#include "kfield/impl/PortableMath.hpp"
#include "kfield/net/NetworkView.hpp"
#include "kfield/sim/impl/EntryBlock.hpp"
#include "kfield/sim/impl/Operations.hpp"
#include "kfield/sim/impl/RoundPlanes.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstring>

namespace kfield::impl {

// A flag decided once per tile, passed as a type to a loop that would test it per element:
// it is a constant wherever the loop is compiled, host or device.
template <bool B>
struct Choice {
  KOKKOS_INLINE_FUNCTION constexpr operator bool() const { return B; }
};

// f(Choice<a>(), Choice<b>()).
KFIELD_IMPL_EXEC_CHECK_DISABLE
template <class F>
KOKKOS_INLINE_FUNCTION void withChoices(bool a, bool b, const F& f) {
  if (a) return b ? f(Choice<true>(), Choice<true>()) : f(Choice<true>(), Choice<false>());
  return b ? f(Choice<false>(), Choice<true>()) : f(Choice<false>(), Choice<false>());
}

template <class ExecSpace>
struct RoundKernel {
  using Memory = typename ExecSpace::memory_space;
  using Team = typename Kokkos::TeamPolicy<ExecSpace>::member_type;

  Kokkos::View<const Op*, Memory> ops;
  Kokkos::View<const EntryOp*, Memory> entries;
  NetworkView<Memory> net;
  RoundPlanes<Memory> planes;
  Kokkos::View<const double*, Memory> parameters;  // the program's parameter vector
  // When not empty, the values live here instead of in team scratch, one plane per slot
  // (slot x device x live sample): the reversal's tape of the round.
  Kokkos::View<double*, Memory> tape;
  Kokkos::View<int*, Memory> changed;  // per sample position; empty when not tracked
  // Per spawn x sample position: the smallest device whose live processes would exceed the
  // spawn's bound this round (a large value: none).
  Kokkos::View<std::int64_t*, Memory> overflow;
  Kokkos::View<const int*, Memory> fresh;  // per sample position: 1 in the sample's first round
  // The clock. Synchronous rounds: the rounds each sample position has run (this round's
  // time). Under a Schedule (clockRow >= 0): state rows clockRow + {0, 1, 2} x devices hold
  // each device's firings so far, this firing's time and the last one's (NaN before its
  // first), and `firing` says which devices fire in this step; the others keep their state,
  // exports and output as they are.
  Kokkos::View<const double*, Memory> roundOf;
  std::int64_t clockRow = -1;
  Kokkos::View<const std::uint8_t**, Kokkos::LayoutRight, Memory> firing;
  bool anyFresh = true;     // some live sample is in its first round
  bool writeOutput = true;  // some live sample may end with this round
  // When not empty (and no tape), each team's values live in its slice of this buffer, not
  // in team scratch (RoundScratch.hpp).
  Kokkos::View<double*, Memory> spill;
  std::int64_t devices = 0;
  // The devices a round computes: [firstDevice, endDevice), all of them when endDevice < 0
  // (one part of a distributed network computes its own, not its ghosts).
  std::int64_t firstDevice = 0, endDevice = -1;
  // When not null: the devices a round computes are list[firstDevice, endDevice), not the
  // range itself (the devices of one level of asynchronous firings, SimulationLevels.hpp).
  const std::int32_t* list = nullptr;
  KOKKOS_INLINE_FUNCTION std::int64_t deviceAt(std::int64_t i) const {
    return list != nullptr ? std::int64_t(list[i]) : i;
  }
  std::int64_t live = 0;  // samples taking this round: positions [0, live)
  std::int64_t tileDevices = 1;
  std::int64_t tiles = 0;  // a team walks tiles league_rank, + league_size, ...
  int slots = 0;
  int opCount = 0;

  KOKKOS_INLINE_FUNCTION std::size_t tileValues() const {
    return std::size_t(slots > 0 ? slots : 1) * std::size_t(tileDevices * live);
  }
  KOKKOS_INLINE_FUNCTION std::size_t scratchBytes() const {
    return tape.extent(0) > 0 || spill.extent(0) > 0 ? 0 : tileValues() * sizeof(double);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Team& team) const {
    const bool taped = tape.extent(0) > 0;
    double* own = taped ? nullptr
                  : spill.extent(0) > 0
                      ? spill.data() + std::size_t(team.league_rank()) * tileValues()
                      : static_cast<double*>(team.team_scratch(0).get_shmem(scratchBytes()));
    for (std::int64_t tile = team.league_rank(); tile < tiles; tile += team.league_size()) {
      const std::int64_t end = endDevice < 0 ? devices : endDevice;
      const std::int64_t first = firstDevice + tile * tileDevices;
      const std::int64_t count = (end - first < tileDevices ? end - first : tileDevices);
      const std::int64_t stride = taped ? devices * live : tileDevices * live;
      double* scratch = taped ? tape.data() + first * live : own;
      for (int i = 0; i < opCount; ++i) {
        if (ops(i).lexicographic > 1) {
          lexicographicFold(team, i, scratch, stride, first, count);
        } else {
          run(team, ops(i), scratch, stride, first, count);
        }
        team.team_barrier();
      }
    }
  }

  double retain = 0.0;  // under a Schedule: how old a message may be and still be heard
  // Under a Schedule: every device hears every neighbor this step (all fire together, all
  // are on and have fired, no message is too old), so no clock need be read to know it.
  bool everyoneHeard = false;
  // Under a Schedule, with everyoneHeard: every device of the live samples fires this step,
  // as in a synchronous round.
  bool everyoneFires = false;
  // With everyoneFires, when not empty: the clock of a lockstep step, which the devices' clock
  // rows do not hold (the simulation keeps it per sample): entry s the live sample's firing
  // time, entry live + s its devices' last one.
  Kokkos::View<const double*, Memory> sampleClock;
  // Under a Schedule, in the lockstep steps of a run with devices off (runLockstep): every
  // device on fires, as its clock's switch row says, and `firing` is not read.
  bool firesWhenOn = false;
  KOKKOS_INLINE_FUNCTION bool fires(std::int64_t d, std::int64_t s) const {
    if (firesWhenOn) return planes.states(clockRow + 3 * devices + d, s) != 0.0;
    return everyoneFires || firing.extent(0) == 0 || firing(d, s) == 1;
  }
  // Under a Schedule: the device has fired before (since it was last switched on), so what it
  // kept is its own; at its first firing every state and shared value starts afresh.
  KOKKOS_INLINE_FUNCTION bool firedBefore(std::int64_t d, std::int64_t s) const {
    if (clockRow < 0 || everyoneFires) return true;
    const double last = planes.states(clockRow + 2 * devices + d, s);
    return last == last;
  }
  // How long ago neighbor j sent what device d hears of it (EntryCode::Lag).
  KOKKOS_INLINE_FUNCTION double lag(std::int64_t d, std::int64_t j, std::int64_t s) const {
    if (j == d) return 0.0;
    if (clockRow < 0) return 1.0;
    if (sampleClock.extent(0) > 0) {  // a lockstep step: j fired one step ago, unless it is off
      const double sent = planes.states(clockRow + 2 * devices + j, s);
      return sent == sent ? sampleClock(s) - sampleClock(live + s) : sent;
    }
    return planes.states(clockRow + devices + d, s) - planes.states(clockRow + 2 * devices + j, s);
  }
  // Under a Schedule: has neighbor j fired, recently enough for device d to hear it now?
  KOKKOS_INLINE_FUNCTION bool heard(std::int64_t d, std::int64_t j, std::int64_t s) const {
    if (everyoneHeard) return true;
    const double age = lag(d, j, s);
    return age == age && age <= retain;  // NaN: j has not fired yet
  }
  // The key this device runs export `plane` under this round, as its folds compare it: a
  // call keyed only because the simulation is asynchronous (keyed == 2) runs under key 1.
  KOKKOS_INLINE_FUNCTION double ownKey(std::int32_t keyed, std::int32_t plane, std::int64_t d,
                                       std::int64_t s) const {
    return keyed == kKeyedByClock ? 1.0 : planes.presenceNow(plane * devices + d, s);
  }

  // The key a device records for a conditional export or state: its alignment context when
  // it executes the call, 0 when it does not.
  KOKKOS_INLINE_FUNCTION double keyOf(const Op& op, const double* scratch, std::int64_t stride,
                                      std::int64_t e) const {
    if (op.mask >= 0 && scratch[op.mask * stride + e] != 1.0) return 0.0;
    return op.context >= 0 ? scratch[op.context * stride + e] : 1.0;
  }

  // A team's threads (threads) or a thread's vector lanes (lanes) over [0, n), every index
  // writing only its own elements: on host backends (one thread per team) plain loops,
  // which the compiler vectorises.
  template <class F>
  KOKKOS_INLINE_FUNCTION static void threads(const Team& team, std::int64_t n, const F& f) {
    if constexpr (RoundTuning<ExecSpace>::kTeamLanes) {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), f);
    } else {
      (void)team;
      KFIELD_IMPL_INDEPENDENT
      for (std::int64_t i = 0; i < n; ++i) f(i);
    }
  }
  template <class F>
  KOKKOS_INLINE_FUNCTION static void lanes(const Team& team, std::int64_t n, const F& f) {
    if constexpr (RoundTuning<ExecSpace>::kTeamLanes) {
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, n), f);
    } else {
      (void)team;
      KFIELD_IMPL_INDEPENDENT
      for (std::int64_t i = 0; i < n; ++i) f(i);
    }
  }

  // f(element) for every element of the tile: device-sample pairs, samples contiguous.
  template <class F>
  KOKKOS_INLINE_FUNCTION void forElements(const Team& team, std::int64_t count, const F& f) const {
    threads(team, count * live, f);
  }
  // f(tile device, device, sample, element) for every element, device by device.
  template <class F>
  KOKKOS_INLINE_FUNCTION void forDevices(const Team& team, std::int64_t first, std::int64_t count,
                                         const F& f) const {
    if (live == 1) {  // one sample: no inner loop to set up per device
      threads(team, count, [&](std::int64_t dl) { f(deviceAt(first + dl), 0, dl); });
      return;
    }
    threads(team, count, [&](std::int64_t dl) {
      const std::int64_t d = deviceAt(first + dl);
      lanes(team, live, [&](std::int64_t s) { f(d, s, dl * live + s); });
    });
  }

  // out = f(a, b) over the tile, with the operands' kinds (slot or constant) decided once.
  template <class F>
  KOKKOS_INLINE_FUNCTION void elementwise(const Team& team, const Op& op, double* scratch,
                                          std::int64_t stride, std::int64_t count,
                                          const F& f) const {
    double* out = scratch + op.out * stride;
    const double* a = op.a.slot >= 0 ? scratch + op.a.slot * stride : nullptr;
    const double* b = op.b.slot >= 0 ? scratch + op.b.slot * stride : nullptr;
    const double ca = op.a.constant, cb = op.b.constant;
    if (a && b) {
      forElements(team, count, [&](std::int64_t e) { out[e] = f(a[e], b[e]); });
    } else if (a) {
      forElements(team, count, [&](std::int64_t e) { out[e] = f(a[e], cb); });
    } else if (b) {
      forElements(team, count, [&](std::int64_t e) { out[e] = f(ca, b[e]); });
    } else {
      forElements(team, count, [&](std::int64_t e) { out[e] = f(ca, cb); });
    }
  }

  // Calls f(value) with value(element) reading the operand's slot, or giving its constant.
  template <class F>
  KOKKOS_INLINE_FUNCTION static void withOperand(const Operand& o, const double* scratch,
                                                 std::int64_t stride, const F& f) {
    if (o.slot >= 0) {
      const double* p = scratch + o.slot * stride;
      return f([=](std::int64_t e) { return p[e]; });
    }
    const double c = o.constant;
    f([=](std::int64_t) { return c; });
  }

  KOKKOS_INLINE_FUNCTION void run(const Team& team, const Op& op, double* scratch,
                                  std::int64_t stride, std::int64_t first,
                                  std::int64_t count) const {
    auto apply = [&](const auto& f) { elementwise(team, op, scratch, stride, count, f); };
    switch (op.code) {
      case OpCode::Param: {
        double* out = scratch + op.out * stride;
        const double value = parameters(op.plane);
        return forElements(team, count, [&](std::int64_t e) { out[e] = value; });
      }
      case OpCode::ContextMix: return apply([](double x, double y) { return contextMix(x, y); });
      case OpCode::IntDiv:
        return apply([](double x, double y) { return integer::apply(integer::Op::Div, x, y); });
      case OpCode::IntMod:
        return apply([](double x, double y) { return integer::apply(integer::Op::Mod, x, y); });
      case OpCode::BitAnd:
        return apply([](double x, double y) { return integer::apply(integer::Op::And, x, y); });
      case OpCode::BitOr:
        return apply([](double x, double y) { return integer::apply(integer::Op::Or, x, y); });
      case OpCode::BitXor:
        return apply([](double x, double y) { return integer::apply(integer::Op::Xor, x, y); });
      case OpCode::ShiftLeft:
        return apply(
            [](double x, double y) { return integer::apply(integer::Op::ShiftLeft, x, y); });
      case OpCode::ShiftRight:
        return apply(
            [](double x, double y) { return integer::apply(integer::Op::ShiftRight, x, y); });
      case OpCode::BitNot: return apply([](double x, double) { return integer::bitNot(x); });
      case OpCode::Mux: {
        // Each operand's kind (slot or constant) decided once: every loop is a plain select.
        double* out = scratch + op.out * stride;
        return withOperand(op.a, scratch, stride, [&](const auto& a) {
          withOperand(op.b, scratch, stride, [&](const auto& b) {
            withOperand(op.c, scratch, stride, [&](const auto& c) {
              forElements(team, count, [&](std::int64_t e) {
                // Both sides loaded first: a select, not masked loads (slow on some x86
                // cores) of the side each element takes.
                const double x = b(e), y = c(e);
                out[e] = a(e) == 1.0 ? x : y;
              });
            });
          });
        });
      }
      case OpCode::Fold: return fold(team, op, scratch, stride, first, count);
      case OpCode::FoldComponent: return;  // written by the lexicographic fold before it
      case OpCode::ExchangeSend: return exchangeSend(team, op, scratch, stride, first, count);
      case OpCode::SpawnKey: return spawnKey(team, op, scratch, stride, first, count);
      default: break;
    }
    const EntryCode same = pointwiseEntry(op.code);  // the entry programs' expression for it
    if (same != EntryCode::Constant) return withEntryOperation(same, apply);
    perDevice(team, op, scratch, stride, first, count);
  }

  // Called only when changes are tracked: a value kept across rounds differs from last
  // round's (NaN equals NaN). Any writer writes 1, so the flag is the same whatever the order.
  KOKKOS_INLINE_FUNCTION void noteChange(double before, double after, std::int64_t s) const {
    if (!(before == after) && !(before != before && after != after)) {
      changed(s) = 1;
    }
  }

  // A plane's rows from `base` on, with the view's pointer and row stride held in locals:
  // stores through other pointers cannot make the loops reload them.
  struct PlaneRows {
    double* data;
    std::int64_t rowStride;
    KOKKOS_INLINE_FUNCTION double& operator()(std::int64_t d, std::int64_t s) const {
      return data[d * rowStride + s];
    }
  };
  KOKKOS_INLINE_FUNCTION static PlaneRows rows(const Plane<Memory>& plane, std::int64_t base) {
    const auto rowStride = static_cast<std::int64_t>(plane.stride(0));
    if (plane.data() == nullptr) return {nullptr, 0};  // a plane this program does not have
    return {plane.data() + base * rowStride, rowStride};
  }

  // Operations that touch the planes kept across rounds: sensors, states, exports, output.
  // When every device fires and has fired before (synchronous rounds, or a lockstep step
  // where all hear all), their per-element checks are known and the loops have none.
  KOKKOS_INLINE_FUNCTION void perDevice(const Team& team, const Op& op, double* scratch,
                                        std::int64_t stride, std::int64_t first,
                                        std::int64_t count) const {
    if (everyoneFires || firing.extent(0) == 0) {
      return perDeviceOps<true>(team, op, scratch, stride, first, count);
    }
    perDeviceOps<false>(team, op, scratch, stride, first, count);
  }
  template <bool kEveryoneFires>
  KOKKOS_INLINE_FUNCTION void perDeviceOps(const Team& team, const Op& op, double* scratch,
                                           std::int64_t stride, std::int64_t first,
                                           std::int64_t count) const;

  // Register b of entry x, or 0 for a code that takes one.
  KOKKOS_INLINE_FUNCTION static double secondRegister(const EntryOp& x, const double* reg) {
    return x.b >= 0 ? reg[x.b] : 0.0;
  }

  // An entry that reads a neighbor's conditional export (or exchange): alignment is checked.
  KOKKOS_INLINE_FUNCTION static bool readsPresence(const EntryOp& x) {
    return (x.code == EntryCode::Neighbor || x.code == EntryCode::Received) && x.keyed != 0;
  }

  // Is neighbor j (not this device) aligned with this device for every export the entry
  // program reads? Unconditional exports: everyone ran them last round, unless this is the
  // sample's first round, when a device sees only itself.
  KOKKOS_INLINE_FUNCTION bool aligned(const Op& op, std::int64_t d, std::int64_t j,
                                      std::int64_t s) const {
    if (fresh(s) != 0) return false;
    if (clockRow >= 0 && !heard(d, j, s)) return false;
    for (int k = 0; k < op.entryCount; ++k) {
      const EntryOp& x = entries(op.entryBegin + k);
      if (!readsPresence(x)) continue;
      if (x.copies > 0) {
        if (neighborRow(x, d, j, s) < 0) return false;
        continue;
      }
      const double mine = ownKey(x.keyed, x.plane, d, s);
      if (mine == 0.0 || planes.presencePrev(x.plane * devices + j, s) != mine) return false;
    }
    return true;
  }

  // Calls f(binary) with an entry program's binary operation as a type.
  template <class F>
  KOKKOS_INLINE_FUNCTION static void withBinary(EntryCode code, const F& f) {
    switch (code) {
      case EntryCode::Add: return f([](double a, double b) { return a + b; });
      case EntryCode::Sub: return f([](double a, double b) { return a - b; });
      case EntryCode::Mul: return f([](double a, double b) { return a * b; });
      case EntryCode::Div: return f([](double a, double b) { return a / b; });
      case EntryCode::Min: return f([](double a, double b) { return b < a ? b : a; });
      default: return f([](double a, double b) { return a < b ? b : a; });  // Max
    }
  }

  // The entry program's form, when it is one the fold evaluates inside its neighbor loop:
  // 1 the neighbor's value itself, 2 (neighbor's value) op (edge length or constant): the
  // gradients'. 0: any other (interpreted).
  KOKKOS_INLINE_FUNCTION int fusedForm(const Op& op) const {
    const EntryOp& v = entries(op.entryBegin);
    // Keyed only by the clock: who is heard is checked in the fused loop itself.
    const bool byClock = v.keyed == kKeyedByClock && v.copies == 0;
    if (v.code != EntryCode::Neighbor || (v.keyed && !byClock)) return 0;
    if (op.entryCount == 1) return 1;
    if (op.entryCount != 3) return 0;
    const EntryOp &x = entries(op.entryBegin + 1), &b = entries(op.entryBegin + 2);
    const bool operand = x.code == EntryCode::EdgeLength || x.code == EntryCode::Constant;
    const bool binary = b.code == EntryCode::Add || b.code == EntryCode::Sub ||
                        b.code == EntryCode::Mul || b.code == EntryCode::Div ||
                        b.code == EntryCode::Min || b.code == EntryCode::Max;
    return operand && binary && b.a == 0 && b.b == 1 ? 2 : 0;
  }

  // Folds in CSR order. Neighbors outer, samples inner: the same operations per (device,
  // sample) in the same order, with the samples of a row contiguous.
  KOKKOS_INLINE_FUNCTION void fold(const Team& team, const Op& op, double* scratch,
                                   std::int64_t stride, std::int64_t first,
                                   std::int64_t count) const;

  // A fold whose entry is value(neighbor's export, entry index), the export unconditional.
  template <class Combine, class Value>
  KOKKOS_INLINE_FUNCTION void neighborFold(const Team& team, const Op& op, double* scratch,
                                           std::int64_t stride, std::int64_t first,
                                           std::int64_t count, const Combine& combine,
                                           const Value& value) const;

  // acc[s] = combine(acc[s], value(v[s], k)) over the live samples; acc and v never overlap
  // (a fold's output slot is none of its inputs).
  template <class Combine, class Value>
  KOKKOS_INLINE_FUNCTION void combineRow(const Team& team, double* KOKKOS_RESTRICT acc,
                                         const double* KOKKOS_RESTRICT v, const Combine& combine,
                                         const Value& value, std::int64_t k) const;

  // Any other entry program, interpreted per (neighbor, sample).
  template <class Combine>
  KOKKOS_INLINE_FUNCTION void interpretedFold(const Team& team, const Op& op, double* scratch,
                                              std::int64_t stride, std::int64_t first,
                                              std::int64_t count, const Combine& combine) const;

  // f(dl, d, k, j) for each entry k of the tile's devices (d = first + dl hears j) that fold
  // op takes, in CSR order.
  template <class F>
  KOKKOS_INLINE_FUNCTION void forFoldEntries(const Op& op, std::int64_t first, std::int64_t count,
                                             const F& f) const {
    for (std::int64_t dl = 0; dl < count; ++dl) {
      const std::int64_t d = deviceAt(first + dl);
      for (std::int64_t k = net.offsets(d); k < net.offsets(d + 1); ++k) {
        const std::int64_t j = net.neighbors(k);
        const bool self = j == d;
        if (op.fold == FoldCode::Self ? !self : (self && op.excludeSelf != 0)) continue;
        f(dl, d, k, j);
      }
    }
  }

  // Whether a fold and a send that share their entry programs' start (Op::keepEdge) do so
  // this round: where both take every (entry, sample) pair (no sample in its first round, no
  // clock deciding whom a device hears), on host backends (where entry programs run by blocks).
  KOKKOS_INLINE_FUNCTION bool sharesEntries() const {
    return !RoundTuning<ExecSpace>::kTeamLanes && !anyFresh && clockRow < 0;
  }
  // The first row of edge plane `edge` in the export planes: one row per CSR entry.
  KOKKOS_INLINE_FUNCTION std::int64_t edgePlaneRow(std::int32_t edge) const {
    return planes.edgeRow + edge * static_cast<std::int64_t>(net.neighbors.extent(0));
  }

  // Does the entry program check any presence key (a conditional export or exchange)?
  KOKKOS_INLINE_FUNCTION bool readsAnyPresence(const Op& op) const {
    if (clockRow >= 0) return true;  // whom a device hears depends on who has fired
    for (int r = 0; r < op.entryCount; ++r) {
      if (readsPresence(entries(op.entryBegin + r))) return true;
    }
    return false;
  }

  // Host: the entry programs of folds and exchanges run an entry's samples at once
  // (EntryRow) when they are many and every one hears every neighbor, so none is skipped.
  KOKKOS_INLINE_FUNCTION bool rowsOfEntries(bool keyed) const {
    return !keyed && !anyFresh && live >= kEntryBlock / 4;
  }
  // f() for each run of at most kEntryBlock samples of entry k (device d, the tile's device
  // dl, hears j), with `pairs` set to it.
  template <class F>
  KOKKOS_INLINE_FUNCTION void forRowsOf(EntryRow& pairs, std::int64_t k, std::int64_t j,
                                        std::int64_t d, std::int64_t dl, const F& f) const {
    pairs.entry = k, pairs.neighbor = j, pairs.device = d;
    for (std::int64_t s = 0; s < live; s += kEntryBlock) {
      pairs.sample = s, pairs.element = dl * live + s;
      pairs.size = static_cast<int>(live - s < kEntryBlock ? live - s : kEntryBlock);
      f();
    }
  }

  // The lexicographic min or max of ops(index) and the FoldComponent ops after it, in one pass
  // in CSR order: each entry's components are compared in turn, and one that is better where
  // all before it are equal replaces the result from there on. The same bits as the plain
  // folds the trace holds (Program::lexicographicFold): component k's result is the fold of
  // the entries equal to the results before it, and a neighbor takes part in component k when
  // it is aligned for the exports of components 0 to k.
  KOKKOS_INLINE_FUNCTION void lexicographicFold(const Team& team, int index, double* scratch,
                                                std::int64_t stride, std::int64_t first,
                                                std::int64_t count) const;

  // What the fused lexicographic fold's loops read, in locals.
  template <int W>
  struct LexicographicParts {
    bool isMax, excludeSelf;
    double init;
    std::int64_t ps;  // export planes' row stride
    const double* prev[W];
    const double* now[W];
    const double* own[W];  // the device's own entry when not its export (a share's last value)
    double* out[W];
    EntryCode code[W];  // Neighbor: the export itself; else code(export, edge or constant)
    double constant[W];
    bool edge[W];
    // An entry's component c from its export value x and the edge's length.
    KOKKOS_INLINE_FUNCTION double form(int c, double x, double length) const {
      const double y = edge[c] ? length : constant[c];
      return code[c] == EntryCode::Neighbor ? x
             : code[c] == EntryCode::Add    ? x + y  // the gradients' distance + length
                                            : entryOperation(code[c], x, y);
    }
  };

  template <int W>
  KOKKOS_INLINE_FUNCTION LexicographicParts<W> lexicographicParts(int index, double* scratch,
                                                                  std::int64_t stride) const;

  // The common case on host backends: every component a neighbor's unconditional export (op
  // an edge length or a constant), no sample in its first round, 2 to 4 components. The
  // neighbor loop reads everything from locals. One sample: the results stay in registers,
  // each entry merged without a branch.
  template <int W>
  KOKKOS_INLINE_FUNCTION void fusedLexicographicFold(int index, double* scratch,
                                                     std::int64_t stride, std::int64_t first,
                                                     std::int64_t count) const;

  // Several samples: a component's entries are formed for a block of samples, then merged a
  // component at a time without a branch, so both sample loops vectorise.
  template <int W>
  KOKKOS_INLINE_FUNCTION void fusedLexicographicFoldSamples(const LexicographicParts<W>& p,
                                                            std::int64_t first,
                                                            std::int64_t count) const;

  // The same, every component the export itself or the export plus an edge length or a
  // constant (the G block's): each entry merged in one loop over the samples.
  template <int W>
  KOKKOS_INLINE_FUNCTION void fusedLexicographicMerge(const LexicographicParts<W>& p,
                                                      std::int64_t first, std::int64_t count) const;

  // How many leading components of a lexicographic fold neighbor j is aligned with.
  KOKKOS_INLINE_FUNCTION int alignedComponents(int index, int width, std::int64_t d, std::int64_t j,
                                               std::int64_t s) const {
    for (int c = 0; c < width; ++c) {
      if (!aligned(ops(index + c), d, j, s)) return c;
    }
    return width;
  }

  // A component's entry for neighbor j (entry k of the row): its fused form read directly,
  // any other interpreted.
  KOKKOS_INLINE_FUNCTION double componentValue(const Op& part, int form, const double* scratch,
                                               std::int64_t stride, std::int64_t d, std::int64_t j,
                                               std::int64_t k, std::int64_t s,
                                               std::int64_t e) const;

  // The export row of neighbor j that entry x reads: its plane's, or inside a spawn's
  // process the row of the copy (slot) where j ran the same process last round; -1 if none.
  KOKKOS_INLINE_FUNCTION std::int64_t neighborRow(const EntryOp& x, std::int64_t d, std::int64_t j,
                                                  std::int64_t s) const;

  // A component of the key of a spawn's slot (OpCode::SpawnKey). Keys are tuples of whole
  // numbers, live when the first is >= 0; a live one stays in its slot, and the free slots take
  // the new keys (launched here, or spread by an aligned neighbor last round, not held here)
  // smallest first, lexicographically. The op of slot 0, component 0 notes an overflow.
  KOKKOS_INLINE_FUNCTION void spawnKey(const Team& team, const Op& op, double* scratch,
                                       std::int64_t stride, std::int64_t first,
                                       std::int64_t count) const;

  // The row of what neighbor j sent this device last round, read at entry k (d hears j).
  KOKKOS_INLINE_FUNCTION std::int64_t receivedRow(const EntryOp& x, std::int64_t k) const {
    return edgePlaneRow(x.edge) + net.reverse(k);
  }

  // Does an exchange send neighbor j (not this device) its entry for j? Only when j is
  // aligned with it: j ran the call with this device's key last round, and is aligned for
  // what the entry program reads. Otherwise j gets the device's own entry.
  KOKKOS_INLINE_FUNCTION bool sendsTo(const Op& op, std::int64_t d, std::int64_t j,
                                      std::int64_t s) const {
    if (!aligned(op, d, j, s)) return false;
    if (op.keyed == 0) return true;
    const double mine = ownKey(op.keyed, op.plane, d, s);
    return mine != 0.0 && planes.presencePrev(op.plane * devices + j, s) == mine;
  }

  // An exchange's send: the entry program for the device itself, to its export row, then for
  // each neighbor, to the edge plane at the neighbor's entry (the own entry where not aligned).
  KOKKOS_INLINE_FUNCTION void exchangeSend(const Team& team, const Op& op, double* scratch,
                                           std::int64_t stride, std::int64_t first,
                                           std::int64_t count) const;

  KOKKOS_INLINE_FUNCTION double entryValue(const Op& op, const double* scratch, std::int64_t stride,
                                           std::int64_t d, std::int64_t j, std::int64_t k,
                                           std::int64_t s, std::int64_t e) const;
};

}  // namespace kfield::impl

// The definitions of the larger members, a concern per header.
#include "kfield/sim/impl/RoundDeviceOps.hpp"
#include "kfield/sim/impl/RoundFolds.hpp"
#include "kfield/sim/impl/RoundMessages.hpp"

#endif
