// RoundKernel's neighbor folds, in CSR order: the plain and fused folds of one value, and the
// lexicographic folds of tuples (RoundKernel.hpp declares them).
#ifndef KFIELD_SIM_IMPL_ROUNDFOLDS_HPP
#define KFIELD_SIM_IMPL_ROUNDFOLDS_HPP

#include "kfield/sim/impl/RoundKernel.hpp"

namespace kfield::impl {

template <class ExecSpace>
KOKKOS_INLINE_FUNCTION void RoundKernel<ExecSpace>::fold(const Team& team, const Op& op,
                                                         double* scratch, std::int64_t stride,
                                                         std::int64_t first,
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

template <class ExecSpace>
template <class Combine, class Value>
KOKKOS_INLINE_FUNCTION void RoundKernel<ExecSpace>::neighborFold(
    const Team& team, const Op& op, double* scratch, std::int64_t stride, std::int64_t first,
    std::int64_t count, const Combine& combine, const Value& value) const {
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
  if (live == 1 && !scheduled) {  // the hot case: one sample, synchronous rounds
    const bool others = visitOthers && !(anyFresh && fresh(0) != 0);
    // Which entries take part, as types: the loop has one test per entry, as a hand loop's.
    withChoices(visitSelf, others, [&](auto withSelf, auto withOthers) {
      threads(team, count, [&](std::int64_t dl) {
        const std::int64_t d = deviceAt(first + dl);
        const std::int64_t begin = offsets[d], end = offsets[d + 1];
        double acc = init;
        for (std::int64_t k = begin; k < end; ++k) {
          const std::int64_t j = neighbors[k];
          if (j == d) {
            if (withSelf) acc = combine(acc, value(own ? own[dl] : now[d * ps], k));
          } else if (withOthers) {
            acc = combine(acc, value(prev[j * ps], k));
          }
        }
        out[dl] = acc;
      });
    });
    return;
  }
  if (live == 1) {  // one sample on a schedule, scalar all through
    const bool others = visitOthers && !(anyFresh && fresh(0) != 0);
    threads(team, count, [&](std::int64_t dl) {
      const std::int64_t d = deviceAt(first + dl);
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
    const std::int64_t d = deviceAt(first + dl);
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
          // Every operand loaded whatever the test gives: selects, not masked loads.
          const double r = ran[s], x = combine(acc[s], value(v[s], k));
          const bool in = (time[s] - sent[s] <= keep) & (r == 1.0);  // NaN: not fired
          acc[s] = in ? x : acc[s];
        });
      } else {
        lanes(team, live, [&](std::int64_t s) {
          const double x = combine(acc[s], value(v[s], k));
          acc[s] = fresh(s) == 0 ? x : acc[s];
        });
      }
    }
  });
}

template <class ExecSpace>
template <class Combine, class Value>
KOKKOS_INLINE_FUNCTION void RoundKernel<ExecSpace>::combineRow(
    const Team& team, double* KOKKOS_RESTRICT acc, const double* KOKKOS_RESTRICT v,
    const Combine& combine, const Value& value, std::int64_t k) const {
  if constexpr (RoundTuning<ExecSpace>::kTeamLanes) {
    lanes(team, live, [&](std::int64_t s) { acc[s] = combine(acc[s], value(v[s], k)); });
  } else {
    (void)team;
    const std::int64_t n = live;
    for (std::int64_t s = 0; s < n; ++s) acc[s] = combine(acc[s], value(v[s], k));
  }
}

template <class ExecSpace>
template <class Combine>
KOKKOS_INLINE_FUNCTION void RoundKernel<ExecSpace>::interpretedFold(
    const Team& team, const Op& op, double* scratch, std::int64_t stride, std::int64_t first,
    std::int64_t count, const Combine& combine) const {
  const double init = initialOf(op.fold);
  double* out = scratch + op.out * stride;
  if constexpr (!RoundTuning<ExecSpace>::kTeamLanes) {  // host: a block of entries at once
    (void)team;
    const bool keyed = readsAnyPresence(op);
    for (std::int64_t e = 0; e < count * live; ++e) out[e] = init;
    // Each pair's value kept for the send that repeats this program (Op::keepEdge).
    const bool keep = op.keepEdge >= 0 && sharesEntries();
    const std::int64_t kept = keep ? edgePlaneRow(op.keepEdge) : 0;
    if (rowsOfEntries(keyed)) {  // every sample hears every neighbor: an entry's samples at once
      EntryRow pairs;
      auto foldRow = [&] {
        const double* v = evaluateBlock(*this, op, scratch, stride, pairs);
        double* acc = out + pairs.element;
        for (int i = 0; i < pairs.size; ++i) acc[i] = combine(acc[i], v[i]);
        if (keep) {
          double* to = &planes.exportsNow(kept + pairs.entry, pairs.sample);
          for (int i = 0; i < pairs.size; ++i) to[i] = v[i];
        }
      };
      forFoldEntries(op, first, count,
                     [&](std::int64_t dl, std::int64_t d, std::int64_t k, std::int64_t j) {
                       forRowsOf(pairs, k, j, d, dl, foldRow);
                     });
      return;
    }
    // Blocks run across devices: each (device, sample) still takes its entries in CSR order.
    EntryBlock block;
    auto fold = [&] {
      const double* v = evaluateBlock(*this, op, scratch, stride, block);
      for (int i = 0; i < block.size; ++i) out[block.e[i]] = combine(out[block.e[i]], v[i]);
      for (int i = 0; keep && i < block.size; ++i) {
        planes.exportsNow(kept + block.k[i], block.s[i]) = v[i];
      }
      block.size = 0;
    };
    forFoldEntries(op, first, count,
                   [&](std::int64_t dl, std::int64_t d, std::int64_t k, std::int64_t j) {
                     for (std::int64_t s = 0; s < live; ++s) {
                       if (j != d && (keyed ? !aligned(op, d, j, s) : fresh(s) != 0)) continue;
                       if (block.add(k, j, s, d, dl * live + s)) fold();
                     }
                   });
    if (block.size > 0) fold();
    return;
  }
  threads(team, count, [&](std::int64_t dl) {
    const std::int64_t d = deviceAt(first + dl);
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

template <class ExecSpace>
KOKKOS_INLINE_FUNCTION void RoundKernel<ExecSpace>::lexicographicFold(const Team& team, int index,
                                                                      double* scratch,
                                                                      std::int64_t stride,
                                                                      std::int64_t first,
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
    const std::int64_t d = deviceAt(first + dl);
    lanes(team, live, [&](std::int64_t s) {
      for (int c = 0; c < width; ++c) scratch[ops(index + c).out * stride + dl * live + s] = init;
    });
    for (std::int64_t k = net.offsets(d); k < net.offsets(d + 1); ++k) {
      const std::int64_t j = net.neighbors(k);
      const bool self = j == d;
      if (self && op.excludeSelf != 0) continue;
      lanes(team, live, [&](std::int64_t s) {
        const std::int64_t e = dl * live + s;
        const int reach = self            ? width
                          : fresh(s) != 0 ? 0
                          : keyed         ? alignedComponents(index, width, d, j, s)
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
        for (int c = reach; replaced && c < width; ++c)
          scratch[ops(index + c).out * stride + e] = init;
      });
    }
  });
}

template <class ExecSpace>
template <int W>
KOKKOS_INLINE_FUNCTION auto RoundKernel<ExecSpace>::lexicographicParts(int index, double* scratch,
                                                                       std::int64_t stride) const
    -> LexicographicParts<W> {
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

template <class ExecSpace>
template <int W>
KOKKOS_INLINE_FUNCTION void RoundKernel<ExecSpace>::fusedLexicographicFold(
    int index, double* scratch, std::int64_t stride, std::int64_t first, std::int64_t count) const {
  const LexicographicParts<W> p = lexicographicParts<W>(index, scratch, stride);
  if (live > 1) return fusedLexicographicFoldSamples(p, first, count);
  const std::int64_t* offsets = net.offsets.data();
  const std::int32_t* neighbors = net.neighbors.data();
  const double* lengths = net.lengths.data();
  // The fold's kind and whether it skips the device itself, as types: nothing in the neighbor
  // loop tests them.
  withChoices(p.isMax, p.excludeSelf, [&](auto isMax, auto excludeSelf) {
    for (std::int64_t dl = 0; dl < count; ++dl) {
      const std::int64_t d = deviceAt(first + dl);
      double best[W];
      for (int c = 0; c < W; ++c) best[c] = p.init;
      for (std::int64_t k = offsets[d]; k < offsets[d + 1]; ++k) {
        const std::int64_t j = neighbors[k];
        const bool self = j == d;
        if (excludeSelf && self) continue;
        const double length = lengths != nullptr ? lengths[k] : 0.0;
        bool replaced = false, tied = true;
        for (int c = 0; c < W; ++c) {  // best after one more entry, from the first better one
          const double x = excludeSelf || !self ? p.prev[c][j * p.ps]
                           : p.own[c]           ? p.own[c][dl]
                                                : p.now[c][d * p.ps];
          const double v = p.form(c, x, length);
          const bool better = tied && (isMax ? best[c] < v : v < best[c]);
          const double reset = isMax ? (p.init < v ? v : p.init) : (v < p.init ? v : p.init);
          tied = tied && v == best[c];
          best[c] = replaced ? reset : better ? v : best[c];
          replaced = replaced || better;
        }
      }
      for (int c = 0; c < W; ++c) p.out[c][dl] = best[c];
    }
  });
}

template <class ExecSpace>
template <int W>
KOKKOS_INLINE_FUNCTION void RoundKernel<ExecSpace>::fusedLexicographicFoldSamples(
    const LexicographicParts<W>& p, std::int64_t first, std::int64_t count) const {
  constexpr std::int64_t kBlock = 64;
  const std::int64_t* offsets = net.offsets.data();
  const std::int32_t* neighbors = net.neighbors.data();
  const double* lengths = net.lengths.data();
  const std::int64_t n = live, ps = p.ps;
  const double init = p.init;
  bool plain = true;  // every component the export itself, or the export plus y
  for (int c = 0; c < W; ++c) {
    plain = plain && (p.code[c] == EntryCode::Neighbor || p.code[c] == EntryCode::Add);
  }
  if (plain) return fusedLexicographicMerge(p, first, count);
  for (std::int64_t dl = 0; dl < count; ++dl) {
    const std::int64_t d = deviceAt(first + dl);
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
          const double* x = !self      ? p.prev[c] + j * ps + s0
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

template <class ExecSpace>
template <int W>
KOKKOS_INLINE_FUNCTION void RoundKernel<ExecSpace>::fusedLexicographicMerge(
    const LexicographicParts<W>& p, std::int64_t first, std::int64_t count) const {
  const std::int64_t* offsets = net.offsets.data();
  const std::int32_t* neighbors = net.neighbors.data();
  const double* lengths = net.lengths.data();
  const std::int64_t n = live, ps = p.ps;
  const double init = p.init;
  std::int64_t add[W];  // (int64, not bool: the loop below vectorises with it)
  for (int c = 0; c < W; ++c) add[c] = p.code[c] == EntryCode::Add ? 1 : 0;
  withChoices(p.isMax, true, [&](auto isMax, auto) {
    for (std::int64_t dl = 0; dl < count; ++dl) {
      const std::int64_t d = deviceAt(first + dl);
      double* o[W];
      for (int c = 0; c < W; ++c) {
        o[c] = p.out[c] + dl * n;
        for (std::int64_t s = 0; s < n; ++s) o[c][s] = init;
      }
      for (std::int64_t k = offsets[d]; k < offsets[d + 1]; ++k) {
        const std::int64_t j = neighbors[k];
        const bool self = j == d;
        if (self && p.excludeSelf) continue;
        const double length = lengths != nullptr ? lengths[k] : 0.0;
        const double* x[W];
        double y[W];
        for (int c = 0; c < W; ++c) {
          x[c] = !self ? p.prev[c] + j * ps : p.own[c] ? p.own[c] + dl * n : p.now[c] + d * ps;
          y[c] = p.edge[c] ? length : p.constant[c];
        }
        // One entry merged into the result sample by sample, its components in registers: the
        // first that is better where all before it are equal replaces the rest from there on.
        // (int64 flags, no short circuits: vectorised with the doubles they select.)
        KFIELD_IMPL_INDEPENDENT
        for (std::int64_t s = 0; s < n; ++s) {
          std::int64_t replaced = 0, tied = 1;
          for (int c = 0; c < W; ++c) {
            const double a = x[c][s], plus = a + y[c];
            const double v = add[c] ? plus : a;
            const double best = o[c][s];
            const std::int64_t improves = tied & std::int64_t(isMax ? best < v : v < best);
            const double reset = isMax ? (init < v ? v : init) : (v < init ? v : init);
            const double kept = improves ? v : best;
            tied &= std::int64_t(v == best);
            o[c][s] = replaced ? reset : kept;
            replaced |= improves;
          }
        }
      }
    }
  });
}

template <class ExecSpace>
KOKKOS_INLINE_FUNCTION double RoundKernel<ExecSpace>::componentValue(
    const Op& part, int form, const double* scratch, std::int64_t stride, std::int64_t d,
    std::int64_t j, std::int64_t k, std::int64_t s, std::int64_t e) const {
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

}  // namespace kfield::impl

#endif
