#include "kfield/sum/Chunking.hpp"

#include "kfield/impl/Errors.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace kfield {

std::int64_t chunkSamples(std::int64_t budgetBytes, std::int64_t perSampleBytes, std::int64_t n,
                          std::int64_t leaf) {
  auto fail = [](const std::string& what) { impl::invalidArgument("kfield::chunkSamples", what); };
  if (budgetBytes < 0) fail("budgetBytes must be >= 0, got " + std::to_string(budgetBytes));
  if (perSampleBytes <= 0)
    fail("perSampleBytes must be > 0, got " + std::to_string(perSampleBytes));
  if (n < 0) fail("n must be >= 0, got " + std::to_string(n));
  if (!isPowerOfTwo(leaf)) fail("leaf must be a power of two, got " + std::to_string(leaf));

  const std::int64_t fit = budgetBytes / perSampleBytes;  // no overflow, unlike n * perSample
  if (n <= fit) return n;
  const std::int64_t unit = n >= leaf ? leaf : 1;
  if (fit < unit) return 0;
  std::int64_t chunk = unit;
  while (chunk <= fit / 2) chunk *= 2;
  return chunk;
}

std::int64_t ceilSqrt(std::int64_t s) {
  if (s < 0) impl::invalidArgument("kfield::ceilSqrt", "s must be >= 0, got " + std::to_string(s));
  // The double estimate is off by at most a few units; fix it in exact unsigned arithmetic
  // (ceilSqrt(2^63 - 1)^2 still fits in 64 unsigned bits).
  auto r = static_cast<std::uint64_t>(std::sqrt(static_cast<double>(s)));
  const auto target = static_cast<std::uint64_t>(s);
  while (r * r < target) ++r;
  while (r > 0 && (r - 1) * (r - 1) >= target) --r;
  return static_cast<std::int64_t>(r);
}

std::int64_t defaultWindow(std::int64_t S) {
  if (S < 0)
    impl::invalidArgument("kfield::defaultWindow", "S must be >= 0, got " + std::to_string(S));
  return std::clamp<std::int64_t>(ceilSqrt(S), 16, 1024);
}

std::int64_t defaultWindow(std::int64_t S, double rowCarries) {
  if (!(rowCarries >= 1.0) || !std::isfinite(rowCarries)) {
    impl::invalidArgument("kfield::defaultWindow",
                          "rowCarries must be finite and >= 1, got " + std::to_string(rowCarries));
  }
  if (rowCarries == 1.0) return defaultWindow(S);
  if (S < 0)
    impl::invalidArgument("kfield::defaultWindow", "S must be >= 0, got " + std::to_string(S));
  return std::clamp<std::int64_t>(
      ceilSqrt(static_cast<std::int64_t>(std::ceil(static_cast<double>(S) / rowCarries))), 16,
      1024);
}

}  // namespace kfield
