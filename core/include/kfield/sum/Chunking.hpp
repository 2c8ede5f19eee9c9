// How many samples one pass may take under a memory budget, so that every pass is a whole
// subtree of the canonical sum; and the window sizes that follow from square roots.
#ifndef KFIELD_SUM_CHUNKING_HPP
#define KFIELD_SUM_CHUNKING_HPP

#include <cstdint>

namespace kfield {

// The leaf of the numerical contract: the smallest block of consecutive samples that a pass,
// a thread or an owner handles whole when the batch is chunked. A power of two. Leaves are
// subtrees of the canonical tree, so the leaf size never changes a sum's bits; it bounds how
// finely a batch is cut (see docs/numerical-contract.md).
constexpr std::int64_t kDefaultLeaf = 256;

// Samples per pass: n when all n fit in budgetBytes at perSampleBytes each; otherwise the
// largest leaf * 2^q that fits (one sample * 2^q when n < leaf), so each pass is a whole
// subtree; 0 when not even one leaf (or, when n < leaf, one sample) fits.
// Throws std::invalid_argument for budgetBytes < 0, perSampleBytes <= 0, n < 0, or a leaf that
// is not a power of two.
std::int64_t chunkSamples(std::int64_t budgetBytes, std::int64_t perSampleBytes, std::int64_t n,
                          std::int64_t leaf = kDefaultLeaf);

// The smallest r >= 0 with r * r >= s, exact for every s >= 0 (throws for s < 0).
std::int64_t ceilSqrt(std::int64_t s);

// The default recompute window for runs of up to S rounds: clamp(ceilSqrt(S), 16, 1024).
std::int64_t defaultWindow(std::int64_t S);
// With tape rows of rowCarries carries each (>= 1): clamp(ceilSqrt(ceil(S / rowCarries)), 16,
// 1024), which balances S / W checkpoints against W rows (2 sqrt(rowCarries S) carries).
std::int64_t defaultWindow(std::int64_t S, double rowCarries);

// True for 1, 2, 4, ...
constexpr bool isPowerOfTwo(std::int64_t x) { return x > 0 && (x & (x - 1)) == 0; }

}  // namespace kfield

#endif
