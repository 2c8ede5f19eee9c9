// A binary64 value and its 64 bits: what the bits contract compares (two results agree when
// their words do) and what digests hash.
#ifndef KFIELD_BITS_HPP
#define KFIELD_BITS_HPP

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstring>

namespace kfield {

KOKKOS_INLINE_FUNCTION std::uint64_t bitsOf(double value) {
  std::uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

KOKKOS_INLINE_FUNCTION double doubleOf(std::uint64_t bits) {
  double value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

}  // namespace kfield

#endif
