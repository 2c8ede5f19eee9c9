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
#include "kfield/sim/impl/RoundPlanes.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstring>

namespace kfield::impl {

// The alignment context of key inside parent: a 53-bit hash, never 0 (0 means "absent").
KOKKOS_INLINE_FUNCTION double contextMix(double parent, double key) {
  if (key == 0.0) key = 0.0;  // -0.0 and 0.0 are one key
  return double((mix64(bitsOf(parent), bitsOf(key)) >> 11) | 1u);
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
  Kokkos::View<int*, Memory> changed;      // per sample position; empty when not tracked
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
  bool anyFresh = true;                    // some live sample is in its first round
  bool writeOutput = true;                 // some live sample may end with this round
  // When not empty (and no tape), each team's values live in its slice of this buffer, not
  // in team scratch (RoundScratch.hpp).
  Kokkos::View<double*, Memory> spill;
  std::int64_t devices = 0;
  // The devices a round computes: [firstDevice, endDevice), all of them when endDevice < 0
  // (one part of a distributed network computes its own, not its ghosts).
  std::int64_t firstDevice = 0, endDevice = -1;
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
  KOKKOS_INLINE_FUNCTION bool fires(std::int64_t d, std::int64_t s) const {
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
    if (sampleClock.extent(0) > 0) return sampleClock(s) - sampleClock(live + s);
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
      threads(team, count, [&](std::int64_t dl) { f(first + dl, 0, dl); });
      return;
    }
    threads(team, count, [&](std::int64_t dl) {
      lanes(team, live, [&](std::int64_t s) { f(first + dl, s, dl * live + s); });
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
      case OpCode::Neg: return apply([](double x, double) { return -x; });
      case OpCode::Not: return apply([](double x, double) { return x == 1.0 ? 0.0 : 1.0; });
      case OpCode::Abs: return apply([](double x, double) { return math::fabs(x); });
      case OpCode::Sqrt: return apply([](double x, double) { return math::sqrt(x); });
      case OpCode::Exp: return apply([](double x, double) { return portable::exp(x); });
      case OpCode::Log: return apply([](double x, double) { return portable::log(x); });
      case OpCode::Tanh: return apply([](double x, double) { return portable::tanh(x); });
      case OpCode::Sigmoid: return apply([](double x, double) { return portable::sigmoid(x); });
      case OpCode::Pow: return apply([](double x, double y) { return portable::pow(x, y); });
      case OpCode::Param: {
        double* out = scratch + op.out * stride;
        const double value = parameters(op.plane);
        return forElements(team, count, [&](std::int64_t e) { out[e] = value; });
      }
      case OpCode::Add: return apply([](double x, double y) { return x + y; });
      case OpCode::Sub: return apply([](double x, double y) { return x - y; });
      case OpCode::Mul: return apply([](double x, double y) { return x * y; });
      case OpCode::Div: return apply([](double x, double y) { return x / y; });
      case OpCode::Min: return apply([](double x, double y) { return y < x ? y : x; });
      case OpCode::Max: return apply([](double x, double y) { return x < y ? y : x; });
      case OpCode::Less: return apply([](double x, double y) { return x < y ? 1.0 : 0.0; });
      case OpCode::LessEqual: return apply([](double x, double y) { return x <= y ? 1.0 : 0.0; });
      case OpCode::Greater: return apply([](double x, double y) { return x > y ? 1.0 : 0.0; });
      case OpCode::GreaterEqual:
        return apply([](double x, double y) { return x >= y ? 1.0 : 0.0; });
      case OpCode::Equal: return apply([](double x, double y) { return x == y ? 1.0 : 0.0; });
      case OpCode::NotEqual: return apply([](double x, double y) { return x != y ? 1.0 : 0.0; });
      case OpCode::And:
        return apply([](double x, double y) { return (x == 1.0 && y == 1.0) ? 1.0 : 0.0; });
      case OpCode::Or:
        return apply([](double x, double y) { return (x == 1.0 || y == 1.0) ? 1.0 : 0.0; });
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
        return apply([](double x, double y) { return integer::apply(integer::Op::ShiftLeft, x, y); });
      case OpCode::ShiftRight:
        return apply([](double x, double y) { return integer::apply(integer::Op::ShiftRight, x, y); });
      case OpCode::BitNot: return apply([](double x, double) { return integer::bitNot(x); });
      case OpCode::Floor: return apply([](double x, double) { return math::floor(x); });
      case OpCode::Ceil: return apply([](double x, double) { return math::ceil(x); });
      case OpCode::Mux: {
        // Each operand's kind (slot or constant) decided once: every loop is a plain select.
        double* out = scratch + op.out * stride;
        return withOperand(op.a, scratch, stride, [&](const auto& a) {
          withOperand(op.b, scratch, stride, [&](const auto& b) {
            withOperand(op.c, scratch, stride, [&](const auto& c) {
              forElements(team, count,
                          [&](std::int64_t e) { out[e] = a(e) == 1.0 ? b(e) : c(e); });
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
                                           std::int64_t count) const {
    const auto firesNow = [&](std::int64_t d, std::int64_t s) {
      return kEveryoneFires || fires(d, s);
    };
    const auto firedAlready = [&](std::int64_t d, std::int64_t s) {
      return kEveryoneFires || firedBefore(d, s);
    };
    // A lockstep step with the clock per sample: a call keyed only by the clock has key 1 on
    // every device, as its key and presence rows already say (runLockstep), so it runs unkeyed.
    const bool keyed = op.keyed != 0 && !(kEveryoneFires && sampleClock.extent(0) > 0 &&
                                          op.keyed == kKeyedByClock);
    double* out = op.out >= 0 ? scratch + op.out * stride : nullptr;
    const std::int64_t base = op.plane * devices;
    auto each = [&](const auto& f) { forDevices(team, first, count, f); };
    // Operand a: a slot (nearly always) or a constant, decided once per op.
    const double* aSlot = op.a.slot >= 0 ? scratch + op.a.slot * stride : nullptr;
    const double aConstant = op.a.constant;
    auto withA = [&](const auto& f) {
      if (aSlot) return f([=](std::int64_t e) { return aSlot[e]; });
      return f([=](std::int64_t) { return aConstant; });
    };
    const bool track = changed.extent(0) > 0;
    switch (op.code) {
      case OpCode::Sense: {
        const PlaneRows sensor = rows(planes.sensors, base);
        return each([&](std::int64_t d, std::int64_t s, std::int64_t e) { out[e] = sensor(d, s); });
      }
      case OpCode::Uid:
        return each([&](std::int64_t d, std::int64_t, std::int64_t e) {
          out[e] = net.ids.extent(0) > 0 ? double(net.ids(d)) : double(d);
        });
      case OpCode::Time:
      case OpCode::DeltaTime: {
        const bool delta = op.code == OpCode::DeltaTime;
        if (clockRow < 0) {
          return each([&](std::int64_t, std::int64_t s, std::int64_t e) {
            out[e] = delta ? (roundOf(s) > 0.0 ? 1.0 : 0.0) : roundOf(s);
          });
        }
        if (sampleClock.extent(0) > 0) {  // every device has fired before: no NaN
          return each([&](std::int64_t, std::int64_t s, std::int64_t e) {
            const double t = sampleClock(s);
            out[e] = !delta ? t : t - sampleClock(live + s);
          });
        }
        const PlaneRows now = rows(planes.states, clockRow + devices),
                        last = rows(planes.states, clockRow + 2 * devices);
        return each([&](std::int64_t d, std::int64_t s, std::int64_t e) {
          const double t = now(d, s), before = last(d, s);
          out[e] = !delta ? t : before == before ? t - before : 0.0;
        });
      }
      case OpCode::RememberRead: {
        const PlaneRows state = rows(planes.states, base), key = rows(planes.stateKeys, base);
        return withA([&](const auto& a) {
          if (keyed) {
            return each([&](std::int64_t d, std::int64_t s, std::int64_t e) {
              const double k = keyOf(op, scratch, stride, e);
              out[e] = k != 0.0 && key(d, s) == k && firedAlready(d, s) ? state(d, s) : a(e);
            });
          }
          return each([&](std::int64_t d, std::int64_t s, std::int64_t e) {
            out[e] = fresh(s) == 0 ? state(d, s) : a(e);
          });
        });
      }
      case OpCode::ShareRead: {
        const PlaneRows prev = rows(planes.exportsPrev, base),
                        was = rows(planes.presencePrev, base), now = rows(planes.presenceNow, base);
        return withA([&](const auto& a) {
          if (keyed) {
            return each([&](std::int64_t d, std::int64_t s, std::int64_t e) {
              const double k = keyOf(op, scratch, stride, e);
              now(d, s) = firesNow(d, s) ? k : was(d, s);  // this round's folds check alignment against it
              out[e] = k != 0.0 && was(d, s) == k && firedAlready(d, s) ? prev(d, s) : a(e);
            });
          }
          return each([&](std::int64_t d, std::int64_t s, std::int64_t e) {
            out[e] = fresh(s) == 0 ? prev(d, s) : a(e);
          });
        });
      }
      case OpCode::RememberWrite: {
        const PlaneRows state = rows(planes.states, base), key = rows(planes.stateKeys, base);
        return withA([&](const auto& a) {
          if (kEveryoneFires && !track) {
            if (!keyed) {
              return each([&](std::int64_t d, std::int64_t s, std::int64_t e) { state(d, s) = a(e); });
            }
            return each([&](std::int64_t d, std::int64_t s, std::int64_t e) {
              state(d, s) = a(e);
              key(d, s) = keyOf(op, scratch, stride, e);
            });
          }
          each([&](std::int64_t d, std::int64_t s, std::int64_t e) {
            if (!firesNow(d, s)) return;
            if (track) noteChange(state(d, s), a(e), s);
            state(d, s) = a(e);
            if (keyed) key(d, s) = keyOf(op, scratch, stride, e);
          });
        });
      }
      case OpCode::Export: {
        const PlaneRows now = rows(planes.exportsNow, base), prev = rows(planes.exportsPrev, base),
                        present = rows(planes.presenceNow, base);
        return withA([&](const auto& a) {
          if (!track && !keyed) {  // the common case: a plain store
            return each([&](std::int64_t d, std::int64_t s, std::int64_t e) { now(d, s) = a(e); });
          }
          if (kEveryoneFires && !track) {
            return each([&](std::int64_t d, std::int64_t s, std::int64_t e) {
              now(d, s) = a(e);
              present(d, s) = keyOf(op, scratch, stride, e);
            });
          }
          const PlaneRows was = rows(planes.presencePrev, base);
          each([&](std::int64_t d, std::int64_t s, std::int64_t e) {
            if (!firesNow(d, s)) {  // keeps what it last sent
              now(d, s) = prev(d, s);
              if (keyed) present(d, s) = was(d, s);
              return;
            }
            if (track) noteChange(prev(d, s), a(e), s);
            now(d, s) = a(e);
            if (keyed) present(d, s) = keyOf(op, scratch, stride, e);
          });
        });
      }
      case OpCode::Output: {
        if (!writeOutput) return;
        const PlaneRows result = rows(planes.output, base);  // component op.plane
        return withA([&](const auto& a) {
          each([&](std::int64_t d, std::int64_t s, std::int64_t e) {
            if (!firesNow(d, s)) return;
            if (track) noteChange(result(d, s), a(e), s);
            result(d, s) = a(e);
          });
        });
      }
      default: return;
    }
  }

  // Calls f(operation) with an entry operation on registers a (and b), the field operator of
  // the same name, as a type: a loop over it has nothing left to decide.
  template <class F>
  KOKKOS_INLINE_FUNCTION static void withEntryOperation(EntryCode code, const F& f) {
    switch (code) {
      case EntryCode::Add: return f([](double a, double b) { return a + b; });
      case EntryCode::Sub: return f([](double a, double b) { return a - b; });
      case EntryCode::Mul: return f([](double a, double b) { return a * b; });
      case EntryCode::Div: return f([](double a, double b) { return a / b; });
      case EntryCode::Min: return f([](double a, double b) { return b < a ? b : a; });
      case EntryCode::Max: return f([](double a, double b) { return a < b ? b : a; });
      case EntryCode::Less: return f([](double a, double b) { return a < b ? 1.0 : 0.0; });
      case EntryCode::Equal: return f([](double a, double b) { return a == b ? 1.0 : 0.0; });
      case EntryCode::LessEqual: return f([](double a, double b) { return a <= b ? 1.0 : 0.0; });
      case EntryCode::Greater: return f([](double a, double b) { return a > b ? 1.0 : 0.0; });
      case EntryCode::GreaterEqual: return f([](double a, double b) { return a >= b ? 1.0 : 0.0; });
      case EntryCode::NotEqual: return f([](double a, double b) { return a != b ? 1.0 : 0.0; });
      case EntryCode::And:
        return f([](double a, double b) { return (a == 1.0 && b == 1.0) ? 1.0 : 0.0; });
      case EntryCode::Or:
        return f([](double a, double b) { return (a == 1.0 || b == 1.0) ? 1.0 : 0.0; });
      case EntryCode::Pow: return f([](double a, double b) { return portable::pow(a, b); });
      case EntryCode::Neg: return f([](double a, double) { return -a; });
      case EntryCode::Not: return f([](double a, double) { return a == 1.0 ? 0.0 : 1.0; });
      case EntryCode::Abs: return f([](double a, double) { return math::fabs(a); });
      case EntryCode::Sqrt: return f([](double a, double) { return math::sqrt(a); });
      case EntryCode::Exp: return f([](double a, double) { return portable::exp(a); });
      case EntryCode::Log: return f([](double a, double) { return portable::log(a); });
      case EntryCode::Tanh: return f([](double a, double) { return portable::tanh(a); });
      case EntryCode::Sigmoid: return f([](double a, double) { return portable::sigmoid(a); });
      case EntryCode::Floor: return f([](double a, double) { return math::floor(a); });
      case EntryCode::Ceil: return f([](double a, double) { return math::ceil(a); });
      default: return f([](double, double) { return 0.0; });  // leaves and Mux: not operations
    }
  }
  KOKKOS_INLINE_FUNCTION static double entryOperation(EntryCode code, double a, double b) {
    double result = 0.0;
    withEntryOperation(code, [&](const auto& op) { result = op(a, b); });
    return result;
  }
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

  // Calls f(combine) with the fold's combining function as a type, so that the loops below
  // are compiled once per fold kind with nothing to decide inside them.
  template <class F>
  KOKKOS_INLINE_FUNCTION static void withCombine(FoldCode code, const F& f) {
    switch (code) {
      case FoldCode::Min: return f([](double acc, double v) { return v < acc ? v : acc; });
      case FoldCode::Max: return f([](double acc, double v) { return acc < v ? v : acc; });
      case FoldCode::Sum: return f([](double acc, double v) { return acc + v; });
      case FoldCode::Count: return f([](double acc, double) { return acc + 1.0; });
      case FoldCode::Any:
        return f([](double acc, double v) { return acc == 1.0 || v == 1.0 ? 1.0 : 0.0; });
      case FoldCode::All:
        return f([](double acc, double v) { return acc == 1.0 && v == 1.0 ? 1.0 : 0.0; });
      default: return f([](double, double v) { return v; });  // Self: only its entry is visited
    }
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
                                   std::int64_t count) const {
    const int form = fusedForm(op);
    withCombine(op.fold, [&](const auto& combine) {
      if (form == 1) {
        return neighborFold(team, op, scratch, stride, first, count, combine,
                            [](double v, std::int64_t) { return v; });
      }
      if (form == 2) {
        const EntryOp &x = entries(op.entryBegin + 1), &b = entries(op.entryBegin + 2);
        return withBinary(b.code, [&](const auto& binary) {
          if (x.code == EntryCode::EdgeLength) {
            const double* length = net.lengths.data();
            return neighborFold(team, op, scratch, stride, first, count, combine,
                                [=](double v, std::int64_t k) { return binary(v, length[k]); });
          }
          const double c = x.constant;
          return neighborFold(team, op, scratch, stride, first, count, combine,
                              [=](double v, std::int64_t) { return binary(v, c); });
        });
      }
      interpretedFold(team, op, scratch, stride, first, count, combine);
    });
  }

  KOKKOS_INLINE_FUNCTION double initialOf(FoldCode code) const {
    const double inf = math::infinity();
    return code == FoldCode::Min   ? inf
           : code == FoldCode::Max ? -inf
           : code == FoldCode::All ? 1.0
                                   : 0.0;
  }

  // A fold whose entry is value(neighbor's export, entry index), the export unconditional.
  template <class Combine, class Value>
  KOKKOS_INLINE_FUNCTION void neighborFold(const Team& team, const Op& op, double* scratch,
                                           std::int64_t stride, std::int64_t first,
                                           std::int64_t count, const Combine& combine,
                                           const Value& value) const {
    const double init = initialOf(op.fold);
    double* out = scratch + op.out * stride;
    const EntryOp only = entries(op.entryBegin);
    const std::int64_t row = only.plane * devices;
    // Everything the neighbor loop needs, in locals: nothing to reload per neighbor.
    const std::int64_t ps = static_cast<std::int64_t>(planes.exportsPrev.stride(0));
    const double* prev = planes.exportsPrev.data() + row * ps;
    const double* now = planes.exportsNow.data() + row * ps;
    const std::int64_t* offsets = net.offsets.data();
    const std::int32_t* neighbors = net.neighbors.data();
    const double* own = only.slot >= 0 ? scratch + only.slot * stride : nullptr;
    const bool visitSelf = op.excludeSelf == 0 || op.fold == FoldCode::Self;
    const bool visitOthers = op.fold != FoldCode::Self;
    // On a Schedule: a neighbor is in the fold when this device hears it and it ran the call
    // in its last firing (key 1; kKeyedByClock). Once everyone hears everyone, every neighbor
    // has fired and so ran it: the fold is a synchronous round's.
    const bool scheduled = clockRow >= 0;
    const bool clocked = scheduled && !everyoneHeard;
    const std::int64_t pps = clocked ? static_cast<std::int64_t>(planes.presencePrev.stride(0)) : 0;
    const double* present = clocked ? planes.presencePrev.data() + row * pps : nullptr;
    auto inFold = [&](std::int64_t d, std::int64_t j, std::int64_t s) {
      return heard(d, j, s) && present[j * pps + s] == 1.0;
    };
    if (live == 1) {  // the hot case of a single sample, scalar all through
      const bool others = visitOthers && !(anyFresh && fresh(0) != 0);
      threads(team, count, [&](std::int64_t dl) {
        const std::int64_t d = first + dl;
        double acc = init;
        // A device that does not fire this step keeps nothing it computes: no need to fold.
        const std::int64_t end = scheduled && !fires(d, 0) ? offsets[d] : offsets[d + 1];
        for (std::int64_t k = offsets[d]; k < end; ++k) {
          const std::int64_t j = neighbors[k];
          if (j == d) {
            if (visitSelf) acc = combine(acc, value(own ? own[dl] : now[d * ps], k));
          } else if (others && (!clocked || inFold(d, j, 0))) {
            acc = combine(acc, value(prev[j * ps], k));
          }
        }
        out[dl] = acc;
      });
      return;
    }
    threads(team, count, [&](std::int64_t dl) {
      const std::int64_t d = first + dl;
      double* acc = out + dl * live;
      lanes(team, live, [&](std::int64_t s) { acc[s] = init; });
      for (std::int64_t k = offsets[d]; k < offsets[d + 1]; ++k) {
        const std::int64_t j = neighbors[k];
        const bool self = j == d;
        if (self ? !visitSelf : !visitOthers) continue;
        const double* v = !self ? prev + j * ps : own ? own + dl * live : now + d * ps;
        if (self || (!anyFresh && !clocked)) {
          combineRow(team, acc, v, combine, value, k);
        } else if (clocked) {  // heard(d, j, s) over the samples, with its rows in locals
          const std::int64_t ss = static_cast<std::int64_t>(planes.states.stride(0));
          const double* time = planes.states.data() + (clockRow + devices + d) * ss;
          const double* sent = planes.states.data() + (clockRow + 2 * devices + j) * ss;
          const double* ran = present + j * pps;
          const double keep = retain;
          lanes(team, live, [&](std::int64_t s) {
            const bool in = time[s] - sent[s] <= keep && ran[s] == 1.0;  // NaN: not fired
            const double x = combine(acc[s], value(v[s], k));
            acc[s] = in ? x : acc[s];
          });
        } else {
          lanes(team, live, [&](std::int64_t s) {
            if (fresh(s) == 0) acc[s] = combine(acc[s], value(v[s], k));
          });
        }
      }
    });
  }

  // acc[s] = combine(acc[s], value(v[s], k)) over the live samples; acc and v never overlap
  // (a fold's output slot is none of its inputs).
  template <class Combine, class Value>
  KOKKOS_INLINE_FUNCTION void combineRow(const Team& team, double* KOKKOS_RESTRICT acc,
                                         const double* KOKKOS_RESTRICT v, const Combine& combine,
                                         const Value& value, std::int64_t k) const {
    if constexpr (RoundTuning<ExecSpace>::kTeamLanes) {
      lanes(team, live, [&](std::int64_t s) { acc[s] = combine(acc[s], value(v[s], k)); });
    } else {
      (void)team;
      const std::int64_t n = live;
      for (std::int64_t s = 0; s < n; ++s) acc[s] = combine(acc[s], value(v[s], k));
    }
  }

  // Any other entry program, interpreted per (neighbor, sample).
  template <class Combine>
  KOKKOS_INLINE_FUNCTION void interpretedFold(const Team& team, const Op& op, double* scratch,
                                              std::int64_t stride, std::int64_t first,
                                              std::int64_t count, const Combine& combine) const {
    const double init = initialOf(op.fold);
    double* out = scratch + op.out * stride;
    if constexpr (!RoundTuning<ExecSpace>::kTeamLanes) {  // host: a block of entries at once
      (void)team;
      const bool keyed = readsAnyPresence(op);
      for (std::int64_t dl = 0; dl < count; ++dl) {
        const std::int64_t d = first + dl;
        double* acc = out + dl * live;
        for (std::int64_t s = 0; s < live; ++s) acc[s] = init;
        EntryBlock block;
        auto fold = [&] {
          const double* v = evaluateBlock(*this, op, scratch, stride, d, dl, block);
          for (int i = 0; i < block.size; ++i) acc[block.s[i]] = combine(acc[block.s[i]], v[i]);
          block.size = 0;
        };
        for (std::int64_t k = net.offsets(d); k < net.offsets(d + 1); ++k) {
          const std::int64_t j = net.neighbors(k);
          const bool self = j == d;
          if (op.fold == FoldCode::Self ? !self : (self && op.excludeSelf != 0)) continue;
          for (std::int64_t s = 0; s < live; ++s) {
            if (!self && (keyed ? !aligned(op, d, j, s) : fresh(s) != 0)) continue;
            if (block.add(k, j, s)) fold();
          }
        }
        if (block.size > 0) fold();
      }
      return;
    }
    threads(team, count, [&](std::int64_t dl) {
      const std::int64_t d = first + dl;
      double* acc = out + dl * live;
      lanes(team, live, [&](std::int64_t s) { acc[s] = init; });
      for (std::int64_t k = net.offsets(d); k < net.offsets(d + 1); ++k) {
        const std::int64_t j = net.neighbors(k);
        const bool self = j == d;
        if (op.fold == FoldCode::Self ? !self : (self && op.excludeSelf != 0)) continue;
        lanes(team, live, [&](std::int64_t s) {
          if (!self && !aligned(op, d, j, s)) return;
          acc[s] = combine(acc[s], entryValue(op, scratch, stride, d, j, k, s, dl * live + s));
        });
      }
    });
  }

  // Does the entry program check any presence key (a conditional export or exchange)?
  KOKKOS_INLINE_FUNCTION bool readsAnyPresence(const Op& op) const {
    if (clockRow >= 0) return true;  // whom a device hears depends on who has fired
    for (int r = 0; r < op.entryCount; ++r) {
      if (readsPresence(entries(op.entryBegin + r))) return true;
    }
    return false;
  }

  // The lexicographic min or max of ops(index) and the FoldComponent ops after it, in one pass
  // in CSR order: each entry's components are compared in turn, and one that is better where
  // all before it are equal replaces the result from there on. The same bits as the plain
  // folds the trace holds (Program::lexicographicFold): component k's result is the fold of
  // the entries equal to the results before it, and a neighbor takes part in component k when
  // it is aligned for the exports of components 0 to k.
  KOKKOS_INLINE_FUNCTION void lexicographicFold(const Team& team, int index, double* scratch,
                                                std::int64_t stride, std::int64_t first,
                                                std::int64_t count) const {
    const Op& op = ops(index);
    const int width = op.lexicographic;
    const bool isMax = op.fold == FoldCode::Max;
    const double init = initialOf(op.fold);
    int form[kMaxLexicographicComponents];
    bool keyed = false;
    for (int c = 0; c < width; ++c) {
      const Op& part = ops(index + c);
      form[c] = fusedForm(part);
      for (int r = 0; r < part.entryCount; ++r) {
        const EntryOp& x = entries(part.entryBegin + r);
        keyed = keyed || readsPresence(x) || clockRow >= 0;
      }
    }
    if constexpr (!RoundTuning<ExecSpace>::kTeamLanes) {
      bool fused = !keyed && !anyFresh && width <= 4;
      for (int c = 0; c < width; ++c) fused = fused && form[c] != 0;
      if (fused) {
        (void)team;
        if (width == 2) return fusedLexicographicFold<2>(index, scratch, stride, first, count);
        if (width == 3) return fusedLexicographicFold<3>(index, scratch, stride, first, count);
        return fusedLexicographicFold<4>(index, scratch, stride, first, count);
      }
    }
    threads(team, count, [&](std::int64_t dl) {
      const std::int64_t d = first + dl;
      lanes(team, live, [&](std::int64_t s) {
        for (int c = 0; c < width; ++c) scratch[ops(index + c).out * stride + dl * live + s] = init;
      });
      for (std::int64_t k = net.offsets(d); k < net.offsets(d + 1); ++k) {
        const std::int64_t j = net.neighbors(k);
        const bool self = j == d;
        if (self && op.excludeSelf != 0) continue;
        lanes(team, live, [&](std::int64_t s) {
          const std::int64_t e = dl * live + s;
          const int reach = self                ? width
                            : fresh(s) != 0     ? 0
                            : keyed             ? alignedComponents(index, width, d, j, s)
                                                : width;
          bool replaced = false;
          for (int c = 0; c < reach; ++c) {
            const Op& part = ops(index + c);
            const double v = componentValue(part, form[c], scratch, stride, d, j, k, s, e);
            double& best = scratch[part.out * stride + e];
            if (replaced) {
              best = isMax ? (init < v ? v : init) : (v < init ? v : init);
            } else if (isMax ? best < v : v < best) {
              best = v;
              replaced = true;
            } else if (!(v == best)) {
              return;
            }
          }
          for (int c = reach; replaced && c < width; ++c) scratch[ops(index + c).out * stride + e] = init;
        });
      }
    });
  }

  // The common case on host backends: every component a neighbor's unconditional export (op
  // an edge length or a constant), no sample in its first round, 2 to 4 components. The
  // neighbor loop reads everything from locals; a component's entries are formed for a block
  // of samples, then merged without a branch, so both sample loops vectorise. One sample:
  // the results stay in registers.
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
                                                                  std::int64_t stride) const {
    LexicographicParts<W> p;
    const Op& op = ops(index);
    p.isMax = op.fold == FoldCode::Max;
    p.excludeSelf = op.excludeSelf != 0;
    p.init = initialOf(op.fold);
    p.ps = static_cast<std::int64_t>(planes.exportsPrev.stride(0));
    for (int c = 0; c < W; ++c) {
      const Op& part = ops(index + c);
      const EntryOp& v = entries(part.entryBegin);
      p.prev[c] = planes.exportsPrev.data() + v.plane * devices * p.ps;
      p.now[c] = planes.exportsNow.data() + v.plane * devices * p.ps;
      p.own[c] = v.slot >= 0 ? scratch + v.slot * stride : nullptr;
      p.out[c] = scratch + part.out * stride;
      const bool binary = part.entryCount == 3;
      p.code[c] = binary ? entries(part.entryBegin + 2).code : EntryCode::Neighbor;
      p.edge[c] = binary && entries(part.entryBegin + 1).code == EntryCode::EdgeLength;
      p.constant[c] = binary ? entries(part.entryBegin + 1).constant : 0.0;
    }
    return p;
  }

  // The common case on host backends: every component a neighbor's unconditional export (op
  // an edge length or a constant), no sample in its first round, 2 to 4 components. The
  // neighbor loop reads everything from locals. One sample: the results stay in registers,
  // each entry merged without a branch.
  template <int W>
  KOKKOS_INLINE_FUNCTION void fusedLexicographicFold(int index, double* scratch, std::int64_t stride,
                              std::int64_t first, std::int64_t count) const {
    const LexicographicParts<W> p = lexicographicParts<W>(index, scratch, stride);
    if (live > 1) return fusedLexicographicFoldSamples(p, first, count);
    const std::int64_t* offsets = net.offsets.data();
    const std::int32_t* neighbors = net.neighbors.data();
    const double* lengths = net.lengths.data();
    for (std::int64_t dl = 0; dl < count; ++dl) {
      const std::int64_t d = first + dl;
      double best[W];
      for (int c = 0; c < W; ++c) best[c] = p.init;
      for (std::int64_t k = offsets[d]; k < offsets[d + 1]; ++k) {
        const std::int64_t j = neighbors[k];
        const bool self = j == d;
        if (self && p.excludeSelf) continue;
        const double length = lengths != nullptr ? lengths[k] : 0.0;
        bool replaced = false, tied = true;
        for (int c = 0; c < W; ++c) {  // best after one more entry, from the first better one
          const double v = p.form(c, !self ? p.prev[c][j * p.ps] : p.own[c] ? p.own[c][dl] : p.now[c][d * p.ps],
                                  length);
          const bool better = tied && (p.isMax ? best[c] < v : v < best[c]);
          const double reset = p.isMax ? (p.init < v ? v : p.init) : (v < p.init ? v : p.init);
          tied = tied && v == best[c];
          best[c] = replaced ? reset : better ? v : best[c];
          replaced = replaced || better;
        }
      }
      for (int c = 0; c < W; ++c) p.out[c][dl] = best[c];
    }
  }

  // Several samples: a component's entries are formed for a block of samples, then merged a
  // component at a time without a branch, so both sample loops vectorise.
  template <int W>
  KOKKOS_INLINE_FUNCTION void fusedLexicographicFoldSamples(const LexicographicParts<W>& p, std::int64_t first,
                                     std::int64_t count) const {
    constexpr std::int64_t kBlock = 64;
    const std::int64_t* offsets = net.offsets.data();
    const std::int32_t* neighbors = net.neighbors.data();
    const double* lengths = net.lengths.data();
    const std::int64_t n = live, ps = p.ps;
    const double init = p.init;
    for (std::int64_t dl = 0; dl < count; ++dl) {
      const std::int64_t d = first + dl;
      for (int c = 0; c < W; ++c) {
        double* o = p.out[c] + dl * n;
        for (std::int64_t s = 0; s < n; ++s) o[s] = init;
      }
      for (std::int64_t k = offsets[d]; k < offsets[d + 1]; ++k) {
        const std::int64_t j = neighbors[k];
        const bool self = j == d;
        if (self && p.excludeSelf) continue;
        const double length = lengths != nullptr ? lengths[k] : 0.0;
        for (std::int64_t s0 = 0; s0 < n; s0 += kBlock) {
          const std::int64_t m = n - s0 < kBlock ? n - s0 : kBlock;
          double formed[W][kBlock];
          const double* v[W];  // the entries: the export itself, or formed from it
          for (int c = 0; c < W; ++c) {
            const double* x = !self ? p.prev[c] + j * ps + s0
                              : p.own[c] ? p.own[c] + dl * n + s0
                                       : p.now[c] + d * ps + s0;
            const double y = p.edge[c] ? length : p.constant[c];
            double* vc = formed[c];
            v[c] = p.code[c] == EntryCode::Neighbor ? x : vc;
            switch (p.code[c]) {  // one loop per form, nothing decided inside
              case EntryCode::Neighbor: break;
              case EntryCode::Add:
                for (std::int64_t s = 0; s < m; ++s) vc[s] = x[s] + y;
                break;
              default:
                for (std::int64_t s = 0; s < m; ++s) vc[s] = entryOperation(p.code[c], x[s], y);
            }
          }
          // merge, a component at a time over the block (int64 flags: vectorised with the
          // doubles they select).
          std::int64_t replaced[kBlock], tied[kBlock];
          for (std::int64_t s = 0; s < m; ++s) replaced[s] = 0, tied[s] = 1;
          for (int c = 0; c < W; ++c) {
            double* KOKKOS_RESTRICT o = p.out[c] + dl * n + s0;
            const double* KOKKOS_RESTRICT x = v[c];
            auto merge = [&](const auto& better) {  // better(entry, best): a strict order
              for (std::int64_t s = 0; s < m; ++s) {
                const double best = o[s], e = x[s];
                const std::int64_t improves = tied[s] & std::int64_t(better(e, best));
                tied[s] &= std::int64_t(e == best);
                o[s] = replaced[s] ? (better(e, init) ? e : init) : improves ? e : best;
                replaced[s] |= improves;
              }
            };
            if (p.isMax) {
              merge([](double e, double best) { return best < e; });
            } else {
              merge([](double e, double best) { return e < best; });
            }
          }
        }
      }
    }
  }

  // How many leading components of a lexicographic fold neighbor j is aligned with.
  KOKKOS_INLINE_FUNCTION int alignedComponents(int index, int width, std::int64_t d,
                                               std::int64_t j, std::int64_t s) const {
    for (int c = 0; c < width; ++c) {
      if (!aligned(ops(index + c), d, j, s)) return c;
    }
    return width;
  }

  // A component's entry for neighbor j (entry k of the row): its fused form read directly,
  // any other interpreted.
  KOKKOS_INLINE_FUNCTION double componentValue(const Op& part, int form, const double* scratch,
                                               std::int64_t stride, std::int64_t d,
                                               std::int64_t j, std::int64_t k, std::int64_t s,
                                               std::int64_t e) const {
    if (form == 0) return entryValue(part, scratch, stride, d, j, k, s, e);
    const EntryOp& v = entries(part.entryBegin);
    const std::int64_t row = v.plane * devices;
    const double x = j != d        ? planes.exportsPrev(row + j, s)
                     : v.slot >= 0 ? scratch[v.slot * stride + e]
                                   : planes.exportsNow(row + d, s);
    if (form == 1) return x;
    const EntryOp &operand = entries(part.entryBegin + 1), &op = entries(part.entryBegin + 2);
    return entryOperation(op.code, x,
                          operand.code == EntryCode::EdgeLength ? net.lengths(k) : operand.constant);
  }

  // The export row of neighbor j that entry x reads: its plane's, or inside a spawn's
  // process the row of the copy (slot) where j ran the same process last round; -1 if none.
  KOKKOS_INLINE_FUNCTION std::int64_t neighborRow(const EntryOp& x, std::int64_t d, std::int64_t j,
                                                  std::int64_t s) const {
    if (x.copies == 0) return x.plane * devices + j;
    const double mine = ownKey(x.keyed, x.plane, d, s);
    if (mine == 0.0) return -1;
    const std::int64_t base = x.plane - x.copy * x.copyStride;
    for (int q = 0; q < x.copies; ++q) {
      const std::int64_t row = (base + q * x.copyStride) * devices + j;
      if (planes.presencePrev(row, s) == mine) return row;
    }
    return -1;
  }

  // The key of a spawn's slot (OpCode::SpawnKey). Keys are whole numbers >= 0; a live one
  // stays in its slot, and the free slots take the new keys (launched here, or spread by an
  // aligned neighbor last round, not held here) smallest first. The slot-0 op notes an overflow.
  KOKKOS_INLINE_FUNCTION void spawnKey(const Team& team, const Op& op, double* scratch,
                                       std::int64_t stride, std::int64_t first,
                                       std::int64_t count) const {
    double* out = scratch + op.out * stride;
    const double* launch = op.a.slot >= 0 ? scratch + op.a.slot * stride : nullptr;
    forDevices(team, first, count, [&](std::int64_t d, std::int64_t s, std::int64_t e) {
      const double k = keyOf(op, scratch, stride, e);
      double held[kMaxProcesses];
      int free = 0, rank = -1;
      for (int t = 0; t < op.width; ++t) {
        const std::int64_t row = (op.state + t) * devices + d;
        const bool kept = op.keyed ? k != 0.0 && planes.stateKeys(row, s) == k && firedBefore(d, s)
                                   : fresh(s) == 0;
        held[t] = kept ? planes.states(row, s) : -1.0;
        if (!(held[t] >= 0.0)) {
          held[t] = -1.0;
          if (t == op.slot) rank = free;
          ++free;
        }
      }
      // Slot 0's op counts the new keys even when its own slot is taken: more new keys than
      // free slots is an overflow, whichever slots are free.
      const bool counts = op.slot == 0 && overflow.extent(0) > 0 && fires(d, s);
      if (rank < 0 && !counts) {  // a live process keeps its slot
        out[e] = held[op.slot];
        return;
      }
      const double launched = launch ? launch[e] : op.a.constant;
      const bool others = fresh(s) == 0 && k != 0.0;
      // The smallest new key above `after` (+inf: none).
      auto next = [&](double after) {
        double best = math::infinity();
        auto consider = [&](double c) {
          if (!(c >= 0.0) || !(c > after) || !(c < best)) return;
          for (int t = 0; t < op.width; ++t) {
            if (held[t] == c) return;
          }
          best = c;
        };
        if (k != 0.0) consider(launched);
        for (std::int64_t n = net.offsets(d); others && n < net.offsets(d + 1); ++n) {
          const std::int64_t j = net.neighbors(n);
          if (j == d || (clockRow >= 0 && !heard(d, j, s))) continue;
          for (int t = 0; t < op.width; ++t) {
            const std::int64_t row = (op.plane + t) * devices + j;
            if (op.keyed && planes.presencePrev(row, s) != k) continue;
            consider(planes.exportsPrev(row, s));
          }
        }
        return best;
      };
      double key = -1.0;
      int found = 0;
      for (double at = next(-1.0); at < math::infinity(); at = next(at)) {
        if (found == rank) key = at;
        ++found;
        if (op.slot > 0 && found > rank) break;  // only slot 0's op counts them all
      }
      out[e] = rank < 0 ? held[op.slot] : key;
      if (counts && found > free) {
        Kokkos::atomic_fetch_min(&overflow(op.spawn * static_cast<std::int64_t>(fresh.extent(0)) + s), d);
      }
    });
  }

  // The row of what neighbor j sent this device last round, read at entry k (d hears j).
  KOKKOS_INLINE_FUNCTION std::int64_t receivedRow(const EntryOp& x, std::int64_t k) const {
    return planes.edgeRow + x.edge * static_cast<std::int64_t>(net.neighbors.extent(0)) + net.reverse(k);
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
                                           std::int64_t count) const {
    const bool track = changed.extent(0) > 0;
    const std::int64_t row = op.plane * devices;
    const std::int64_t edges = planes.edgeRow + op.edge * static_cast<std::int64_t>(net.neighbors.extent(0));
    if constexpr (!RoundTuning<ExecSpace>::kTeamLanes) {  // host: the neighbors' entries a block at once
      (void)team;
      const bool keyed = op.keyed != 0 || readsAnyPresence(op);
      for (std::int64_t dl = 0; dl < count; ++dl) {
        const std::int64_t d = first + dl;
        const std::int64_t begin = net.offsets(d), end = net.offsets(d + 1);
        std::int64_t self = begin;
        while (self < end && net.neighbors(self) != d) ++self;
        EntryBlock block;
        auto keep = [&] {  // the own entries
          const double* v = evaluateBlock(*this, op, scratch, stride, d, dl, block);
          for (int i = 0; i < block.size; ++i) {
            const std::int64_t s = block.s[i];
            if (track) noteChange(planes.exportsPrev(row + d, s), v[i], s);
            planes.exportsNow(row + d, s) = v[i];
            if (op.keyed) planes.presenceNow(row + d, s) = keyOf(op, scratch, stride, dl * live + s);
          }
          block.size = 0;
        };
        for (std::int64_t s = 0; s < live; ++s) {
          if (!fires(d, s)) {  // keeps what it last sent, to itself and to each neighbor
            planes.exportsNow(row + d, s) = planes.exportsPrev(row + d, s);
            if (op.keyed) planes.presenceNow(row + d, s) = planes.presencePrev(row + d, s);
            for (std::int64_t k = begin; k < end; ++k) {
              planes.exportsNow(edges + k, s) = planes.exportsPrev(edges + k, s);
            }
          } else if (block.add(self, d, s)) {
            keep();
          }
        }
        if (block.size > 0) keep();
        auto write = [&](std::int64_t k, std::int64_t s, double v) {
          if (track) noteChange(planes.exportsPrev(edges + k, s), v, s);
          planes.exportsNow(edges + k, s) = v;
        };
        auto send = [&] {
          const double* v = evaluateBlock(*this, op, scratch, stride, d, dl, block);
          for (int i = 0; i < block.size; ++i) write(block.k[i], block.s[i], v[i]);
          block.size = 0;
        };
        for (std::int64_t k = begin; k < end; ++k) {
          const std::int64_t j = net.neighbors(k);
          for (std::int64_t s = 0; s < live; ++s) {
            if (!fires(d, s)) continue;
            const bool to = j != d && (keyed ? sendsTo(op, d, j, s) : fresh(s) == 0);
            if (!to) {
              write(k, s, planes.exportsNow(row + d, s));  // the own entry
            } else if (block.add(k, j, s)) {
              send();
            }
          }
        }
        if (block.size > 0) send();
      }
      return;
    }
    threads(team, count, [&](std::int64_t dl) {
      const std::int64_t d = first + dl;
      const std::int64_t begin = net.offsets(d), end = net.offsets(d + 1);
      std::int64_t self = begin;
      while (self < end && net.neighbors(self) != d) ++self;
      lanes(team, live, [&](std::int64_t s) {
        if (!fires(d, s)) {  // keeps what it last sent, to itself and to each neighbor
          planes.exportsNow(row + d, s) = planes.exportsPrev(row + d, s);
          if (op.keyed) planes.presenceNow(row + d, s) = planes.presencePrev(row + d, s);
          for (std::int64_t k = begin; k < end; ++k) {
            planes.exportsNow(edges + k, s) = planes.exportsPrev(edges + k, s);
          }
          return;
        }
        const std::int64_t e = dl * live + s;
        const double own = entryValue(op, scratch, stride, d, d, self, s, e);
        if (track) noteChange(planes.exportsPrev(row + d, s), own, s);
        planes.exportsNow(row + d, s) = own;
        if (op.keyed) planes.presenceNow(row + d, s) = keyOf(op, scratch, stride, e);
        for (std::int64_t k = begin; k < end; ++k) {
          const std::int64_t j = net.neighbors(k);
          const double v = j != d && sendsTo(op, d, j, s) ? entryValue(op, scratch, stride, d, j, k, s, e) : own;
          if (track) noteChange(planes.exportsPrev(edges + k, s), v, s);
          planes.exportsNow(edges + k, s) = v;
        }
      });
    });
  }

  KOKKOS_INLINE_FUNCTION double entryValue(const Op& op, const double* scratch, std::int64_t stride,
                                           std::int64_t d, std::int64_t j, std::int64_t k,
                                           std::int64_t s, std::int64_t e) const {
    double reg[kMaxEntryOps];
    for (int r = 0; r < op.entryCount; ++r) {
      const EntryOp& x = entries(op.entryBegin + r);
      switch (x.code) {
        case EntryCode::Neighbor: {
          if (j != d) {
            const std::int64_t row = neighborRow(x, d, j, s);
            reg[r] = row >= 0 ? planes.exportsPrev(row, s) : 0.0;
          } else {
            reg[r] = x.slot >= 0 ? scratch[x.slot * stride + e] : planes.exportsNow(x.plane * devices + d, s);
          }
          break;
        }
        case EntryCode::Received:
          reg[r] = j != d ? planes.exportsPrev(receivedRow(x, k), s) : scratch[x.slot * stride + e];
          break;
        case EntryCode::EdgeLength: reg[r] = net.lengths(k); break;
        case EntryCode::Lag: reg[r] = lag(d, j, s); break;
        case EntryCode::Local: reg[r] = scratch[x.slot * stride + e]; break;
        case EntryCode::Constant: reg[r] = x.constant; break;
        case EntryCode::Mux: reg[r] = reg[x.a] == 1.0 ? reg[x.b] : reg[x.c]; break;
        default: reg[r] = entryOperation(x.code, reg[x.a], secondRegister(x, reg));
      }
    }
    return reg[op.entryCount - 1];
  }
};

}  // namespace kfield::impl

#endif
