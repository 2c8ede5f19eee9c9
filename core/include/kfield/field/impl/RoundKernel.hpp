// One synchronous round: every device of a tile replays the program's operations over its
// live samples, values in team scratch, reading its neighbours' exports of the last round.
#ifndef KFIELD_FIELD_IMPL_ROUNDKERNEL_HPP
#define KFIELD_FIELD_IMPL_ROUNDKERNEL_HPP

#include "kfield/field/Network.hpp"
#include "kfield/field/impl/Bytecode.hpp"
#include "kfield/field/impl/CounterRng.hpp"
#include "kfield/impl/KokkosCompat.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstring>

namespace kfield::impl {

// How a round is cut per backend (none of it changes the bits).
template <class ExecSpace>
struct RoundTuning {
  static constexpr int kTileElements = 512;  // device-samples per tile
  static int teamSize() { return 1; }
};
#ifdef KOKKOS_ENABLE_CUDA
template <>
struct RoundTuning<Kokkos::Cuda> {
  static constexpr int kTileElements = 256;
  static int teamSize() { return 128; }
};
#endif

// The alignment context of key inside parent: a 53-bit hash, never 0 (0 means "absent").
KOKKOS_INLINE_FUNCTION double contextMix(double parent, double key) {
  if (key == 0.0) key = 0.0;  // -0.0 and 0.0 are one key
  std::uint64_t p, k;
  std::memcpy(&p, &parent, sizeof p);
  std::memcpy(&k, &key, sizeof k);
  return double((mix64(p, k) >> 11) | 1u);
}

template <class ExecSpace>
struct RoundKernel {
  using Memory = typename ExecSpace::memory_space;
  using Plane = Kokkos::View<double**, Kokkos::LayoutRight, Memory>;
  using Team = typename Kokkos::TeamPolicy<ExecSpace>::member_type;

  Kokkos::View<const Op*, Memory> ops;
  Kokkos::View<const EntryOp*, Memory> entries;
  NetworkView<Memory> net;
  Plane sensors, exportsNow, exportsPrev, presenceNow, presencePrev, states, stateKeys, output;
  Kokkos::View<int*, Memory> changed;  // per sample position; empty when not tracked
  Kokkos::View<const int*, Memory> fresh;  // per sample position: 1 in the sample's first round
  std::int64_t devices = 0;
  std::int64_t live = 0;  // samples taking this round: positions [0, live)
  std::int64_t tileDevices = 1;
  int slots = 0;
  int opCount = 0;

  std::size_t scratchBytes() const {
    return std::size_t(slots > 0 ? slots : 1) * std::size_t(tileDevices * live) * sizeof(double);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Team& team) const {
    const std::int64_t first = team.league_rank() * tileDevices;
    const std::int64_t count = (devices - first < tileDevices ? devices - first : tileDevices);
    const std::int64_t elements = count * live;
    const std::int64_t stride = tileDevices * live;
    double* scratch = static_cast<double*>(team.team_scratch(0).get_shmem(scratchBytes()));
    for (int i = 0; i < opCount; ++i) {
      const Op op = ops(i);
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, elements), [&](std::int64_t e) {
        step(op, scratch, stride, first + e / live, e % live, e);
      });
      team.team_barrier();
    }
  }

  KOKKOS_INLINE_FUNCTION double value(const Operand& o, const double* scratch,
                                      std::int64_t stride, std::int64_t e) const {
    return o.slot >= 0 ? scratch[o.slot * stride + e] : o.constant;
  }

  // The key a device records for a conditional export or state: its alignment context when
  // it executes the call, 0 when it does not.
  KOKKOS_INLINE_FUNCTION double keyOf(const Op& op, const double* scratch, std::int64_t stride,
                                      std::int64_t e) const {
    if (op.mask >= 0 && scratch[op.mask * stride + e] == 0.0) return 0.0;
    return op.context >= 0 ? scratch[op.context * stride + e] : 1.0;
  }

  KOKKOS_INLINE_FUNCTION void step(const Op& op, double* scratch, std::int64_t stride,
                                   std::int64_t d, std::int64_t s, std::int64_t e) const {
    double* out = op.out >= 0 ? scratch + op.out * stride : nullptr;
    const double a = value(op.a, scratch, stride, e);
    switch (op.code) {
      case OpCode::Sense: out[e] = sensors(op.plane * devices + d, s); break;
      case OpCode::Uid: out[e] = double(d); break;
      case OpCode::Neg: out[e] = -a; break;
      case OpCode::Not: out[e] = a == 0.0 ? 1.0 : 0.0; break;
      case OpCode::Abs: out[e] = math::fabs(a); break;
      case OpCode::Sqrt: out[e] = math::sqrt(a); break;
      case OpCode::Mux: {
        out[e] = a != 0.0 ? value(op.b, scratch, stride, e) : value(op.c, scratch, stride, e);
        break;
      }
      case OpCode::ContextMix: out[e] = contextMix(a, value(op.b, scratch, stride, e)); break;
      case OpCode::RememberRead: {
        const std::int64_t row = op.plane * devices + d;
        bool held;
        if (op.keyed) {
          const double key = keyOf(op, scratch, stride, e);
          held = key != 0.0 && stateKeys(row, s) == key;
        } else {
          held = fresh(s) == 0;
        }
        out[e] = held ? states(row, s) : a;
        break;
      }
      case OpCode::RememberWrite: {
        const std::int64_t row = op.plane * devices + d;
        states(row, s) = a;
        if (op.keyed) stateKeys(row, s) = keyOf(op, scratch, stride, e);
        break;
      }
      case OpCode::Export: {
        const std::int64_t row = op.plane * devices + d;
        exportsNow(row, s) = a;
        if (op.keyed) presenceNow(row, s) = keyOf(op, scratch, stride, e);
        break;
      }
      case OpCode::Fold: out[e] = fold(op, scratch, stride, d, s, e); break;
      case OpCode::Output: {
        if (changed.extent(0) > 0 && !(output(d, s) == a) &&
            !(output(d, s) != output(d, s) && a != a)) {
          changed(s) = 1;  // any writer writes 1: the same result whatever the order
        }
        output(d, s) = a;
        break;
      }
      default: out[e] = binary(op.code, a, value(op.b, scratch, stride, e));
    }
  }

  KOKKOS_INLINE_FUNCTION static double binary(OpCode code, double a, double b) {
    switch (code) {
      case OpCode::Add: return a + b;
      case OpCode::Sub: return a - b;
      case OpCode::Mul: return a * b;
      case OpCode::Div: return a / b;
      case OpCode::Min: return b < a ? b : a;
      case OpCode::Max: return a < b ? b : a;
      case OpCode::Less: return a < b ? 1.0 : 0.0;
      case OpCode::LessEqual: return a <= b ? 1.0 : 0.0;
      case OpCode::Greater: return a > b ? 1.0 : 0.0;
      case OpCode::GreaterEqual: return a >= b ? 1.0 : 0.0;
      case OpCode::Equal: return a == b ? 1.0 : 0.0;
      case OpCode::NotEqual: return a != b ? 1.0 : 0.0;
      case OpCode::And: return (a != 0.0 && b != 0.0) ? 1.0 : 0.0;
      case OpCode::Or: return (a != 0.0 || b != 0.0) ? 1.0 : 0.0;
      default: return 0.0;
    }
  }

  KOKKOS_INLINE_FUNCTION static double entryBinary(EntryCode code, double a, double b) {
    switch (code) {
      case EntryCode::Add: return a + b;
      case EntryCode::Sub: return a - b;
      case EntryCode::Mul: return a * b;
      case EntryCode::Div: return a / b;
      case EntryCode::Min: return b < a ? b : a;
      default: return a < b ? b : a;  // Max
    }
  }

  // Is neighbour j (not this device) aligned with this device for every export the entry
  // program reads? Unconditional exports: everyone ran them last round, unless this is the
  // sample's first round, when a device sees only itself.
  KOKKOS_INLINE_FUNCTION bool aligned(const Op& op, std::int64_t d, std::int64_t j,
                                      std::int64_t s) const {
    if (fresh(s) != 0) return false;
    for (int k = 0; k < op.entryCount; ++k) {
      const EntryOp& x = entries(op.entryBegin + k);
      if (x.code != EntryCode::Neighbour || x.keyed == 0) continue;
      const double mine = presenceNow(x.plane * devices + d, s);
      if (mine == 0.0 || presencePrev(x.plane * devices + j, s) != mine) return false;
    }
    return true;
  }

  KOKKOS_INLINE_FUNCTION double fold(const Op& op, const double* scratch, std::int64_t stride,
                                     std::int64_t d, std::int64_t s, std::int64_t e) const {
    const double inf = math::infinity();
    double acc = op.fold == FoldCode::Min ? inf : op.fold == FoldCode::Max ? -inf : 0.0;
    for (std::int64_t k = net.offsets(d); k < net.offsets(d + 1); ++k) {
      const std::int64_t j = net.neighbours(k);
      const bool self = j == d;
      if (self ? op.excludeSelf != 0 : !aligned(op, d, j, s)) continue;
      double reg[kMaxEntryOps];
      for (int r = 0; r < op.entryCount; ++r) {
        const EntryOp& x = entries(op.entryBegin + r);
        switch (x.code) {
          case EntryCode::Neighbour: {
            const std::int64_t row = x.plane * devices;
            reg[r] = self ? exportsNow(row + d, s) : exportsPrev(row + j, s);
            break;
          }
          case EntryCode::EdgeLength: reg[r] = net.lengths(k); break;
          case EntryCode::Local: reg[r] = scratch[x.slot * stride + e]; break;
          case EntryCode::Constant: reg[r] = x.constant; break;
          default: reg[r] = entryBinary(x.code, reg[x.a], reg[x.b]);
        }
      }
      const double v = reg[op.entryCount - 1];
      switch (op.fold) {
        case FoldCode::Min: acc = v < acc ? v : acc; break;
        case FoldCode::Max: acc = acc < v ? v : acc; break;
        case FoldCode::Sum: acc = acc + v; break;
        case FoldCode::Count: acc = acc + 1.0; break;
      }
    }
    return acc;
  }
};

}  // namespace kfield::impl

#endif
