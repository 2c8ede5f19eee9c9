// RoundKernel's operations on the planes kept across rounds (sensors, states, exports, output),
// with or without per-element firing checks (RoundKernel.hpp declares them).
#ifndef KFIELD_SIM_IMPL_ROUNDDEVICEOPS_HPP
#define KFIELD_SIM_IMPL_ROUNDDEVICEOPS_HPP

#include "kfield/sim/impl/RoundKernel.hpp"

namespace kfield::impl {

template <class ExecSpace>
template <bool kEveryoneFires>
KOKKOS_INLINE_FUNCTION void RoundKernel<ExecSpace>::perDeviceOps(const Team& team, const Op& op,
                                                                 double* scratch,
                                                                 std::int64_t stride,
                                                                 std::int64_t first,
                                                                 std::int64_t count) const {
  const auto firesNow = [&](std::int64_t d, std::int64_t s) {
    return kEveryoneFires || fires(d, s);
  };
  const auto firedAlready = [&](std::int64_t d, std::int64_t s) {
    return kEveryoneFires || firedBefore(d, s);
  };
  // A lockstep step with the clock per sample: a call keyed only by the clock has key 1 on
  // every device, as its key and presence rows already say (runLockstep), so it runs unkeyed.
  const bool keyed =
      op.keyed != 0 && !(kEveryoneFires && sampleClock.extent(0) > 0 && op.keyed == kKeyedByClock);
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
      const PlaneRows prev = rows(planes.exportsPrev, base), was = rows(planes.presencePrev, base),
                      now = rows(planes.presenceNow, base);
      return withA([&](const auto& a) {
        if (keyed) {
          return each([&](std::int64_t d, std::int64_t s, std::int64_t e) {
            const double k = keyOf(op, scratch, stride, e);
            now(d, s) =
                firesNow(d, s) ? k : was(d, s);  // this round's folds check alignment against it
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
            return each(
                [&](std::int64_t d, std::int64_t s, std::int64_t e) { state(d, s) = a(e); });
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

}  // namespace kfield::impl

#endif
