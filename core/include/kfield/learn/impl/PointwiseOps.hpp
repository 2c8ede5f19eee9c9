// The operators of pointwise programs, shared by the host reference and the device evaluator
// so both round alike. +, -, *, / and sqrt are correctly rounded (IEEE 754) on every backend;
// exp and log come from the backend's math library (the same bits on Serial and OpenMP, which
// share it; CUDA's may differ in the last place). min and max return the left operand unless
// the right one is strictly smaller (larger): ties of -0 and +0 and NaNs resolve the same way
// everywhere, which fmin and fmax do not promise.
#ifndef KFIELD_LEARN_IMPL_POINTWISEOPS_HPP
#define KFIELD_LEARN_IMPL_POINTWISEOPS_HPP

#include "kfield/impl/KokkosCompat.hpp"

#include <Kokkos_Core.hpp>

namespace kfield::impl {

KOKKOS_INLINE_FUNCTION double applyUnary(int op, double a) {
  switch (op) {
    case 0: return -a;
    case 1: return math::fabs(a);
    case 2: return math::sqrt(a);
    case 3: return math::exp(a);
    case 4: return math::log(a);
    case 5: return math::floor(a);
    default: return math::ceil(a);
  }
}

KOKKOS_INLINE_FUNCTION double applyBinary(int op, double a, double b) {
  switch (op) {
    case 0: return a + b;
    case 1: return a - b;
    case 2: return a * b;
    case 3: return a / b;
    case 4: return math::min(a, b);
    default: return math::max(a, b);
  }
}

// Lane loops with the operator switch hoisted out, so the common operators vectorise. An
// operand is a pointer to lanes or a Broadcast of one value.
struct Broadcast {
  double value;
  KOKKOS_INLINE_FUNCTION double operator[](int) const { return value; }
};

KOKKOS_INLINE_FUNCTION void unaryLanes(int op, double* out, const double* x, int len) {
  switch (op) {
    case 0:
      for (int j = 0; j < len; ++j) out[j] = -x[j];
      break;
    case 1:
      for (int j = 0; j < len; ++j) out[j] = math::fabs(x[j]);
      break;
    case 2:  // vectorises where math functions need not set errno (KfieldNumerics.cmake)
      for (int j = 0; j < len; ++j) out[j] = math::sqrt(x[j]);
      break;
    default:
      for (int j = 0; j < len; ++j) out[j] = applyUnary(op, x[j]);
  }
}

template <class A, class B>
KOKKOS_INLINE_FUNCTION void binaryLanes(int op, double* out, A a, B b, int len) {
  switch (op) {
    case 0:
      for (int j = 0; j < len; ++j) out[j] = a[j] + b[j];
      break;
    case 1:
      for (int j = 0; j < len; ++j) out[j] = a[j] - b[j];
      break;
    case 2:
      for (int j = 0; j < len; ++j) out[j] = a[j] * b[j];
      break;
    case 3:
      for (int j = 0; j < len; ++j) out[j] = a[j] / b[j];
      break;
    default:
      for (int j = 0; j < len; ++j) out[j] = applyBinary(op, a[j], b[j]);
  }
}

// acc := acc op x[j] for j in [first, len), left to right.
template <class X>
KOKKOS_INLINE_FUNCTION double foldLanes(int op, double acc, X x, int first, int len) {
  switch (op) {
    case 0:
      for (int j = first; j < len; ++j) acc = acc + x[j];
      break;
    case 2:
      for (int j = first; j < len; ++j) acc = acc * x[j];
      break;
    default:
      for (int j = first; j < len; ++j) acc = applyBinary(op, acc, x[j]);
  }
  return acc;
}

}  // namespace kfield::impl

#endif
