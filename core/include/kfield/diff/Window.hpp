// Rounds in windows: the recording forward checkpoints the carry at every window start, and
// the reverse goes last window first, recomputing each window into a tape of W rounds and
// stepping back round by round. Samples stop at different rounds: ordered longest first, the
// samples still running at a round are a prefix, and finished samples cost nothing.
#ifndef KFIELD_DIFF_WINDOW_HPP
#define KFIELD_DIFF_WINDOW_HPP

#include "kfield/impl/Errors.hpp"
#include "kfield/sum/Chunking.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

namespace kfield::diff {

using idx_t = std::int64_t;

// Windows of `window` rounds over a run of up to `steps` rounds, aligned to multiples of
// `window` from round 0.
struct WindowPlan {
  idx_t steps = 0;
  idx_t window = 1;

  idx_t count() const {
    return steps == 0 ? 0 : (steps - 1) / window + 1;
  }  // no overflow at any window
  idx_t start(idx_t k) const { return k * window; }
  idx_t length(idx_t k) const { return std::min(window, steps - start(k)); }
  idx_t windowOf(idx_t j) const { return j / window; }
  idx_t row(idx_t j) const { return j % window; }  // the tape row round j is kept in
};

// A checked WindowPlan: steps >= 0 and window >= 1.
inline WindowPlan planWindows(idx_t steps, idx_t window) {
  if (steps < 0)
    kfield::impl::invalidArgument("kfield::diff::planWindows",
                                  "steps must be >= 0, got " + std::to_string(steps));
  if (window < 1)
    kfield::impl::invalidArgument("kfield::diff::planWindows",
                                  "window must be >= 1, got " + std::to_string(window));
  return WindowPlan{steps, window};
}

// The recording forward: launches of at most maxK rounds that never cross a window boundary,
// checkpoint(k) before every launch that starts window k, until done() or maxSteps rounds.
// launch(j, k) runs rounds j .. j+k-1. Returns the rounds run.
template <class Done, class Checkpoint, class Launch>
idx_t recordForward(idx_t maxSteps, idx_t window, idx_t maxK, Done&& done, Checkpoint&& checkpoint,
                    Launch&& launch) {
  const WindowPlan plan = planWindows(maxSteps, window);
  if (maxK < 1)
    kfield::impl::invalidArgument("kfield::diff::recordForward",
                                  "maxK must be >= 1, got " + std::to_string(maxK));
  idx_t j = 0;
  while (j < maxSteps && !done()) {
    if (plan.row(j) == 0) checkpoint(plan.windowOf(j));
    const idx_t k = std::min({maxK, window - plan.row(j), maxSteps - j});
    launch(j, k);
    j += k;
  }
  return j;
}

// The reverse, window by window, last first. live[j] (liveCounts) is how many samples take
// round j; its size is the longest stop. gather(k, count) loads window k's start for the
// first count samples; recompute(c, len) runs rounds c .. c+len-1 into the tape (rows from
// 0), each over its own live prefix; stepBack(j, count) is the adjoint through round j.
template <class Gather, class Recompute, class StepBack>
void reverseWindows(idx_t window, const std::vector<idx_t>& live, Gather&& gather,
                    Recompute&& recompute, StepBack&& stepBack) {
  const WindowPlan plan = planWindows(static_cast<idx_t>(live.size()), window);
  for (idx_t k = plan.count() - 1; k >= 0; --k) {
    const idx_t c = plan.start(k), len = plan.length(k);
    gather(k, live[static_cast<std::size_t>(c)]);
    recompute(c, len);
    for (idx_t j = c + len - 1; j >= c; --j) stepBack(j, live[static_cast<std::size_t>(j)]);
  }
}

// The reverse's sample order: sorted by stop round, longest first, ties in sample order.
// order[s] is the sample at reverse slot s.
inline std::vector<idx_t> stopOrder(const idx_t* steps, idx_t n) {
  std::vector<idx_t> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), idx_t(0));
  std::stable_sort(order.begin(), order.end(),
                   [&](idx_t a, idx_t b) { return steps[a] > steps[b]; });
  return order;
}

// live[j] = how many samples take round j (stop > j), for j below the longest stop; steps in
// any order.
inline std::vector<idx_t> liveCounts(const idx_t* steps, idx_t n) {
  idx_t longest = 0;
  for (idx_t s = 0; s < n; ++s) longest = std::max(longest, steps[s]);
  std::vector<idx_t> live(static_cast<std::size_t>(longest), 0);
  for (idx_t s = 0; s < n; ++s) {
    for (idx_t j = 0; j < steps[s]; ++j) ++live[static_cast<std::size_t>(j)];
  }
  return live;
}

// dst[r*dstLd + s] = src[r*srcLd + perm[s]] for r < rows, s < count: columns of a
// sample-last plane gathered into another sample order (and width). Elements of `bytes`
// bytes (1, 2, 4 or 8); host memory.
inline void gatherColumns(void* dst, idx_t dstLd, const void* src, idx_t srcLd, const idx_t* perm,
                          idx_t count, idx_t rows, std::size_t bytes) {
  auto* d = static_cast<unsigned char*>(dst);
  const auto* s = static_cast<const unsigned char*>(src);
  for (idx_t r = 0; r < rows; ++r) {
    for (idx_t c = 0; c < count; ++c) {
      std::memcpy(d + (r * dstLd + c) * static_cast<idx_t>(bytes),
                  s + (r * srcLd + perm[c]) * static_cast<idx_t>(bytes), bytes);
    }
  }
}

// acc[s] += g[s] for s < count: one round's share of a gradient summed over rounds.
template <class T>
void accumulatePrefix(T* acc, const T* g, idx_t count) {
  for (idx_t s = 0; s < count; ++s) acc[s] += g[s];
}

// plane[s] = value for s < count.
template <class T>
void fillPrefix(T* plane, T value, idx_t count) {
  for (idx_t s = 0; s < count; ++s) plane[s] = value;
}

}  // namespace kfield::diff

#endif
