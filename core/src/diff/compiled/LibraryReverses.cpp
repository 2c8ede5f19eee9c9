// Compiled reverse rounds written by kfield::diff::compiledReversesSource (kfield/diff/CompiledReverse.hpp).
// Generated: do not edit; regenerate it with the build target
// kfield_regenerate_library_rounds (cmake --build BUILD --target ...).
#include "kfield/diff/CompiledReverse.hpp"
#include "kfield/impl/IntegerMath.hpp"
#include "kfield/impl/PortableMath.hpp"
#include "kfield/sim/impl/Operations.hpp"

#include <cstdint>
#include <vector>

namespace {

// hop-gradient: 6 value operations, 1 entry operations.
template <int W>
void reverse_hop_gradient_record_block(const kfield::diff::CompiledReverseArgs& a, std::int64_t d, std::int64_t s0,
    std::int64_t m) {
  const kfield::CompiledRoundArgs& r = a.round;
  const std::int64_t n = W == 1 ? 1 : m;
  const std::int64_t ds = r.devices, xs = r.exportStride, live = r.live;
  const double* c = r.constants;
  (void)n, (void)ds, (void)xs, (void)live, (void)c, (void)s0;
  const double* v0 = r.sensors + (0 * ds + d) * r.sensorStride + s0;
  (void)v0;
  double v1[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Min); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v1[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Min, [&](const auto& combine) {
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = r.exportsPrev + (0 * ds + j) * xs + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      (void)e0;
      v1[s] = combine(v1[s], e0);
    }
  }
  });
  { double* t = a.foldTape + (0 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = v1[s]; }
  (void)v1;
  double v2[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v2[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, v1[s], c[7]);
  (void)v2;
  double v3[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v3[s] = v0[s] == 1.0 ? c[10] : v2[s];
  (void)v3;
  double x0[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) x0[s] = v3[s];
  (void)x0;
  { double* t = r.exportsNow + (0 * ds + d) * xs + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = v3[s]; }
}

template <int W>
void reverse_hop_gradient_own_block(const kfield::diff::CompiledReverseArgs& a, std::int64_t d, std::int64_t s0,
    std::int64_t m) {
  const kfield::CompiledRoundArgs& r = a.round;
  const std::int64_t n = W == 1 ? 1 : m;
  const std::int64_t ds = r.devices, xs = r.exportStride, live = r.live;
  const double* c = r.constants;
  (void)n, (void)ds, (void)xs, (void)live, (void)c, (void)s0;
  const double* v0 = r.sensors + (0 * ds + d) * r.sensorStride + s0;
  (void)v0;
  const double* v1 = a.foldTape + (0 * ds + d) * live + s0;
  (void)v1;
  double v2[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v2[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, v1[s], c[7]);
  (void)v2;
  double v3[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v3[s] = v0[s] == 1.0 ? c[10] : v2[s];
  (void)v3;
  double x0[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) x0[s] = v3[s];
  (void)x0;
  double g0[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g0[s] = 0.0;
  (void)g0;
  double g1[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g1[s] = 0.0;
  (void)g1;
  double g2[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g2[s] = 0.0;
  (void)g2;
  double g3[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g3[s] = 0.0;
  (void)g3;
  { const double* t = a.target + (0 * ds + d) * a.targetStride + s0; (void)t;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { if (s0 + s < a.liveNext) continue; const double y = v3[s]; const double u = a.outputLoss ? 0.0 : t[s]; g3[s] += a.outputLoss ? 1.0 : 2.0 * (y - u); }
  }
  { double* t = a.exportAdjoint + (0 * ds + d) * a.exportAdjointStride + s0;   KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { g3[s] += t[s]; t[s] = 0.0; }
  }
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { if (v0[s] == 1.0) {  } else { g2[s] += g3[s]; } }
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { g1[s] += g2[s];  }
  {
  double sel[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) sel[s] = -1.0;
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = r.exportsPrev + (0 * ds + j) * xs + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double G = g1[s];
      if (G == 0.0) continue;
      if (sel[s] >= 0.0) continue;
      const double e0 = q0[s];
      (void)e0;
      if (!(e0 == v1[s])) continue;
      sel[s] = r.ids ? double(r.ids[j]) : double(j);
      double A0 = G;
      (void)A0;
      if (A0 != 0.0 && j == d) (a.exportAdjoint + (0 * ds + d) * a.exportAdjointStride + s0)[s] += A0;
    }
  }
  { double* t = a.selected + (0 * ds + d) * a.selectedStride + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = sel[s]; }
  }
  if (a.sensorRow[0] >= 0) {
    double* t = a.sensorAdjoint + (a.sensorRow[0] * ds + d) * a.sensorAdjointStride + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { t[s] += g0[s]; }
  }
  { double* t = a.adjoints + (0 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = g1[s]; }
}

template <int W>
void reverse_hop_gradient_gather_block(const kfield::diff::CompiledReverseArgs& a, std::int64_t h, std::int64_t s0,
    std::int64_t m) {
  const kfield::CompiledRoundArgs& r = a.round;
  const std::int64_t n = W == 1 ? 1 : m;
  const std::int64_t ds = r.devices, xs = r.exportStride, live = r.live;
  const double* c = r.constants;
  (void)n, (void)ds, (void)xs, (void)live, (void)c, (void)s0;
  const double id = r.ids ? double(r.ids[h]) : double(h);
  (void)id;
  for (std::int64_t t = a.transposedOffsets[h]; t < a.transposedOffsets[h + 1]; ++t) {
    const std::int64_t d = a.transposedReaders[t], k = a.transposedEntries[t], j = h;
    (void)d, (void)k, (void)j;
    if (d == h) continue;
    {
    const double* G = a.adjoints + (0 * ds + d) * live + s0;
    const double* sel = a.selected + (0 * ds + d) * a.selectedStride + s0;
    const double* q0 = r.exportsPrev + (0 * ds + j) * xs + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double g = G[s];
      if (g == 0.0) continue;
      if (sel[s] != id) continue;
      const double e0 = q0[s];
      (void)e0;
      double A0 = g;
      (void)A0;
      if (A0 != 0.0) (a.exportAdjoint + (0 * ds + h) * a.exportAdjointStride + s0)[s] += A0;
    }
    }
  }
}

void reverse_hop_gradient_record(const kfield::diff::CompiledReverseArgs& a, std::int64_t first, std::int64_t end) {
  if (a.round.live == 1) {
    for (std::int64_t d = first; d < end; ++d) reverse_hop_gradient_record_block<1>(a, d, 0, 1);
    return;
  }
  for (std::int64_t d = first; d < end; ++d) {
    for (std::int64_t s0 = 0; s0 < a.round.live; s0 += 64) {
      reverse_hop_gradient_record_block<64>(a, d, s0, a.round.live - s0 < 64 ? a.round.live - s0 : 64);
    }
  }
}

void reverse_hop_gradient_own(const kfield::diff::CompiledReverseArgs& a, std::int64_t first, std::int64_t end) {
  if (a.round.live == 1) {
    for (std::int64_t d = first; d < end; ++d) reverse_hop_gradient_own_block<1>(a, d, 0, 1);
    return;
  }
  for (std::int64_t d = first; d < end; ++d) {
    for (std::int64_t s0 = 0; s0 < a.round.live; s0 += 64) {
      reverse_hop_gradient_own_block<64>(a, d, s0, a.round.live - s0 < 64 ? a.round.live - s0 : 64);
    }
  }
}

void reverse_hop_gradient_gather(const kfield::diff::CompiledReverseArgs& a, std::int64_t first, std::int64_t end) {
  if (a.round.live == 1) {
    for (std::int64_t d = first; d < end; ++d) reverse_hop_gradient_gather_block<1>(a, d, 0, 1);
    return;
  }
  for (std::int64_t d = first; d < end; ++d) {
    for (std::int64_t s0 = 0; s0 < a.round.live; s0 += 64) {
      reverse_hop_gradient_gather_block<64>(a, d, s0, a.round.live - s0 < 64 ? a.round.live - s0 : 64);
    }
  }
}

// distance-gradient: 5 value operations, 3 entry operations.
template <int W>
void reverse_distance_gradient_record_block(const kfield::diff::CompiledReverseArgs& a, std::int64_t d, std::int64_t s0,
    std::int64_t m) {
  const kfield::CompiledRoundArgs& r = a.round;
  const std::int64_t n = W == 1 ? 1 : m;
  const std::int64_t ds = r.devices, xs = r.exportStride, live = r.live;
  const double* c = r.constants;
  (void)n, (void)ds, (void)xs, (void)live, (void)c, (void)s0;
  const double* v0 = r.sensors + (0 * ds + d) * r.sensorStride + s0;
  (void)v0;
  double v1[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Min); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v1[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Min, [&](const auto& combine) {
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = r.exportsPrev + (0 * ds + j) * xs + s0;
    const double q1 = r.lengths ? r.lengths[k] : 0.0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      (void)e0;
      const double e1 = q1;
      (void)e1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, e0, e1);
      (void)e2;
      v1[s] = combine(v1[s], e2);
    }
  }
  });
  { double* t = a.foldTape + (0 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = v1[s]; }
  (void)v1;
  double v2[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v2[s] = v0[s] == 1.0 ? c[7] : v1[s];
  (void)v2;
  double x0[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) x0[s] = v2[s];
  (void)x0;
  { double* t = r.exportsNow + (0 * ds + d) * xs + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = v2[s]; }
}

template <int W>
void reverse_distance_gradient_own_block(const kfield::diff::CompiledReverseArgs& a, std::int64_t d, std::int64_t s0,
    std::int64_t m) {
  const kfield::CompiledRoundArgs& r = a.round;
  const std::int64_t n = W == 1 ? 1 : m;
  const std::int64_t ds = r.devices, xs = r.exportStride, live = r.live;
  const double* c = r.constants;
  (void)n, (void)ds, (void)xs, (void)live, (void)c, (void)s0;
  const double* v0 = r.sensors + (0 * ds + d) * r.sensorStride + s0;
  (void)v0;
  const double* v1 = a.foldTape + (0 * ds + d) * live + s0;
  (void)v1;
  double v2[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v2[s] = v0[s] == 1.0 ? c[7] : v1[s];
  (void)v2;
  double x0[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) x0[s] = v2[s];
  (void)x0;
  double g0[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g0[s] = 0.0;
  (void)g0;
  double g1[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g1[s] = 0.0;
  (void)g1;
  double g2[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g2[s] = 0.0;
  (void)g2;
  { const double* t = a.target + (0 * ds + d) * a.targetStride + s0; (void)t;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { if (s0 + s < a.liveNext) continue; const double y = v2[s]; const double u = a.outputLoss ? 0.0 : t[s]; g2[s] += a.outputLoss ? 1.0 : 2.0 * (y - u); }
  }
  { double* t = a.exportAdjoint + (0 * ds + d) * a.exportAdjointStride + s0;   KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { g2[s] += t[s]; t[s] = 0.0; }
  }
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { if (v0[s] == 1.0) {  } else { g1[s] += g2[s]; } }
  {
  double sel[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) sel[s] = -1.0;
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = r.exportsPrev + (0 * ds + j) * xs + s0;
    const double q1 = r.lengths ? r.lengths[k] : 0.0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double G = g1[s];
      if (G == 0.0) continue;
      if (sel[s] >= 0.0) continue;
      const double e0 = q0[s];
      (void)e0;
      const double e1 = q1;
      (void)e1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, e0, e1);
      (void)e2;
      if (!(e2 == v1[s])) continue;
      sel[s] = r.ids ? double(r.ids[j]) : double(j);
      double A0 = 0.0;
      double A1 = 0.0;
      double A2 = G;
      if (A2 != 0.0) { A0 += A2, A1 += A2; }
      (void)A0;
      (void)A1;
      (void)A2;
      if (A0 != 0.0 && j == d) (a.exportAdjoint + (0 * ds + d) * a.exportAdjointStride + s0)[s] += A0;
    }
  }
  { double* t = a.selected + (0 * ds + d) * a.selectedStride + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = sel[s]; }
  }
  if (a.sensorRow[0] >= 0) {
    double* t = a.sensorAdjoint + (a.sensorRow[0] * ds + d) * a.sensorAdjointStride + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { t[s] += g0[s]; }
  }
  { double* t = a.adjoints + (0 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = g1[s]; }
}

template <int W>
void reverse_distance_gradient_gather_block(const kfield::diff::CompiledReverseArgs& a, std::int64_t h, std::int64_t s0,
    std::int64_t m) {
  const kfield::CompiledRoundArgs& r = a.round;
  const std::int64_t n = W == 1 ? 1 : m;
  const std::int64_t ds = r.devices, xs = r.exportStride, live = r.live;
  const double* c = r.constants;
  (void)n, (void)ds, (void)xs, (void)live, (void)c, (void)s0;
  const double id = r.ids ? double(r.ids[h]) : double(h);
  (void)id;
  for (std::int64_t t = a.transposedOffsets[h]; t < a.transposedOffsets[h + 1]; ++t) {
    const std::int64_t d = a.transposedReaders[t], k = a.transposedEntries[t], j = h;
    (void)d, (void)k, (void)j;
    if (d == h) continue;
    {
    const double* G = a.adjoints + (0 * ds + d) * live + s0;
    const double* sel = a.selected + (0 * ds + d) * a.selectedStride + s0;
    const double* q0 = r.exportsPrev + (0 * ds + j) * xs + s0;
    const double q1 = r.lengths ? r.lengths[k] : 0.0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double g = G[s];
      if (g == 0.0) continue;
      if (sel[s] != id) continue;
      const double e0 = q0[s];
      (void)e0;
      const double e1 = q1;
      (void)e1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, e0, e1);
      (void)e2;
      double A0 = 0.0;
      double A1 = 0.0;
      double A2 = g;
      if (A2 != 0.0) { A0 += A2, A1 += A2; }
      (void)A0;
      (void)A1;
      (void)A2;
      if (A0 != 0.0) (a.exportAdjoint + (0 * ds + h) * a.exportAdjointStride + s0)[s] += A0;
    }
    }
  }
}

void reverse_distance_gradient_record(const kfield::diff::CompiledReverseArgs& a, std::int64_t first, std::int64_t end) {
  if (a.round.live == 1) {
    for (std::int64_t d = first; d < end; ++d) reverse_distance_gradient_record_block<1>(a, d, 0, 1);
    return;
  }
  for (std::int64_t d = first; d < end; ++d) {
    for (std::int64_t s0 = 0; s0 < a.round.live; s0 += 64) {
      reverse_distance_gradient_record_block<64>(a, d, s0, a.round.live - s0 < 64 ? a.round.live - s0 : 64);
    }
  }
}

void reverse_distance_gradient_own(const kfield::diff::CompiledReverseArgs& a, std::int64_t first, std::int64_t end) {
  if (a.round.live == 1) {
    for (std::int64_t d = first; d < end; ++d) reverse_distance_gradient_own_block<1>(a, d, 0, 1);
    return;
  }
  for (std::int64_t d = first; d < end; ++d) {
    for (std::int64_t s0 = 0; s0 < a.round.live; s0 += 64) {
      reverse_distance_gradient_own_block<64>(a, d, s0, a.round.live - s0 < 64 ? a.round.live - s0 : 64);
    }
  }
}

void reverse_distance_gradient_gather(const kfield::diff::CompiledReverseArgs& a, std::int64_t first, std::int64_t end) {
  if (a.round.live == 1) {
    for (std::int64_t d = first; d < end; ++d) reverse_distance_gradient_gather_block<1>(a, d, 0, 1);
    return;
  }
  for (std::int64_t d = first; d < end; ++d) {
    for (std::int64_t s0 = 0; s0 < a.round.live; s0 += 64) {
      reverse_distance_gradient_gather_block<64>(a, d, s0, a.round.live - s0 < 64 ? a.round.live - s0 : 64);
    }
  }
}

// broadcast: 12 value operations, 14 entry operations.
template <int W>
void reverse_broadcast_record_block(const kfield::diff::CompiledReverseArgs& a, std::int64_t d, std::int64_t s0,
    std::int64_t m) {
  const kfield::CompiledRoundArgs& r = a.round;
  const std::int64_t n = W == 1 ? 1 : m;
  const std::int64_t ds = r.devices, xs = r.exportStride, live = r.live;
  const double* c = r.constants;
  (void)n, (void)ds, (void)xs, (void)live, (void)c, (void)s0;
  const double* v0 = r.sensors + (0 * ds + d) * r.sensorStride + s0;
  (void)v0;
  const double* v1 = r.sensors + (1 * ds + d) * r.sensorStride + s0;
  (void)v1;
  double v2[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Min); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v2[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Min, [&](const auto& combine) {
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = r.exportsPrev + (0 * ds + j) * xs + s0;
    const double q1 = r.lengths ? r.lengths[k] : 0.0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      (void)e0;
      const double e1 = q1;
      (void)e1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, e0, e1);
      (void)e2;
      v2[s] = combine(v2[s], e2);
    }
  }
  });
  { double* t = a.foldTape + (0 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = v2[s]; }
  (void)v2;
  double v3[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v3[s] = v0[s] == 1.0 ? c[10] : v2[s];
  (void)v3;
  double x0[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) x0[s] = v3[s];
  (void)x0;
  { double* t = r.exportsNow + (0 * ds + d) * xs + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = v3[s]; }
  double v4[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Min); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v4[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Min, [&](const auto& combine) {
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = r.exportsPrev + (0 * ds + j) * xs + s0;
    const double q1 = r.lengths ? r.lengths[k] : 0.0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      (void)e0;
      const double e1 = q1;
      (void)e1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, e0, e1);
      (void)e2;
      v4[s] = combine(v4[s], e2);
    }
  }
  });
  { double* t = a.foldTape + (1 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = v4[s]; }
  (void)v4;
  double v5[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Min); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v5[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Min, [&](const auto& combine) {
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = r.exportsPrev + (0 * ds + j) * xs + s0;
    const double q1 = r.lengths ? r.lengths[k] : 0.0;
    const double* q5 = r.exportsPrev + (1 * ds + j) * xs + s0;
    const double q6 = c[48];
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      (void)e0;
      const double e1 = q1;
      (void)e1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, e0, e1);
      (void)e2;
      const double e3 = v4[s];
      (void)e3;
      const double e4 = kfield::impl::entryOperation(kfield::impl::EntryCode::Equal, e2, e3);
      (void)e4;
      const double e5 = q5[s];
      (void)e5;
      const double e6 = q6;
      (void)e6;
      const double e7 = e4 == 1.0 ? e5 : e6;
      (void)e7;
      v5[s] = combine(v5[s], e7);
    }
  }
  });
  { double* t = a.foldTape + (2 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = v5[s]; }
  (void)v5;
  double v6[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v6[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Less, v4[s], c[22]);
  (void)v6;
  double v7[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v7[s] = v6[s] == 1.0 ? v5[s] : v1[s];
  (void)v7;
  double v8[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v8[s] = v0[s] == 1.0 ? v1[s] : v7[s];
  (void)v8;
  double x1[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) x1[s] = v8[s];
  (void)x1;
  { double* t = r.exportsNow + (1 * ds + d) * xs + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = v8[s]; }
}

template <int W>
void reverse_broadcast_own_block(const kfield::diff::CompiledReverseArgs& a, std::int64_t d, std::int64_t s0,
    std::int64_t m) {
  const kfield::CompiledRoundArgs& r = a.round;
  const std::int64_t n = W == 1 ? 1 : m;
  const std::int64_t ds = r.devices, xs = r.exportStride, live = r.live;
  const double* c = r.constants;
  (void)n, (void)ds, (void)xs, (void)live, (void)c, (void)s0;
  const double* v0 = r.sensors + (0 * ds + d) * r.sensorStride + s0;
  (void)v0;
  const double* v1 = r.sensors + (1 * ds + d) * r.sensorStride + s0;
  (void)v1;
  const double* v2 = a.foldTape + (0 * ds + d) * live + s0;
  (void)v2;
  double v3[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v3[s] = v0[s] == 1.0 ? c[10] : v2[s];
  (void)v3;
  double x0[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) x0[s] = v3[s];
  (void)x0;
  const double* v4 = a.foldTape + (1 * ds + d) * live + s0;
  (void)v4;
  { double* t = a.values + (0 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = v4[s]; }
  const double* v5 = a.foldTape + (2 * ds + d) * live + s0;
  (void)v5;
  double v6[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v6[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Less, v4[s], c[22]);
  (void)v6;
  double v7[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v7[s] = v6[s] == 1.0 ? v5[s] : v1[s];
  (void)v7;
  double v8[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v8[s] = v0[s] == 1.0 ? v1[s] : v7[s];
  (void)v8;
  double x1[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) x1[s] = v8[s];
  (void)x1;
  double g0[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g0[s] = 0.0;
  (void)g0;
  double g1[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g1[s] = 0.0;
  (void)g1;
  double g2[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g2[s] = 0.0;
  (void)g2;
  double g3[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g3[s] = 0.0;
  (void)g3;
  double g4[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g4[s] = 0.0;
  (void)g4;
  double g5[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g5[s] = 0.0;
  (void)g5;
  double g6[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g6[s] = 0.0;
  (void)g6;
  double g7[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g7[s] = 0.0;
  (void)g7;
  double g8[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g8[s] = 0.0;
  (void)g8;
  { const double* t = a.target + (0 * ds + d) * a.targetStride + s0; (void)t;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { if (s0 + s < a.liveNext) continue; const double y = v8[s]; const double u = a.outputLoss ? 0.0 : t[s]; g8[s] += a.outputLoss ? 1.0 : 2.0 * (y - u); }
  }
  { double* t = a.exportAdjoint + (1 * ds + d) * a.exportAdjointStride + s0;   KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { g8[s] += t[s]; t[s] = 0.0; }
  }
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { if (v0[s] == 1.0) { g1[s] += g8[s]; } else { g7[s] += g8[s]; } }
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { if (v6[s] == 1.0) { g5[s] += g7[s]; } else { g1[s] += g7[s]; } }
  {
  double sel[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) sel[s] = -1.0;
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = r.exportsPrev + (0 * ds + j) * xs + s0;
    const double q1 = r.lengths ? r.lengths[k] : 0.0;
    const double* q5 = r.exportsPrev + (1 * ds + j) * xs + s0;
    const double q6 = c[48];
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double G = g5[s];
      if (G == 0.0) continue;
      if (sel[s] >= 0.0) continue;
      const double e0 = q0[s];
      (void)e0;
      const double e1 = q1;
      (void)e1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, e0, e1);
      (void)e2;
      const double e3 = v4[s];
      (void)e3;
      const double e4 = kfield::impl::entryOperation(kfield::impl::EntryCode::Equal, e2, e3);
      (void)e4;
      const double e5 = q5[s];
      (void)e5;
      const double e6 = q6;
      (void)e6;
      const double e7 = e4 == 1.0 ? e5 : e6;
      (void)e7;
      if (!(e7 == v5[s])) continue;
      sel[s] = r.ids ? double(r.ids[j]) : double(j);
      double A0 = 0.0;
      double A1 = 0.0;
      double A2 = 0.0;
      double A3 = 0.0;
      double A4 = 0.0;
      double A5 = 0.0;
      double A6 = 0.0;
      double A7 = G;
      if (A7 != 0.0) { (e4 == 1.0 ? A5 : A6) += A7; }
      if (A2 != 0.0) { A0 += A2, A1 += A2; }
      (void)A0;
      (void)A1;
      (void)A2;
      (void)A3;
      (void)A4;
      (void)A5;
      (void)A6;
      (void)A7;
      if (A0 != 0.0 && j == d) (a.exportAdjoint + (0 * ds + d) * a.exportAdjointStride + s0)[s] += A0;
      if (A3 != 0.0) g4[s] += A3;
      if (A5 != 0.0 && j == d) (a.exportAdjoint + (1 * ds + d) * a.exportAdjointStride + s0)[s] += A5;
    }
  }
  { double* t = a.selected + (2 * ds + d) * a.selectedStride + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = sel[s]; }
  }
  {
  double sel[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) sel[s] = -1.0;
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = r.exportsPrev + (0 * ds + j) * xs + s0;
    const double q1 = r.lengths ? r.lengths[k] : 0.0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double G = g4[s];
      if (G == 0.0) continue;
      if (sel[s] >= 0.0) continue;
      const double e0 = q0[s];
      (void)e0;
      const double e1 = q1;
      (void)e1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, e0, e1);
      (void)e2;
      if (!(e2 == v4[s])) continue;
      sel[s] = r.ids ? double(r.ids[j]) : double(j);
      double A0 = 0.0;
      double A1 = 0.0;
      double A2 = G;
      if (A2 != 0.0) { A0 += A2, A1 += A2; }
      (void)A0;
      (void)A1;
      (void)A2;
      if (A0 != 0.0 && j == d) (a.exportAdjoint + (0 * ds + d) * a.exportAdjointStride + s0)[s] += A0;
    }
  }
  { double* t = a.selected + (1 * ds + d) * a.selectedStride + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = sel[s]; }
  }
  { double* t = a.exportAdjoint + (0 * ds + d) * a.exportAdjointStride + s0;   KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { g3[s] += t[s]; t[s] = 0.0; }
  }
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { if (v0[s] == 1.0) {  } else { g2[s] += g3[s]; } }
  {
  double sel[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) sel[s] = -1.0;
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = r.exportsPrev + (0 * ds + j) * xs + s0;
    const double q1 = r.lengths ? r.lengths[k] : 0.0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double G = g2[s];
      if (G == 0.0) continue;
      if (sel[s] >= 0.0) continue;
      const double e0 = q0[s];
      (void)e0;
      const double e1 = q1;
      (void)e1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, e0, e1);
      (void)e2;
      if (!(e2 == v2[s])) continue;
      sel[s] = r.ids ? double(r.ids[j]) : double(j);
      double A0 = 0.0;
      double A1 = 0.0;
      double A2 = G;
      if (A2 != 0.0) { A0 += A2, A1 += A2; }
      (void)A0;
      (void)A1;
      (void)A2;
      if (A0 != 0.0 && j == d) (a.exportAdjoint + (0 * ds + d) * a.exportAdjointStride + s0)[s] += A0;
    }
  }
  { double* t = a.selected + (0 * ds + d) * a.selectedStride + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = sel[s]; }
  }
  if (a.sensorRow[1] >= 0) {
    double* t = a.sensorAdjoint + (a.sensorRow[1] * ds + d) * a.sensorAdjointStride + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { t[s] += g1[s]; }
  }
  if (a.sensorRow[0] >= 0) {
    double* t = a.sensorAdjoint + (a.sensorRow[0] * ds + d) * a.sensorAdjointStride + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { t[s] += g0[s]; }
  }
  { double* t = a.adjoints + (0 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = g2[s]; }
  { double* t = a.adjoints + (1 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = g4[s]; }
  { double* t = a.adjoints + (2 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = g5[s]; }
}

template <int W>
void reverse_broadcast_gather_block(const kfield::diff::CompiledReverseArgs& a, std::int64_t h, std::int64_t s0,
    std::int64_t m) {
  const kfield::CompiledRoundArgs& r = a.round;
  const std::int64_t n = W == 1 ? 1 : m;
  const std::int64_t ds = r.devices, xs = r.exportStride, live = r.live;
  const double* c = r.constants;
  (void)n, (void)ds, (void)xs, (void)live, (void)c, (void)s0;
  const double id = r.ids ? double(r.ids[h]) : double(h);
  (void)id;
  for (std::int64_t t = a.transposedOffsets[h]; t < a.transposedOffsets[h + 1]; ++t) {
    const std::int64_t d = a.transposedReaders[t], k = a.transposedEntries[t], j = h;
    (void)d, (void)k, (void)j;
    if (d == h) continue;
    {
    const double* G = a.adjoints + (0 * ds + d) * live + s0;
    const double* sel = a.selected + (0 * ds + d) * a.selectedStride + s0;
    const double* q0 = r.exportsPrev + (0 * ds + j) * xs + s0;
    const double q1 = r.lengths ? r.lengths[k] : 0.0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double g = G[s];
      if (g == 0.0) continue;
      if (sel[s] != id) continue;
      const double e0 = q0[s];
      (void)e0;
      const double e1 = q1;
      (void)e1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, e0, e1);
      (void)e2;
      double A0 = 0.0;
      double A1 = 0.0;
      double A2 = g;
      if (A2 != 0.0) { A0 += A2, A1 += A2; }
      (void)A0;
      (void)A1;
      (void)A2;
      if (A0 != 0.0) (a.exportAdjoint + (0 * ds + h) * a.exportAdjointStride + s0)[s] += A0;
    }
    }
    {
    const double* G = a.adjoints + (1 * ds + d) * live + s0;
    const double* sel = a.selected + (1 * ds + d) * a.selectedStride + s0;
    const double* q0 = r.exportsPrev + (0 * ds + j) * xs + s0;
    const double q1 = r.lengths ? r.lengths[k] : 0.0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double g = G[s];
      if (g == 0.0) continue;
      if (sel[s] != id) continue;
      const double e0 = q0[s];
      (void)e0;
      const double e1 = q1;
      (void)e1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, e0, e1);
      (void)e2;
      double A0 = 0.0;
      double A1 = 0.0;
      double A2 = g;
      if (A2 != 0.0) { A0 += A2, A1 += A2; }
      (void)A0;
      (void)A1;
      (void)A2;
      if (A0 != 0.0) (a.exportAdjoint + (0 * ds + h) * a.exportAdjointStride + s0)[s] += A0;
    }
    }
    {
    const double* G = a.adjoints + (2 * ds + d) * live + s0;
    const double* sel = a.selected + (2 * ds + d) * a.selectedStride + s0;
    const double* q0 = r.exportsPrev + (0 * ds + j) * xs + s0;
    const double q1 = r.lengths ? r.lengths[k] : 0.0;
    const double* q3 = a.values + (0 * ds + d) * live + s0;
    const double* q5 = r.exportsPrev + (1 * ds + j) * xs + s0;
    const double q6 = c[48];
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double g = G[s];
      if (g == 0.0) continue;
      if (sel[s] != id) continue;
      const double e0 = q0[s];
      (void)e0;
      const double e1 = q1;
      (void)e1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, e0, e1);
      (void)e2;
      const double e3 = q3[s];
      (void)e3;
      const double e4 = kfield::impl::entryOperation(kfield::impl::EntryCode::Equal, e2, e3);
      (void)e4;
      const double e5 = q5[s];
      (void)e5;
      const double e6 = q6;
      (void)e6;
      const double e7 = e4 == 1.0 ? e5 : e6;
      (void)e7;
      double A0 = 0.0;
      double A1 = 0.0;
      double A2 = 0.0;
      double A3 = 0.0;
      double A4 = 0.0;
      double A5 = 0.0;
      double A6 = 0.0;
      double A7 = g;
      if (A7 != 0.0) { (e4 == 1.0 ? A5 : A6) += A7; }
      if (A2 != 0.0) { A0 += A2, A1 += A2; }
      (void)A0;
      (void)A1;
      (void)A2;
      (void)A3;
      (void)A4;
      (void)A5;
      (void)A6;
      (void)A7;
      if (A0 != 0.0) (a.exportAdjoint + (0 * ds + h) * a.exportAdjointStride + s0)[s] += A0;
      if (A5 != 0.0) (a.exportAdjoint + (1 * ds + h) * a.exportAdjointStride + s0)[s] += A5;
    }
    }
  }
}

void reverse_broadcast_record(const kfield::diff::CompiledReverseArgs& a, std::int64_t first, std::int64_t end) {
  if (a.round.live == 1) {
    for (std::int64_t d = first; d < end; ++d) reverse_broadcast_record_block<1>(a, d, 0, 1);
    return;
  }
  for (std::int64_t d = first; d < end; ++d) {
    for (std::int64_t s0 = 0; s0 < a.round.live; s0 += 64) {
      reverse_broadcast_record_block<64>(a, d, s0, a.round.live - s0 < 64 ? a.round.live - s0 : 64);
    }
  }
}

void reverse_broadcast_own(const kfield::diff::CompiledReverseArgs& a, std::int64_t first, std::int64_t end) {
  if (a.round.live == 1) {
    for (std::int64_t d = first; d < end; ++d) reverse_broadcast_own_block<1>(a, d, 0, 1);
    return;
  }
  for (std::int64_t d = first; d < end; ++d) {
    for (std::int64_t s0 = 0; s0 < a.round.live; s0 += 64) {
      reverse_broadcast_own_block<64>(a, d, s0, a.round.live - s0 < 64 ? a.round.live - s0 : 64);
    }
  }
}

void reverse_broadcast_gather(const kfield::diff::CompiledReverseArgs& a, std::int64_t first, std::int64_t end) {
  if (a.round.live == 1) {
    for (std::int64_t d = first; d < end; ++d) reverse_broadcast_gather_block<1>(a, d, 0, 1);
    return;
  }
  for (std::int64_t d = first; d < end; ++d) {
    for (std::int64_t s0 = 0; s0 < a.round.live; s0 += 64) {
      reverse_broadcast_gather_block<64>(a, d, s0, a.round.live - s0 < 64 ? a.round.live - s0 : 64);
    }
  }
}

// collect-sum: 20 value operations, 14 entry operations.
template <int W>
void reverse_collect_sum_record_block(const kfield::diff::CompiledReverseArgs& a, std::int64_t d, std::int64_t s0,
    std::int64_t m) {
  const kfield::CompiledRoundArgs& r = a.round;
  const std::int64_t n = W == 1 ? 1 : m;
  const std::int64_t ds = r.devices, xs = r.exportStride, live = r.live;
  const double* c = r.constants;
  (void)n, (void)ds, (void)xs, (void)live, (void)c, (void)s0;
  const double* v0 = r.sensors + (0 * ds + d) * r.sensorStride + s0;
  (void)v0;
  const double* v1 = r.sensors + (1 * ds + d) * r.sensorStride + s0;
  (void)v1;
  double v2[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Min); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v2[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Min, [&](const auto& combine) {
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = r.exportsPrev + (0 * ds + j) * xs + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      (void)e0;
      v2[s] = combine(v2[s], e0);
    }
  }
  });
  { double* t = a.foldTape + (0 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = v2[s]; }
  (void)v2;
  double v3[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v3[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, v2[s], c[10]);
  (void)v3;
  double v4[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v4[s] = v0[s] == 1.0 ? c[13] : v3[s];
  (void)v4;
  double x0[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) x0[s] = v4[s];
  (void)x0;
  { double* t = r.exportsNow + (0 * ds + d) * xs + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = v4[s]; }
  double v5[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Min); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v5[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Min, [&](const auto& combine) {
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = r.exportsPrev + (0 * ds + j) * xs + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      (void)e0;
      v5[s] = combine(v5[s], e0);
    }
  }
  });
  { double* t = a.foldTape + (1 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = v5[s]; }
  (void)v5;
  double v6[W];
  { const double u = r.ids ? double(r.ids[d]) : double(d); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v6[s] = u; }
  (void)v6;
  double x1[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) x1[s] = v6[s];
  (void)x1;
  { double* t = r.exportsNow + (1 * ds + d) * xs + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = v6[s]; }
  double v7[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Min); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v7[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Min, [&](const auto& combine) {
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = r.exportsPrev + (0 * ds + j) * xs + s0;
    const double* q3 = r.exportsPrev + (1 * ds + j) * xs + s0;
    const double q4 = c[66];
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      (void)e0;
      const double e1 = v5[s];
      (void)e1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Equal, e0, e1);
      (void)e2;
      const double e3 = q3[s];
      (void)e3;
      const double e4 = q4;
      (void)e4;
      const double e5 = e2 == 1.0 ? e3 : e4;
      (void)e5;
      v7[s] = combine(v7[s], e5);
    }
  }
  });
  { double* t = a.foldTape + (2 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = v7[s]; }
  (void)v7;
  double v8[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v8[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Equal, v4[s], c[31]);
  (void)v8;
  double v9[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v9[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Equal, v5[s], c[34]);
  (void)v9;
  double v10[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v10[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Or, v8[s], v9[s]);
  (void)v10;
  double v11[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v11[s] = v10[s] == 1.0 ? c[40] : v7[s];
  (void)v11;
  double v12[W];
  { const double u = r.ids ? double(r.ids[d]) : double(d); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v12[s] = u; }
  (void)v12;
  double x2[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) x2[s] = v11[s];
  (void)x2;
  { double* t = r.exportsNow + (2 * ds + d) * xs + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = v11[s]; }
  double v13[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Sum); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v13[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Sum, [&](const auto& combine) {
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = r.exportsPrev + (2 * ds + j) * xs + s0;
    const double* q3 = r.exportsPrev + (3 * ds + j) * xs + s0;
    const double q4 = c[72];
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      (void)e0;
      const double e1 = v12[s];
      (void)e1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Equal, e0, e1);
      (void)e2;
      const double e3 = q3[s];
      (void)e3;
      const double e4 = q4;
      (void)e4;
      const double e5 = e2 == 1.0 ? e3 : e4;
      (void)e5;
      v13[s] = combine(v13[s], e5);
    }
  }
  });
  { double* t = a.foldTape + (3 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = v13[s]; }
  (void)v13;
  double v14[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v14[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, v1[s], v13[s]);
  (void)v14;
  double x3[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) x3[s] = v14[s];
  (void)x3;
  { double* t = r.exportsNow + (3 * ds + d) * xs + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = v14[s]; }
}

template <int W>
void reverse_collect_sum_own_block(const kfield::diff::CompiledReverseArgs& a, std::int64_t d, std::int64_t s0,
    std::int64_t m) {
  const kfield::CompiledRoundArgs& r = a.round;
  const std::int64_t n = W == 1 ? 1 : m;
  const std::int64_t ds = r.devices, xs = r.exportStride, live = r.live;
  const double* c = r.constants;
  (void)n, (void)ds, (void)xs, (void)live, (void)c, (void)s0;
  const double* v0 = r.sensors + (0 * ds + d) * r.sensorStride + s0;
  (void)v0;
  const double* v1 = r.sensors + (1 * ds + d) * r.sensorStride + s0;
  (void)v1;
  const double* v2 = a.foldTape + (0 * ds + d) * live + s0;
  (void)v2;
  double v3[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v3[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, v2[s], c[10]);
  (void)v3;
  double v4[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v4[s] = v0[s] == 1.0 ? c[13] : v3[s];
  (void)v4;
  double x0[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) x0[s] = v4[s];
  (void)x0;
  const double* v5 = a.foldTape + (1 * ds + d) * live + s0;
  (void)v5;
  { double* t = a.values + (0 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = v5[s]; }
  double v6[W];
  { const double u = r.ids ? double(r.ids[d]) : double(d); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v6[s] = u; }
  (void)v6;
  double x1[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) x1[s] = v6[s];
  (void)x1;
  const double* v7 = a.foldTape + (2 * ds + d) * live + s0;
  (void)v7;
  double v8[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v8[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Equal, v4[s], c[31]);
  (void)v8;
  double v9[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v9[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Equal, v5[s], c[34]);
  (void)v9;
  double v10[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v10[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Or, v8[s], v9[s]);
  (void)v10;
  double v11[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v11[s] = v10[s] == 1.0 ? c[40] : v7[s];
  (void)v11;
  double v12[W];
  { const double u = r.ids ? double(r.ids[d]) : double(d); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v12[s] = u; }
  (void)v12;
  { double* t = a.values + (1 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = v12[s]; }
  double x2[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) x2[s] = v11[s];
  (void)x2;
  const double* v13 = a.foldTape + (3 * ds + d) * live + s0;
  (void)v13;
  double v14[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v14[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, v1[s], v13[s]);
  (void)v14;
  double x3[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) x3[s] = v14[s];
  (void)x3;
  double g0[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g0[s] = 0.0;
  (void)g0;
  double g1[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g1[s] = 0.0;
  (void)g1;
  double g2[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g2[s] = 0.0;
  (void)g2;
  double g3[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g3[s] = 0.0;
  (void)g3;
  double g4[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g4[s] = 0.0;
  (void)g4;
  double g5[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g5[s] = 0.0;
  (void)g5;
  double g6[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g6[s] = 0.0;
  (void)g6;
  double g7[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g7[s] = 0.0;
  (void)g7;
  double g8[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g8[s] = 0.0;
  (void)g8;
  double g9[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g9[s] = 0.0;
  (void)g9;
  double g10[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g10[s] = 0.0;
  (void)g10;
  double g11[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g11[s] = 0.0;
  (void)g11;
  double g12[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g12[s] = 0.0;
  (void)g12;
  double g13[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g13[s] = 0.0;
  (void)g13;
  double g14[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g14[s] = 0.0;
  (void)g14;
  { const double* t = a.target + (0 * ds + d) * a.targetStride + s0; (void)t;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { if (s0 + s < a.liveNext) continue; const double y = v14[s]; const double u = a.outputLoss ? 0.0 : t[s]; g14[s] += a.outputLoss ? 1.0 : 2.0 * (y - u); }
  }
  { double* t = a.exportAdjoint + (3 * ds + d) * a.exportAdjointStride + s0;   KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { g14[s] += t[s]; t[s] = 0.0; }
  }
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { g1[s] += g14[s]; g13[s] += g14[s]; }
  {
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = r.exportsPrev + (2 * ds + j) * xs + s0;
    const double* q3 = r.exportsPrev + (3 * ds + j) * xs + s0;
    const double q4 = c[72];
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double G = g13[s];
      if (G == 0.0) continue;
      const double e0 = q0[s];
      (void)e0;
      const double e1 = v12[s];
      (void)e1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Equal, e0, e1);
      (void)e2;
      const double e3 = q3[s];
      (void)e3;
      const double e4 = q4;
      (void)e4;
      const double e5 = e2 == 1.0 ? e3 : e4;
      (void)e5;
      double A0 = 0.0;
      double A1 = 0.0;
      double A2 = 0.0;
      double A3 = 0.0;
      double A4 = 0.0;
      double A5 = G;
      if (A5 != 0.0) { (e2 == 1.0 ? A3 : A4) += A5; }
      (void)A0;
      (void)A1;
      (void)A2;
      (void)A3;
      (void)A4;
      (void)A5;
      if (A0 != 0.0 && j == d) (a.exportAdjoint + (2 * ds + d) * a.exportAdjointStride + s0)[s] += A0;
      if (A1 != 0.0) g12[s] += A1;
      if (A3 != 0.0 && j == d) (a.exportAdjoint + (3 * ds + d) * a.exportAdjointStride + s0)[s] += A3;
    }
  }
  }
  { double* t = a.exportAdjoint + (2 * ds + d) * a.exportAdjointStride + s0;   KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { g11[s] += t[s]; t[s] = 0.0; }
  }
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { if (v10[s] == 1.0) {  } else { g7[s] += g11[s]; } }
  {
  double sel[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) sel[s] = -1.0;
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = r.exportsPrev + (0 * ds + j) * xs + s0;
    const double* q3 = r.exportsPrev + (1 * ds + j) * xs + s0;
    const double q4 = c[66];
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double G = g7[s];
      if (G == 0.0) continue;
      if (sel[s] >= 0.0) continue;
      const double e0 = q0[s];
      (void)e0;
      const double e1 = v5[s];
      (void)e1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Equal, e0, e1);
      (void)e2;
      const double e3 = q3[s];
      (void)e3;
      const double e4 = q4;
      (void)e4;
      const double e5 = e2 == 1.0 ? e3 : e4;
      (void)e5;
      if (!(e5 == v7[s])) continue;
      sel[s] = r.ids ? double(r.ids[j]) : double(j);
      double A0 = 0.0;
      double A1 = 0.0;
      double A2 = 0.0;
      double A3 = 0.0;
      double A4 = 0.0;
      double A5 = G;
      if (A5 != 0.0) { (e2 == 1.0 ? A3 : A4) += A5; }
      (void)A0;
      (void)A1;
      (void)A2;
      (void)A3;
      (void)A4;
      (void)A5;
      if (A0 != 0.0 && j == d) (a.exportAdjoint + (0 * ds + d) * a.exportAdjointStride + s0)[s] += A0;
      if (A1 != 0.0) g5[s] += A1;
      if (A3 != 0.0 && j == d) (a.exportAdjoint + (1 * ds + d) * a.exportAdjointStride + s0)[s] += A3;
    }
  }
  { double* t = a.selected + (2 * ds + d) * a.selectedStride + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = sel[s]; }
  }
  { double* t = a.exportAdjoint + (1 * ds + d) * a.exportAdjointStride + s0;   KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { g6[s] += t[s]; t[s] = 0.0; }
  }
  {
  double sel[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) sel[s] = -1.0;
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = r.exportsPrev + (0 * ds + j) * xs + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double G = g5[s];
      if (G == 0.0) continue;
      if (sel[s] >= 0.0) continue;
      const double e0 = q0[s];
      (void)e0;
      if (!(e0 == v5[s])) continue;
      sel[s] = r.ids ? double(r.ids[j]) : double(j);
      double A0 = G;
      (void)A0;
      if (A0 != 0.0 && j == d) (a.exportAdjoint + (0 * ds + d) * a.exportAdjointStride + s0)[s] += A0;
    }
  }
  { double* t = a.selected + (1 * ds + d) * a.selectedStride + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = sel[s]; }
  }
  { double* t = a.exportAdjoint + (0 * ds + d) * a.exportAdjointStride + s0;   KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { g4[s] += t[s]; t[s] = 0.0; }
  }
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { if (v0[s] == 1.0) {  } else { g3[s] += g4[s]; } }
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { g2[s] += g3[s];  }
  {
  double sel[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) sel[s] = -1.0;
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = r.exportsPrev + (0 * ds + j) * xs + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double G = g2[s];
      if (G == 0.0) continue;
      if (sel[s] >= 0.0) continue;
      const double e0 = q0[s];
      (void)e0;
      if (!(e0 == v2[s])) continue;
      sel[s] = r.ids ? double(r.ids[j]) : double(j);
      double A0 = G;
      (void)A0;
      if (A0 != 0.0 && j == d) (a.exportAdjoint + (0 * ds + d) * a.exportAdjointStride + s0)[s] += A0;
    }
  }
  { double* t = a.selected + (0 * ds + d) * a.selectedStride + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = sel[s]; }
  }
  if (a.sensorRow[1] >= 0) {
    double* t = a.sensorAdjoint + (a.sensorRow[1] * ds + d) * a.sensorAdjointStride + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { t[s] += g1[s]; }
  }
  if (a.sensorRow[0] >= 0) {
    double* t = a.sensorAdjoint + (a.sensorRow[0] * ds + d) * a.sensorAdjointStride + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { t[s] += g0[s]; }
  }
  { double* t = a.adjoints + (0 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = g2[s]; }
  { double* t = a.adjoints + (1 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = g5[s]; }
  { double* t = a.adjoints + (2 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = g7[s]; }
  { double* t = a.adjoints + (3 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = g13[s]; }
}

template <int W>
void reverse_collect_sum_gather_block(const kfield::diff::CompiledReverseArgs& a, std::int64_t h, std::int64_t s0,
    std::int64_t m) {
  const kfield::CompiledRoundArgs& r = a.round;
  const std::int64_t n = W == 1 ? 1 : m;
  const std::int64_t ds = r.devices, xs = r.exportStride, live = r.live;
  const double* c = r.constants;
  (void)n, (void)ds, (void)xs, (void)live, (void)c, (void)s0;
  const double id = r.ids ? double(r.ids[h]) : double(h);
  (void)id;
  for (std::int64_t t = a.transposedOffsets[h]; t < a.transposedOffsets[h + 1]; ++t) {
    const std::int64_t d = a.transposedReaders[t], k = a.transposedEntries[t], j = h;
    (void)d, (void)k, (void)j;
    if (d == h) continue;
    {
    const double* G = a.adjoints + (0 * ds + d) * live + s0;
    const double* sel = a.selected + (0 * ds + d) * a.selectedStride + s0;
    const double* q0 = r.exportsPrev + (0 * ds + j) * xs + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double g = G[s];
      if (g == 0.0) continue;
      if (sel[s] != id) continue;
      const double e0 = q0[s];
      (void)e0;
      double A0 = g;
      (void)A0;
      if (A0 != 0.0) (a.exportAdjoint + (0 * ds + h) * a.exportAdjointStride + s0)[s] += A0;
    }
    }
    {
    const double* G = a.adjoints + (1 * ds + d) * live + s0;
    const double* sel = a.selected + (1 * ds + d) * a.selectedStride + s0;
    const double* q0 = r.exportsPrev + (0 * ds + j) * xs + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double g = G[s];
      if (g == 0.0) continue;
      if (sel[s] != id) continue;
      const double e0 = q0[s];
      (void)e0;
      double A0 = g;
      (void)A0;
      if (A0 != 0.0) (a.exportAdjoint + (0 * ds + h) * a.exportAdjointStride + s0)[s] += A0;
    }
    }
    {
    const double* G = a.adjoints + (2 * ds + d) * live + s0;
    const double* sel = a.selected + (2 * ds + d) * a.selectedStride + s0;
    const double* q0 = r.exportsPrev + (0 * ds + j) * xs + s0;
    const double* q1 = a.values + (0 * ds + d) * live + s0;
    const double* q3 = r.exportsPrev + (1 * ds + j) * xs + s0;
    const double q4 = c[66];
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double g = G[s];
      if (g == 0.0) continue;
      if (sel[s] != id) continue;
      const double e0 = q0[s];
      (void)e0;
      const double e1 = q1[s];
      (void)e1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Equal, e0, e1);
      (void)e2;
      const double e3 = q3[s];
      (void)e3;
      const double e4 = q4;
      (void)e4;
      const double e5 = e2 == 1.0 ? e3 : e4;
      (void)e5;
      double A0 = 0.0;
      double A1 = 0.0;
      double A2 = 0.0;
      double A3 = 0.0;
      double A4 = 0.0;
      double A5 = g;
      if (A5 != 0.0) { (e2 == 1.0 ? A3 : A4) += A5; }
      (void)A0;
      (void)A1;
      (void)A2;
      (void)A3;
      (void)A4;
      (void)A5;
      if (A0 != 0.0) (a.exportAdjoint + (0 * ds + h) * a.exportAdjointStride + s0)[s] += A0;
      if (A3 != 0.0) (a.exportAdjoint + (1 * ds + h) * a.exportAdjointStride + s0)[s] += A3;
    }
    }
    {
    const double* G = a.adjoints + (3 * ds + d) * live + s0;
    const double* q0 = r.exportsPrev + (2 * ds + j) * xs + s0;
    const double* q1 = a.values + (1 * ds + d) * live + s0;
    const double* q3 = r.exportsPrev + (3 * ds + j) * xs + s0;
    const double q4 = c[72];
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double g = G[s];
      if (g == 0.0) continue;
      const double e0 = q0[s];
      (void)e0;
      const double e1 = q1[s];
      (void)e1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Equal, e0, e1);
      (void)e2;
      const double e3 = q3[s];
      (void)e3;
      const double e4 = q4;
      (void)e4;
      const double e5 = e2 == 1.0 ? e3 : e4;
      (void)e5;
      double A0 = 0.0;
      double A1 = 0.0;
      double A2 = 0.0;
      double A3 = 0.0;
      double A4 = 0.0;
      double A5 = g;
      if (A5 != 0.0) { (e2 == 1.0 ? A3 : A4) += A5; }
      (void)A0;
      (void)A1;
      (void)A2;
      (void)A3;
      (void)A4;
      (void)A5;
      if (A0 != 0.0) (a.exportAdjoint + (2 * ds + h) * a.exportAdjointStride + s0)[s] += A0;
      if (A3 != 0.0) (a.exportAdjoint + (3 * ds + h) * a.exportAdjointStride + s0)[s] += A3;
    }
    }
  }
}

void reverse_collect_sum_record(const kfield::diff::CompiledReverseArgs& a, std::int64_t first, std::int64_t end) {
  if (a.round.live == 1) {
    for (std::int64_t d = first; d < end; ++d) reverse_collect_sum_record_block<1>(a, d, 0, 1);
    return;
  }
  for (std::int64_t d = first; d < end; ++d) {
    for (std::int64_t s0 = 0; s0 < a.round.live; s0 += 64) {
      reverse_collect_sum_record_block<64>(a, d, s0, a.round.live - s0 < 64 ? a.round.live - s0 : 64);
    }
  }
}

void reverse_collect_sum_own(const kfield::diff::CompiledReverseArgs& a, std::int64_t first, std::int64_t end) {
  if (a.round.live == 1) {
    for (std::int64_t d = first; d < end; ++d) reverse_collect_sum_own_block<1>(a, d, 0, 1);
    return;
  }
  for (std::int64_t d = first; d < end; ++d) {
    for (std::int64_t s0 = 0; s0 < a.round.live; s0 += 64) {
      reverse_collect_sum_own_block<64>(a, d, s0, a.round.live - s0 < 64 ? a.round.live - s0 : 64);
    }
  }
}

void reverse_collect_sum_gather(const kfield::diff::CompiledReverseArgs& a, std::int64_t first, std::int64_t end) {
  if (a.round.live == 1) {
    for (std::int64_t d = first; d < end; ++d) reverse_collect_sum_gather_block<1>(a, d, 0, 1);
    return;
  }
  for (std::int64_t d = first; d < end; ++d) {
    for (std::int64_t s0 = 0; s0 < a.round.live; s0 += 64) {
      reverse_collect_sum_gather_block<64>(a, d, s0, a.round.live - s0 < 64 ? a.round.live - s0 : 64);
    }
  }
}

// election: 18 value operations, 16 entry operations.
template <int W>
void reverse_election_record_block(const kfield::diff::CompiledReverseArgs& a, std::int64_t d, std::int64_t s0,
    std::int64_t m) {
  const kfield::CompiledRoundArgs& r = a.round;
  const std::int64_t n = W == 1 ? 1 : m;
  const std::int64_t ds = r.devices, xs = r.exportStride, live = r.live;
  const double* c = r.constants;
  (void)n, (void)ds, (void)xs, (void)live, (void)c, (void)s0;
  double v0[W];
  { const double u = r.ids ? double(r.ids[d]) : double(d); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v0[s] = u; }
  (void)v0;
  double x0[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) x0[s] = v0[s];
  (void)x0;
  { double* t = r.exportsNow + (0 * ds + d) * xs + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = v0[s]; }
  double v1[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Min); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v1[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Min, [&](const auto& combine) {
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    const double* q0 = j == d ? x0 : r.exportsPrev + (0 * ds + j) * xs + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      (void)e0;
      v1[s] = combine(v1[s], e0);
    }
  }
  });
  { double* t = a.foldTape + (0 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = v1[s]; }
  (void)v1;
  double v2[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v2[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Min, v0[s], v1[s]);
  (void)v2;
  double x1[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) x1[s] = v2[s];
  (void)x1;
  { double* t = r.exportsNow + (1 * ds + d) * xs + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = v2[s]; }
  double v3[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Min); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v3[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Min, [&](const auto& combine) {
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    const double* q0 = j == d ? x1 : r.exportsPrev + (1 * ds + j) * xs + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      (void)e0;
      v3[s] = combine(v3[s], e0);
    }
  }
  });
  { double* t = a.foldTape + (1 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = v3[s]; }
  (void)v3;
  double v4[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v4[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Min, v2[s], v3[s]);
  (void)v4;
  double v5[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v5[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Equal, v4[s], v0[s]);
  (void)v5;
  double v6[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Min); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v6[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Min, [&](const auto& combine) {
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = r.exportsPrev + (2 * ds + j) * xs + s0;
    const double q1 = r.lengths ? r.lengths[k] : 0.0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      (void)e0;
      const double e1 = q1;
      (void)e1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, e0, e1);
      (void)e2;
      v6[s] = combine(v6[s], e2);
    }
  }
  });
  { double* t = a.foldTape + (2 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = v6[s]; }
  (void)v6;
  double v7[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v7[s] = v5[s] == 1.0 ? c[28] : v6[s];
  (void)v7;
  double x2[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) x2[s] = v7[s];
  (void)x2;
  { double* t = r.exportsNow + (2 * ds + d) * xs + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = v7[s]; }
  double v8[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Min); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v8[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Min, [&](const auto& combine) {
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = r.exportsPrev + (2 * ds + j) * xs + s0;
    const double q1 = r.lengths ? r.lengths[k] : 0.0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      (void)e0;
      const double e1 = q1;
      (void)e1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, e0, e1);
      (void)e2;
      v8[s] = combine(v8[s], e2);
    }
  }
  });
  { double* t = a.foldTape + (3 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = v8[s]; }
  (void)v8;
  double v9[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Min); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v9[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Min, [&](const auto& combine) {
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = r.exportsPrev + (2 * ds + j) * xs + s0;
    const double q1 = r.lengths ? r.lengths[k] : 0.0;
    const double* q5 = r.exportsPrev + (3 * ds + j) * xs + s0;
    const double q6 = c[68];
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      (void)e0;
      const double e1 = q1;
      (void)e1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, e0, e1);
      (void)e2;
      const double e3 = v8[s];
      (void)e3;
      const double e4 = kfield::impl::entryOperation(kfield::impl::EntryCode::Equal, e2, e3);
      (void)e4;
      const double e5 = q5[s];
      (void)e5;
      const double e6 = q6;
      (void)e6;
      const double e7 = e4 == 1.0 ? e5 : e6;
      (void)e7;
      v9[s] = combine(v9[s], e7);
    }
  }
  });
  { double* t = a.foldTape + (4 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = v9[s]; }
  (void)v9;
  double v10[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v10[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Less, v8[s], c[40]);
  (void)v10;
  double v11[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v11[s] = v10[s] == 1.0 ? v9[s] : v0[s];
  (void)v11;
  double v12[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v12[s] = v5[s] == 1.0 ? v0[s] : v11[s];
  (void)v12;
  double x3[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) x3[s] = v12[s];
  (void)x3;
  { double* t = r.exportsNow + (3 * ds + d) * xs + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = v12[s]; }
}

template <int W>
void reverse_election_own_block(const kfield::diff::CompiledReverseArgs& a, std::int64_t d, std::int64_t s0,
    std::int64_t m) {
  const kfield::CompiledRoundArgs& r = a.round;
  const std::int64_t n = W == 1 ? 1 : m;
  const std::int64_t ds = r.devices, xs = r.exportStride, live = r.live;
  const double* c = r.constants;
  (void)n, (void)ds, (void)xs, (void)live, (void)c, (void)s0;
  double v0[W];
  { const double u = r.ids ? double(r.ids[d]) : double(d); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v0[s] = u; }
  (void)v0;
  double x0[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) x0[s] = v0[s];
  (void)x0;
  const double* v1 = a.foldTape + (0 * ds + d) * live + s0;
  (void)v1;
  double v2[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v2[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Min, v0[s], v1[s]);
  (void)v2;
  double x1[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) x1[s] = v2[s];
  (void)x1;
  const double* v3 = a.foldTape + (1 * ds + d) * live + s0;
  (void)v3;
  double v4[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v4[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Min, v2[s], v3[s]);
  (void)v4;
  double v5[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v5[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Equal, v4[s], v0[s]);
  (void)v5;
  const double* v6 = a.foldTape + (2 * ds + d) * live + s0;
  (void)v6;
  double v7[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v7[s] = v5[s] == 1.0 ? c[28] : v6[s];
  (void)v7;
  double x2[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) x2[s] = v7[s];
  (void)x2;
  const double* v8 = a.foldTape + (3 * ds + d) * live + s0;
  (void)v8;
  { double* t = a.values + (0 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = v8[s]; }
  const double* v9 = a.foldTape + (4 * ds + d) * live + s0;
  (void)v9;
  double v10[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v10[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Less, v8[s], c[40]);
  (void)v10;
  double v11[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v11[s] = v10[s] == 1.0 ? v9[s] : v0[s];
  (void)v11;
  double v12[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v12[s] = v5[s] == 1.0 ? v0[s] : v11[s];
  (void)v12;
  double x3[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) x3[s] = v12[s];
  (void)x3;
  double g0[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g0[s] = 0.0;
  (void)g0;
  double g1[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g1[s] = 0.0;
  (void)g1;
  double g2[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g2[s] = 0.0;
  (void)g2;
  double g3[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g3[s] = 0.0;
  (void)g3;
  double g4[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g4[s] = 0.0;
  (void)g4;
  double g5[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g5[s] = 0.0;
  (void)g5;
  double g6[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g6[s] = 0.0;
  (void)g6;
  double g7[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g7[s] = 0.0;
  (void)g7;
  double g8[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g8[s] = 0.0;
  (void)g8;
  double g9[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g9[s] = 0.0;
  (void)g9;
  double g10[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g10[s] = 0.0;
  (void)g10;
  double g11[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g11[s] = 0.0;
  (void)g11;
  double g12[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g12[s] = 0.0;
  (void)g12;
  { const double* t = a.target + (0 * ds + d) * a.targetStride + s0; (void)t;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { if (s0 + s < a.liveNext) continue; const double y = v12[s]; const double u = a.outputLoss ? 0.0 : t[s]; g12[s] += a.outputLoss ? 1.0 : 2.0 * (y - u); }
  }
  { double* t = a.exportAdjoint + (3 * ds + d) * a.exportAdjointStride + s0;   KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { g12[s] += t[s]; t[s] = 0.0; }
  }
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { if (v5[s] == 1.0) { g0[s] += g12[s]; } else { g11[s] += g12[s]; } }
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { if (v10[s] == 1.0) { g9[s] += g11[s]; } else { g0[s] += g11[s]; } }
  {
  double sel[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) sel[s] = -1.0;
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = r.exportsPrev + (2 * ds + j) * xs + s0;
    const double q1 = r.lengths ? r.lengths[k] : 0.0;
    const double* q5 = r.exportsPrev + (3 * ds + j) * xs + s0;
    const double q6 = c[68];
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double G = g9[s];
      if (G == 0.0) continue;
      if (sel[s] >= 0.0) continue;
      const double e0 = q0[s];
      (void)e0;
      const double e1 = q1;
      (void)e1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, e0, e1);
      (void)e2;
      const double e3 = v8[s];
      (void)e3;
      const double e4 = kfield::impl::entryOperation(kfield::impl::EntryCode::Equal, e2, e3);
      (void)e4;
      const double e5 = q5[s];
      (void)e5;
      const double e6 = q6;
      (void)e6;
      const double e7 = e4 == 1.0 ? e5 : e6;
      (void)e7;
      if (!(e7 == v9[s])) continue;
      sel[s] = r.ids ? double(r.ids[j]) : double(j);
      double A0 = 0.0;
      double A1 = 0.0;
      double A2 = 0.0;
      double A3 = 0.0;
      double A4 = 0.0;
      double A5 = 0.0;
      double A6 = 0.0;
      double A7 = G;
      if (A7 != 0.0) { (e4 == 1.0 ? A5 : A6) += A7; }
      if (A2 != 0.0) { A0 += A2, A1 += A2; }
      (void)A0;
      (void)A1;
      (void)A2;
      (void)A3;
      (void)A4;
      (void)A5;
      (void)A6;
      (void)A7;
      if (A0 != 0.0 && j == d) (a.exportAdjoint + (2 * ds + d) * a.exportAdjointStride + s0)[s] += A0;
      if (A3 != 0.0) g8[s] += A3;
      if (A5 != 0.0 && j == d) (a.exportAdjoint + (3 * ds + d) * a.exportAdjointStride + s0)[s] += A5;
    }
  }
  { double* t = a.selected + (4 * ds + d) * a.selectedStride + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = sel[s]; }
  }
  {
  double sel[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) sel[s] = -1.0;
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = r.exportsPrev + (2 * ds + j) * xs + s0;
    const double q1 = r.lengths ? r.lengths[k] : 0.0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double G = g8[s];
      if (G == 0.0) continue;
      if (sel[s] >= 0.0) continue;
      const double e0 = q0[s];
      (void)e0;
      const double e1 = q1;
      (void)e1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, e0, e1);
      (void)e2;
      if (!(e2 == v8[s])) continue;
      sel[s] = r.ids ? double(r.ids[j]) : double(j);
      double A0 = 0.0;
      double A1 = 0.0;
      double A2 = G;
      if (A2 != 0.0) { A0 += A2, A1 += A2; }
      (void)A0;
      (void)A1;
      (void)A2;
      if (A0 != 0.0 && j == d) (a.exportAdjoint + (2 * ds + d) * a.exportAdjointStride + s0)[s] += A0;
    }
  }
  { double* t = a.selected + (3 * ds + d) * a.selectedStride + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = sel[s]; }
  }
  { double* t = a.exportAdjoint + (2 * ds + d) * a.exportAdjointStride + s0;   KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { g7[s] += t[s]; t[s] = 0.0; }
  }
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { if (v5[s] == 1.0) {  } else { g6[s] += g7[s]; } }
  {
  double sel[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) sel[s] = -1.0;
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = r.exportsPrev + (2 * ds + j) * xs + s0;
    const double q1 = r.lengths ? r.lengths[k] : 0.0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double G = g6[s];
      if (G == 0.0) continue;
      if (sel[s] >= 0.0) continue;
      const double e0 = q0[s];
      (void)e0;
      const double e1 = q1;
      (void)e1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, e0, e1);
      (void)e2;
      if (!(e2 == v6[s])) continue;
      sel[s] = r.ids ? double(r.ids[j]) : double(j);
      double A0 = 0.0;
      double A1 = 0.0;
      double A2 = G;
      if (A2 != 0.0) { A0 += A2, A1 += A2; }
      (void)A0;
      (void)A1;
      (void)A2;
      if (A0 != 0.0 && j == d) (a.exportAdjoint + (2 * ds + d) * a.exportAdjointStride + s0)[s] += A0;
    }
  }
  { double* t = a.selected + (2 * ds + d) * a.selectedStride + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = sel[s]; }
  }
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { if (v3[s] < v2[s]) { g3[s] += g4[s]; } else { g2[s] += g4[s]; } }
  {
  double sel[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) sel[s] = -1.0;
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    const double* q0 = j == d ? x1 : r.exportsPrev + (1 * ds + j) * xs + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double G = g3[s];
      if (G == 0.0) continue;
      if (sel[s] >= 0.0) continue;
      const double e0 = q0[s];
      (void)e0;
      if (!(e0 == v3[s])) continue;
      sel[s] = r.ids ? double(r.ids[j]) : double(j);
      double A0 = G;
      (void)A0;
      if (A0 != 0.0 && j == d) (a.exportAdjoint + (1 * ds + d) * a.exportAdjointStride + s0)[s] += A0;
    }
  }
  { double* t = a.selected + (1 * ds + d) * a.selectedStride + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = sel[s]; }
  }
  { double* t = a.exportAdjoint + (1 * ds + d) * a.exportAdjointStride + s0;   KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { g2[s] += t[s]; t[s] = 0.0; }
  }
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { if (v1[s] < v0[s]) { g1[s] += g2[s]; } else { g0[s] += g2[s]; } }
  {
  double sel[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) sel[s] = -1.0;
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    const double* q0 = j == d ? x0 : r.exportsPrev + (0 * ds + j) * xs + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double G = g1[s];
      if (G == 0.0) continue;
      if (sel[s] >= 0.0) continue;
      const double e0 = q0[s];
      (void)e0;
      if (!(e0 == v1[s])) continue;
      sel[s] = r.ids ? double(r.ids[j]) : double(j);
      double A0 = G;
      (void)A0;
      if (A0 != 0.0 && j == d) (a.exportAdjoint + (0 * ds + d) * a.exportAdjointStride + s0)[s] += A0;
    }
  }
  { double* t = a.selected + (0 * ds + d) * a.selectedStride + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = sel[s]; }
  }
  { double* t = a.exportAdjoint + (0 * ds + d) * a.exportAdjointStride + s0;   KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { g0[s] += t[s]; t[s] = 0.0; }
  }
  { double* t = a.adjoints + (0 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = g1[s]; }
  { double* t = a.adjoints + (1 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = g3[s]; }
  { double* t = a.adjoints + (2 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = g6[s]; }
  { double* t = a.adjoints + (3 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = g8[s]; }
  { double* t = a.adjoints + (4 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = g9[s]; }
}

template <int W>
void reverse_election_gather_block(const kfield::diff::CompiledReverseArgs& a, std::int64_t h, std::int64_t s0,
    std::int64_t m) {
  const kfield::CompiledRoundArgs& r = a.round;
  const std::int64_t n = W == 1 ? 1 : m;
  const std::int64_t ds = r.devices, xs = r.exportStride, live = r.live;
  const double* c = r.constants;
  (void)n, (void)ds, (void)xs, (void)live, (void)c, (void)s0;
  const double id = r.ids ? double(r.ids[h]) : double(h);
  (void)id;
  for (std::int64_t t = a.transposedOffsets[h]; t < a.transposedOffsets[h + 1]; ++t) {
    const std::int64_t d = a.transposedReaders[t], k = a.transposedEntries[t], j = h;
    (void)d, (void)k, (void)j;
    if (d == h) continue;
    {
    const double* G = a.adjoints + (0 * ds + d) * live + s0;
    const double* sel = a.selected + (0 * ds + d) * a.selectedStride + s0;
    const double* q0 = r.exportsPrev + (0 * ds + j) * xs + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double g = G[s];
      if (g == 0.0) continue;
      if (sel[s] != id) continue;
      const double e0 = q0[s];
      (void)e0;
      double A0 = g;
      (void)A0;
      if (A0 != 0.0) (a.exportAdjoint + (0 * ds + h) * a.exportAdjointStride + s0)[s] += A0;
    }
    }
    {
    const double* G = a.adjoints + (1 * ds + d) * live + s0;
    const double* sel = a.selected + (1 * ds + d) * a.selectedStride + s0;
    const double* q0 = r.exportsPrev + (1 * ds + j) * xs + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double g = G[s];
      if (g == 0.0) continue;
      if (sel[s] != id) continue;
      const double e0 = q0[s];
      (void)e0;
      double A0 = g;
      (void)A0;
      if (A0 != 0.0) (a.exportAdjoint + (1 * ds + h) * a.exportAdjointStride + s0)[s] += A0;
    }
    }
    {
    const double* G = a.adjoints + (2 * ds + d) * live + s0;
    const double* sel = a.selected + (2 * ds + d) * a.selectedStride + s0;
    const double* q0 = r.exportsPrev + (2 * ds + j) * xs + s0;
    const double q1 = r.lengths ? r.lengths[k] : 0.0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double g = G[s];
      if (g == 0.0) continue;
      if (sel[s] != id) continue;
      const double e0 = q0[s];
      (void)e0;
      const double e1 = q1;
      (void)e1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, e0, e1);
      (void)e2;
      double A0 = 0.0;
      double A1 = 0.0;
      double A2 = g;
      if (A2 != 0.0) { A0 += A2, A1 += A2; }
      (void)A0;
      (void)A1;
      (void)A2;
      if (A0 != 0.0) (a.exportAdjoint + (2 * ds + h) * a.exportAdjointStride + s0)[s] += A0;
    }
    }
    {
    const double* G = a.adjoints + (3 * ds + d) * live + s0;
    const double* sel = a.selected + (3 * ds + d) * a.selectedStride + s0;
    const double* q0 = r.exportsPrev + (2 * ds + j) * xs + s0;
    const double q1 = r.lengths ? r.lengths[k] : 0.0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double g = G[s];
      if (g == 0.0) continue;
      if (sel[s] != id) continue;
      const double e0 = q0[s];
      (void)e0;
      const double e1 = q1;
      (void)e1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, e0, e1);
      (void)e2;
      double A0 = 0.0;
      double A1 = 0.0;
      double A2 = g;
      if (A2 != 0.0) { A0 += A2, A1 += A2; }
      (void)A0;
      (void)A1;
      (void)A2;
      if (A0 != 0.0) (a.exportAdjoint + (2 * ds + h) * a.exportAdjointStride + s0)[s] += A0;
    }
    }
    {
    const double* G = a.adjoints + (4 * ds + d) * live + s0;
    const double* sel = a.selected + (4 * ds + d) * a.selectedStride + s0;
    const double* q0 = r.exportsPrev + (2 * ds + j) * xs + s0;
    const double q1 = r.lengths ? r.lengths[k] : 0.0;
    const double* q3 = a.values + (0 * ds + d) * live + s0;
    const double* q5 = r.exportsPrev + (3 * ds + j) * xs + s0;
    const double q6 = c[68];
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double g = G[s];
      if (g == 0.0) continue;
      if (sel[s] != id) continue;
      const double e0 = q0[s];
      (void)e0;
      const double e1 = q1;
      (void)e1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, e0, e1);
      (void)e2;
      const double e3 = q3[s];
      (void)e3;
      const double e4 = kfield::impl::entryOperation(kfield::impl::EntryCode::Equal, e2, e3);
      (void)e4;
      const double e5 = q5[s];
      (void)e5;
      const double e6 = q6;
      (void)e6;
      const double e7 = e4 == 1.0 ? e5 : e6;
      (void)e7;
      double A0 = 0.0;
      double A1 = 0.0;
      double A2 = 0.0;
      double A3 = 0.0;
      double A4 = 0.0;
      double A5 = 0.0;
      double A6 = 0.0;
      double A7 = g;
      if (A7 != 0.0) { (e4 == 1.0 ? A5 : A6) += A7; }
      if (A2 != 0.0) { A0 += A2, A1 += A2; }
      (void)A0;
      (void)A1;
      (void)A2;
      (void)A3;
      (void)A4;
      (void)A5;
      (void)A6;
      (void)A7;
      if (A0 != 0.0) (a.exportAdjoint + (2 * ds + h) * a.exportAdjointStride + s0)[s] += A0;
      if (A5 != 0.0) (a.exportAdjoint + (3 * ds + h) * a.exportAdjointStride + s0)[s] += A5;
    }
    }
  }
}

void reverse_election_record(const kfield::diff::CompiledReverseArgs& a, std::int64_t first, std::int64_t end) {
  if (a.round.live == 1) {
    for (std::int64_t d = first; d < end; ++d) reverse_election_record_block<1>(a, d, 0, 1);
    return;
  }
  for (std::int64_t d = first; d < end; ++d) {
    for (std::int64_t s0 = 0; s0 < a.round.live; s0 += 64) {
      reverse_election_record_block<64>(a, d, s0, a.round.live - s0 < 64 ? a.round.live - s0 : 64);
    }
  }
}

void reverse_election_own(const kfield::diff::CompiledReverseArgs& a, std::int64_t first, std::int64_t end) {
  if (a.round.live == 1) {
    for (std::int64_t d = first; d < end; ++d) reverse_election_own_block<1>(a, d, 0, 1);
    return;
  }
  for (std::int64_t d = first; d < end; ++d) {
    for (std::int64_t s0 = 0; s0 < a.round.live; s0 += 64) {
      reverse_election_own_block<64>(a, d, s0, a.round.live - s0 < 64 ? a.round.live - s0 : 64);
    }
  }
}

void reverse_election_gather(const kfield::diff::CompiledReverseArgs& a, std::int64_t first, std::int64_t end) {
  if (a.round.live == 1) {
    for (std::int64_t d = first; d < end; ++d) reverse_election_gather_block<1>(a, d, 0, 1);
    return;
  }
  for (std::int64_t d = first; d < end; ++d) {
    for (std::int64_t s0 = 0; s0 < a.round.live; s0 += 64) {
      reverse_election_gather_block<64>(a, d, s0, a.round.live - s0 < 64 ? a.round.live - s0 : 64);
    }
  }
}

// gossip-max: 6 value operations, 1 entry operations.
template <int W>
void reverse_gossip_max_record_block(const kfield::diff::CompiledReverseArgs& a, std::int64_t d, std::int64_t s0,
    std::int64_t m) {
  const kfield::CompiledRoundArgs& r = a.round;
  const std::int64_t n = W == 1 ? 1 : m;
  const std::int64_t ds = r.devices, xs = r.exportStride, live = r.live;
  const double* c = r.constants;
  (void)n, (void)ds, (void)xs, (void)live, (void)c, (void)s0;
  const double* v0 = r.sensors + (0 * ds + d) * r.sensorStride + s0;
  (void)v0;
  const double* v1 = r.exportsPrev + (0 * ds + d) * xs + s0;
  (void)v1;
  double v2[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Max); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v2[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Max, [&](const auto& combine) {
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    const double* q0 = j == d ? v1 : r.exportsPrev + (0 * ds + j) * xs + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      (void)e0;
      v2[s] = combine(v2[s], e0);
    }
  }
  });
  { double* t = a.foldTape + (0 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = v2[s]; }
  (void)v2;
  double v3[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v3[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Max, v0[s], v2[s]);
  (void)v3;
  { double* t = r.exportsNow + (0 * ds + d) * xs + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = v3[s]; }
}

template <int W>
void reverse_gossip_max_own_block(const kfield::diff::CompiledReverseArgs& a, std::int64_t d, std::int64_t s0,
    std::int64_t m) {
  const kfield::CompiledRoundArgs& r = a.round;
  const std::int64_t n = W == 1 ? 1 : m;
  const std::int64_t ds = r.devices, xs = r.exportStride, live = r.live;
  const double* c = r.constants;
  (void)n, (void)ds, (void)xs, (void)live, (void)c, (void)s0;
  const double* v0 = r.sensors + (0 * ds + d) * r.sensorStride + s0;
  (void)v0;
  const double* v1 = r.exportsPrev + (0 * ds + d) * xs + s0;
  (void)v1;
  const double* v2 = a.foldTape + (0 * ds + d) * live + s0;
  (void)v2;
  double v3[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v3[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Max, v0[s], v2[s]);
  (void)v3;
  double g0[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g0[s] = 0.0;
  (void)g0;
  double g1[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g1[s] = 0.0;
  (void)g1;
  double g2[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g2[s] = 0.0;
  (void)g2;
  double g3[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g3[s] = 0.0;
  (void)g3;
  { const double* t = a.target + (0 * ds + d) * a.targetStride + s0; (void)t;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { if (s0 + s < a.liveNext) continue; const double y = v3[s]; const double u = a.outputLoss ? 0.0 : t[s]; g3[s] += a.outputLoss ? 1.0 : 2.0 * (y - u); }
  }
  { double* t = a.exportAdjoint + (0 * ds + d) * a.exportAdjointStride + s0;   KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { g3[s] += t[s]; t[s] = 0.0; }
  }
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { if (v0[s] < v2[s]) { g2[s] += g3[s]; } else { g0[s] += g3[s]; } }
  {
  double sel[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) sel[s] = -1.0;
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    const double* q0 = j == d ? v1 : r.exportsPrev + (0 * ds + j) * xs + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double G = g2[s];
      if (G == 0.0) continue;
      if (sel[s] >= 0.0) continue;
      const double e0 = q0[s];
      (void)e0;
      if (!(e0 == v2[s])) continue;
      sel[s] = r.ids ? double(r.ids[j]) : double(j);
      double A0 = G;
      (void)A0;
      if (A0 != 0.0 && j == d) g1[s] += A0;
    }
  }
  { double* t = a.selected + (0 * ds + d) * a.selectedStride + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = sel[s]; }
  }
  { double* t = a.exportAdjoint + (0 * ds + d) * a.exportAdjointStride + s0;   KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { t[s] += g1[s]; }
  }
  if (a.sensorRow[0] >= 0) {
    double* t = a.sensorAdjoint + (a.sensorRow[0] * ds + d) * a.sensorAdjointStride + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { t[s] += g0[s]; }
  }
  { double* t = a.adjoints + (0 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = g2[s]; }
}

template <int W>
void reverse_gossip_max_gather_block(const kfield::diff::CompiledReverseArgs& a, std::int64_t h, std::int64_t s0,
    std::int64_t m) {
  const kfield::CompiledRoundArgs& r = a.round;
  const std::int64_t n = W == 1 ? 1 : m;
  const std::int64_t ds = r.devices, xs = r.exportStride, live = r.live;
  const double* c = r.constants;
  (void)n, (void)ds, (void)xs, (void)live, (void)c, (void)s0;
  const double id = r.ids ? double(r.ids[h]) : double(h);
  (void)id;
  for (std::int64_t t = a.transposedOffsets[h]; t < a.transposedOffsets[h + 1]; ++t) {
    const std::int64_t d = a.transposedReaders[t], k = a.transposedEntries[t], j = h;
    (void)d, (void)k, (void)j;
    if (d == h) continue;
    {
    const double* G = a.adjoints + (0 * ds + d) * live + s0;
    const double* sel = a.selected + (0 * ds + d) * a.selectedStride + s0;
    const double* q0 = r.exportsPrev + (0 * ds + j) * xs + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double g = G[s];
      if (g == 0.0) continue;
      if (sel[s] != id) continue;
      const double e0 = q0[s];
      (void)e0;
      double A0 = g;
      (void)A0;
      if (A0 != 0.0) (a.exportAdjoint + (0 * ds + h) * a.exportAdjointStride + s0)[s] += A0;
    }
    }
  }
}

void reverse_gossip_max_record(const kfield::diff::CompiledReverseArgs& a, std::int64_t first, std::int64_t end) {
  if (a.round.live == 1) {
    for (std::int64_t d = first; d < end; ++d) reverse_gossip_max_record_block<1>(a, d, 0, 1);
    return;
  }
  for (std::int64_t d = first; d < end; ++d) {
    for (std::int64_t s0 = 0; s0 < a.round.live; s0 += 64) {
      reverse_gossip_max_record_block<64>(a, d, s0, a.round.live - s0 < 64 ? a.round.live - s0 : 64);
    }
  }
}

void reverse_gossip_max_own(const kfield::diff::CompiledReverseArgs& a, std::int64_t first, std::int64_t end) {
  if (a.round.live == 1) {
    for (std::int64_t d = first; d < end; ++d) reverse_gossip_max_own_block<1>(a, d, 0, 1);
    return;
  }
  for (std::int64_t d = first; d < end; ++d) {
    for (std::int64_t s0 = 0; s0 < a.round.live; s0 += 64) {
      reverse_gossip_max_own_block<64>(a, d, s0, a.round.live - s0 < 64 ? a.round.live - s0 : 64);
    }
  }
}

void reverse_gossip_max_gather(const kfield::diff::CompiledReverseArgs& a, std::int64_t first, std::int64_t end) {
  if (a.round.live == 1) {
    for (std::int64_t d = first; d < end; ++d) reverse_gossip_max_gather_block<1>(a, d, 0, 1);
    return;
  }
  for (std::int64_t d = first; d < end; ++d) {
    for (std::int64_t s0 = 0; s0 < a.round.live; s0 += 64) {
      reverse_gossip_max_gather_block<64>(a, d, s0, a.round.live - s0 < 64 ? a.round.live - s0 : 64);
    }
  }
}

// consensus: 8 value operations, 4 entry operations.
template <int W>
void reverse_consensus_record_block(const kfield::diff::CompiledReverseArgs& a, std::int64_t d, std::int64_t s0,
    std::int64_t m) {
  const kfield::CompiledRoundArgs& r = a.round;
  const std::int64_t n = W == 1 ? 1 : m;
  const std::int64_t ds = r.devices, xs = r.exportStride, live = r.live;
  const double* c = r.constants;
  (void)n, (void)ds, (void)xs, (void)live, (void)c, (void)s0;
  const double* v0 = r.sensors + (0 * ds + d) * r.sensorStride + s0;
  (void)v0;
  const double* v1 = r.exportsPrev + (0 * ds + d) * xs + s0;
  (void)v1;
  double v2[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Self); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v2[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Self, [&](const auto& combine) {
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    if (j != d) continue;
    const double* q0 = j == d ? v1 : r.exportsPrev + (0 * ds + j) * xs + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      (void)e0;
      v2[s] = combine(v2[s], e0);
    }
  }
  });
  (void)v2;
  double v3[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Sum); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v3[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Sum, [&](const auto& combine) {
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = r.exportsPrev + (0 * ds + j) * xs + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      (void)e0;
      const double e1 = v2[s];
      (void)e1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Sub, e0, e1);
      (void)e2;
      v3[s] = combine(v3[s], e2);
    }
  }
  });
  { double* t = a.foldTape + (0 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = v3[s]; }
  (void)v3;
  double v4[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v4[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Mul, v3[s], c[13]);
  (void)v4;
  double v5[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v5[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, v2[s], v4[s]);
  (void)v5;
  { double* t = r.exportsNow + (0 * ds + d) * xs + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = v5[s]; }
}

template <int W>
void reverse_consensus_own_block(const kfield::diff::CompiledReverseArgs& a, std::int64_t d, std::int64_t s0,
    std::int64_t m) {
  const kfield::CompiledRoundArgs& r = a.round;
  const std::int64_t n = W == 1 ? 1 : m;
  const std::int64_t ds = r.devices, xs = r.exportStride, live = r.live;
  const double* c = r.constants;
  (void)n, (void)ds, (void)xs, (void)live, (void)c, (void)s0;
  const double* v0 = r.sensors + (0 * ds + d) * r.sensorStride + s0;
  (void)v0;
  const double* v1 = r.exportsPrev + (0 * ds + d) * xs + s0;
  (void)v1;
  double v2[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Self); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v2[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Self, [&](const auto& combine) {
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    if (j != d) continue;
    const double* q0 = j == d ? v1 : r.exportsPrev + (0 * ds + j) * xs + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      (void)e0;
      v2[s] = combine(v2[s], e0);
    }
  }
  });
  (void)v2;
  { double* t = a.values + (0 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = v2[s]; }
  const double* v3 = a.foldTape + (0 * ds + d) * live + s0;
  (void)v3;
  double v4[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v4[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Mul, v3[s], c[13]);
  (void)v4;
  double v5[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v5[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, v2[s], v4[s]);
  (void)v5;
  double g0[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g0[s] = 0.0;
  (void)g0;
  double g1[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g1[s] = 0.0;
  (void)g1;
  double g2[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g2[s] = 0.0;
  (void)g2;
  double g3[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g3[s] = 0.0;
  (void)g3;
  double g4[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g4[s] = 0.0;
  (void)g4;
  double g5[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g5[s] = 0.0;
  (void)g5;
  { const double* t = a.target + (0 * ds + d) * a.targetStride + s0; (void)t;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { if (s0 + s < a.liveNext) continue; const double y = v5[s]; const double u = a.outputLoss ? 0.0 : t[s]; g5[s] += a.outputLoss ? 1.0 : 2.0 * (y - u); }
  }
  { double* t = a.exportAdjoint + (0 * ds + d) * a.exportAdjointStride + s0;   KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { g5[s] += t[s]; t[s] = 0.0; }
  }
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { g2[s] += g5[s]; g4[s] += g5[s]; }
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { if (g4[s] == 0.0) continue; g3[s] += g4[s] * c[13];  }
  {
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = r.exportsPrev + (0 * ds + j) * xs + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double G = g3[s];
      if (G == 0.0) continue;
      const double e0 = q0[s];
      (void)e0;
      const double e1 = v2[s];
      (void)e1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Sub, e0, e1);
      (void)e2;
      double A0 = 0.0;
      double A1 = 0.0;
      double A2 = G;
      if (A2 != 0.0) { A0 += A2, A1 -= A2; }
      (void)A0;
      (void)A1;
      (void)A2;
      if (A0 != 0.0 && j == d) g1[s] += A0;
      if (A1 != 0.0) g2[s] += A1;
    }
  }
  }
  {
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    if (j != d) continue;
    const double* q0 = j == d ? v1 : r.exportsPrev + (0 * ds + j) * xs + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double G = g2[s];
      if (G == 0.0) continue;
      const double e0 = q0[s];
      (void)e0;
      double A0 = G;
      (void)A0;
      if (A0 != 0.0 && j == d) g1[s] += A0;
    }
  }
  }
  { double* t = a.exportAdjoint + (0 * ds + d) * a.exportAdjointStride + s0;   KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { t[s] += g1[s]; }
  }
  if (a.sensorRow[0] >= 0) {
    double* t = a.sensorAdjoint + (a.sensorRow[0] * ds + d) * a.sensorAdjointStride + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { t[s] += g0[s]; }
  }
  { double* t = a.adjoints + (0 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = g3[s]; }
}

template <int W>
void reverse_consensus_gather_block(const kfield::diff::CompiledReverseArgs& a, std::int64_t h, std::int64_t s0,
    std::int64_t m) {
  const kfield::CompiledRoundArgs& r = a.round;
  const std::int64_t n = W == 1 ? 1 : m;
  const std::int64_t ds = r.devices, xs = r.exportStride, live = r.live;
  const double* c = r.constants;
  (void)n, (void)ds, (void)xs, (void)live, (void)c, (void)s0;
  const double id = r.ids ? double(r.ids[h]) : double(h);
  (void)id;
  for (std::int64_t t = a.transposedOffsets[h]; t < a.transposedOffsets[h + 1]; ++t) {
    const std::int64_t d = a.transposedReaders[t], k = a.transposedEntries[t], j = h;
    (void)d, (void)k, (void)j;
    if (d == h) continue;
    {
    const double* G = a.adjoints + (0 * ds + d) * live + s0;
    const double* q0 = r.exportsPrev + (0 * ds + j) * xs + s0;
    const double* q1 = a.values + (0 * ds + d) * live + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double g = G[s];
      if (g == 0.0) continue;
      const double e0 = q0[s];
      (void)e0;
      const double e1 = q1[s];
      (void)e1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Sub, e0, e1);
      (void)e2;
      double A0 = 0.0;
      double A1 = 0.0;
      double A2 = g;
      if (A2 != 0.0) { A0 += A2, A1 -= A2; }
      (void)A0;
      (void)A1;
      (void)A2;
      if (A0 != 0.0) (a.exportAdjoint + (0 * ds + h) * a.exportAdjointStride + s0)[s] += A0;
    }
    }
  }
}

void reverse_consensus_record(const kfield::diff::CompiledReverseArgs& a, std::int64_t first, std::int64_t end) {
  if (a.round.live == 1) {
    for (std::int64_t d = first; d < end; ++d) reverse_consensus_record_block<1>(a, d, 0, 1);
    return;
  }
  for (std::int64_t d = first; d < end; ++d) {
    for (std::int64_t s0 = 0; s0 < a.round.live; s0 += 64) {
      reverse_consensus_record_block<64>(a, d, s0, a.round.live - s0 < 64 ? a.round.live - s0 : 64);
    }
  }
}

void reverse_consensus_own(const kfield::diff::CompiledReverseArgs& a, std::int64_t first, std::int64_t end) {
  if (a.round.live == 1) {
    for (std::int64_t d = first; d < end; ++d) reverse_consensus_own_block<1>(a, d, 0, 1);
    return;
  }
  for (std::int64_t d = first; d < end; ++d) {
    for (std::int64_t s0 = 0; s0 < a.round.live; s0 += 64) {
      reverse_consensus_own_block<64>(a, d, s0, a.round.live - s0 < 64 ? a.round.live - s0 : 64);
    }
  }
}

void reverse_consensus_gather(const kfield::diff::CompiledReverseArgs& a, std::int64_t first, std::int64_t end) {
  if (a.round.live == 1) {
    for (std::int64_t d = first; d < end; ++d) reverse_consensus_gather_block<1>(a, d, 0, 1);
    return;
  }
  for (std::int64_t d = first; d < end; ++d) {
    for (std::int64_t s0 = 0; s0 < a.round.live; s0 += 64) {
      reverse_consensus_gather_block<64>(a, d, s0, a.round.live - s0 < 64 ? a.round.live - s0 : 64);
    }
  }
}

// scaled-distance: 6 value operations, 5 entry operations.
template <int W>
void reverse_scaled_distance_record_block(const kfield::diff::CompiledReverseArgs& a, std::int64_t d, std::int64_t s0,
    std::int64_t m) {
  const kfield::CompiledRoundArgs& r = a.round;
  const std::int64_t n = W == 1 ? 1 : m;
  const std::int64_t ds = r.devices, xs = r.exportStride, live = r.live;
  const double* c = r.constants;
  (void)n, (void)ds, (void)xs, (void)live, (void)c, (void)s0;
  const double* v0 = r.sensors + (0 * ds + d) * r.sensorStride + s0;
  (void)v0;
  double v1[W];
  { const double u = r.parameters[0]; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v1[s] = u; }
  (void)v1;
  double v2[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Min); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v2[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Min, [&](const auto& combine) {
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = r.exportsPrev + (0 * ds + j) * xs + s0;
    const double q1 = r.lengths ? r.lengths[k] : 0.0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      (void)e0;
      const double e1 = q1;
      (void)e1;
      const double e2 = v1[s];
      (void)e2;
      const double e3 = kfield::impl::entryOperation(kfield::impl::EntryCode::Mul, e1, e2);
      (void)e3;
      const double e4 = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, e0, e3);
      (void)e4;
      v2[s] = combine(v2[s], e4);
    }
  }
  });
  { double* t = a.foldTape + (0 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = v2[s]; }
  (void)v2;
  double v3[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v3[s] = v0[s] == 1.0 ? c[10] : v2[s];
  (void)v3;
  double x0[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) x0[s] = v3[s];
  (void)x0;
  { double* t = r.exportsNow + (0 * ds + d) * xs + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = v3[s]; }
}

template <int W>
void reverse_scaled_distance_own_block(const kfield::diff::CompiledReverseArgs& a, std::int64_t d, std::int64_t s0,
    std::int64_t m) {
  const kfield::CompiledRoundArgs& r = a.round;
  const std::int64_t n = W == 1 ? 1 : m;
  const std::int64_t ds = r.devices, xs = r.exportStride, live = r.live;
  const double* c = r.constants;
  (void)n, (void)ds, (void)xs, (void)live, (void)c, (void)s0;
  const double* v0 = r.sensors + (0 * ds + d) * r.sensorStride + s0;
  (void)v0;
  double v1[W];
  { const double u = r.parameters[0]; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v1[s] = u; }
  (void)v1;
  const double* v2 = a.foldTape + (0 * ds + d) * live + s0;
  (void)v2;
  double v3[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v3[s] = v0[s] == 1.0 ? c[10] : v2[s];
  (void)v3;
  double x0[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) x0[s] = v3[s];
  (void)x0;
  double g0[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g0[s] = 0.0;
  (void)g0;
  double g1[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g1[s] = 0.0;
  (void)g1;
  double g2[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g2[s] = 0.0;
  (void)g2;
  double g3[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g3[s] = 0.0;
  (void)g3;
  { const double* t = a.target + (0 * ds + d) * a.targetStride + s0; (void)t;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { if (s0 + s < a.liveNext) continue; const double y = v3[s]; const double u = a.outputLoss ? 0.0 : t[s]; g3[s] += a.outputLoss ? 1.0 : 2.0 * (y - u); }
  }
  { double* t = a.exportAdjoint + (0 * ds + d) * a.exportAdjointStride + s0;   KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { g3[s] += t[s]; t[s] = 0.0; }
  }
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { if (v0[s] == 1.0) {  } else { g2[s] += g3[s]; } }
  {
  double sel[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) sel[s] = -1.0;
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = r.exportsPrev + (0 * ds + j) * xs + s0;
    const double q1 = r.lengths ? r.lengths[k] : 0.0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double G = g2[s];
      if (G == 0.0) continue;
      if (sel[s] >= 0.0) continue;
      const double e0 = q0[s];
      (void)e0;
      const double e1 = q1;
      (void)e1;
      const double e2 = v1[s];
      (void)e2;
      const double e3 = kfield::impl::entryOperation(kfield::impl::EntryCode::Mul, e1, e2);
      (void)e3;
      const double e4 = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, e0, e3);
      (void)e4;
      if (!(e4 == v2[s])) continue;
      sel[s] = r.ids ? double(r.ids[j]) : double(j);
      double A0 = 0.0;
      double A1 = 0.0;
      double A2 = 0.0;
      double A3 = 0.0;
      double A4 = G;
      if (A4 != 0.0) { A0 += A4, A3 += A4; }
      if (A3 != 0.0) { A1 += A3 * e2, A2 += A3 * e1; }
      (void)A0;
      (void)A1;
      (void)A2;
      (void)A3;
      (void)A4;
      if (A0 != 0.0 && j == d) (a.exportAdjoint + (0 * ds + d) * a.exportAdjointStride + s0)[s] += A0;
      if (A2 != 0.0) g1[s] += A2;
    }
  }
  { double* t = a.selected + (0 * ds + d) * a.selectedStride + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = sel[s]; }
  }
  { double* t = a.parameterAdjoint + (0 * ds + d) * a.parameterAdjointStride + s0;   KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { t[s] += g1[s]; }
  }
  if (a.sensorRow[0] >= 0) {
    double* t = a.sensorAdjoint + (a.sensorRow[0] * ds + d) * a.sensorAdjointStride + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { t[s] += g0[s]; }
  }
  { double* t = a.adjoints + (0 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = g2[s]; }
}

template <int W>
void reverse_scaled_distance_gather_block(const kfield::diff::CompiledReverseArgs& a, std::int64_t h, std::int64_t s0,
    std::int64_t m) {
  const kfield::CompiledRoundArgs& r = a.round;
  const std::int64_t n = W == 1 ? 1 : m;
  const std::int64_t ds = r.devices, xs = r.exportStride, live = r.live;
  const double* c = r.constants;
  (void)n, (void)ds, (void)xs, (void)live, (void)c, (void)s0;
  const double id = r.ids ? double(r.ids[h]) : double(h);
  (void)id;
  for (std::int64_t t = a.transposedOffsets[h]; t < a.transposedOffsets[h + 1]; ++t) {
    const std::int64_t d = a.transposedReaders[t], k = a.transposedEntries[t], j = h;
    (void)d, (void)k, (void)j;
    if (d == h) continue;
    {
    const double* G = a.adjoints + (0 * ds + d) * live + s0;
    const double* sel = a.selected + (0 * ds + d) * a.selectedStride + s0;
    const double* q0 = r.exportsPrev + (0 * ds + j) * xs + s0;
    const double q1 = r.lengths ? r.lengths[k] : 0.0;
    const double q2 = r.parameters[0];
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double g = G[s];
      if (g == 0.0) continue;
      if (sel[s] != id) continue;
      const double e0 = q0[s];
      (void)e0;
      const double e1 = q1;
      (void)e1;
      const double e2 = q2;
      (void)e2;
      const double e3 = kfield::impl::entryOperation(kfield::impl::EntryCode::Mul, e1, e2);
      (void)e3;
      const double e4 = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, e0, e3);
      (void)e4;
      double A0 = 0.0;
      double A1 = 0.0;
      double A2 = 0.0;
      double A3 = 0.0;
      double A4 = g;
      if (A4 != 0.0) { A0 += A4, A3 += A4; }
      if (A3 != 0.0) { A1 += A3 * e2, A2 += A3 * e1; }
      (void)A0;
      (void)A1;
      (void)A2;
      (void)A3;
      (void)A4;
      if (A0 != 0.0) (a.exportAdjoint + (0 * ds + h) * a.exportAdjointStride + s0)[s] += A0;
    }
    }
  }
}

void reverse_scaled_distance_record(const kfield::diff::CompiledReverseArgs& a, std::int64_t first, std::int64_t end) {
  if (a.round.live == 1) {
    for (std::int64_t d = first; d < end; ++d) reverse_scaled_distance_record_block<1>(a, d, 0, 1);
    return;
  }
  for (std::int64_t d = first; d < end; ++d) {
    for (std::int64_t s0 = 0; s0 < a.round.live; s0 += 64) {
      reverse_scaled_distance_record_block<64>(a, d, s0, a.round.live - s0 < 64 ? a.round.live - s0 : 64);
    }
  }
}

void reverse_scaled_distance_own(const kfield::diff::CompiledReverseArgs& a, std::int64_t first, std::int64_t end) {
  if (a.round.live == 1) {
    for (std::int64_t d = first; d < end; ++d) reverse_scaled_distance_own_block<1>(a, d, 0, 1);
    return;
  }
  for (std::int64_t d = first; d < end; ++d) {
    for (std::int64_t s0 = 0; s0 < a.round.live; s0 += 64) {
      reverse_scaled_distance_own_block<64>(a, d, s0, a.round.live - s0 < 64 ? a.round.live - s0 : 64);
    }
  }
}

void reverse_scaled_distance_gather(const kfield::diff::CompiledReverseArgs& a, std::int64_t first, std::int64_t end) {
  if (a.round.live == 1) {
    for (std::int64_t d = first; d < end; ++d) reverse_scaled_distance_gather_block<1>(a, d, 0, 1);
    return;
  }
  for (std::int64_t d = first; d < end; ++d) {
    for (std::int64_t s0 = 0; s0 < a.round.live; s0 += 64) {
      reverse_scaled_distance_gather_block<64>(a, d, s0, a.round.live - s0 < 64 ? a.round.live - s0 : 64);
    }
  }
}

// learned-consensus: 9 value operations, 4 entry operations.
template <int W>
void reverse_learned_consensus_record_block(const kfield::diff::CompiledReverseArgs& a, std::int64_t d, std::int64_t s0,
    std::int64_t m) {
  const kfield::CompiledRoundArgs& r = a.round;
  const std::int64_t n = W == 1 ? 1 : m;
  const std::int64_t ds = r.devices, xs = r.exportStride, live = r.live;
  const double* c = r.constants;
  (void)n, (void)ds, (void)xs, (void)live, (void)c, (void)s0;
  const double* v0 = r.sensors + (0 * ds + d) * r.sensorStride + s0;
  (void)v0;
  double v1[W];
  { const double u = r.parameters[0]; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v1[s] = u; }
  (void)v1;
  const double* v2 = r.exportsPrev + (0 * ds + d) * xs + s0;
  (void)v2;
  double v3[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Self); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v3[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Self, [&](const auto& combine) {
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    if (j != d) continue;
    const double* q0 = j == d ? v2 : r.exportsPrev + (0 * ds + j) * xs + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      (void)e0;
      v3[s] = combine(v3[s], e0);
    }
  }
  });
  (void)v3;
  double v4[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Sum); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v4[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Sum, [&](const auto& combine) {
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = r.exportsPrev + (0 * ds + j) * xs + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      (void)e0;
      const double e1 = v3[s];
      (void)e1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Sub, e0, e1);
      (void)e2;
      v4[s] = combine(v4[s], e2);
    }
  }
  });
  { double* t = a.foldTape + (0 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = v4[s]; }
  (void)v4;
  double v5[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v5[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Mul, v4[s], v1[s]);
  (void)v5;
  double v6[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v6[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, v3[s], v5[s]);
  (void)v6;
  { double* t = r.exportsNow + (0 * ds + d) * xs + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = v6[s]; }
}

template <int W>
void reverse_learned_consensus_own_block(const kfield::diff::CompiledReverseArgs& a, std::int64_t d, std::int64_t s0,
    std::int64_t m) {
  const kfield::CompiledRoundArgs& r = a.round;
  const std::int64_t n = W == 1 ? 1 : m;
  const std::int64_t ds = r.devices, xs = r.exportStride, live = r.live;
  const double* c = r.constants;
  (void)n, (void)ds, (void)xs, (void)live, (void)c, (void)s0;
  const double* v0 = r.sensors + (0 * ds + d) * r.sensorStride + s0;
  (void)v0;
  double v1[W];
  { const double u = r.parameters[0]; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v1[s] = u; }
  (void)v1;
  const double* v2 = r.exportsPrev + (0 * ds + d) * xs + s0;
  (void)v2;
  double v3[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Self); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v3[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Self, [&](const auto& combine) {
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    if (j != d) continue;
    const double* q0 = j == d ? v2 : r.exportsPrev + (0 * ds + j) * xs + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      (void)e0;
      v3[s] = combine(v3[s], e0);
    }
  }
  });
  (void)v3;
  { double* t = a.values + (0 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = v3[s]; }
  const double* v4 = a.foldTape + (0 * ds + d) * live + s0;
  (void)v4;
  double v5[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v5[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Mul, v4[s], v1[s]);
  (void)v5;
  double v6[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v6[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, v3[s], v5[s]);
  (void)v6;
  double g0[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g0[s] = 0.0;
  (void)g0;
  double g1[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g1[s] = 0.0;
  (void)g1;
  double g2[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g2[s] = 0.0;
  (void)g2;
  double g3[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g3[s] = 0.0;
  (void)g3;
  double g4[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g4[s] = 0.0;
  (void)g4;
  double g5[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g5[s] = 0.0;
  (void)g5;
  double g6[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g6[s] = 0.0;
  (void)g6;
  { const double* t = a.target + (0 * ds + d) * a.targetStride + s0; (void)t;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { if (s0 + s < a.liveNext) continue; const double y = v6[s]; const double u = a.outputLoss ? 0.0 : t[s]; g6[s] += a.outputLoss ? 1.0 : 2.0 * (y - u); }
  }
  { double* t = a.exportAdjoint + (0 * ds + d) * a.exportAdjointStride + s0;   KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { g6[s] += t[s]; t[s] = 0.0; }
  }
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { g3[s] += g6[s]; g5[s] += g6[s]; }
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { if (g5[s] == 0.0) continue; g4[s] += g5[s] * v1[s]; g1[s] += g5[s] * v4[s]; }
  {
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = r.exportsPrev + (0 * ds + j) * xs + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double G = g4[s];
      if (G == 0.0) continue;
      const double e0 = q0[s];
      (void)e0;
      const double e1 = v3[s];
      (void)e1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Sub, e0, e1);
      (void)e2;
      double A0 = 0.0;
      double A1 = 0.0;
      double A2 = G;
      if (A2 != 0.0) { A0 += A2, A1 -= A2; }
      (void)A0;
      (void)A1;
      (void)A2;
      if (A0 != 0.0 && j == d) g2[s] += A0;
      if (A1 != 0.0) g3[s] += A1;
    }
  }
  }
  {
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    if (j != d) continue;
    const double* q0 = j == d ? v2 : r.exportsPrev + (0 * ds + j) * xs + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double G = g3[s];
      if (G == 0.0) continue;
      const double e0 = q0[s];
      (void)e0;
      double A0 = G;
      (void)A0;
      if (A0 != 0.0 && j == d) g2[s] += A0;
    }
  }
  }
  { double* t = a.exportAdjoint + (0 * ds + d) * a.exportAdjointStride + s0;   KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { t[s] += g2[s]; }
  }
  { double* t = a.parameterAdjoint + (0 * ds + d) * a.parameterAdjointStride + s0;   KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { t[s] += g1[s]; }
  }
  if (a.sensorRow[0] >= 0) {
    double* t = a.sensorAdjoint + (a.sensorRow[0] * ds + d) * a.sensorAdjointStride + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { t[s] += g0[s]; }
  }
  { double* t = a.adjoints + (0 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = g4[s]; }
}

template <int W>
void reverse_learned_consensus_gather_block(const kfield::diff::CompiledReverseArgs& a, std::int64_t h, std::int64_t s0,
    std::int64_t m) {
  const kfield::CompiledRoundArgs& r = a.round;
  const std::int64_t n = W == 1 ? 1 : m;
  const std::int64_t ds = r.devices, xs = r.exportStride, live = r.live;
  const double* c = r.constants;
  (void)n, (void)ds, (void)xs, (void)live, (void)c, (void)s0;
  const double id = r.ids ? double(r.ids[h]) : double(h);
  (void)id;
  for (std::int64_t t = a.transposedOffsets[h]; t < a.transposedOffsets[h + 1]; ++t) {
    const std::int64_t d = a.transposedReaders[t], k = a.transposedEntries[t], j = h;
    (void)d, (void)k, (void)j;
    if (d == h) continue;
    {
    const double* G = a.adjoints + (0 * ds + d) * live + s0;
    const double* q0 = r.exportsPrev + (0 * ds + j) * xs + s0;
    const double* q1 = a.values + (0 * ds + d) * live + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double g = G[s];
      if (g == 0.0) continue;
      const double e0 = q0[s];
      (void)e0;
      const double e1 = q1[s];
      (void)e1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Sub, e0, e1);
      (void)e2;
      double A0 = 0.0;
      double A1 = 0.0;
      double A2 = g;
      if (A2 != 0.0) { A0 += A2, A1 -= A2; }
      (void)A0;
      (void)A1;
      (void)A2;
      if (A0 != 0.0) (a.exportAdjoint + (0 * ds + h) * a.exportAdjointStride + s0)[s] += A0;
    }
    }
  }
}

void reverse_learned_consensus_record(const kfield::diff::CompiledReverseArgs& a, std::int64_t first, std::int64_t end) {
  if (a.round.live == 1) {
    for (std::int64_t d = first; d < end; ++d) reverse_learned_consensus_record_block<1>(a, d, 0, 1);
    return;
  }
  for (std::int64_t d = first; d < end; ++d) {
    for (std::int64_t s0 = 0; s0 < a.round.live; s0 += 64) {
      reverse_learned_consensus_record_block<64>(a, d, s0, a.round.live - s0 < 64 ? a.round.live - s0 : 64);
    }
  }
}

void reverse_learned_consensus_own(const kfield::diff::CompiledReverseArgs& a, std::int64_t first, std::int64_t end) {
  if (a.round.live == 1) {
    for (std::int64_t d = first; d < end; ++d) reverse_learned_consensus_own_block<1>(a, d, 0, 1);
    return;
  }
  for (std::int64_t d = first; d < end; ++d) {
    for (std::int64_t s0 = 0; s0 < a.round.live; s0 += 64) {
      reverse_learned_consensus_own_block<64>(a, d, s0, a.round.live - s0 < 64 ? a.round.live - s0 : 64);
    }
  }
}

void reverse_learned_consensus_gather(const kfield::diff::CompiledReverseArgs& a, std::int64_t first, std::int64_t end) {
  if (a.round.live == 1) {
    for (std::int64_t d = first; d < end; ++d) reverse_learned_consensus_gather_block<1>(a, d, 0, 1);
    return;
  }
  for (std::int64_t d = first; d < end; ++d) {
    for (std::int64_t s0 = 0; s0 < a.round.live; s0 += 64) {
      reverse_learned_consensus_gather_block<64>(a, d, s0, a.round.live - s0 < 64 ? a.round.live - s0 : 64);
    }
  }
}

// collect-multipath: 13 value operations, 13 entry operations.
template <int W>
void reverse_collect_multipath_record_block(const kfield::diff::CompiledReverseArgs& a, std::int64_t d, std::int64_t s0,
    std::int64_t m) {
  const kfield::CompiledRoundArgs& r = a.round;
  const std::int64_t n = W == 1 ? 1 : m;
  const std::int64_t ds = r.devices, xs = r.exportStride, live = r.live;
  const double* c = r.constants;
  (void)n, (void)ds, (void)xs, (void)live, (void)c, (void)s0;
  const double* v0 = r.sensors + (0 * ds + d) * r.sensorStride + s0;
  (void)v0;
  double v1[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Min); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v1[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Min, [&](const auto& combine) {
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = r.exportsPrev + (0 * ds + j) * xs + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      (void)e0;
      v1[s] = combine(v1[s], e0);
    }
  }
  });
  { double* t = a.foldTape + (0 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = v1[s]; }
  (void)v1;
  double v2[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v2[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, v1[s], c[7]);
  (void)v2;
  double v3[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v3[s] = v0[s] == 1.0 ? c[10] : v2[s];
  (void)v3;
  double x0[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) x0[s] = v3[s];
  (void)x0;
  { double* t = r.exportsNow + (0 * ds + d) * xs + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = v3[s]; }
  const double* v4 = r.sensors + (1 * ds + d) * r.sensorStride + s0;
  (void)v4;
  double v5[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Sum); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v5[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Sum, [&](const auto& combine) {
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = r.exportsPrev + (0 * ds + j) * xs + s0;
    const double q3 = c[43];
    const double q4 = c[44];
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      (void)e0;
      const double e1 = v3[s];
      (void)e1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Less, e0, e1);
      (void)e2;
      const double e3 = q3;
      (void)e3;
      const double e4 = q4;
      (void)e4;
      const double e5 = e2 == 1.0 ? e3 : e4;
      (void)e5;
      v5[s] = combine(v5[s], e5);
    }
  }
  });
  { double* t = a.foldTape + (1 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = v5[s]; }
  (void)v5;
  double v6[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Sum); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v6[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Sum, [&](const auto& combine) {
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = r.exportsPrev + (0 * ds + j) * xs + s0;
    const double* q3 = r.exportsPrev + (1 * ds + j) * xs + s0;
    const double q4 = c[50];
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      (void)e0;
      const double e1 = v3[s];
      (void)e1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Greater, e0, e1);
      (void)e2;
      const double e3 = q3[s];
      (void)e3;
      const double e4 = q4;
      (void)e4;
      const double e5 = e2 == 1.0 ? e3 : e4;
      (void)e5;
      v6[s] = combine(v6[s], e5);
    }
  }
  });
  { double* t = a.foldTape + (2 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = v6[s]; }
  (void)v6;
  double v7[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v7[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, v4[s], v6[s]);
  (void)v7;
  double v8[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v8[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Max, v5[s], c[28]);
  (void)v8;
  double v9[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v9[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Div, v7[s], v8[s]);
  (void)v9;
  double x1[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) x1[s] = v9[s];
  (void)x1;
  { double* t = r.exportsNow + (1 * ds + d) * xs + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = v9[s]; }
}

template <int W>
void reverse_collect_multipath_own_block(const kfield::diff::CompiledReverseArgs& a, std::int64_t d, std::int64_t s0,
    std::int64_t m) {
  const kfield::CompiledRoundArgs& r = a.round;
  const std::int64_t n = W == 1 ? 1 : m;
  const std::int64_t ds = r.devices, xs = r.exportStride, live = r.live;
  const double* c = r.constants;
  (void)n, (void)ds, (void)xs, (void)live, (void)c, (void)s0;
  const double* v0 = r.sensors + (0 * ds + d) * r.sensorStride + s0;
  (void)v0;
  const double* v1 = a.foldTape + (0 * ds + d) * live + s0;
  (void)v1;
  double v2[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v2[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, v1[s], c[7]);
  (void)v2;
  double v3[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v3[s] = v0[s] == 1.0 ? c[10] : v2[s];
  (void)v3;
  { double* t = a.values + (0 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = v3[s]; }
  double x0[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) x0[s] = v3[s];
  (void)x0;
  const double* v4 = r.sensors + (1 * ds + d) * r.sensorStride + s0;
  (void)v4;
  const double* v5 = a.foldTape + (1 * ds + d) * live + s0;
  (void)v5;
  const double* v6 = a.foldTape + (2 * ds + d) * live + s0;
  (void)v6;
  double v7[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v7[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, v4[s], v6[s]);
  (void)v7;
  double v8[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v8[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Max, v5[s], c[28]);
  (void)v8;
  double v9[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) v9[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Div, v7[s], v8[s]);
  (void)v9;
  double x1[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) x1[s] = v9[s];
  (void)x1;
  double g0[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g0[s] = 0.0;
  (void)g0;
  double g1[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g1[s] = 0.0;
  (void)g1;
  double g2[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g2[s] = 0.0;
  (void)g2;
  double g3[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g3[s] = 0.0;
  (void)g3;
  double g4[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g4[s] = 0.0;
  (void)g4;
  double g5[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g5[s] = 0.0;
  (void)g5;
  double g6[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g6[s] = 0.0;
  (void)g6;
  double g7[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g7[s] = 0.0;
  (void)g7;
  double g8[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g8[s] = 0.0;
  (void)g8;
  double g9[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) g9[s] = 0.0;
  (void)g9;
  { const double* t = a.target + (0 * ds + d) * a.targetStride + s0; (void)t;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { if (s0 + s < a.liveNext) continue; const double y = v7[s]; const double u = a.outputLoss ? 0.0 : t[s]; g7[s] += a.outputLoss ? 1.0 : 2.0 * (y - u); }
  }
  { double* t = a.exportAdjoint + (1 * ds + d) * a.exportAdjointStride + s0;   KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { g9[s] += t[s]; t[s] = 0.0; }
  }
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { if (g9[s] == 0.0) continue; const double b = v8[s]; g7[s] += g9[s] / b; g8[s] += -(g9[s] * (v9[s] / b)); }
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { if (v5[s] < c[28]) {  } else { g5[s] += g8[s]; } }
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { g4[s] += g7[s]; g6[s] += g7[s]; }
  {
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = r.exportsPrev + (0 * ds + j) * xs + s0;
    const double* q3 = r.exportsPrev + (1 * ds + j) * xs + s0;
    const double q4 = c[50];
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double G = g6[s];
      if (G == 0.0) continue;
      const double e0 = q0[s];
      (void)e0;
      const double e1 = v3[s];
      (void)e1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Greater, e0, e1);
      (void)e2;
      const double e3 = q3[s];
      (void)e3;
      const double e4 = q4;
      (void)e4;
      const double e5 = e2 == 1.0 ? e3 : e4;
      (void)e5;
      double A0 = 0.0;
      double A1 = 0.0;
      double A2 = 0.0;
      double A3 = 0.0;
      double A4 = 0.0;
      double A5 = G;
      if (A5 != 0.0) { (e2 == 1.0 ? A3 : A4) += A5; }
      (void)A0;
      (void)A1;
      (void)A2;
      (void)A3;
      (void)A4;
      (void)A5;
      if (A0 != 0.0 && j == d) (a.exportAdjoint + (0 * ds + d) * a.exportAdjointStride + s0)[s] += A0;
      if (A1 != 0.0) g3[s] += A1;
      if (A3 != 0.0 && j == d) (a.exportAdjoint + (1 * ds + d) * a.exportAdjointStride + s0)[s] += A3;
    }
  }
  }
  {
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = r.exportsPrev + (0 * ds + j) * xs + s0;
    const double q3 = c[43];
    const double q4 = c[44];
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double G = g5[s];
      if (G == 0.0) continue;
      const double e0 = q0[s];
      (void)e0;
      const double e1 = v3[s];
      (void)e1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Less, e0, e1);
      (void)e2;
      const double e3 = q3;
      (void)e3;
      const double e4 = q4;
      (void)e4;
      const double e5 = e2 == 1.0 ? e3 : e4;
      (void)e5;
      double A0 = 0.0;
      double A1 = 0.0;
      double A2 = 0.0;
      double A3 = 0.0;
      double A4 = 0.0;
      double A5 = G;
      if (A5 != 0.0) { (e2 == 1.0 ? A3 : A4) += A5; }
      (void)A0;
      (void)A1;
      (void)A2;
      (void)A3;
      (void)A4;
      (void)A5;
      if (A0 != 0.0 && j == d) (a.exportAdjoint + (0 * ds + d) * a.exportAdjointStride + s0)[s] += A0;
      if (A1 != 0.0) g3[s] += A1;
    }
  }
  }
  if (a.sensorRow[1] >= 0) {
    double* t = a.sensorAdjoint + (a.sensorRow[1] * ds + d) * a.sensorAdjointStride + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { t[s] += g4[s]; }
  }
  { double* t = a.exportAdjoint + (0 * ds + d) * a.exportAdjointStride + s0;   KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { g3[s] += t[s]; t[s] = 0.0; }
  }
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { if (v0[s] == 1.0) {  } else { g2[s] += g3[s]; } }
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { g1[s] += g2[s];  }
  {
  double sel[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) sel[s] = -1.0;
  for (std::int64_t k = r.offsets[d]; k < r.offsets[d + 1]; ++k) {
    const std::int64_t j = r.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = r.exportsPrev + (0 * ds + j) * xs + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double G = g1[s];
      if (G == 0.0) continue;
      if (sel[s] >= 0.0) continue;
      const double e0 = q0[s];
      (void)e0;
      if (!(e0 == v1[s])) continue;
      sel[s] = r.ids ? double(r.ids[j]) : double(j);
      double A0 = G;
      (void)A0;
      if (A0 != 0.0 && j == d) (a.exportAdjoint + (0 * ds + d) * a.exportAdjointStride + s0)[s] += A0;
    }
  }
  { double* t = a.selected + (0 * ds + d) * a.selectedStride + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = sel[s]; }
  }
  if (a.sensorRow[0] >= 0) {
    double* t = a.sensorAdjoint + (a.sensorRow[0] * ds + d) * a.sensorAdjointStride + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) { t[s] += g0[s]; }
  }
  { double* t = a.adjoints + (0 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = g1[s]; }
  { double* t = a.adjoints + (1 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = g5[s]; }
  { double* t = a.adjoints + (2 * ds + d) * live + s0; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) t[s] = g6[s]; }
}

template <int W>
void reverse_collect_multipath_gather_block(const kfield::diff::CompiledReverseArgs& a, std::int64_t h, std::int64_t s0,
    std::int64_t m) {
  const kfield::CompiledRoundArgs& r = a.round;
  const std::int64_t n = W == 1 ? 1 : m;
  const std::int64_t ds = r.devices, xs = r.exportStride, live = r.live;
  const double* c = r.constants;
  (void)n, (void)ds, (void)xs, (void)live, (void)c, (void)s0;
  const double id = r.ids ? double(r.ids[h]) : double(h);
  (void)id;
  for (std::int64_t t = a.transposedOffsets[h]; t < a.transposedOffsets[h + 1]; ++t) {
    const std::int64_t d = a.transposedReaders[t], k = a.transposedEntries[t], j = h;
    (void)d, (void)k, (void)j;
    if (d == h) continue;
    {
    const double* G = a.adjoints + (0 * ds + d) * live + s0;
    const double* sel = a.selected + (0 * ds + d) * a.selectedStride + s0;
    const double* q0 = r.exportsPrev + (0 * ds + j) * xs + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double g = G[s];
      if (g == 0.0) continue;
      if (sel[s] != id) continue;
      const double e0 = q0[s];
      (void)e0;
      double A0 = g;
      (void)A0;
      if (A0 != 0.0) (a.exportAdjoint + (0 * ds + h) * a.exportAdjointStride + s0)[s] += A0;
    }
    }
    {
    const double* G = a.adjoints + (1 * ds + d) * live + s0;
    const double* q0 = r.exportsPrev + (0 * ds + j) * xs + s0;
    const double* q1 = a.values + (0 * ds + d) * live + s0;
    const double q3 = c[43];
    const double q4 = c[44];
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double g = G[s];
      if (g == 0.0) continue;
      const double e0 = q0[s];
      (void)e0;
      const double e1 = q1[s];
      (void)e1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Less, e0, e1);
      (void)e2;
      const double e3 = q3;
      (void)e3;
      const double e4 = q4;
      (void)e4;
      const double e5 = e2 == 1.0 ? e3 : e4;
      (void)e5;
      double A0 = 0.0;
      double A1 = 0.0;
      double A2 = 0.0;
      double A3 = 0.0;
      double A4 = 0.0;
      double A5 = g;
      if (A5 != 0.0) { (e2 == 1.0 ? A3 : A4) += A5; }
      (void)A0;
      (void)A1;
      (void)A2;
      (void)A3;
      (void)A4;
      (void)A5;
      if (A0 != 0.0) (a.exportAdjoint + (0 * ds + h) * a.exportAdjointStride + s0)[s] += A0;
    }
    }
    {
    const double* G = a.adjoints + (2 * ds + d) * live + s0;
    const double* q0 = r.exportsPrev + (0 * ds + j) * xs + s0;
    const double* q1 = a.values + (0 * ds + d) * live + s0;
    const double* q3 = r.exportsPrev + (1 * ds + j) * xs + s0;
    const double q4 = c[50];
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double g = G[s];
      if (g == 0.0) continue;
      const double e0 = q0[s];
      (void)e0;
      const double e1 = q1[s];
      (void)e1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Greater, e0, e1);
      (void)e2;
      const double e3 = q3[s];
      (void)e3;
      const double e4 = q4;
      (void)e4;
      const double e5 = e2 == 1.0 ? e3 : e4;
      (void)e5;
      double A0 = 0.0;
      double A1 = 0.0;
      double A2 = 0.0;
      double A3 = 0.0;
      double A4 = 0.0;
      double A5 = g;
      if (A5 != 0.0) { (e2 == 1.0 ? A3 : A4) += A5; }
      (void)A0;
      (void)A1;
      (void)A2;
      (void)A3;
      (void)A4;
      (void)A5;
      if (A0 != 0.0) (a.exportAdjoint + (0 * ds + h) * a.exportAdjointStride + s0)[s] += A0;
      if (A3 != 0.0) (a.exportAdjoint + (1 * ds + h) * a.exportAdjointStride + s0)[s] += A3;
    }
    }
  }
}

void reverse_collect_multipath_record(const kfield::diff::CompiledReverseArgs& a, std::int64_t first, std::int64_t end) {
  if (a.round.live == 1) {
    for (std::int64_t d = first; d < end; ++d) reverse_collect_multipath_record_block<1>(a, d, 0, 1);
    return;
  }
  for (std::int64_t d = first; d < end; ++d) {
    for (std::int64_t s0 = 0; s0 < a.round.live; s0 += 64) {
      reverse_collect_multipath_record_block<64>(a, d, s0, a.round.live - s0 < 64 ? a.round.live - s0 : 64);
    }
  }
}

void reverse_collect_multipath_own(const kfield::diff::CompiledReverseArgs& a, std::int64_t first, std::int64_t end) {
  if (a.round.live == 1) {
    for (std::int64_t d = first; d < end; ++d) reverse_collect_multipath_own_block<1>(a, d, 0, 1);
    return;
  }
  for (std::int64_t d = first; d < end; ++d) {
    for (std::int64_t s0 = 0; s0 < a.round.live; s0 += 64) {
      reverse_collect_multipath_own_block<64>(a, d, s0, a.round.live - s0 < 64 ? a.round.live - s0 : 64);
    }
  }
}

void reverse_collect_multipath_gather(const kfield::diff::CompiledReverseArgs& a, std::int64_t first, std::int64_t end) {
  if (a.round.live == 1) {
    for (std::int64_t d = first; d < end; ++d) reverse_collect_multipath_gather_block<1>(a, d, 0, 1);
    return;
  }
  for (std::int64_t d = first; d < end; ++d) {
    for (std::int64_t s0 = 0; s0 < a.round.live; s0 += 64) {
      reverse_collect_multipath_gather_block<64>(a, d, s0, a.round.live - s0 < 64 ? a.round.live - s0 : 64);
    }
  }
}

}  // namespace

namespace kfield::diff::impl {

std::vector<kfield::diff::CompiledReverseEntry> libraryCompiledReverses() {
  return {
      {"kfield-reverse-1;slots 4;sensors 1;exports 1;edges 0;states 0;output 1;ops;0,0,-1,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;32,1,-1,-1,-1,-1,-1,-1,0,0,1,0,1,-1,0,-1,-1,0,-1;11,2,1,-1,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;26,3,0,-1,2,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;31,-1,3,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;33,-1,3,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;entries;0,-1,-1,-1,0,0,-1,-1,0",
       "hop-gradient", 1, 0, 1, &reverse_hop_gradient_record, &reverse_hop_gradient_own, &reverse_hop_gradient_gather},
      {"kfield-reverse-1;slots 3;sensors 1;exports 1;edges 0;states 0;output 1;ops;0,0,-1,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;32,1,-1,-1,-1,-1,-1,-1,0,0,1,0,3,-1,0,-1,-1,0,-1;26,2,0,-1,1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;31,-1,2,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;33,-1,2,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;entries;0,-1,-1,-1,0,0,-1,-1,0;1,-1,-1,-1,-1,0,-1,-1,0;4,0,1,-1,-1,0,-1,-1,0",
       "distance-gradient", 1, 0, 1, &reverse_distance_gradient_record, &reverse_distance_gradient_own, &reverse_distance_gradient_gather},
      {"kfield-reverse-1;slots 9;sensors 2;exports 2;edges 0;states 0;output 1;ops;0,0,-1,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;0,1,-1,-1,-1,-1,-1,1,0,0,0,0,0,-1,0,-1,-1,0,-1;32,2,-1,-1,-1,-1,-1,-1,0,0,1,0,3,-1,0,-1,-1,0,-1;26,3,0,-1,2,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;31,-1,3,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;32,4,-1,-1,-1,-1,-1,-1,0,0,1,3,3,-1,0,-1,-1,0,-1;32,5,-1,-1,-1,-1,-1,-1,0,0,1,6,8,-1,0,-1,-1,0,-1;18,6,4,-1,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;26,7,6,5,1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;26,8,0,1,7,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;31,-1,8,-1,-1,-1,-1,1,0,0,0,0,0,-1,0,-1,-1,0,-1;33,-1,8,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;entries;0,-1,-1,-1,0,0,-1,-1,0;1,-1,-1,-1,-1,0,-1,-1,0;4,0,1,-1,-1,0,-1,-1,0;0,-1,-1,-1,0,0,-1,-1,0;1,-1,-1,-1,-1,0,-1,-1,0;4,0,1,-1,-1,0,-1,-1,0;0,-1,-1,-1,0,0,-1,-1,0;1,-1,-1,-1,-1,0,-1,-1,0;4,0,1,-1,-1,0,-1,-1,0;2,-1,-1,-1,-1,0,-1,4,0;11,2,3,-1,-1,0,-1,-1,0;0,-1,-1,-1,1,0,-1,-1,0;3,-1,-1,-1,-1,0,-1,-1,0;12,4,5,6,-1,0,-1,-1,0",
       "broadcast", 3, 1, 3, &reverse_broadcast_record, &reverse_broadcast_own, &reverse_broadcast_gather},
      {"kfield-reverse-1;slots 15;sensors 2;exports 4;edges 0;states 0;output 1;ops;0,0,-1,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;0,1,-1,-1,-1,-1,-1,1,0,0,0,0,0,-1,0,-1,-1,0,-1;32,2,-1,-1,-1,-1,-1,-1,0,0,1,0,1,-1,0,-1,-1,0,-1;11,3,2,-1,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;26,4,0,-1,3,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;31,-1,4,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;32,5,-1,-1,-1,-1,-1,-1,0,0,1,1,1,-1,0,-1,-1,0,-1;1,6,-1,-1,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;31,-1,6,-1,-1,-1,-1,1,0,0,0,0,0,-1,0,-1,-1,0,-1;32,7,-1,-1,-1,-1,-1,-1,0,0,1,2,6,-1,0,-1,-1,0,-1;22,8,4,-1,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;22,9,5,-1,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;25,10,8,9,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;26,11,10,-1,7,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;1,12,-1,-1,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;31,-1,11,-1,-1,-1,-1,2,0,0,0,0,0,-1,0,-1,-1,0,-1;32,13,-1,-1,-1,-1,-1,-1,0,2,1,8,6,-1,0,-1,-1,0,-1;11,14,1,13,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;31,-1,14,-1,-1,-1,-1,3,0,0,0,0,0,-1,0,-1,-1,0,-1;33,-1,14,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;entries;0,-1,-1,-1,0,0,-1,-1,0;0,-1,-1,-1,0,0,-1,-1,0;0,-1,-1,-1,0,0,-1,-1,0;2,-1,-1,-1,-1,0,-1,5,0;11,0,1,-1,-1,0,-1,-1,0;0,-1,-1,-1,1,0,-1,-1,0;3,-1,-1,-1,-1,0,-1,-1,0;12,2,3,4,-1,0,-1,-1,0;0,-1,-1,-1,2,0,-1,-1,0;2,-1,-1,-1,-1,0,-1,12,0;11,0,1,-1,-1,0,-1,-1,0;0,-1,-1,-1,3,0,-1,-1,0;3,-1,-1,-1,-1,0,-1,-1,0;12,2,3,4,-1,0,-1,-1,0",
       "collect-sum", 4, 2, 4, &reverse_collect_sum_record, &reverse_collect_sum_own, &reverse_collect_sum_gather},
      {"kfield-reverse-1;slots 13;sensors 0;exports 4;edges 0;states 0;output 1;ops;1,0,-1,-1,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;31,-1,0,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;32,1,-1,-1,-1,-1,-1,-1,0,0,0,0,1,-1,0,-1,-1,0,-1;15,2,0,1,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;31,-1,2,-1,-1,-1,-1,1,0,0,0,0,0,-1,0,-1,-1,0,-1;32,3,-1,-1,-1,-1,-1,-1,0,0,0,1,1,-1,0,-1,-1,0,-1;15,4,2,3,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;22,5,4,0,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;32,6,-1,-1,-1,-1,-1,-1,0,0,1,2,3,-1,0,-1,-1,0,-1;26,7,5,-1,6,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;31,-1,7,-1,-1,-1,-1,2,0,0,0,0,0,-1,0,-1,-1,0,-1;32,8,-1,-1,-1,-1,-1,-1,0,0,1,5,3,-1,0,-1,-1,0,-1;32,9,-1,-1,-1,-1,-1,-1,0,0,1,8,8,-1,0,-1,-1,0,-1;18,10,8,-1,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;26,11,10,9,0,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;26,12,5,0,11,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;31,-1,12,-1,-1,-1,-1,3,0,0,0,0,0,-1,0,-1,-1,0,-1;33,-1,12,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;entries;0,-1,-1,-1,0,0,-1,-1,0;0,-1,-1,-1,1,0,-1,-1,0;0,-1,-1,-1,2,0,-1,-1,0;1,-1,-1,-1,-1,0,-1,-1,0;4,0,1,-1,-1,0,-1,-1,0;0,-1,-1,-1,2,0,-1,-1,0;1,-1,-1,-1,-1,0,-1,-1,0;4,0,1,-1,-1,0,-1,-1,0;0,-1,-1,-1,2,0,-1,-1,0;1,-1,-1,-1,-1,0,-1,-1,0;4,0,1,-1,-1,0,-1,-1,0;2,-1,-1,-1,-1,0,-1,8,0;11,2,3,-1,-1,0,-1,-1,0;0,-1,-1,-1,3,0,-1,-1,0;3,-1,-1,-1,-1,0,-1,-1,0;12,4,5,6,-1,0,-1,-1,0",
       "election", 5, 1, 5, &reverse_election_record, &reverse_election_own, &reverse_election_gather},
      {"kfield-reverse-1;slots 4;sensors 1;exports 1;edges 0;states 0;output 1;ops;0,0,-1,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;30,1,-1,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;32,2,-1,-1,-1,-1,-1,-1,0,1,0,0,1,-1,0,-1,-1,0,-1;16,3,0,2,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;31,-1,3,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;33,-1,3,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;entries;0,-1,-1,-1,0,0,-1,1,0",
       "gossip-max", 1, 0, 1, &reverse_gossip_max_record, &reverse_gossip_max_own, &reverse_gossip_max_gather},
      {"kfield-reverse-1;slots 6;sensors 1;exports 1;edges 0;states 0;output 1;ops;0,0,-1,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;30,1,0,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;32,2,-1,-1,-1,-1,-1,-1,0,4,0,0,1,-1,0,-1,-1,0,-1;32,3,-1,-1,-1,-1,-1,-1,0,2,1,1,3,-1,0,-1,-1,0,-1;13,4,3,-1,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;11,5,2,4,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;31,-1,5,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;33,-1,5,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;entries;0,-1,-1,-1,0,0,-1,1,0;0,-1,-1,-1,0,0,-1,1,0;2,-1,-1,-1,-1,0,-1,2,0;5,0,1,-1,-1,0,-1,-1,0",
       "consensus", 1, 1, 1, &reverse_consensus_record, &reverse_consensus_own, &reverse_consensus_gather},
      {"kfield-reverse-1;slots 4;sensors 1;exports 1;edges 0;states 0;output 1;ops;0,0,-1,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;2,1,-1,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;32,2,-1,-1,-1,-1,-1,-1,0,0,1,0,5,-1,0,-1,-1,0,-1;26,3,0,-1,2,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;31,-1,3,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;33,-1,3,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;entries;0,-1,-1,-1,0,0,-1,-1,0;1,-1,-1,-1,-1,0,-1,-1,0;2,-1,-1,-1,-1,0,-1,1,0;6,1,2,-1,-1,0,-1,-1,0;4,0,3,-1,-1,0,-1,-1,0",
       "scaled-distance", 1, 0, 1, &reverse_scaled_distance_record, &reverse_scaled_distance_own, &reverse_scaled_distance_gather},
      {"kfield-reverse-1;slots 7;sensors 1;exports 1;edges 0;states 0;output 1;ops;0,0,-1,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;2,1,-1,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;30,2,0,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;32,3,-1,-1,-1,-1,-1,-1,0,4,0,0,1,-1,0,-1,-1,0,-1;32,4,-1,-1,-1,-1,-1,-1,0,2,1,1,3,-1,0,-1,-1,0,-1;13,5,4,1,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;11,6,3,5,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;31,-1,6,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;33,-1,6,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;entries;0,-1,-1,-1,0,0,-1,2,0;0,-1,-1,-1,0,0,-1,2,0;2,-1,-1,-1,-1,0,-1,3,0;5,0,1,-1,-1,0,-1,-1,0",
       "learned-consensus", 1, 1, 1, &reverse_learned_consensus_record, &reverse_learned_consensus_own, &reverse_learned_consensus_gather},
      {"kfield-reverse-1;slots 10;sensors 2;exports 2;edges 0;states 0;output 1;ops;0,0,-1,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;32,1,-1,-1,-1,-1,-1,-1,0,0,1,0,1,-1,0,-1,-1,0,-1;11,2,1,-1,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;26,3,0,-1,2,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;31,-1,3,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;0,4,-1,-1,-1,-1,-1,1,0,0,0,0,0,-1,0,-1,-1,0,-1;32,5,-1,-1,-1,-1,-1,-1,0,2,1,1,6,-1,0,-1,-1,0,-1;32,6,-1,-1,-1,-1,-1,-1,0,2,1,7,6,-1,0,-1,-1,0,-1;11,7,4,6,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;16,8,5,-1,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;14,9,7,8,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;31,-1,9,-1,-1,-1,-1,1,0,0,0,0,0,-1,0,-1,-1,0,-1;33,-1,7,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;entries;0,-1,-1,-1,0,0,-1,-1,0;0,-1,-1,-1,0,0,-1,-1,0;2,-1,-1,-1,-1,0,-1,3,0;10,0,1,-1,-1,0,-1,-1,0;3,-1,-1,-1,-1,0,-1,-1,0;3,-1,-1,-1,-1,0,-1,-1,0;12,2,3,4,-1,0,-1,-1,0;0,-1,-1,-1,0,0,-1,-1,0;2,-1,-1,-1,-1,0,-1,3,0;14,0,1,-1,-1,0,-1,-1,0;0,-1,-1,-1,1,0,-1,-1,0;3,-1,-1,-1,-1,0,-1,-1,0;12,2,3,4,-1,0,-1,-1,0",
       "collect-multipath", 3, 1, 3, &reverse_collect_multipath_record, &reverse_collect_multipath_own, &reverse_collect_multipath_gather},
  };
}

}  // namespace kfield::diff::impl
