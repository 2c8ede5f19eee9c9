// Sums inside one thread (a sample's dot product, a pointwise program's `sum`) in a fixed
// order that compilers vectorise, the same bits on every backend:
//
//   term i goes to lane i mod 16; each lane adds its terms left to right, starting from -0.0
//   (which leaves any first term's bits as they are); then the lanes combine by halving:
//   for h = 8, 4, 2, 1: lane[l] := lane[l] + lane[l + h] for l < h; the sum is lane[0].
//
// A left-to-right chain of n additions waits on each one (about 4 cycles an add on x86); 16
// independent lanes keep the adder busy and fill SIMD registers of any width up to 16. The
// order is part of the learner's numerical contract (learnerNumericalContract()).
#ifndef KFIELD_SUM_INNERSUM_HPP
#define KFIELD_SUM_INNERSUM_HPP

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kfield {

constexpr int kInnerSumLanes = 16;

// The lanes of an inner sum in progress; terms may arrive in pieces.
struct InnerSumLanes {
  double lane[kInnerSumLanes];

  KOKKOS_INLINE_FUNCTION InnerSumLanes() {
    for (int l = 0; l < kInnerSumLanes; ++l) lane[l] = -0.0;
  }

  // Adds term i of the sum.
  KOKKOS_INLINE_FUNCTION void add(std::int64_t i, double term) {
    double& to = lane[i & (kInnerSumLanes - 1)];
    to = to + term;
  }

  // Adds terms first, ..., first + len - 1 of the sum, term first + j being x[j] (a pointer
  // or anything indexable).
  template <class X>
  KOKKOS_INLINE_FUNCTION void add(std::int64_t first, const X& x, std::int64_t len) {
    std::int64_t j = 0;
    if ((first & (kInnerSumLanes - 1)) == 0) {  // whole rows of lanes: the vectorised loop
      double t[kInnerSumLanes];  // a local copy stays in registers (x might alias lane)
      for (int l = 0; l < kInnerSumLanes; ++l) t[l] = lane[l];
      for (; j + kInnerSumLanes <= len; j += kInnerSumLanes) {
        for (int l = 0; l < kInnerSumLanes; ++l) t[l] = t[l] + x[j + l];
      }
      for (int l = 0; l < kInnerSumLanes; ++l) lane[l] = t[l];
    }
    for (; j < len; ++j) add(first + j, x[j]);
  }

  KOKKOS_INLINE_FUNCTION double total() const {
    double t[kInnerSumLanes];
    for (int l = 0; l < kInnerSumLanes; ++l) t[l] = lane[l];
    for (int h = kInnerSumLanes / 2; h > 0; h /= 2) {
      for (int l = 0; l < h; ++l) t[l] = t[l] + t[l + h];
    }
    return t[0];
  }
};

// The inner sum of term(0), ..., term(n - 1); -0.0 when n = 0.
template <class Term>
KOKKOS_INLINE_FUNCTION double innerSum(std::int64_t n, const Term& term) {
  InnerSumLanes s;
  std::int64_t i = 0;
  for (; i + kInnerSumLanes <= n; i += kInnerSumLanes) {
    for (int l = 0; l < kInnerSumLanes; ++l) s.lane[l] = s.lane[l] + term(i + l);
  }
  for (; i < n; ++i) s.add(i, term(i));
  return s.total();
}

namespace impl {
struct ProductTerm {
  const double* a;
  const double* b;
  KOKKOS_INLINE_FUNCTION double operator()(std::int64_t i) const { return a[i] * b[i]; }
};
}  // namespace impl

// The inner sum of a[i] * b[i] (each product rounded, then summed in the order above).
KOKKOS_INLINE_FUNCTION double innerDot(std::int64_t n, const double* a, const double* b) {
  return innerSum(n, impl::ProductTerm{a, b});
}

}  // namespace kfield

#endif
