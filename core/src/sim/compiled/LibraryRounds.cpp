// Compiled rounds written by kfield::compiledRoundsSource (kfield/sim/CompiledRound.hpp).
// Generated: do not edit; regenerate it with the build target
// kfield_regenerate_library_rounds (cmake --build BUILD --target ...).
#include "kfield/impl/IntegerMath.hpp"
#include "kfield/sim/CompiledRound.hpp"
#include "kfield/sim/impl/Operations.hpp"

#include <cstdint>
#include <vector>
#if defined(__SSE2__)
#include <immintrin.h>
#endif

namespace {

constexpr std::int64_t kStreamedPlane = std::int64_t(1) << 23;  // doubles

template <int W, class F>
inline void storeRow(double* to, std::int64_t n, bool stream, const F& f) {
#if defined(__AVX__)
  if (W == 64 && stream && n == 64 && (reinterpret_cast<std::uintptr_t>(to) & 31) == 0) {
    for (std::int64_t s = 0; s < 64; s += 4) {
      _mm256_stream_pd(to + s, _mm256_set_pd(f(s + 3), f(s + 2), f(s + 1), f(s)));
    }
    return;
  }
#elif defined(__SSE2__)
  if (W == 64 && stream && n == 64 && (reinterpret_cast<std::uintptr_t>(to) & 15) == 0) {
    for (std::int64_t s = 0; s < 64; s += 2) _mm_stream_pd(to + s, _mm_set_pd(f(s + 1), f(s)));
    return;
  }
#endif
  (void)stream;
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) to[s] = f(s);
}

inline void streamFence() {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

// hop-gradient: 6 operations, 1 entry operations.
template <int W>
void round_hop_gradient_block(const kfield::CompiledRoundArgs& a, std::int64_t d, std::int64_t s0,
    std::int64_t m) {
  const std::int64_t n = W == 1 ? 1 : m;
  const std::int64_t ds = a.devices, xs = a.exportStride;
  const double* c = a.constants;
  const bool stream = ds * xs >= kStreamedPlane;
  (void)n, (void)ds, (void)xs, (void)c, (void)s0, (void)stream;
  const double* r0 = a.sensors + (0 * ds + d) * a.sensorStride + s0;
  (void)r0;
  double r1[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Min); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) r1[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Min, [&](const auto& combine) {
  for (std::int64_t k = a.offsets[d]; k < a.offsets[d + 1]; ++k) {
    const std::int64_t j = a.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = j == d ? a.exportsNow + (0 * ds + d) * xs + s0 : a.exportsPrev + (0 * ds + j) * xs + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      r1[s] = combine(r1[s], e0);
    }
  }
  });
  (void)r1;
  double r2[W];
  const double k7 = c[7];
  (void)r2;
  double r3[W];
  const double k10 = c[10];
  (void)r3;
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
    r2[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, r1[s], k7);
    {
      const double x = k10, y = r2[s];
      r3[s] = r0[s] == 1.0 ? x : y;
    }
  }
  storeRow<W>(a.exportsNow + (0 * ds + d) * xs + s0, n, stream, [&](std::int64_t s) { return r3[s]; });
  if (a.writeOutput) storeRow<W>(a.output + (0 * ds + d) * a.outputStride + s0, n, stream, [&](std::int64_t s) { return r3[s]; });
}

void round_hop_gradient(const kfield::CompiledRoundArgs& a, std::int64_t first, std::int64_t end) {
  if (a.live == 1) {
    for (std::int64_t d = first; d < end; ++d) round_hop_gradient_block<1>(a, d, 0, 1);
    return;
  }
  for (std::int64_t d = first; d < end; ++d) {
    for (std::int64_t s0 = 0; s0 < a.live; s0 += 64) {
      round_hop_gradient_block<64>(a, d, s0, a.live - s0 < 64 ? a.live - s0 : 64);
    }
  }
  streamFence();
}

// distance-gradient: 5 operations, 3 entry operations.
template <int W>
void round_distance_gradient_block(const kfield::CompiledRoundArgs& a, std::int64_t d, std::int64_t s0,
    std::int64_t m) {
  const std::int64_t n = W == 1 ? 1 : m;
  const std::int64_t ds = a.devices, xs = a.exportStride;
  const double* c = a.constants;
  const bool stream = ds * xs >= kStreamedPlane;
  (void)n, (void)ds, (void)xs, (void)c, (void)s0, (void)stream;
  const double* r0 = a.sensors + (0 * ds + d) * a.sensorStride + s0;
  (void)r0;
  double r1[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Min); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) r1[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Min, [&](const auto& combine) {
  for (std::int64_t k = a.offsets[d]; k < a.offsets[d + 1]; ++k) {
    const std::int64_t j = a.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = j == d ? a.exportsNow + (0 * ds + d) * xs + s0 : a.exportsPrev + (0 * ds + j) * xs + s0;
    const double q1 = a.lengths ? a.lengths[k] : 0.0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      const double e1 = q1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, e0, e1);
      r1[s] = combine(r1[s], e2);
    }
  }
  });
  (void)r1;
  double r2[W];
  const double k7 = c[7];
  (void)r2;
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
    {
      const double x = k7, y = r1[s];
      r2[s] = r0[s] == 1.0 ? x : y;
    }
  }
  storeRow<W>(a.exportsNow + (0 * ds + d) * xs + s0, n, stream, [&](std::int64_t s) { return r2[s]; });
  if (a.writeOutput) storeRow<W>(a.output + (0 * ds + d) * a.outputStride + s0, n, stream, [&](std::int64_t s) { return r2[s]; });
}

void round_distance_gradient(const kfield::CompiledRoundArgs& a, std::int64_t first, std::int64_t end) {
  if (a.live == 1) {
    for (std::int64_t d = first; d < end; ++d) round_distance_gradient_block<1>(a, d, 0, 1);
    return;
  }
  for (std::int64_t d = first; d < end; ++d) {
    for (std::int64_t s0 = 0; s0 < a.live; s0 += 64) {
      round_distance_gradient_block<64>(a, d, s0, a.live - s0 < 64 ? a.live - s0 : 64);
    }
  }
  streamFence();
}

// broadcast: 12 operations, 14 entry operations.
template <int W>
void round_broadcast_block(const kfield::CompiledRoundArgs& a, std::int64_t d, std::int64_t s0,
    std::int64_t m) {
  const std::int64_t n = W == 1 ? 1 : m;
  const std::int64_t ds = a.devices, xs = a.exportStride;
  const double* c = a.constants;
  const bool stream = ds * xs >= kStreamedPlane;
  (void)n, (void)ds, (void)xs, (void)c, (void)s0, (void)stream;
  const double* r0 = a.sensors + (0 * ds + d) * a.sensorStride + s0;
  (void)r0;
  const double* r1 = a.sensors + (1 * ds + d) * a.sensorStride + s0;
  (void)r1;
  double r2[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Min); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) r2[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Min, [&](const auto& combine) {
  for (std::int64_t k = a.offsets[d]; k < a.offsets[d + 1]; ++k) {
    const std::int64_t j = a.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = j == d ? a.exportsNow + (0 * ds + d) * xs + s0 : a.exportsPrev + (0 * ds + j) * xs + s0;
    const double q1 = a.lengths ? a.lengths[k] : 0.0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      const double e1 = q1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, e0, e1);
      r2[s] = combine(r2[s], e2);
    }
  }
  });
  (void)r2;
  double r3[W];
  const double k10 = c[10];
  (void)r3;
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
    {
      const double x = k10, y = r2[s];
      r3[s] = r0[s] == 1.0 ? x : y;
    }
  }
  storeRow<W>(a.exportsNow + (0 * ds + d) * xs + s0, n, false, [&](std::int64_t s) { return r3[s]; });
  double r5[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Min); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) r5[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Min, [&](const auto& combine) {
  for (std::int64_t k = a.offsets[d]; k < a.offsets[d + 1]; ++k) {
    const std::int64_t j = a.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = j == d ? a.exportsNow + (0 * ds + d) * xs + s0 : a.exportsPrev + (0 * ds + j) * xs + s0;
    const double q1 = a.lengths ? a.lengths[k] : 0.0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      const double e1 = q1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, e0, e1);
      r5[s] = combine(r5[s], e2);
    }
  }
  });
  (void)r5;
  double r6[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Min); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) r6[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Min, [&](const auto& combine) {
  for (std::int64_t k = a.offsets[d]; k < a.offsets[d + 1]; ++k) {
    const std::int64_t j = a.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = j == d ? a.exportsNow + (0 * ds + d) * xs + s0 : a.exportsPrev + (0 * ds + j) * xs + s0;
    const double q1 = a.lengths ? a.lengths[k] : 0.0;
    const double* q5 = j == d ? a.exportsNow + (1 * ds + d) * xs + s0 : a.exportsPrev + (1 * ds + j) * xs + s0;
    const double q6 = c[48];
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      const double e1 = q1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, e0, e1);
      const double e3 = r5[s];
      const double e4 = kfield::impl::entryOperation(kfield::impl::EntryCode::Equal, e2, e3);
      const double e5 = q5[s];
      const double e6 = q6;
      const double e7 = e4 == 1.0 ? e5 : e6;
      r6[s] = combine(r6[s], e7);
    }
  }
  });
  (void)r6;
  double r7[W];
  const double k22 = c[22];
  (void)r7;
  double r8[W];
  (void)r8;
  double r9[W];
  (void)r9;
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
    r7[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Less, r5[s], k22);
    {
      const double x = r6[s], y = r1[s];
      r8[s] = r7[s] == 1.0 ? x : y;
    }
    {
      const double x = r1[s], y = r8[s];
      r9[s] = r0[s] == 1.0 ? x : y;
    }
  }
  storeRow<W>(a.exportsNow + (1 * ds + d) * xs + s0, n, stream, [&](std::int64_t s) { return r9[s]; });
  if (a.writeOutput) storeRow<W>(a.output + (0 * ds + d) * a.outputStride + s0, n, stream, [&](std::int64_t s) { return r9[s]; });
}

void round_broadcast(const kfield::CompiledRoundArgs& a, std::int64_t first, std::int64_t end) {
  if (a.live == 1) {
    for (std::int64_t d = first; d < end; ++d) round_broadcast_block<1>(a, d, 0, 1);
    return;
  }
  for (std::int64_t d = first; d < end; ++d) {
    for (std::int64_t s0 = 0; s0 < a.live; s0 += 64) {
      round_broadcast_block<64>(a, d, s0, a.live - s0 < 64 ? a.live - s0 : 64);
    }
  }
  streamFence();
}

// collect-sum: 20 operations, 14 entry operations.
template <int W>
void round_collect_sum_block(const kfield::CompiledRoundArgs& a, std::int64_t d, std::int64_t s0,
    std::int64_t m) {
  const std::int64_t n = W == 1 ? 1 : m;
  const std::int64_t ds = a.devices, xs = a.exportStride;
  const double* c = a.constants;
  const bool stream = ds * xs >= kStreamedPlane;
  (void)n, (void)ds, (void)xs, (void)c, (void)s0, (void)stream;
  const double* r0 = a.sensors + (0 * ds + d) * a.sensorStride + s0;
  (void)r0;
  const double* r1 = a.sensors + (1 * ds + d) * a.sensorStride + s0;
  (void)r1;
  double r2[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Min); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) r2[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Min, [&](const auto& combine) {
  for (std::int64_t k = a.offsets[d]; k < a.offsets[d + 1]; ++k) {
    const std::int64_t j = a.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = j == d ? a.exportsNow + (0 * ds + d) * xs + s0 : a.exportsPrev + (0 * ds + j) * xs + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      r2[s] = combine(r2[s], e0);
    }
  }
  });
  (void)r2;
  double r3[W];
  const double k10 = c[10];
  (void)r3;
  double r4[W];
  const double k13 = c[13];
  (void)r4;
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
    r3[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, r2[s], k10);
    {
      const double x = k13, y = r3[s];
      r4[s] = r0[s] == 1.0 ? x : y;
    }
  }
  storeRow<W>(a.exportsNow + (0 * ds + d) * xs + s0, n, false, [&](std::int64_t s) { return r4[s]; });
  double r6[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Min); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) r6[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Min, [&](const auto& combine) {
  for (std::int64_t k = a.offsets[d]; k < a.offsets[d + 1]; ++k) {
    const std::int64_t j = a.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = j == d ? a.exportsNow + (0 * ds + d) * xs + s0 : a.exportsPrev + (0 * ds + j) * xs + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      r6[s] = combine(r6[s], e0);
    }
  }
  });
  (void)r6;
  double r7[W];
  { const double v = a.ids ? double(a.ids[d]) : double(d); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) r7[s] = v; }
  (void)r7;
  storeRow<W>(a.exportsNow + (1 * ds + d) * xs + s0, n, false, [&](std::int64_t s) { return r7[s]; });
  double r9[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Min); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) r9[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Min, [&](const auto& combine) {
  for (std::int64_t k = a.offsets[d]; k < a.offsets[d + 1]; ++k) {
    const std::int64_t j = a.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = j == d ? a.exportsNow + (0 * ds + d) * xs + s0 : a.exportsPrev + (0 * ds + j) * xs + s0;
    const double* q3 = j == d ? a.exportsNow + (1 * ds + d) * xs + s0 : a.exportsPrev + (1 * ds + j) * xs + s0;
    const double q4 = c[66];
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      const double e1 = r6[s];
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Equal, e0, e1);
      const double e3 = q3[s];
      const double e4 = q4;
      const double e5 = e2 == 1.0 ? e3 : e4;
      r9[s] = combine(r9[s], e5);
    }
  }
  });
  (void)r9;
  double r10[W];
  const double k31 = c[31];
  (void)r10;
  double r11[W];
  const double k34 = c[34];
  (void)r11;
  double r12[W];
  (void)r12;
  double r13[W];
  const double k40 = c[40];
  (void)r13;
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
    r10[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Equal, r4[s], k31);
    r11[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Equal, r6[s], k34);
    r12[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Or, r10[s], r11[s]);
    {
      const double x = k40, y = r9[s];
      r13[s] = r12[s] == 1.0 ? x : y;
    }
  }
  double r14[W];
  { const double v = a.ids ? double(a.ids[d]) : double(d); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) r14[s] = v; }
  (void)r14;
  storeRow<W>(a.exportsNow + (2 * ds + d) * xs + s0, n, false, [&](std::int64_t s) { return r13[s]; });
  double r16[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Sum); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) r16[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Sum, [&](const auto& combine) {
  for (std::int64_t k = a.offsets[d]; k < a.offsets[d + 1]; ++k) {
    const std::int64_t j = a.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = j == d ? a.exportsNow + (2 * ds + d) * xs + s0 : a.exportsPrev + (2 * ds + j) * xs + s0;
    const double* q3 = j == d ? a.exportsNow + (3 * ds + d) * xs + s0 : a.exportsPrev + (3 * ds + j) * xs + s0;
    const double q4 = c[72];
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      const double e1 = r14[s];
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Equal, e0, e1);
      const double e3 = q3[s];
      const double e4 = q4;
      const double e5 = e2 == 1.0 ? e3 : e4;
      r16[s] = combine(r16[s], e5);
    }
  }
  });
  (void)r16;
  double r17[W];
  (void)r17;
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
    r17[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, r1[s], r16[s]);
  }
  storeRow<W>(a.exportsNow + (3 * ds + d) * xs + s0, n, stream, [&](std::int64_t s) { return r17[s]; });
  if (a.writeOutput) storeRow<W>(a.output + (0 * ds + d) * a.outputStride + s0, n, stream, [&](std::int64_t s) { return r17[s]; });
}

void round_collect_sum(const kfield::CompiledRoundArgs& a, std::int64_t first, std::int64_t end) {
  if (a.live == 1) {
    for (std::int64_t d = first; d < end; ++d) round_collect_sum_block<1>(a, d, 0, 1);
    return;
  }
  for (std::int64_t d = first; d < end; ++d) {
    for (std::int64_t s0 = 0; s0 < a.live; s0 += 64) {
      round_collect_sum_block<64>(a, d, s0, a.live - s0 < 64 ? a.live - s0 : 64);
    }
  }
  streamFence();
}

// election: 18 operations, 16 entry operations.
template <int W>
void round_election_block(const kfield::CompiledRoundArgs& a, std::int64_t d, std::int64_t s0,
    std::int64_t m) {
  const std::int64_t n = W == 1 ? 1 : m;
  const std::int64_t ds = a.devices, xs = a.exportStride;
  const double* c = a.constants;
  const bool stream = ds * xs >= kStreamedPlane;
  (void)n, (void)ds, (void)xs, (void)c, (void)s0, (void)stream;
  double r0[W];
  { const double v = a.ids ? double(a.ids[d]) : double(d); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) r0[s] = v; }
  (void)r0;
  storeRow<W>(a.exportsNow + (0 * ds + d) * xs + s0, n, false, [&](std::int64_t s) { return r0[s]; });
  double r2[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Min); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) r2[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Min, [&](const auto& combine) {
  for (std::int64_t k = a.offsets[d]; k < a.offsets[d + 1]; ++k) {
    const std::int64_t j = a.neighbors[k];
    (void)j;
    const double* q0 = j == d ? a.exportsNow + (0 * ds + d) * xs + s0 : a.exportsPrev + (0 * ds + j) * xs + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      r2[s] = combine(r2[s], e0);
    }
  }
  });
  (void)r2;
  double r3[W];
  (void)r3;
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
    r3[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Min, r0[s], r2[s]);
  }
  storeRow<W>(a.exportsNow + (1 * ds + d) * xs + s0, n, false, [&](std::int64_t s) { return r3[s]; });
  double r5[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Min); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) r5[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Min, [&](const auto& combine) {
  for (std::int64_t k = a.offsets[d]; k < a.offsets[d + 1]; ++k) {
    const std::int64_t j = a.neighbors[k];
    (void)j;
    const double* q0 = j == d ? a.exportsNow + (1 * ds + d) * xs + s0 : a.exportsPrev + (1 * ds + j) * xs + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      r5[s] = combine(r5[s], e0);
    }
  }
  });
  (void)r5;
  double r6[W];
  (void)r6;
  double r7[W];
  (void)r7;
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
    r6[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Min, r3[s], r5[s]);
    r7[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Equal, r6[s], r0[s]);
  }
  double r8[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Min); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) r8[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Min, [&](const auto& combine) {
  for (std::int64_t k = a.offsets[d]; k < a.offsets[d + 1]; ++k) {
    const std::int64_t j = a.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = j == d ? a.exportsNow + (2 * ds + d) * xs + s0 : a.exportsPrev + (2 * ds + j) * xs + s0;
    const double q1 = a.lengths ? a.lengths[k] : 0.0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      const double e1 = q1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, e0, e1);
      r8[s] = combine(r8[s], e2);
    }
  }
  });
  (void)r8;
  double r9[W];
  const double k28 = c[28];
  (void)r9;
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
    {
      const double x = k28, y = r8[s];
      r9[s] = r7[s] == 1.0 ? x : y;
    }
  }
  storeRow<W>(a.exportsNow + (2 * ds + d) * xs + s0, n, false, [&](std::int64_t s) { return r9[s]; });
  double r11[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Min); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) r11[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Min, [&](const auto& combine) {
  for (std::int64_t k = a.offsets[d]; k < a.offsets[d + 1]; ++k) {
    const std::int64_t j = a.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = j == d ? a.exportsNow + (2 * ds + d) * xs + s0 : a.exportsPrev + (2 * ds + j) * xs + s0;
    const double q1 = a.lengths ? a.lengths[k] : 0.0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      const double e1 = q1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, e0, e1);
      r11[s] = combine(r11[s], e2);
    }
  }
  });
  (void)r11;
  double r12[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Min); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) r12[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Min, [&](const auto& combine) {
  for (std::int64_t k = a.offsets[d]; k < a.offsets[d + 1]; ++k) {
    const std::int64_t j = a.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = j == d ? a.exportsNow + (2 * ds + d) * xs + s0 : a.exportsPrev + (2 * ds + j) * xs + s0;
    const double q1 = a.lengths ? a.lengths[k] : 0.0;
    const double* q5 = j == d ? a.exportsNow + (3 * ds + d) * xs + s0 : a.exportsPrev + (3 * ds + j) * xs + s0;
    const double q6 = c[68];
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      const double e1 = q1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, e0, e1);
      const double e3 = r11[s];
      const double e4 = kfield::impl::entryOperation(kfield::impl::EntryCode::Equal, e2, e3);
      const double e5 = q5[s];
      const double e6 = q6;
      const double e7 = e4 == 1.0 ? e5 : e6;
      r12[s] = combine(r12[s], e7);
    }
  }
  });
  (void)r12;
  double r13[W];
  const double k40 = c[40];
  (void)r13;
  double r14[W];
  (void)r14;
  double r15[W];
  (void)r15;
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
    r13[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Less, r11[s], k40);
    {
      const double x = r12[s], y = r0[s];
      r14[s] = r13[s] == 1.0 ? x : y;
    }
    {
      const double x = r0[s], y = r14[s];
      r15[s] = r7[s] == 1.0 ? x : y;
    }
  }
  storeRow<W>(a.exportsNow + (3 * ds + d) * xs + s0, n, stream, [&](std::int64_t s) { return r15[s]; });
  if (a.writeOutput) storeRow<W>(a.output + (0 * ds + d) * a.outputStride + s0, n, stream, [&](std::int64_t s) { return r15[s]; });
}

void round_election(const kfield::CompiledRoundArgs& a, std::int64_t first, std::int64_t end) {
  if (a.live == 1) {
    for (std::int64_t d = first; d < end; ++d) round_election_block<1>(a, d, 0, 1);
    return;
  }
  for (std::int64_t d = first; d < end; ++d) {
    for (std::int64_t s0 = 0; s0 < a.live; s0 += 64) {
      round_election_block<64>(a, d, s0, a.live - s0 < 64 ? a.live - s0 : 64);
    }
  }
  streamFence();
}

// gossip-max: 6 operations, 1 entry operations.
template <int W>
void round_gossip_max_block(const kfield::CompiledRoundArgs& a, std::int64_t d, std::int64_t s0,
    std::int64_t m) {
  const std::int64_t n = W == 1 ? 1 : m;
  const std::int64_t ds = a.devices, xs = a.exportStride;
  const double* c = a.constants;
  const bool stream = ds * xs >= kStreamedPlane;
  (void)n, (void)ds, (void)xs, (void)c, (void)s0, (void)stream;
  const double* r0 = a.sensors + (0 * ds + d) * a.sensorStride + s0;
  (void)r0;
  const double* r1 = a.exportsPrev + (0 * ds + d) * xs + s0;
  (void)r1;
  double r2[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Max); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) r2[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Max, [&](const auto& combine) {
  for (std::int64_t k = a.offsets[d]; k < a.offsets[d + 1]; ++k) {
    const std::int64_t j = a.neighbors[k];
    (void)j;
    const double* q0 = j == d ? r1 : a.exportsPrev + (0 * ds + j) * xs + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      r2[s] = combine(r2[s], e0);
    }
  }
  });
  (void)r2;
  double r3[W];
  (void)r3;
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
    r3[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Max, r0[s], r2[s]);
  }
  storeRow<W>(a.exportsNow + (0 * ds + d) * xs + s0, n, stream, [&](std::int64_t s) { return r3[s]; });
  if (a.writeOutput) storeRow<W>(a.output + (0 * ds + d) * a.outputStride + s0, n, stream, [&](std::int64_t s) { return r3[s]; });
}

void round_gossip_max(const kfield::CompiledRoundArgs& a, std::int64_t first, std::int64_t end) {
  if (a.live == 1) {
    for (std::int64_t d = first; d < end; ++d) round_gossip_max_block<1>(a, d, 0, 1);
    return;
  }
  for (std::int64_t d = first; d < end; ++d) {
    for (std::int64_t s0 = 0; s0 < a.live; s0 += 64) {
      round_gossip_max_block<64>(a, d, s0, a.live - s0 < 64 ? a.live - s0 : 64);
    }
  }
  streamFence();
}

// consensus: 8 operations, 4 entry operations.
template <int W>
void round_consensus_block(const kfield::CompiledRoundArgs& a, std::int64_t d, std::int64_t s0,
    std::int64_t m) {
  const std::int64_t n = W == 1 ? 1 : m;
  const std::int64_t ds = a.devices, xs = a.exportStride;
  const double* c = a.constants;
  const bool stream = ds * xs >= kStreamedPlane;
  (void)n, (void)ds, (void)xs, (void)c, (void)s0, (void)stream;
  const double* r0 = a.sensors + (0 * ds + d) * a.sensorStride + s0;
  (void)r0;
  const double* r1 = a.exportsPrev + (0 * ds + d) * xs + s0;
  (void)r1;
  double r2[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Self); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) r2[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Self, [&](const auto& combine) {
  for (std::int64_t k = a.offsets[d]; k < a.offsets[d + 1]; ++k) {
    const std::int64_t j = a.neighbors[k];
    (void)j;
    if (j != d) continue;
    const double* q0 = j == d ? r1 : a.exportsPrev + (0 * ds + j) * xs + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      r2[s] = combine(r2[s], e0);
    }
  }
  });
  (void)r2;
  double r3[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Sum); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) r3[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Sum, [&](const auto& combine) {
  for (std::int64_t k = a.offsets[d]; k < a.offsets[d + 1]; ++k) {
    const std::int64_t j = a.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = j == d ? r1 : a.exportsPrev + (0 * ds + j) * xs + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      const double e1 = r2[s];
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Sub, e0, e1);
      r3[s] = combine(r3[s], e2);
    }
  }
  });
  (void)r3;
  double r4[W];
  const double k13 = c[13];
  (void)r4;
  double r5[W];
  (void)r5;
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
    r4[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Mul, r3[s], k13);
    r5[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, r2[s], r4[s]);
  }
  storeRow<W>(a.exportsNow + (0 * ds + d) * xs + s0, n, stream, [&](std::int64_t s) { return r5[s]; });
  if (a.writeOutput) storeRow<W>(a.output + (0 * ds + d) * a.outputStride + s0, n, stream, [&](std::int64_t s) { return r5[s]; });
}

void round_consensus(const kfield::CompiledRoundArgs& a, std::int64_t first, std::int64_t end) {
  if (a.live == 1) {
    for (std::int64_t d = first; d < end; ++d) round_consensus_block<1>(a, d, 0, 1);
    return;
  }
  for (std::int64_t d = first; d < end; ++d) {
    for (std::int64_t s0 = 0; s0 < a.live; s0 += 64) {
      round_consensus_block<64>(a, d, s0, a.live - s0 < 64 ? a.live - s0 : 64);
    }
  }
  streamFence();
}

// scaled-distance: 6 operations, 5 entry operations.
template <int W>
void round_scaled_distance_block(const kfield::CompiledRoundArgs& a, std::int64_t d, std::int64_t s0,
    std::int64_t m) {
  const std::int64_t n = W == 1 ? 1 : m;
  const std::int64_t ds = a.devices, xs = a.exportStride;
  const double* c = a.constants;
  const bool stream = ds * xs >= kStreamedPlane;
  (void)n, (void)ds, (void)xs, (void)c, (void)s0, (void)stream;
  const double* r0 = a.sensors + (0 * ds + d) * a.sensorStride + s0;
  (void)r0;
  double r1[W];
  { const double v = a.parameters[0]; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) r1[s] = v; }
  (void)r1;
  double r2[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Min); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) r2[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Min, [&](const auto& combine) {
  for (std::int64_t k = a.offsets[d]; k < a.offsets[d + 1]; ++k) {
    const std::int64_t j = a.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = j == d ? a.exportsNow + (0 * ds + d) * xs + s0 : a.exportsPrev + (0 * ds + j) * xs + s0;
    const double q1 = a.lengths ? a.lengths[k] : 0.0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      const double e1 = q1;
      const double e2 = r1[s];
      const double e3 = kfield::impl::entryOperation(kfield::impl::EntryCode::Mul, e1, e2);
      const double e4 = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, e0, e3);
      r2[s] = combine(r2[s], e4);
    }
  }
  });
  (void)r2;
  double r3[W];
  const double k10 = c[10];
  (void)r3;
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
    {
      const double x = k10, y = r2[s];
      r3[s] = r0[s] == 1.0 ? x : y;
    }
  }
  storeRow<W>(a.exportsNow + (0 * ds + d) * xs + s0, n, stream, [&](std::int64_t s) { return r3[s]; });
  if (a.writeOutput) storeRow<W>(a.output + (0 * ds + d) * a.outputStride + s0, n, stream, [&](std::int64_t s) { return r3[s]; });
}

void round_scaled_distance(const kfield::CompiledRoundArgs& a, std::int64_t first, std::int64_t end) {
  if (a.live == 1) {
    for (std::int64_t d = first; d < end; ++d) round_scaled_distance_block<1>(a, d, 0, 1);
    return;
  }
  for (std::int64_t d = first; d < end; ++d) {
    for (std::int64_t s0 = 0; s0 < a.live; s0 += 64) {
      round_scaled_distance_block<64>(a, d, s0, a.live - s0 < 64 ? a.live - s0 : 64);
    }
  }
  streamFence();
}

// learned-consensus: 9 operations, 4 entry operations.
template <int W>
void round_learned_consensus_block(const kfield::CompiledRoundArgs& a, std::int64_t d, std::int64_t s0,
    std::int64_t m) {
  const std::int64_t n = W == 1 ? 1 : m;
  const std::int64_t ds = a.devices, xs = a.exportStride;
  const double* c = a.constants;
  const bool stream = ds * xs >= kStreamedPlane;
  (void)n, (void)ds, (void)xs, (void)c, (void)s0, (void)stream;
  const double* r0 = a.sensors + (0 * ds + d) * a.sensorStride + s0;
  (void)r0;
  double r1[W];
  { const double v = a.parameters[0]; KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) r1[s] = v; }
  (void)r1;
  const double* r2 = a.exportsPrev + (0 * ds + d) * xs + s0;
  (void)r2;
  double r3[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Self); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) r3[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Self, [&](const auto& combine) {
  for (std::int64_t k = a.offsets[d]; k < a.offsets[d + 1]; ++k) {
    const std::int64_t j = a.neighbors[k];
    (void)j;
    if (j != d) continue;
    const double* q0 = j == d ? r2 : a.exportsPrev + (0 * ds + j) * xs + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      r3[s] = combine(r3[s], e0);
    }
  }
  });
  (void)r3;
  double r4[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Sum); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) r4[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Sum, [&](const auto& combine) {
  for (std::int64_t k = a.offsets[d]; k < a.offsets[d + 1]; ++k) {
    const std::int64_t j = a.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = j == d ? r2 : a.exportsPrev + (0 * ds + j) * xs + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      const double e1 = r3[s];
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Sub, e0, e1);
      r4[s] = combine(r4[s], e2);
    }
  }
  });
  (void)r4;
  double r5[W];
  (void)r5;
  double r6[W];
  (void)r6;
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
    r5[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Mul, r4[s], r1[s]);
    r6[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, r3[s], r5[s]);
  }
  storeRow<W>(a.exportsNow + (0 * ds + d) * xs + s0, n, stream, [&](std::int64_t s) { return r6[s]; });
  if (a.writeOutput) storeRow<W>(a.output + (0 * ds + d) * a.outputStride + s0, n, stream, [&](std::int64_t s) { return r6[s]; });
}

void round_learned_consensus(const kfield::CompiledRoundArgs& a, std::int64_t first, std::int64_t end) {
  if (a.live == 1) {
    for (std::int64_t d = first; d < end; ++d) round_learned_consensus_block<1>(a, d, 0, 1);
    return;
  }
  for (std::int64_t d = first; d < end; ++d) {
    for (std::int64_t s0 = 0; s0 < a.live; s0 += 64) {
      round_learned_consensus_block<64>(a, d, s0, a.live - s0 < 64 ? a.live - s0 : 64);
    }
  }
  streamFence();
}

// nearest-source: 13 operations, 15 entry operations.
template <int W>
void round_nearest_source_block(const kfield::CompiledRoundArgs& a, std::int64_t d, std::int64_t s0,
    std::int64_t m) {
  const std::int64_t n = W == 1 ? 1 : m;
  const std::int64_t ds = a.devices, xs = a.exportStride;
  const double* c = a.constants;
  const bool stream = ds * xs >= kStreamedPlane;
  (void)n, (void)ds, (void)xs, (void)c, (void)s0, (void)stream;
  const double* r0 = a.sensors + (0 * ds + d) * a.sensorStride + s0;
  (void)r0;
  const double* r1 = a.sensors + (1 * ds + d) * a.sensorStride + s0;
  (void)r1;
  const double init2 = kfield::impl::initialOf(kfield::impl::FoldCode::Min);
  double r2[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) r2[s] = init2;
  double r3[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) r3[s] = init2;
  for (std::int64_t k = a.offsets[d]; k < a.offsets[d + 1]; ++k) {
    const std::int64_t j = a.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0_0 = j == d ? a.exportsNow + (0 * ds + d) * xs + s0 : a.exportsPrev + (0 * ds + j) * xs + s0;
    const double q0_1 = a.lengths ? a.lengths[k] : 0.0;
    const double* q1_0 = j == d ? a.exportsNow + (1 * ds + d) * xs + s0 : a.exportsPrev + (1 * ds + j) * xs + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      bool better = false, tied = true;
      const double e0_0 = q0_0[s];
      const double e0_1 = q0_1;
      const double e0_2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, e0_0, e0_1);
      const double v0 = e0_2, best0 = r2[s];
      const bool improves0 = tied & (v0 < best0);
      better = better | improves0;
      tied = tied & (v0 == best0);
      const double e1_0 = q1_0[s];
      const double v1 = e1_0, best1 = r3[s];
      const bool improves1 = tied & (v1 < best1);
      better = better | improves1;
      tied = tied & (v1 == best1);
      if (better) {
        const double init = init2;
        bool replaced = false;
        r2[s] = replaced ? (v0 < init ? v0 : init) : improves0 ? v0 : best0;
        replaced = replaced | improves0;
        r3[s] = replaced ? (v1 < init ? v1 : init) : improves1 ? v1 : best1;
        replaced = replaced | improves1;
      }
    }
  }
  double r4[W];
  const double k13 = c[13];
  (void)r4;
  double r5[W];
  (void)r5;
  double r6[W];
  const double k20 = c[20];
  (void)r6;
  double r7[W];
  (void)r7;
  double r8[W];
  const double k25 = c[25];
  (void)r8;
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
    r4[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Less, r2[s], k13);
    {
      const double x = r3[s], y = r1[s];
      r5[s] = r4[s] == 1.0 ? x : y;
    }
    {
      const double x = r2[s], y = k20;
      r6[s] = r4[s] == 1.0 ? x : y;
    }
    {
      const double x = r1[s], y = r5[s];
      r7[s] = r0[s] == 1.0 ? x : y;
    }
    {
      const double x = k25, y = r6[s];
      r8[s] = r0[s] == 1.0 ? x : y;
    }
  }
  storeRow<W>(a.exportsNow + (0 * ds + d) * xs + s0, n, stream, [&](std::int64_t s) { return r8[s]; });
  storeRow<W>(a.exportsNow + (1 * ds + d) * xs + s0, n, stream, [&](std::int64_t s) { return r7[s]; });
  if (a.writeOutput) storeRow<W>(a.output + (0 * ds + d) * a.outputStride + s0, n, stream, [&](std::int64_t s) { return r8[s]; });
  if (a.writeOutput) storeRow<W>(a.output + (1 * ds + d) * a.outputStride + s0, n, stream, [&](std::int64_t s) { return r7[s]; });
}

void round_nearest_source(const kfield::CompiledRoundArgs& a, std::int64_t first, std::int64_t end) {
  if (a.live == 1) {
    for (std::int64_t d = first; d < end; ++d) round_nearest_source_block<1>(a, d, 0, 1);
    return;
  }
  for (std::int64_t d = first; d < end; ++d) {
    for (std::int64_t s0 = 0; s0 < a.live; s0 += 64) {
      round_nearest_source_block<64>(a, d, s0, a.live - s0 < 64 ? a.live - s0 : 64);
    }
  }
  streamFence();
}

// collect-weighted: 15 operations, 42 entry operations.
template <int W>
void round_collect_weighted_block(const kfield::CompiledRoundArgs& a, std::int64_t d, std::int64_t s0,
    std::int64_t m) {
  const std::int64_t n = W == 1 ? 1 : m;
  const std::int64_t ds = a.devices, xs = a.exportStride;
  const double* c = a.constants;
  const bool stream = ds * xs >= kStreamedPlane;
  (void)n, (void)ds, (void)xs, (void)c, (void)s0, (void)stream;
  const double* r0 = a.sensors + (0 * ds + d) * a.sensorStride + s0;
  (void)r0;
  double r1[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Min); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) r1[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Min, [&](const auto& combine) {
  for (std::int64_t k = a.offsets[d]; k < a.offsets[d + 1]; ++k) {
    const std::int64_t j = a.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = j == d ? a.exportsNow + (0 * ds + d) * xs + s0 : a.exportsPrev + (0 * ds + j) * xs + s0;
    const double q1 = a.lengths ? a.lengths[k] : 0.0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      const double e1 = q1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, e0, e1);
      r1[s] = combine(r1[s], e2);
    }
  }
  });
  (void)r1;
  double r2[W];
  const double k7 = c[7];
  (void)r2;
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
    {
      const double x = k7, y = r1[s];
      r2[s] = r0[s] == 1.0 ? x : y;
    }
  }
  storeRow<W>(a.exportsNow + (0 * ds + d) * xs + s0, n, stream, [&](std::int64_t s) { return r2[s]; });
  const double* r4 = a.sensors + (1 * ds + d) * a.sensorStride + s0;
  (void)r4;
  const double* r5 = a.exportsPrev + (0 * ds + d) * xs + s0;
  (void)r5;
  double r6[W];
  const double k19 = c[19];
  (void)r6;
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
    r6[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Less, r2[s], k19);
  }
  double r7[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Sum); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) r7[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Sum, [&](const auto& combine) {
  for (std::int64_t k = a.offsets[d]; k < a.offsets[d + 1]; ++k) {
    const std::int64_t j = a.neighbors[k];
    (void)j;
    const double q0 = c[48];
    const double q1 = a.lengths ? a.lengths[k] : 0.0;
    const double q3 = c[51];
    const double* q5 = j == d ? r5 : a.exportsPrev + (0 * ds + j) * xs + s0;
    const double q6 = c[54];
    const double q12 = c[60];
    const double q15 = c[63];
    double* keep = a.exportsNow + (a.edgeRow + 0 * a.entries + k) * xs + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0;
      const double e1 = q1;
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Sub, e0, e1);
      const double e3 = q3;
      const double e4 = kfield::impl::entryOperation(kfield::impl::EntryCode::Max, e2, e3);
      const double e5 = q5[s];
      const double e6 = q6;
      const double e7 = kfield::impl::entryOperation(kfield::impl::EntryCode::Less, e5, e6);
      const double e8 = r6[s];
      const double e9 = kfield::impl::entryOperation(kfield::impl::EntryCode::And, e7, e8);
      const double e10 = r2[s];
      const double e11 = kfield::impl::entryOperation(kfield::impl::EntryCode::Sub, e10, e5);
      const double e12 = q12;
      const double e13 = e9 == 1.0 ? e11 : e12;
      const double e14 = kfield::impl::entryOperation(kfield::impl::EntryCode::Mul, e4, e13);
      const double e15 = q15;
      const double e16 = kfield::impl::entryOperation(kfield::impl::EntryCode::Max, e14, e15);
      keep[s] = e16;
      r7[s] = combine(r7[s], e16);
    }
  }
  });
  (void)r7;
  double r8[W];
  const double k25 = c[25];
  (void)r8;
  double r9[W];
  const double k28 = c[28];
  (void)r9;
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
    r8[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Equal, r7[s], k25);
    {
      const double x = k28, y = r7[s];
      r9[s] = r8[s] == 1.0 ? x : y;
    }
  }
  double r10[W];
  {
  std::int64_t self = a.offsets[d];
  while (self < a.offsets[d + 1] && a.neighbors[self] != d) ++self;
  {
    const std::int64_t k = self, j = d;
    (void)k, (void)j;
    const double* kept = a.exportsNow + (a.edgeRow + 0 * a.entries + k) * xs + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e16 = kept[s];
      const double e17 = r9[s];
      const double e18 = kfield::impl::entryOperation(kfield::impl::EntryCode::Div, e16, e17);
      r10[s] = e18;
    }
  }
  storeRow<W>(a.exportsNow + (1 * ds + d) * xs + s0, n, stream, [&](std::int64_t s) { return r10[s]; });
  for (std::int64_t k = a.offsets[d]; k < a.offsets[d + 1]; ++k) {
    const std::int64_t j = a.neighbors[k];
    double* to = a.exportsNow + (a.edgeRow + 0 * a.entries + k) * xs + s0;
    if (j == d) { storeRow<W>(to, n, stream, [&](std::int64_t s) { return r10[s]; }); continue; }
    double sent[W];
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e16 = to[s];
      const double e17 = r9[s];
      const double e18 = kfield::impl::entryOperation(kfield::impl::EntryCode::Div, e16, e17);
      sent[s] = e18;
    }
    storeRow<W>(to, n, stream, [&](std::int64_t s) { return sent[s]; });
  }
  }
  double r11[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Sum); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) r11[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Sum, [&](const auto& combine) {
  for (std::int64_t k = a.offsets[d]; k < a.offsets[d + 1]; ++k) {
    const std::int64_t j = a.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = j == d ? a.exportsNow + (2 * ds + d) * xs + s0 : a.exportsPrev + (2 * ds + j) * xs + s0;
    const double* q1 = j == d ? static_cast<const double*>(nullptr) : a.exportsPrev + (a.edgeRow + 0 * a.entries + a.reverse[k]) * xs + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      const double e1 = q1[s];
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Mul, e0, e1);
      r11[s] = combine(r11[s], e2);
    }
  }
  });
  (void)r11;
  double r12[W];
  (void)r12;
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
    r12[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, r4[s], r11[s]);
  }
  storeRow<W>(a.exportsNow + (2 * ds + d) * xs + s0, n, stream, [&](std::int64_t s) { return r12[s]; });
  if (a.writeOutput) storeRow<W>(a.output + (0 * ds + d) * a.outputStride + s0, n, stream, [&](std::int64_t s) { return r12[s]; });
}

void round_collect_weighted(const kfield::CompiledRoundArgs& a, std::int64_t first, std::int64_t end) {
  if (a.live == 1) {
    for (std::int64_t d = first; d < end; ++d) round_collect_weighted_block<1>(a, d, 0, 1);
    return;
  }
  for (std::int64_t d = first; d < end; ++d) {
    for (std::int64_t s0 = 0; s0 < a.live; s0 += 64) {
      round_collect_weighted_block<64>(a, d, s0, a.live - s0 < 64 ? a.live - s0 : 64);
    }
  }
  streamFence();
}

// collect-multipath: 13 operations, 13 entry operations.
template <int W>
void round_collect_multipath_block(const kfield::CompiledRoundArgs& a, std::int64_t d, std::int64_t s0,
    std::int64_t m) {
  const std::int64_t n = W == 1 ? 1 : m;
  const std::int64_t ds = a.devices, xs = a.exportStride;
  const double* c = a.constants;
  const bool stream = ds * xs >= kStreamedPlane;
  (void)n, (void)ds, (void)xs, (void)c, (void)s0, (void)stream;
  const double* r0 = a.sensors + (0 * ds + d) * a.sensorStride + s0;
  (void)r0;
  double r1[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Min); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) r1[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Min, [&](const auto& combine) {
  for (std::int64_t k = a.offsets[d]; k < a.offsets[d + 1]; ++k) {
    const std::int64_t j = a.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = j == d ? a.exportsNow + (0 * ds + d) * xs + s0 : a.exportsPrev + (0 * ds + j) * xs + s0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      r1[s] = combine(r1[s], e0);
    }
  }
  });
  (void)r1;
  double r2[W];
  const double k7 = c[7];
  (void)r2;
  double r3[W];
  const double k10 = c[10];
  (void)r3;
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
    r2[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, r1[s], k7);
    {
      const double x = k10, y = r2[s];
      r3[s] = r0[s] == 1.0 ? x : y;
    }
  }
  storeRow<W>(a.exportsNow + (0 * ds + d) * xs + s0, n, false, [&](std::int64_t s) { return r3[s]; });
  const double* r5 = a.sensors + (1 * ds + d) * a.sensorStride + s0;
  (void)r5;
  double r6[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Sum); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) r6[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Sum, [&](const auto& combine) {
  for (std::int64_t k = a.offsets[d]; k < a.offsets[d + 1]; ++k) {
    const std::int64_t j = a.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = j == d ? a.exportsNow + (0 * ds + d) * xs + s0 : a.exportsPrev + (0 * ds + j) * xs + s0;
    const double q3 = c[43];
    const double q4 = c[44];
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      const double e1 = r3[s];
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Less, e0, e1);
      const double e3 = q3;
      const double e4 = q4;
      const double e5 = e2 == 1.0 ? e3 : e4;
      r6[s] = combine(r6[s], e5);
    }
  }
  });
  (void)r6;
  double r7[W];
  { const double init = kfield::impl::initialOf(kfield::impl::FoldCode::Sum); KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) r7[s] = init; }
  kfield::impl::withCombine(kfield::impl::FoldCode::Sum, [&](const auto& combine) {
  for (std::int64_t k = a.offsets[d]; k < a.offsets[d + 1]; ++k) {
    const std::int64_t j = a.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0 = j == d ? a.exportsNow + (0 * ds + d) * xs + s0 : a.exportsPrev + (0 * ds + j) * xs + s0;
    const double* q3 = j == d ? a.exportsNow + (1 * ds + d) * xs + s0 : a.exportsPrev + (1 * ds + j) * xs + s0;
    const double q4 = c[50];
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      const double e0 = q0[s];
      const double e1 = r3[s];
      const double e2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Greater, e0, e1);
      const double e3 = q3[s];
      const double e4 = q4;
      const double e5 = e2 == 1.0 ? e3 : e4;
      r7[s] = combine(r7[s], e5);
    }
  }
  });
  (void)r7;
  double r8[W];
  (void)r8;
  double r9[W];
  const double k28 = c[28];
  (void)r9;
  double r10[W];
  (void)r10;
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
    r8[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, r5[s], r7[s]);
    r9[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Max, r6[s], k28);
    r10[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Div, r8[s], r9[s]);
  }
  storeRow<W>(a.exportsNow + (1 * ds + d) * xs + s0, n, stream, [&](std::int64_t s) { return r10[s]; });
  if (a.writeOutput) storeRow<W>(a.output + (0 * ds + d) * a.outputStride + s0, n, stream, [&](std::int64_t s) { return r8[s]; });
}

void round_collect_multipath(const kfield::CompiledRoundArgs& a, std::int64_t first, std::int64_t end) {
  if (a.live == 1) {
    for (std::int64_t d = first; d < end; ++d) round_collect_multipath_block<1>(a, d, 0, 1);
    return;
  }
  for (std::int64_t d = first; d < end; ++d) {
    for (std::int64_t s0 = 0; s0 < a.live; s0 += 64) {
      round_collect_multipath_block<64>(a, d, s0, a.live - s0 < 64 ? a.live - s0 : 64);
    }
  }
  streamFence();
}

// bis-gradient: 11 operations, 34 entry operations.
template <int W>
void round_bis_gradient_block(const kfield::CompiledRoundArgs& a, std::int64_t d, std::int64_t s0,
    std::int64_t m) {
  const std::int64_t n = W == 1 ? 1 : m;
  const std::int64_t ds = a.devices, xs = a.exportStride;
  const double* c = a.constants;
  const bool stream = ds * xs >= kStreamedPlane;
  (void)n, (void)ds, (void)xs, (void)c, (void)s0, (void)stream;
  const double* r0 = a.sensors + (0 * ds + d) * a.sensorStride + s0;
  (void)r0;
  const double init1 = kfield::impl::initialOf(kfield::impl::FoldCode::Min);
  double r1[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) r1[s] = init1;
  double r2[W];
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) r2[s] = init1;
  for (std::int64_t k = a.offsets[d]; k < a.offsets[d + 1]; ++k) {
    const std::int64_t j = a.neighbors[k];
    (void)j;
    if (j == d) continue;
    const double* q0_0 = j == d ? a.exportsNow + (0 * ds + d) * xs + s0 : a.exportsPrev + (0 * ds + j) * xs + s0;
    const double q0_1 = a.lengths ? a.lengths[k] : 0.0;
    const double* q0_3 = j == d ? a.exportsNow + (1 * ds + d) * xs + s0 : a.exportsPrev + (1 * ds + j) * xs + s0;
    const double q0_4 = j == d ? 0.0 : 1.0;
    const double q0_6 = c[48];
    const double* q1_0 = j == d ? a.exportsNow + (1 * ds + d) * xs + s0 : a.exportsPrev + (1 * ds + j) * xs + s0;
    const double q1_1 = j == d ? 0.0 : 1.0;
    KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
      bool better = false, tied = true;
      const double e0_0 = q0_0[s];
      const double e0_1 = q0_1;
      const double e0_2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, e0_0, e0_1);
      const double e0_3 = q0_3[s];
      const double e0_4 = q0_4;
      const double e0_5 = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, e0_3, e0_4);
      const double e0_6 = q0_6;
      const double e0_7 = kfield::impl::entryOperation(kfield::impl::EntryCode::Mul, e0_5, e0_6);
      const double e0_8 = kfield::impl::entryOperation(kfield::impl::EntryCode::Max, e0_2, e0_7);
      const double v0 = e0_8, best0 = r1[s];
      const bool improves0 = tied & (v0 < best0);
      better = better | improves0;
      tied = tied & (v0 == best0);
      const double e1_0 = q1_0[s];
      const double e1_1 = q1_1;
      const double e1_2 = kfield::impl::entryOperation(kfield::impl::EntryCode::Add, e1_0, e1_1);
      const double v1 = e1_2, best1 = r2[s];
      const bool improves1 = tied & (v1 < best1);
      better = better | improves1;
      tied = tied & (v1 == best1);
      if (better) {
        const double init = init1;
        bool replaced = false;
        r1[s] = replaced ? (v0 < init ? v0 : init) : improves0 ? v0 : best0;
        replaced = replaced | improves0;
        r2[s] = replaced ? (v1 < init ? v1 : init) : improves1 ? v1 : best1;
        replaced = replaced | improves1;
      }
    }
  }
  double r3[W];
  const double k10 = c[10];
  (void)r3;
  double r4[W];
  const double k14 = c[14];
  (void)r4;
  double r5[W];
  const double k17 = c[17];
  (void)r5;
  double r6[W];
  const double k19 = c[19];
  (void)r6;
  double r7[W];
  const double k22 = c[22];
  (void)r7;
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) {
    r3[s] = kfield::impl::entryOperation(kfield::impl::EntryCode::Less, r1[s], k10);
    {
      const double x = r2[s], y = k14;
      r4[s] = r3[s] == 1.0 ? x : y;
    }
    {
      const double x = r1[s], y = k17;
      r5[s] = r3[s] == 1.0 ? x : y;
    }
    {
      const double x = k19, y = r4[s];
      r6[s] = r0[s] == 1.0 ? x : y;
    }
    {
      const double x = k22, y = r5[s];
      r7[s] = r0[s] == 1.0 ? x : y;
    }
  }
  storeRow<W>(a.exportsNow + (0 * ds + d) * xs + s0, n, stream, [&](std::int64_t s) { return r7[s]; });
  storeRow<W>(a.exportsNow + (1 * ds + d) * xs + s0, n, stream, [&](std::int64_t s) { return r6[s]; });
  if (a.writeOutput) storeRow<W>(a.output + (0 * ds + d) * a.outputStride + s0, n, stream, [&](std::int64_t s) { return r7[s]; });
}

void round_bis_gradient(const kfield::CompiledRoundArgs& a, std::int64_t first, std::int64_t end) {
  if (a.live == 1) {
    for (std::int64_t d = first; d < end; ++d) round_bis_gradient_block<1>(a, d, 0, 1);
    return;
  }
  for (std::int64_t d = first; d < end; ++d) {
    for (std::int64_t s0 = 0; s0 < a.live; s0 += 64) {
      round_bis_gradient_block<64>(a, d, s0, a.live - s0 < 64 ? a.live - s0 : 64);
    }
  }
  streamFence();
}

}  // namespace

namespace kfield::impl {

std::vector<kfield::CompiledRoundEntry> libraryCompiledRounds() {
  return {
      {"kfield-round-1;slots 3;sensors 1;exports 1;edges 0;states 0;output 1;ops;0,0,-1,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;32,1,-1,-1,-1,-1,-1,-1,0,0,1,0,1,-1,0,-1,-1,0,-1;11,2,1,-1,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;26,1,0,-1,2,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;31,-1,1,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;33,-1,1,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;entries;0,-1,-1,-1,0,0,-1,-1,0",
       "hop-gradient", &round_hop_gradient},
      {"kfield-round-1;slots 3;sensors 1;exports 1;edges 0;states 0;output 1;ops;0,0,-1,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;32,1,-1,-1,-1,-1,-1,-1,0,0,1,0,3,-1,0,-1,-1,0,-1;26,2,0,-1,1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;31,-1,2,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;33,-1,2,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;entries;0,-1,-1,-1,0,0,-1,-1,0;1,-1,-1,-1,-1,0,-1,-1,0;4,0,1,-1,-1,0,-1,-1,0",
       "distance-gradient", &round_distance_gradient},
      {"kfield-round-1;slots 5;sensors 2;exports 2;edges 0;states 0;output 1;ops;0,0,-1,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;0,1,-1,-1,-1,-1,-1,1,0,0,0,0,0,-1,0,-1,-1,0,-1;32,2,-1,-1,-1,-1,-1,-1,0,0,1,0,3,-1,0,-1,-1,0,-1;26,3,0,-1,2,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;31,-1,3,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;32,3,-1,-1,-1,-1,-1,-1,0,0,1,3,3,-1,0,-1,-1,0,-1;32,2,-1,-1,-1,-1,-1,-1,0,0,1,6,8,-1,0,-1,-1,0,-1;18,4,3,-1,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;26,3,4,2,1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;26,4,0,1,3,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;31,-1,4,-1,-1,-1,-1,1,0,0,0,0,0,-1,0,-1,-1,0,-1;33,-1,4,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;entries;0,-1,-1,-1,0,0,-1,-1,0;1,-1,-1,-1,-1,0,-1,-1,0;4,0,1,-1,-1,0,-1,-1,0;0,-1,-1,-1,0,0,-1,-1,0;1,-1,-1,-1,-1,0,-1,-1,0;4,0,1,-1,-1,0,-1,-1,0;0,-1,-1,-1,0,0,-1,-1,0;1,-1,-1,-1,-1,0,-1,-1,0;4,0,1,-1,-1,0,-1,-1,0;2,-1,-1,-1,-1,0,-1,3,0;11,2,3,-1,-1,0,-1,-1,0;0,-1,-1,-1,1,0,-1,-1,0;3,-1,-1,-1,-1,0,-1,-1,0;12,4,5,6,-1,0,-1,-1,0",
       "broadcast", &round_broadcast},
      {"kfield-round-1;slots 5;sensors 2;exports 4;edges 0;states 0;output 1;ops;0,0,-1,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;0,1,-1,-1,-1,-1,-1,1,0,0,0,0,0,-1,0,-1,-1,0,-1;32,2,-1,-1,-1,-1,-1,-1,0,0,1,0,1,-1,0,-1,-1,0,-1;11,3,2,-1,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;26,2,0,-1,3,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;31,-1,2,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;32,3,-1,-1,-1,-1,-1,-1,0,0,1,1,1,-1,0,-1,-1,0,-1;1,0,-1,-1,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;31,-1,0,-1,-1,-1,-1,1,0,0,0,0,0,-1,0,-1,-1,0,-1;32,0,-1,-1,-1,-1,-1,-1,0,0,1,2,6,-1,0,-1,-1,0,-1;22,4,2,-1,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;22,2,3,-1,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;25,3,4,2,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;26,2,3,-1,0,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;1,3,-1,-1,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;31,-1,2,-1,-1,-1,-1,2,0,0,0,0,0,-1,0,-1,-1,0,-1;32,2,-1,-1,-1,-1,-1,-1,0,2,1,8,6,-1,0,-1,-1,0,-1;11,3,1,2,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;31,-1,3,-1,-1,-1,-1,3,0,0,0,0,0,-1,0,-1,-1,0,-1;33,-1,3,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;entries;0,-1,-1,-1,0,0,-1,-1,0;0,-1,-1,-1,0,0,-1,-1,0;0,-1,-1,-1,0,0,-1,-1,0;2,-1,-1,-1,-1,0,-1,3,0;11,0,1,-1,-1,0,-1,-1,0;0,-1,-1,-1,1,0,-1,-1,0;3,-1,-1,-1,-1,0,-1,-1,0;12,2,3,4,-1,0,-1,-1,0;0,-1,-1,-1,2,0,-1,-1,0;2,-1,-1,-1,-1,0,-1,3,0;11,0,1,-1,-1,0,-1,-1,0;0,-1,-1,-1,3,0,-1,-1,0;3,-1,-1,-1,-1,0,-1,-1,0;12,2,3,4,-1,0,-1,-1,0",
       "collect-sum", &round_collect_sum},
      {"kfield-round-1;slots 5;sensors 0;exports 4;edges 0;states 0;output 1;ops;1,0,-1,-1,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;31,-1,0,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;32,1,-1,-1,-1,-1,-1,-1,0,0,0,0,1,-1,0,-1,-1,0,-1;15,2,0,1,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;31,-1,2,-1,-1,-1,-1,1,0,0,0,0,0,-1,0,-1,-1,0,-1;32,1,-1,-1,-1,-1,-1,-1,0,0,0,1,1,-1,0,-1,-1,0,-1;15,3,2,1,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;22,1,3,0,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;32,3,-1,-1,-1,-1,-1,-1,0,0,1,2,3,-1,0,-1,-1,0,-1;26,2,1,-1,3,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;31,-1,2,-1,-1,-1,-1,2,0,0,0,0,0,-1,0,-1,-1,0,-1;32,2,-1,-1,-1,-1,-1,-1,0,0,1,5,3,-1,0,-1,-1,0,-1;32,3,-1,-1,-1,-1,-1,-1,0,0,1,8,8,-1,0,-1,-1,0,-1;18,4,2,-1,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;26,2,4,3,0,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;26,4,1,0,2,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;31,-1,4,-1,-1,-1,-1,3,0,0,0,0,0,-1,0,-1,-1,0,-1;33,-1,4,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;entries;0,-1,-1,-1,0,0,-1,-1,0;0,-1,-1,-1,1,0,-1,-1,0;0,-1,-1,-1,2,0,-1,-1,0;1,-1,-1,-1,-1,0,-1,-1,0;4,0,1,-1,-1,0,-1,-1,0;0,-1,-1,-1,2,0,-1,-1,0;1,-1,-1,-1,-1,0,-1,-1,0;4,0,1,-1,-1,0,-1,-1,0;0,-1,-1,-1,2,0,-1,-1,0;1,-1,-1,-1,-1,0,-1,-1,0;4,0,1,-1,-1,0,-1,-1,0;2,-1,-1,-1,-1,0,-1,2,0;11,2,3,-1,-1,0,-1,-1,0;0,-1,-1,-1,3,0,-1,-1,0;3,-1,-1,-1,-1,0,-1,-1,0;12,4,5,6,-1,0,-1,-1,0",
       "election", &round_election},
      {"kfield-round-1;slots 3;sensors 1;exports 1;edges 0;states 0;output 1;ops;0,0,-1,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;30,1,-1,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;32,2,-1,-1,-1,-1,-1,-1,0,1,0,0,1,-1,0,-1,-1,0,-1;16,1,0,2,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;31,-1,1,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;33,-1,1,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;entries;0,-1,-1,-1,0,0,-1,1,0",
       "gossip-max", &round_gossip_max},
      {"kfield-round-1;slots 3;sensors 1;exports 1;edges 0;states 0;output 1;ops;0,0,-1,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;30,1,0,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;32,0,-1,-1,-1,-1,-1,-1,0,4,0,0,1,-1,0,-1,-1,0,-1;32,2,-1,-1,-1,-1,-1,-1,0,2,1,1,3,-1,0,-1,-1,0,-1;13,1,2,-1,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;11,2,0,1,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;31,-1,2,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;33,-1,2,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;entries;0,-1,-1,-1,0,0,-1,1,0;0,-1,-1,-1,0,0,-1,1,0;2,-1,-1,-1,-1,0,-1,0,0;5,0,1,-1,-1,0,-1,-1,0",
       "consensus", &round_consensus},
      {"kfield-round-1;slots 3;sensors 1;exports 1;edges 0;states 0;output 1;ops;0,0,-1,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;2,1,-1,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;32,2,-1,-1,-1,-1,-1,-1,0,0,1,0,5,-1,0,-1,-1,0,-1;26,1,0,-1,2,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;31,-1,1,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;33,-1,1,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;entries;0,-1,-1,-1,0,0,-1,-1,0;1,-1,-1,-1,-1,0,-1,-1,0;2,-1,-1,-1,-1,0,-1,1,0;6,1,2,-1,-1,0,-1,-1,0;4,0,3,-1,-1,0,-1,-1,0",
       "scaled-distance", &round_scaled_distance},
      {"kfield-round-1;slots 4;sensors 1;exports 1;edges 0;states 0;output 1;ops;0,0,-1,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;2,1,-1,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;30,2,0,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;32,0,-1,-1,-1,-1,-1,-1,0,4,0,0,1,-1,0,-1,-1,0,-1;32,3,-1,-1,-1,-1,-1,-1,0,2,1,1,3,-1,0,-1,-1,0,-1;13,2,3,1,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;11,3,0,2,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;31,-1,3,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;33,-1,3,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;entries;0,-1,-1,-1,0,0,-1,2,0;0,-1,-1,-1,0,0,-1,2,0;2,-1,-1,-1,-1,0,-1,0,0;5,0,1,-1,-1,0,-1,-1,0",
       "learned-consensus", &round_learned_consensus},
      {"kfield-round-1;slots 6;sensors 2;exports 2;edges 0;states 0;output 2;ops;0,0,-1,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;0,1,-1,-1,-1,-1,-1,1,0,0,0,0,0,-1,0,-1,-1,0,-1;32,2,-1,-1,-1,-1,-1,-1,0,0,1,3,3,0,2,-1,-1,0,-1;44,3,-1,-1,-1,-1,-1,-1,0,0,1,14,1,1,0,-1,-1,0,-1;18,4,2,-1,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;26,5,4,3,1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;26,3,4,2,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;26,4,0,1,5,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;26,5,0,-1,3,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;31,-1,5,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;31,-1,4,-1,-1,-1,-1,1,0,0,0,0,0,-1,0,-1,-1,0,-1;33,-1,5,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;33,-1,4,-1,-1,-1,-1,1,0,0,0,0,0,-1,0,-1,-1,0,-1;entries;0,-1,-1,-1,0,0,-1,-1,0;1,-1,-1,-1,-1,0,-1,-1,0;4,0,1,-1,-1,0,-1,-1,0;0,-1,-1,-1,0,0,-1,-1,0;1,-1,-1,-1,-1,0,-1,-1,0;4,0,1,-1,-1,0,-1,-1,0;0,-1,-1,-1,0,0,-1,-1,0;1,-1,-1,-1,-1,0,-1,-1,0;4,0,1,-1,-1,0,-1,-1,0;2,-1,-1,-1,-1,0,-1,2,0;11,2,3,-1,-1,0,-1,-1,0;0,-1,-1,-1,1,0,-1,-1,0;3,-1,-1,-1,-1,0,-1,-1,0;12,4,5,6,-1,0,-1,-1,0;0,-1,-1,-1,1,0,-1,-1,0",
       "nearest-source", &round_nearest_source},
      {"kfield-round-1;slots 7;sensors 2;exports 3;edges 1;states 0;output 1;ops;0,0,-1,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;32,1,-1,-1,-1,-1,-1,-1,0,0,1,0,3,-1,0,-1,-1,0,-1;26,2,0,-1,1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;31,-1,2,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;0,1,-1,-1,-1,-1,-1,1,0,0,0,0,0,-1,0,-1,-1,0,-1;30,0,2,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;18,3,2,-1,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;32,4,-1,-1,-1,-1,-1,-1,0,2,0,3,17,-1,0,-1,0,0,-1;22,5,4,-1,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;26,6,5,-1,4,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;45,-1,-1,-1,-1,-1,-1,1,0,0,0,20,19,-1,0,0,-1,17,-1;32,6,-1,-1,-1,-1,-1,-1,0,2,1,39,3,-1,0,-1,-1,0,-1;11,3,1,6,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;31,-1,3,-1,-1,-1,-1,2,0,0,0,0,0,-1,0,-1,-1,0,-1;33,-1,3,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;entries;0,-1,-1,-1,0,0,-1,-1,0;1,-1,-1,-1,-1,0,-1,-1,0;4,0,1,-1,-1,0,-1,-1,0;3,-1,-1,-1,-1,0,-1,-1,0;1,-1,-1,-1,-1,0,-1,-1,0;5,0,1,-1,-1,0,-1,-1,0;3,-1,-1,-1,-1,0,-1,-1,0;9,2,3,-1,-1,0,-1,-1,0;0,-1,-1,-1,0,0,-1,0,0;3,-1,-1,-1,-1,0,-1,-1,0;10,5,6,-1,-1,0,-1,-1,0;2,-1,-1,-1,-1,0,-1,3,0;17,7,8,-1,-1,0,-1,-1,0;2,-1,-1,-1,-1,0,-1,2,0;5,10,5,-1,-1,0,-1,-1,0;3,-1,-1,-1,-1,0,-1,-1,0;12,9,11,12,-1,0,-1,-1,0;6,4,13,-1,-1,0,-1,-1,0;3,-1,-1,-1,-1,0,-1,-1,0;9,14,15,-1,-1,0,-1,-1,0;3,-1,-1,-1,-1,0,-1,-1,0;1,-1,-1,-1,-1,0,-1,-1,0;5,0,1,-1,-1,0,-1,-1,0;3,-1,-1,-1,-1,0,-1,-1,0;9,2,3,-1,-1,0,-1,-1,0;0,-1,-1,-1,0,0,-1,0,0;3,-1,-1,-1,-1,0,-1,-1,0;10,5,6,-1,-1,0,-1,-1,0;2,-1,-1,-1,-1,0,-1,3,0;17,7,8,-1,-1,0,-1,-1,0;2,-1,-1,-1,-1,0,-1,2,0;5,10,5,-1,-1,0,-1,-1,0;3,-1,-1,-1,-1,0,-1,-1,0;12,9,11,12,-1,0,-1,-1,0;6,4,13,-1,-1,0,-1,-1,0;3,-1,-1,-1,-1,0,-1,-1,0;9,14,15,-1,-1,0,-1,-1,0;2,-1,-1,-1,-1,0,-1,6,0;7,16,17,-1,-1,0,-1,-1,0;0,-1,-1,-1,2,0,-1,-1,0;30,-1,-1,-1,1,0,0,-1,0;6,0,1,-1,-1,0,-1,-1,0",
       "collect-weighted", &round_collect_weighted},
      {"kfield-round-1;slots 4;sensors 2;exports 2;edges 0;states 0;output 1;ops;0,0,-1,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;32,1,-1,-1,-1,-1,-1,-1,0,0,1,0,1,-1,0,-1,-1,0,-1;11,2,1,-1,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;26,1,0,-1,2,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;31,-1,1,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;0,2,-1,-1,-1,-1,-1,1,0,0,0,0,0,-1,0,-1,-1,0,-1;32,0,-1,-1,-1,-1,-1,-1,0,2,1,1,6,-1,0,-1,-1,0,-1;32,3,-1,-1,-1,-1,-1,-1,0,2,1,7,6,-1,0,-1,-1,0,-1;11,1,2,3,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;16,3,0,-1,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;14,0,1,3,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;31,-1,0,-1,-1,-1,-1,1,0,0,0,0,0,-1,0,-1,-1,0,-1;33,-1,1,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;entries;0,-1,-1,-1,0,0,-1,-1,0;0,-1,-1,-1,0,0,-1,-1,0;2,-1,-1,-1,-1,0,-1,1,0;10,0,1,-1,-1,0,-1,-1,0;3,-1,-1,-1,-1,0,-1,-1,0;3,-1,-1,-1,-1,0,-1,-1,0;12,2,3,4,-1,0,-1,-1,0;0,-1,-1,-1,0,0,-1,-1,0;2,-1,-1,-1,-1,0,-1,1,0;14,0,1,-1,-1,0,-1,-1,0;0,-1,-1,-1,1,0,-1,-1,0;3,-1,-1,-1,-1,0,-1,-1,0;12,2,3,4,-1,0,-1,-1,0",
       "collect-multipath", &round_collect_multipath},
      {"kfield-round-1;slots 5;sensors 1;exports 2;edges 0;states 0;output 1;ops;0,0,-1,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;32,1,-1,-1,-1,-1,-1,-1,0,0,1,9,9,0,2,-1,-1,0,-1;44,2,-1,-1,-1,-1,-1,-1,0,0,1,31,3,1,0,-1,-1,0,-1;18,3,1,-1,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;26,4,3,2,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;26,2,3,1,-1,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;26,3,0,-1,4,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;26,4,0,-1,2,-1,-1,-1,0,0,0,0,0,-1,0,-1,-1,0,-1;31,-1,4,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;31,-1,3,-1,-1,-1,-1,1,0,0,0,0,0,-1,0,-1,-1,0,-1;33,-1,4,-1,-1,-1,-1,0,0,0,0,0,0,-1,0,-1,-1,0,-1;entries;0,-1,-1,-1,0,0,-1,-1,0;1,-1,-1,-1,-1,0,-1,-1,0;4,0,1,-1,-1,0,-1,-1,0;0,-1,-1,-1,1,0,-1,-1,0;31,-1,-1,-1,-1,0,-1,-1,0;4,3,4,-1,-1,0,-1,-1,0;3,-1,-1,-1,-1,0,-1,-1,0;6,5,6,-1,-1,0,-1,-1,0;9,2,7,-1,-1,0,-1,-1,0;0,-1,-1,-1,0,0,-1,-1,0;1,-1,-1,-1,-1,0,-1,-1,0;4,0,1,-1,-1,0,-1,-1,0;0,-1,-1,-1,1,0,-1,-1,0;31,-1,-1,-1,-1,0,-1,-1,0;4,3,4,-1,-1,0,-1,-1,0;3,-1,-1,-1,-1,0,-1,-1,0;6,5,6,-1,-1,0,-1,-1,0;9,2,7,-1,-1,0,-1,-1,0;0,-1,-1,-1,0,0,-1,-1,0;1,-1,-1,-1,-1,0,-1,-1,0;4,0,1,-1,-1,0,-1,-1,0;0,-1,-1,-1,1,0,-1,-1,0;31,-1,-1,-1,-1,0,-1,-1,0;4,3,4,-1,-1,0,-1,-1,0;3,-1,-1,-1,-1,0,-1,-1,0;6,5,6,-1,-1,0,-1,-1,0;9,2,7,-1,-1,0,-1,-1,0;2,-1,-1,-1,-1,0,-1,1,0;11,8,9,-1,-1,0,-1,-1,0;3,-1,-1,-1,-1,0,-1,-1,0;12,10,5,11,-1,0,-1,-1,0;0,-1,-1,-1,1,0,-1,-1,0;31,-1,-1,-1,-1,0,-1,-1,0;4,0,1,-1,-1,0,-1,-1,0",
       "bis-gradient", &round_bis_gradient},
  };
}

}  // namespace kfield::impl
