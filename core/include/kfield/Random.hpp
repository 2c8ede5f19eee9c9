// A counter-based random number generator: the value for (seed, counter) is a pure function,
// so every backend, thread count and build order draws the same numbers. Networks, data sets
// and benchmarks all draw from it.
#ifndef KFIELD_RANDOM_HPP
#define KFIELD_RANDOM_HPP

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kfield {

// SplitMix64's finaliser over seed and counter mixed together: a bijection of 64-bit words.
KOKKOS_INLINE_FUNCTION std::uint64_t mix64(std::uint64_t seed, std::uint64_t counter) {
  std::uint64_t z = seed * 0x9E3779B97F4A7C15ull + counter + 0x632BE59BD9B4E019ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// A double uniform in [0, 1) with 53 random bits.
KOKKOS_INLINE_FUNCTION double uniform01(std::uint64_t seed, std::uint64_t counter) {
  return double(mix64(seed, counter) >> 11) * 0x1.0p-53;
}

}  // namespace kfield

#endif
