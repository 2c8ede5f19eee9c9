// What a round reads of its neighbors and sends them (RoundKernel.hpp declares it): the export
// row an entry reads, an entry program's value, an exchange's sends and a spawn's keys.
#ifndef KFIELD_SIM_IMPL_ROUNDMESSAGES_HPP
#define KFIELD_SIM_IMPL_ROUNDMESSAGES_HPP

#include "kfield/sim/impl/RoundKernel.hpp"

namespace kfield::impl {

template <class ExecSpace>
KOKKOS_INLINE_FUNCTION std::int64_t RoundKernel<ExecSpace>::neighborRow(const EntryOp& x,
                                                                        std::int64_t d,
                                                                        std::int64_t j,
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

// Keys of `width` components compare lexicographically; they are whole numbers, a live one's
// first component >= 0.
KOKKOS_INLINE_FUNCTION bool keyBefore(const double* x, const double* y, int width) {
  for (int i = 0; i < width; ++i) {
    if (x[i] != y[i]) return x[i] < y[i];
  }
  return false;
}

template <class ExecSpace>
KOKKOS_INLINE_FUNCTION void RoundKernel<ExecSpace>::spawnKey(const Team& team, const Op& op,
                                                             double* scratch, std::int64_t stride,
                                                             std::int64_t first,
                                                             std::int64_t count) const {
  double* out = scratch + op.out * stride;
  const int width = op.keyWidth;
  const Operand launchParts[kMaxKeyWidth] = {op.a, op.b, op.c};
  forDevices(team, first, count, [&](std::int64_t d, std::int64_t s, std::int64_t e) {
    const double k = keyOf(op, scratch, stride, e);
    // Component i of slot t's key as the device kept it last round.
    auto keptPart = [&](int t, int i) {
      return planes.states((op.state + t * width + i) * devices + d, s);
    };
    double held[kMaxProcesses];  // each slot's live key's first component; -1: free
    int free = 0, rank = -1;
    for (int t = 0; t < op.width; ++t) {
      const std::int64_t row = (op.state + t * width) * devices + d;
      const bool kept =
          op.keyed ? k != 0.0 && planes.stateKeys(row, s) == k && firedBefore(d, s) : fresh(s) == 0;
      held[t] = kept ? planes.states(row, s) : -1.0;
      if (!(held[t] >= 0.0)) {
        held[t] = -1.0;
        if (t == op.slot) rank = free;
        ++free;
      }
    }
    // Slot 0's op counts the new keys even when its own slot is taken: more new keys than
    // free slots is an overflow, whichever slots are free.
    const bool counts = op.slot == 0 && op.component == 0 && overflow.extent(0) > 0 && fires(d, s);
    if (rank < 0 && !counts) {  // a live process keeps its slot
      out[e] = keptPart(op.slot, op.component);
      return;
    }
    double launched[kMaxKeyWidth];
    for (int i = 0; i < width; ++i) {
      const Operand& o = launchParts[i];
      launched[i] = o.slot >= 0 ? scratch[o.slot * stride + e] : o.constant;
    }
    const bool others = fresh(s) == 0 && k != 0.0;
    // The smallest new key after `after` into best (first component +inf: none).
    auto next = [&](const double* after, double* best) {
      best[0] = math::infinity();
      auto consider = [&](auto part) {
        if (!(part(0) >= 0.0)) return;
        double c[kMaxKeyWidth];
        for (int i = 0; i < width; ++i) c[i] = part(i);
        if (!keyBefore(after, c, width) || !keyBefore(c, best, width)) return;
        for (int t = 0; t < op.width; ++t) {
          if (held[t] != c[0]) continue;
          int i = 1;
          while (i < width && keptPart(t, i) == c[i]) ++i;
          if (i == width) return;
        }
        for (int i = 0; i < width; ++i) best[i] = c[i];
      };
      if (k != 0.0) consider([&](int i) { return launched[i]; });
      for (std::int64_t n = net.offsets(d); others && n < net.offsets(d + 1); ++n) {
        const std::int64_t j = net.neighbors(n);
        if (j == d || (clockRow >= 0 && !heard(d, j, s))) continue;
        for (int t = 0; t < op.width; ++t) {
          const std::int64_t row = (op.plane + t * width) * devices + j;
          if (op.keyed && planes.presencePrev(row, s) != k) continue;
          consider([&](int i) { return planes.exportsPrev(row + i * devices, s); });
        }
      }
    };
    double at[kMaxKeyWidth] = {-1.0, -1.0, -1.0}, following[kMaxKeyWidth], key = -1.0;
    int found = 0;
    for (next(at, following); following[0] < math::infinity(); next(at, following)) {
      for (int i = 0; i < width; ++i) at[i] = following[i];
      if (found == rank) key = at[op.component];
      ++found;
      if (!counts && found > rank) break;  // only slot 0's op counts them all
    }
    out[e] = rank < 0 ? keptPart(op.slot, op.component) : key;
    if (counts && found > free) {
      Kokkos::atomic_fetch_min(&overflow(op.spawn * static_cast<std::int64_t>(fresh.extent(0)) + s),
                               d);
    }
  });
}

template <class ExecSpace>
KOKKOS_INLINE_FUNCTION void RoundKernel<ExecSpace>::exchangeSend(const Team& team, const Op& op,
                                                                 double* scratch,
                                                                 std::int64_t stride,
                                                                 std::int64_t first,
                                                                 std::int64_t count) const {
  const bool track = changed.extent(0) > 0;
  const std::int64_t row = op.plane * devices;
  const std::int64_t edges = edgePlaneRow(op.edge);
  if constexpr (!RoundTuning<ExecSpace>::kTeamLanes) {  // host: the neighbors' entries a block at
                                                        // once
    (void)team;
    const bool keyed = op.keyed != 0 || readsAnyPresence(op);
    if (rowsOfEntries(keyed)) {
      // Every sample sends to every neighbor (and fires: rounds on a Schedule are keyed), an
      // entry's samples at once; the device's own entry first (what it sends itself).
      EntryRow pairs;
      for (std::int64_t dl = 0; dl < count; ++dl) {
        const std::int64_t d = deviceAt(first + dl);
        const std::int64_t begin = net.offsets(d), end = net.offsets(d + 1);
        std::int64_t self = begin;
        while (self < end && net.neighbors(self) != d) ++self;
        forRowsOf(pairs, self, d, d, dl, [&] {
          const double* v = evaluateBlock(*this, op, scratch, stride, pairs);
          double* to = &planes.exportsNow(row + d, pairs.sample);
          for (int i = 0; i < pairs.size; ++i) {
            const std::int64_t s = pairs.sample + i;
            if (track) noteChange(planes.exportsPrev(row + d, s), v[i], s);
            to[i] = v[i];
          }
        });
        for (std::int64_t k = begin; k < end; ++k) {
          const std::int64_t j = net.neighbors(k);
          forRowsOf(pairs, k, j, d, dl, [&] {
            const double* v = j != d ? evaluateBlock(*this, op, scratch, stride, pairs)
                                     : &planes.exportsNow(row + d, pairs.sample);
            double* to = &planes.exportsNow(edges + k, pairs.sample);
            for (int i = 0; i < pairs.size; ++i) {
              const std::int64_t s = pairs.sample + i;
              if (track) noteChange(planes.exportsPrev(edges + k, s), v[i], s);
              to[i] = v[i];
            }
          });
        }
      }
      return;
    }
    // Blocks run across devices: first every device's own entry (what a neighbor not aligned
    // with it gets), then the neighbors' entries.
    EntryBlock block;
    auto keep = [&] {  // the own entries
      const double* v = evaluateBlock(*this, op, scratch, stride, block);
      for (int i = 0; i < block.size; ++i) {
        const std::int64_t d = block.d[i], s = block.s[i];
        if (track) noteChange(planes.exportsPrev(row + d, s), v[i], s);
        planes.exportsNow(row + d, s) = v[i];
        if (op.keyed) planes.presenceNow(row + d, s) = keyOf(op, scratch, stride, block.e[i]);
      }
      block.size = 0;
    };
    for (std::int64_t dl = 0; dl < count; ++dl) {
      const std::int64_t d = deviceAt(first + dl);
      const std::int64_t begin = net.offsets(d), end = net.offsets(d + 1);
      std::int64_t self = begin;
      while (self < end && net.neighbors(self) != d) ++self;
      for (std::int64_t s = 0; s < live; ++s) {
        if (!fires(d, s)) {  // keeps what it last sent, to itself and to each neighbor
          planes.exportsNow(row + d, s) = planes.exportsPrev(row + d, s);
          if (op.keyed) planes.presenceNow(row + d, s) = planes.presencePrev(row + d, s);
          for (std::int64_t k = begin; k < end; ++k) {
            planes.exportsNow(edges + k, s) = planes.exportsPrev(edges + k, s);
          }
        } else if (block.add(self, d, s, d, dl * live + s)) {
          keep();
        }
      }
    }
    if (block.size > 0) keep();
    auto write = [&](std::int64_t k, std::int64_t s, double v) {
      if (track) noteChange(planes.exportsPrev(edges + k, s), v, s);
      planes.exportsNow(edges + k, s) = v;
    };
    auto send = [&] {
      const double* v = evaluateBlock(*this, op, scratch, stride, block);
      for (int i = 0; i < block.size; ++i) write(block.k[i], block.s[i], v[i]);
      block.size = 0;
    };
    for (std::int64_t dl = 0; dl < count; ++dl) {
      const std::int64_t d = deviceAt(first + dl);
      for (std::int64_t k = net.offsets(d); k < net.offsets(d + 1); ++k) {
        const std::int64_t j = net.neighbors(k);
        for (std::int64_t s = 0; s < live; ++s) {
          if (!fires(d, s)) continue;
          const bool to = j != d && (keyed ? sendsTo(op, d, j, s) : fresh(s) == 0);
          if (!to) {
            write(k, s, planes.exportsNow(row + d, s));  // the own entry
          } else if (block.add(k, j, s, d, dl * live + s)) {
            send();
          }
        }
      }
    }
    if (block.size > 0) send();
    return;
  }
  threads(team, count, [&](std::int64_t dl) {
    const std::int64_t d = deviceAt(first + dl);
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
        const double v =
            j != d && sendsTo(op, d, j, s) ? entryValue(op, scratch, stride, d, j, k, s, e) : own;
        if (track) noteChange(planes.exportsPrev(edges + k, s), v, s);
        planes.exportsNow(edges + k, s) = v;
      }
    });
  });
}

template <class ExecSpace>
KOKKOS_INLINE_FUNCTION double RoundKernel<ExecSpace>::entryValue(
    const Op& op, const double* scratch, std::int64_t stride, std::int64_t d, std::int64_t j,
    std::int64_t k, std::int64_t s, std::int64_t e) const {
  double reg[kMaxEntryOps];
  for (int r = 0; r < op.entryCount; ++r) {
    const EntryOp& x = entries(op.entryBegin + r);
    switch (x.code) {
      case EntryCode::Neighbor: {
        if (j != d) {
          const std::int64_t row = neighborRow(x, d, j, s);
          reg[r] = row >= 0 ? planes.exportsPrev(row, s) : 0.0;
        } else {
          reg[r] = x.slot >= 0 ? scratch[x.slot * stride + e]
                               : planes.exportsNow(x.plane * devices + d, s);
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

}  // namespace kfield::impl

#endif
