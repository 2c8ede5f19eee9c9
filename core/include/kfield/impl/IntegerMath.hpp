// Integer operators on fields of int, which the engine holds as doubles: exact for operands
// and results in [-2^53, 2^53], where every integer is a double. An operand that is not such
// an integer, a division or remainder by zero, a shift count outside [0, 63], or a result
// outside that range gives NaN: never a rounded value and never undefined behaviour.
// Division truncates toward zero and the remainder takes the dividend's sign (C++); bitwise
// operators act on two's complement; >> is arithmetic (rounds toward -infinity).
#ifndef KFIELD_IMPL_INTEGERMATH_HPP
#define KFIELD_IMPL_INTEGERMATH_HPP

#include "kfield/impl/KokkosCompat.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kfield::impl::integer {

constexpr std::int64_t kLimit = std::int64_t(1) << 53;

KOKKOS_INLINE_FUNCTION bool isExact(double x) {
  return x >= -double(kLimit) && x <= double(kLimit) && x == double(std::int64_t(x));
}
KOKKOS_INLINE_FUNCTION double nan() { return math::infinity() - math::infinity(); }
KOKKOS_INLINE_FUNCTION double result(std::int64_t r) {
  return r >= -kLimit && r <= kLimit ? double(r) : nan();
}

enum class Op : int { Div, Mod, And, Or, Xor, ShiftLeft, ShiftRight };

KOKKOS_INLINE_FUNCTION double apply(Op op, double x, double y) {
  if (!isExact(x) || !isExact(y)) return nan();
  const auto a = std::int64_t(x), b = std::int64_t(y);
  switch (op) {
    case Op::Div: return b == 0 ? nan() : result(a / b);
    case Op::Mod: return b == 0 ? nan() : result(a % b);
    case Op::And: return result(a & b);
    case Op::Or: return result(a | b);
    case Op::Xor: return result(a ^ b);
    case Op::ShiftLeft:  // a times 2^b: exact in binary64, then checked against the range
      if (b < 0 || b > 63) return nan();
      {
        const double r = double(a) * double(std::uint64_t(1) << b);
        return r >= -double(kLimit) && r <= double(kLimit) ? r : nan();
      }
    case Op::ShiftRight:
      if (b < 0 || b > 63) return nan();
      return result(a >= 0 ? a >> b : ~(~a >> b));
  }
  return nan();
}

// ~x: -x - 1.
KOKKOS_INLINE_FUNCTION double bitNot(double x) {
  return isExact(x) ? result(~std::int64_t(x)) : nan();
}

}  // namespace kfield::impl::integer

#endif
