// The adjoint of one round, in two launches. Own: each device walks the round's operations
// backwards over its live samples, with the values of the round's tape, adding to its own
// adjoints only (values, states, its exports, parameters, sensors, what it received through
// exchanges). Gather: each device sums what its out-neighbors' folds and sends give back to
// its last-round exports, over the transposed network (in-neighbors sorted), and takes what
// they received from it as the adjoint of what it sent them; every adjoint is summed in one
// fixed order and no atomic is needed on any backend.
#ifndef KFIELD_DIFF_IMPL_REVERSEROUND_HPP
#define KFIELD_DIFF_IMPL_REVERSEROUND_HPP

#include "kfield/Plane.hpp"
#include "kfield/field/impl/Bytecode.hpp"
#include "kfield/impl/PortableMath.hpp"
#include "kfield/sim/impl/RoundKernel.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kfield::diff::impl {

using kfield::impl::EntryCode;
using kfield::impl::EntryOp;
using kfield::impl::FoldCode;
using kfield::impl::Op;
using kfield::impl::OpCode;

enum class LossKind : int { SquaredError, Output };

// What both launches share: the forward kernel set up on the tape row (its helpers evaluate
// alignment and entry programs), and the round's adjoints.
template <class ExecSpace>
struct ReverseRoundBase {
  using Memory = typename ExecSpace::memory_space;
  using Forward = kfield::impl::RoundKernel<ExecSpace>;
  using Team = typename Forward::Team;

  Forward fwd;                  // ops, entries: one slot per value; planes: the tape row's carry
  double* values;               // the tape row's values: slot x device x live
  double* adjoints;             // their adjoints, the same layout
  Plane<Memory> exportAdjoint;  // export x device rows, pass width: this round's exports'
                                // (its edge rows: what exchanges sent this round)
  // Edge plane x network entry rows: the adjoint of what each entry received this round (the
  // own launch's), and of what each send op sent there (the gather's seeds).
  Plane<Memory> receivedAdjoint, sendSeed;
  Plane<Memory> selected;  // min/max fold x device rows: the neighbor each fold selected (idOf)
  Kokkos::View<const int*, Memory> selectedRow;  // per op: its block in `selected`, or -1

  // Team league_rank's devices: tiles of the forward's device range (one part's own devices).
  KOKKOS_INLINE_FUNCTION void tileOf(const Team& team, std::int64_t& first,
                                     std::int64_t& count) const {
    const std::int64_t end = fwd.endDevice < 0 ? fwd.devices : fwd.endDevice;
    first = fwd.firstDevice + team.league_rank() * fwd.tileDevices;
    count = end - first < fwd.tileDevices ? end - first : fwd.tileDevices;
  }

  // Device j's id in the whole network: what a min/max fold's selection records, so that a
  // part of a distributed network compares it with its own numbering of the neighbors.
  KOKKOS_INLINE_FUNCTION double idOf(std::int64_t j) const {
    return fwd.net.ids.extent(0) > 0 ? static_cast<double>(fwd.net.ids(j)) : static_cast<double>(j);
  }

  KOKKOS_INLINE_FUNCTION std::int64_t valueIndex(std::int32_t slot, std::int64_t d,
                                                 std::int64_t s) const {
    return (slot * fwd.devices + d) * fwd.live + s;
  }

  // The entry program at (device d, neighbor j, CSR entry k, sample s): registers, and, with
  // adj, their adjoints for an adjoint `seed` of its result (reverse over the registers).
  // Returns the result.
  KOKKOS_INLINE_FUNCTION double entryAdjoints(const Op& op, std::int64_t d, std::int64_t j,
                                              std::int64_t k, std::int64_t s, double seed,
                                              double* reg, double* adj) const {
    const double* scratch = values + d * fwd.live;
    const std::int64_t stride = fwd.devices * fwd.live;
    const auto& entries = fwd.entries;
    for (int r = 0; r < op.entryCount; ++r) {
      const EntryOp& x = entries(op.entryBegin + r);
      switch (x.code) {
        case EntryCode::Neighbor: {
          if (j != d) {
            const std::int64_t row = fwd.neighborRow(x, d, j, s);
            reg[r] = row >= 0 ? fwd.planes.exportsPrev(row, s) : 0.0;
          } else {
            reg[r] = x.slot >= 0 ? scratch[x.slot * stride + s]
                                 : fwd.planes.exportsNow(x.plane * fwd.devices + d, s);
          }
          break;
        }
        case EntryCode::Received:
          reg[r] = j != d ? fwd.planes.exportsPrev(fwd.receivedRow(x, k), s)
                          : scratch[x.slot * stride + s];
          break;
        case EntryCode::EdgeLength: reg[r] = fwd.net.lengths(k); break;
        case EntryCode::Lag: reg[r] = fwd.lag(d, j, s); break;
        case EntryCode::Local: reg[r] = scratch[x.slot * stride + s]; break;
        case EntryCode::Constant: reg[r] = x.constant; break;
        case EntryCode::Mux: reg[r] = reg[x.a] == 1.0 ? reg[x.b] : reg[x.c]; break;
        default:
          reg[r] = kfield::impl::entryOperation(x.code, reg[x.a], Forward::secondRegister(x, reg));
      }
    }
    const double result = reg[op.entryCount - 1];
    if (adj == nullptr) return result;
    for (int r = 0; r < op.entryCount; ++r) adj[r] = 0.0;
    adj[op.entryCount - 1] = seed;
    for (int r = op.entryCount - 1; r >= 0; --r) {
      const EntryOp& x = entries(op.entryBegin + r);
      const double g = adj[r];
      if (g == 0.0) continue;  // an adjoint of exactly 0 propagates nothing (no 0 * inf)
      switch (x.code) {
        case EntryCode::Add: adj[x.a] += g, adj[x.b] += g; break;
        case EntryCode::Sub: adj[x.a] += g, adj[x.b] -= g; break;
        case EntryCode::Mul: adj[x.a] += g * reg[x.b], adj[x.b] += g * reg[x.a]; break;
        case EntryCode::Div: adj[x.a] += g / reg[x.b], adj[x.b] -= g * (reg[r] / reg[x.b]); break;
        case EntryCode::Min: (reg[x.b] < reg[x.a] ? adj[x.b] : adj[x.a]) += g; break;
        case EntryCode::Max: (reg[x.a] < reg[x.b] ? adj[x.b] : adj[x.a]) += g; break;
        case EntryCode::Mux: (reg[x.a] == 1.0 ? adj[x.b] : adj[x.c]) += g; break;
        case EntryCode::Pow: {
          const double a = reg[x.a], b = reg[x.b];
          adj[x.a] += g * (b * kfield::impl::portable::pow(a, b - 1.0));
          if (a > 0.0) adj[x.b] += g * (reg[r] * kfield::impl::portable::log(a));
          break;
        }
        case EntryCode::Neg: adj[x.a] -= g; break;
        case EntryCode::Abs: adj[x.a] += reg[x.a] > 0.0 ? g : reg[x.a] < 0.0 ? -g : 0.0; break;
        case EntryCode::Sqrt: adj[x.a] += g * (0.5 / reg[r]); break;
        case EntryCode::Exp: adj[x.a] += g * reg[r]; break;
        case EntryCode::Log: adj[x.a] += g / reg[x.a]; break;
        case EntryCode::Tanh: adj[x.a] += g * (1.0 - reg[r] * reg[r]); break;
        case EntryCode::Sigmoid: adj[x.a] += g * (reg[r] * (1.0 - reg[r])); break;
        default: break;  // leaves, comparisons, logic, floor, ceil
      }
    }
    return result;
  }

  // Row of edge plane `edge`'s entry k in receivedAdjoint and sendSeed.
  KOKKOS_INLINE_FUNCTION std::int64_t entryRow(std::int32_t edge, std::int64_t k) const {
    return edge * static_cast<std::int64_t>(fwd.net.neighbors.extent(0)) + k;
  }

  // Does the fold visit entry k (neighbor j) of device d for sample s? As the forward does.
  KOKKOS_INLINE_FUNCTION bool visits(const Op& op, std::int64_t d, std::int64_t j,
                                     std::int64_t s) const {
    const bool self = j == d;
    if (op.fold == FoldCode::Self ? !self : (self && op.excludeSelf != 0)) return false;
    return self || fwd.aligned(op, d, j, s);
  }
};

template <class ExecSpace>
struct ReverseOwn : ReverseRoundBase<ExecSpace> {
  using Base = ReverseRoundBase<ExecSpace>;
  using Memory = typename Base::Memory;
  using Team = typename Base::Team;
  using Forward = typename Base::Forward;
  using Base::adjoints;
  using Base::exportAdjoint;
  using Base::fwd;
  using Base::selected;
  using Base::selectedRow;
  using Base::values;

  Plane<Memory> stateAdjoint;      // state x device rows: after the round on entry, before on exit
  Plane<Memory> parameterAdjoint;  // parameter value x device rows, summed over rounds
  Plane<Memory> sensorAdjoint;     // differentiated sensor x device rows, summed over rounds
  Kokkos::View<const int*, Memory> sensorRow;  // per sensor: its block in sensorAdjoint, or -1
  Plane<Memory> target;  // output component x device rows: the squared error's target
  LossKind loss = LossKind::SquaredError;
  std::int64_t liveNext = 0;  // samples at positions >= liveNext end with this round

  KOKKOS_INLINE_FUNCTION void operator()(const Team& team) const {
    std::int64_t first = 0, count = 0;
    this->tileOf(team, first, count);
    for (int i = fwd.opCount - 1; i >= 0; --i) {
      step(team, fwd.ops(i), i, first, count);
      team.team_barrier();
    }
  }

  KOKKOS_INLINE_FUNCTION void step(const Team& team, const Op& op, int index, std::int64_t first,
                                   std::int64_t count) const {
    const std::int64_t stride = fwd.devices * fwd.live;
    const std::int64_t base = first * fwd.live;
    const double* v = values + base;
    double* a = adjoints + base;
    const double* out = op.out >= 0 ? v + op.out * stride : nullptr;
    const double* g = op.out >= 0 ? a + op.out * stride : nullptr;
    double* aA = op.a.slot >= 0 ? a + op.a.slot * stride : nullptr;
    double* aB = op.b.slot >= 0 ? a + op.b.slot * stride : nullptr;
    double* aC = op.c.slot >= 0 ? a + op.c.slot * stride : nullptr;
    auto value = [&](const kfield::impl::Operand& o, std::int64_t e) {
      return o.slot >= 0 ? v[o.slot * stride + e] : o.constant;
    };
    auto each = [&](const auto& f) { fwd.forElements(team, count, f); };
    auto perDevice = [&](const auto& f) { fwd.forDevices(team, first, count, f); };
    auto addA = [&](std::int64_t e, double x) {
      if (aA) aA[e] += x;
    };
    auto addB = [&](std::int64_t e, double x) {
      if (aB) aB[e] += x;
    };
    const std::int64_t planeBase = op.plane * fwd.devices;
    auto keptRead = [&](const auto& each, const Plane<Memory>& keys, const Plane<Memory>& kept) {
      each([&](std::int64_t d, std::int64_t s, std::int64_t e) {
        const bool wasKept =
            op.keyed ? keyMatches(op, v, stride, e, keys(planeBase + d, s)) : fwd.fresh(s) == 0;
        if (wasKept) {
          kept(planeBase + d, s) += g[e];
        } else {
          addA(e, g[e]);
        }
      });
    };
    auto keptWrite = [&](const auto& each, const Plane<Memory>& kept) {
      each([&](std::int64_t d, std::int64_t s, std::int64_t e) {
        addA(e, kept(planeBase + d, s));
        kept(planeBase + d, s) = 0.0;
      });
    };
    namespace pm = kfield::impl::portable;
    switch (op.code) {
      case OpCode::Neg: return each([&](std::int64_t e) { addA(e, -g[e]); });
      case OpCode::Abs:
        return each([&](std::int64_t e) {
          const double x = value(op.a, e);
          addA(e, x > 0.0 ? g[e] : x < 0.0 ? -g[e] : 0.0);
        });
      // An adjoint of exactly 0 propagates nothing: no 0 * inf.
      case OpCode::Sqrt:
        return each([&](std::int64_t e) { addA(e, g[e] == 0.0 ? 0.0 : g[e] * (0.5 / out[e])); });
      case OpCode::Exp:
        return each([&](std::int64_t e) { addA(e, g[e] == 0.0 ? 0.0 : g[e] * out[e]); });
      case OpCode::Log:
        return each([&](std::int64_t e) { addA(e, g[e] == 0.0 ? 0.0 : g[e] / value(op.a, e)); });
      case OpCode::Tanh:
        return each(
            [&](std::int64_t e) { addA(e, g[e] == 0.0 ? 0.0 : g[e] * (1.0 - out[e] * out[e])); });
      case OpCode::Sigmoid:
        return each(
            [&](std::int64_t e) { addA(e, g[e] == 0.0 ? 0.0 : g[e] * (out[e] * (1.0 - out[e]))); });
      case OpCode::Add: return each([&](std::int64_t e) { addA(e, g[e]), addB(e, g[e]); });
      case OpCode::Sub: return each([&](std::int64_t e) { addA(e, g[e]), addB(e, -g[e]); });
      case OpCode::Mul:
        return each([&](std::int64_t e) {
          if (g[e] == 0.0) return;
          addA(e, g[e] * value(op.b, e)), addB(e, g[e] * value(op.a, e));
        });
      case OpCode::Div:
        return each([&](std::int64_t e) {
          if (g[e] == 0.0) return;
          const double b = value(op.b, e);
          addA(e, g[e] / b), addB(e, -(g[e] * (out[e] / b)));
        });
      case OpCode::Min:  // the selected operand: b when b < a, else a (ties: a)
        return each([&](std::int64_t e) {
          value(op.b, e) < value(op.a, e) ? addB(e, g[e]) : addA(e, g[e]);
        });
      case OpCode::Max:
        return each([&](std::int64_t e) {
          value(op.a, e) < value(op.b, e) ? addB(e, g[e]) : addA(e, g[e]);
        });
      case OpCode::Pow:
        return each([&](std::int64_t e) {
          if (g[e] == 0.0) return;
          const double x = value(op.a, e), y = value(op.b, e);
          addA(e, g[e] * (y * pm::pow(x, y - 1.0)));
          addB(e, x > 0.0 ? g[e] * (out[e] * pm::log(x)) : 0.0);
        });
      case OpCode::Mux:
        return each([&](std::int64_t e) {
          if (value(op.a, e) == 1.0) {
            addB(e, g[e]);
          } else if (aC) {
            aC[e] += g[e];
          }
        });
      case OpCode::Param: {
        const std::int64_t row = op.plane * fwd.devices;
        return perDevice([&](std::int64_t d, std::int64_t s, std::int64_t e) {
          parameterAdjoint(row + d, s) += g[e];
        });
      }
      case OpCode::Sense: {
        const int block = sensorRow(op.plane);
        if (block < 0) return;
        const std::int64_t row = block * fwd.devices;
        return perDevice([&](std::int64_t d, std::int64_t s, std::int64_t e) {
          sensorAdjoint(row + d, s) += g[e];
        });
      }
      // A read of what was kept (a state, a shared value): back to it where the device kept
      // it (aligned, not in its first round), else to the initial value; a write takes the
      // kept value's adjoint and leaves none before it.
      case OpCode::RememberRead: return keptRead(perDevice, fwd.planes.stateKeys, stateAdjoint);
      case OpCode::ShareRead: return keptRead(perDevice, fwd.planes.presencePrev, exportAdjoint);
      case OpCode::RememberWrite: return keptWrite(perDevice, stateAdjoint);
      case OpCode::Export: return keptWrite(perDevice, exportAdjoint);
      case OpCode::Output:
        return perDevice([&](std::int64_t d, std::int64_t s, std::int64_t e) {
          if (s < liveNext) return;
          const double y = value(op.a, e);
          const double t =
              loss == LossKind::SquaredError ? target(op.plane * fwd.devices + d, s) : 0.0;
          addA(e, loss == LossKind::SquaredError ? 2.0 * (y - t) : 1.0);
        });
      case OpCode::Fold: return fold(team, op, index, first, count);
      case OpCode::ExchangeSend: return exchangeSend(team, op, first, count);
      default: return;  // comparisons, logic, uid, contexts: no gradient
    }
  }

  // The key test of a conditional read, as the forward's: the device's context when it runs
  // the call, matching the key it recorded.
  KOKKOS_INLINE_FUNCTION bool keyMatches(const Op& op, const double* v, std::int64_t stride,
                                         std::int64_t e, double recorded) const {
    const double k = fwd.keyOf(op, v, stride, e);
    return k != 0.0 && recorded == k;
  }

  // The own part of a fold's adjoint: the device's own entry and its local operands; what
  // goes to the neighbors' exports is the gather's.
  KOKKOS_INLINE_FUNCTION void fold(const Team& team, const Op& op, int index, std::int64_t first,
                                   std::int64_t count) const {
    if (op.fold == FoldCode::Count || op.fold == FoldCode::Any || op.fold == FoldCode::All) return;
    const bool select = op.fold == FoldCode::Min || op.fold == FoldCode::Max;
    const std::int64_t selRow = select ? selectedRow(index) * fwd.devices : 0;
    // Entries outer, samples inner (contiguous); a sample's selection is the first entry equal
    // to the result, kept in `selected` as the entries go by.
    const std::int64_t live = fwd.live;
    Forward::threads(team, count, [&](std::int64_t dl) {
      const std::int64_t d = first + dl;
      if (select)
        Forward::lanes(team, live, [&](std::int64_t s) { selected(selRow + d, s) = -1.0; });
      for (std::int64_t k = fwd.net.offsets(d); k < fwd.net.offsets(d + 1); ++k) {
        const std::int64_t j = fwd.net.neighbors(k);
        if (op.fold == FoldCode::Self ? j != d : (j == d && op.excludeSelf != 0)) continue;
        Forward::lanes(team, live, [&](std::int64_t s) {
          const double g = adjoints[this->valueIndex(op.out, d, s)];
          if (g == 0.0) return;  // nothing flows: the gather skips this fold here too
          if (select && selected(selRow + d, s) >= 0.0) return;
          if (j != d && !fwd.aligned(op, d, j, s)) return;
          double reg[kfield::impl::kMaxEntryOps], adj[kfield::impl::kMaxEntryOps];
          if (select) {
            const double out = values[this->valueIndex(op.out, d, s)];
            if (!(this->entryAdjoints(op, d, j, k, s, 0.0, reg, nullptr) == out)) return;
            selected(selRow + d, s) = this->idOf(j);
          }
          this->entryAdjoints(op, d, j, k, s, g, reg, adj);
          addOwn(op, d, j, k, s, adj);
        });
      }
    });
  }

  // An exchange's send: the adjoint of what went to each aligned neighbor flows through its
  // entry (its neighbors' exports' part is the gather's, from sendSeed); what went to the
  // others was the own entry, whose adjoint adds theirs to the own export's, in row order.
  KOKKOS_INLINE_FUNCTION void exchangeSend(const Team& team, const Op& op, std::int64_t first,
                                           std::int64_t count) const {
    const std::int64_t row = op.plane * fwd.devices;
    const std::int64_t edges = fwd.planes.edgeRow + this->entryRow(op.edge, 0);
    Forward::threads(team, count, [&](std::int64_t dl) {
      const std::int64_t d = first + dl;
      const std::int64_t begin = fwd.net.offsets(d), end = fwd.net.offsets(d + 1);
      std::int64_t self = begin;
      while (self < end && fwd.net.neighbors(self) != d) ++self;
      Forward::lanes(team, fwd.live, [&](std::int64_t s) {
        double reg[kfield::impl::kMaxEntryOps], adj[kfield::impl::kMaxEntryOps];
        double own = exportAdjoint(row + d, s);
        exportAdjoint(row + d, s) = 0.0;
        for (std::int64_t k = begin; k < end; ++k) {
          const std::int64_t j = fwd.net.neighbors(k);
          double& seed = this->sendSeed(this->entryRow(op.edge, k), s);
          const double g = j != d ? exportAdjoint(edges + k, s) : 0.0;
          seed = 0.0;
          if (g == 0.0) continue;
          if (!fwd.sendsTo(op, d, j, s)) {
            own += g;
            continue;
          }
          seed = g;
          this->entryAdjoints(op, d, j, k, s, g, reg, adj);
          addOwn(op, d, j, k, s, adj);
        }
        if (own == 0.0) return;
        this->entryAdjoints(op, d, d, self, s, own, reg, adj);
        addOwn(op, d, d, self, s, adj);
      });
    });
  }

  // The parts of an entry's adjoint that stay with device d: its local operands, its own
  // entry, and what it received from j (sent back to j's send by the gather).
  KOKKOS_INLINE_FUNCTION void addOwn(const Op& op, std::int64_t d, std::int64_t j, std::int64_t k,
                                     std::int64_t s, const double* adj) const {
    for (int r = 0; r < op.entryCount; ++r) {
      const EntryOp& x = fwd.entries(op.entryBegin + r);
      if (adj[r] == 0.0) continue;
      if (x.code == EntryCode::Local || (x.code == EntryCode::Received && j == d)) {
        adjoints[this->valueIndex(x.slot, d, s)] += adj[r];
      } else if (x.code == EntryCode::Received) {
        this->receivedAdjoint(this->entryRow(x.edge, k), s) += adj[r];
      } else if (x.code == EntryCode::Neighbor && j == d) {
        if (x.slot >= 0) {
          adjoints[this->valueIndex(x.slot, d, s)] += adj[r];
        } else {
          exportAdjoint(x.plane * fwd.devices + d, s) += adj[r];
        }
      }
    }
  }
};

// The transposed network: for device n, the CSR entries (d, k) whose neighbor is n, sorted by
// d then k.
template <class Memory>
struct Transposed {
  Kokkos::View<const std::int64_t*, Memory> offsets;  // devices + 1
  Kokkos::View<const std::int64_t*, Memory> entries;  // k (the reader is the row owning k)
  Kokkos::View<const std::int32_t*, Memory> readers;  // d
};

template <class ExecSpace>
struct ReverseGather : ReverseRoundBase<ExecSpace> {
  using Base = ReverseRoundBase<ExecSpace>;
  using Memory = typename Base::Memory;
  using Team = typename Base::Team;
  using Forward = typename Base::Forward;
  using Base::adjoints;
  using Base::exportAdjoint;
  using Base::fwd;
  using Base::selected;
  using Base::selectedRow;

  Transposed<Memory> transposed;
  Kokkos::View<const int*, Memory>
      folds;  // ops whose folds (or sends) read neighbors' exports, in op order
  int edgePlanes = 0;

  KOKKOS_INLINE_FUNCTION void operator()(const Team& team) const {
    std::int64_t first = 0, count = 0;
    this->tileOf(team, first, count);
    const int nFolds = static_cast<int>(folds.extent(0));
    // In-neighbors outer (transposed order), folds in op order, samples inner: each sample's
    // sum in that fixed order.
    const std::int64_t live = fwd.live;
    Forward::threads(team, count, [&](std::int64_t dl) {
      const std::int64_t n = first + dl;
      for (std::int64_t t = transposed.offsets(n); t < transposed.offsets(n + 1); ++t) {
        const std::int64_t d = transposed.readers(t), k = transposed.entries(t);
        if (d == n) continue;  // the own entry is the own launch's
        // What n sent d last round: its adjoint is what d's entry k received this round.
        for (int e = 0; e < edgePlanes; ++e) {
          const std::int64_t to = fwd.planes.edgeRow + this->entryRow(e, fwd.net.reverse(k));
          const std::int64_t from = this->entryRow(e, k);
          Forward::lanes(team, live, [&](std::int64_t s) {
            exportAdjoint(to, s) = this->receivedAdjoint(from, s);
          });
        }
        for (int f = 0; f < nFolds; ++f) {
          const Op& op = fwd.ops(folds(f));
          const bool send = op.code == OpCode::ExchangeSend;
          const bool select = !send && (op.fold == FoldCode::Min || op.fold == FoldCode::Max);
          const std::int64_t selRow = select ? selectedRow(folds(f)) * fwd.devices : 0;
          Forward::lanes(team, live, [&](std::int64_t s) {
            const double g = send ? this->sendSeed(this->entryRow(op.edge, k), s)
                                  : adjoints[this->valueIndex(op.out, d, s)];
            if (g == 0.0) return;  // a send's seed is 0 where it did not go through the entry
            if (!send &&
                (select ? selected(selRow + d, s) != this->idOf(n) : !this->visits(op, d, n, s))) {
              return;
            }
            double reg[kfield::impl::kMaxEntryOps], adj[kfield::impl::kMaxEntryOps];
            this->entryAdjoints(op, d, n, k, s, g, reg, adj);
            for (int r = 0; r < op.entryCount; ++r) {
              const EntryOp& x = fwd.entries(op.entryBegin + r);
              if (x.code == EntryCode::Neighbor && adj[r] != 0.0) {
                exportAdjoint(fwd.neighborRow(x, d, n, s), s) += adj[r];
              }
            }
          });
        }
      }
    });
  }
};

}  // namespace kfield::diff::impl

#endif
