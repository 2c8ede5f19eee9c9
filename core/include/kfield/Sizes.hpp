// Sizes computed without overflow, before anything is allocated: products and sums that
// saturate at 2^64 - 1 instead of wrapping, sizes as text, and the refusal of a size that does
// not fit where it would live. The library checks every size it allocates so; so do callers
// that size their own buffers (the command line does).
#ifndef KFIELD_SIZES_HPP
#define KFIELD_SIZES_HPP

#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <limits>
#include <stdexcept>
#include <string>

namespace kfield::sizes {

constexpr std::uint64_t kSaturated = std::numeric_limits<std::uint64_t>::max();

// The product of factors, or kSaturated when it does not fit in 64 bits.
inline std::uint64_t product(std::initializer_list<std::uint64_t> factors) {
  std::uint64_t p = 1;
  for (std::uint64_t f : factors) {
    if (f != 0 && p > kSaturated / f) return kSaturated;
    p *= f;
  }
  return p;
}

// The sum of terms, or kSaturated when it does not fit in 64 bits.
inline std::uint64_t total(std::initializer_list<std::uint64_t> terms) {
  std::uint64_t s = 0;
  for (std::uint64_t t : terms) {
    if (t > kSaturated - s) return kSaturated;
    s += t;
  }
  return s;
}

// "1.5 GiB", "more than 16 EiB" for a saturated size.
inline std::string bytesText(std::uint64_t bytes) {
  if (bytes == kSaturated) return "more than 16 EiB";
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = double(bytes);
  int unit = 0;
  while (value >= 1024.0 && unit < 6) value /= 1024.0, ++unit;
  char text[32];
  std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.1f %s", value, units[unit]);
  return text;
}

// Refuses, naming both sizes, when `what` needs more than `limit` bytes (`where`: "this
// machine's memory", "the GPU's memory").
inline void requireMemory(const std::string& who, const std::string& what, std::uint64_t bytes,
                          std::uint64_t limit, const std::string& where) {
  if (bytes <= limit) return;
  throw std::invalid_argument(who + ": " + what + " needs " + bytesText(bytes) + ", but " + where +
                              " is " + bytesText(limit));
}

}  // namespace kfield::sizes

#endif
