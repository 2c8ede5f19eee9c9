// exp, expm1, log, tanh, sigmoid and pow in plain binary64 arithmetic: the same operations in
// the same order on every backend, so the bits agree between the host's libm and CUDA's
// (whose results differ in the last place). Accurate to a few units in the last place; the
// library's own reduction and polynomials, compiled without contraction like all kernels.
#ifndef KFIELD_IMPL_PORTABLEMATH_HPP
#define KFIELD_IMPL_PORTABLEMATH_HPP

#include "kfield/impl/Bits.hpp"
#include "kfield/impl/KokkosCompat.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kfield::impl::portable {

// ln 2 split so that k * kLn2High is exact for |k| < 2^11 (fdlibm's constants).
constexpr double kLn2High = 6.93147180369123816490e-01;
constexpr double kLn2Low = 1.90821492927058770002e-10;
constexpr double kInvLn2 = 1.44269504088896338700e+00;
constexpr double kSqrt2 = 1.41421356237309514547e+00;

// 2^n for n in [-1022, 1023].
KOKKOS_INLINE_FUNCTION double twoPow(int n) {
  return doubleOf(static_cast<std::uint64_t>(n + 1023) << 52);
}

// e^r - 1 for |r| <= ln2 / 2: Taylor to r^14 (the next term is below 2^-60 of the result).
KOKKOS_INLINE_FUNCTION double expm1Reduced(double r) {
  double p = 1.0 / 87178291200.0;  // 1/14!
  constexpr double c[] = {1.0 / 6227020800.0,
                          1.0 / 479001600.0,
                          1.0 / 39916800.0,
                          1.0 / 3628800.0,
                          1.0 / 362880.0,
                          1.0 / 40320.0,
                          1.0 / 5040.0,
                          1.0 / 720.0,
                          1.0 / 120.0,
                          1.0 / 24.0,
                          1.0 / 6.0,
                          1.0 / 2.0,
                          1.0};
  for (double k : c) p = k + r * p;
  return r * p;
}

KOKKOS_INLINE_FUNCTION double exp(double x) {
  if (x != x) return x;
  if (x > 709.782712893384) return math::infinity();
  if (x < -745.1332191019412) return 0.0;
  const double kd = math::floor(x * kInvLn2 + 0.5);
  const int k = static_cast<int>(kd);
  const double r = (x - kd * kLn2High) - kd * kLn2Low;
  const double e = 1.0 + expm1Reduced(r);
  if (k > 1023) return e * twoPow(1023) * twoPow(k - 1023);
  if (k < -1022) return e * twoPow(k + 1000) * twoPow(-1000);
  return e * twoPow(k);
}

KOKKOS_INLINE_FUNCTION double expm1(double x) {
  if (x != x) return x;
  if (x > -0.34657359027997264 && x < 0.34657359027997264) return expm1Reduced(x);
  return exp(x) - 1.0;
}

KOKKOS_INLINE_FUNCTION double log(double x) {
  if (x != x || x < 0.0) return math::infinity() - math::infinity();  // NaN
  if (x == 0.0) return -math::infinity();
  if (x == math::infinity()) return x;
  int e = 0;
  if (x < twoPow(-1022)) {  // subnormal: scale into the normal range first
    x *= twoPow(54);
    e = -54;
  }
  const std::uint64_t bits = bitsOf(x);
  e += static_cast<int>((bits >> 52) & 0x7ff) - 1023;
  double m = doubleOf((bits & 0x000fffffffffffffull) | 0x3ff0000000000000ull);  // [1, 2)
  if (m > kSqrt2) {
    m *= 0.5;
    ++e;
  }
  // log m = 2 atanh(f), f = (m - 1) / (m + 1), |f| <= 0.1716: the odd series to f^25.
  const double f = (m - 1.0) / (m + 1.0);
  const double s = f * f;
  double p = 1.0 / 25.0;
  for (int k = 23; k >= 3; k -= 2) p = 1.0 / k + s * p;
  const double logm = 2.0 * f + 2.0 * f * (s * p);
  const double ed = static_cast<double>(e);
  return ed * kLn2High + (ed * kLn2Low + logm);
}

KOKKOS_INLINE_FUNCTION double tanh(double x) {
  if (x != x) return x;
  const double a = x < 0.0 ? -x : x;
  double t;
  if (a > 22.0) {
    t = 1.0;
  } else if (a < 3.7252902984e-09) {  // 2^-28: tanh x = x to the last bit
    return x;
  } else {
    const double m = expm1(2.0 * a);
    t = m / (m + 2.0);
  }
  return x < 0.0 ? -t : t;
}

KOKKOS_INLINE_FUNCTION double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

// a^n for an integer n >= 0 by squaring, bits of n from the lowest.
KOKKOS_INLINE_FUNCTION double powInteger(double a, std::int64_t n) {
  double result = 1.0;
  while (n > 0) {
    if (n & 1) result *= a;
    a *= a;
    n >>= 1;
  }
  return result;
}

// Integer exponents up to 1024 by squaring (exact where the products are); otherwise
// exp(b log a) for a > 0, whose relative error grows with |b log a|.
KOKKOS_INLINE_FUNCTION double pow(double a, double b) {
  if (b == 0.0) return 1.0;
  if (a != a || b != b) return a + b;
  const bool integer = math::floor(b) == b;
  if (integer && b >= -1024.0 && b <= 1024.0) {
    const auto n = static_cast<std::int64_t>(b < 0.0 ? -b : b);
    const double p = powInteger(a, n);
    return b < 0.0 ? 1.0 / p : p;
  }
  if (a == 0.0) return b > 0.0 ? 0.0 : math::infinity();
  if (a < 0.0) {
    if (!integer) return math::infinity() - math::infinity();  // NaN
    const double odd = math::floor(b * 0.5) * 2.0 != b ? -1.0 : 1.0;
    return odd * exp(b * log(-a));
  }
  return exp(b * log(a));
}

}  // namespace kfield::impl::portable

#endif
