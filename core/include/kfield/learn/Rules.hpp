// Update rules shipped as pointwise programs (SGD, momentum, Adam), and least squares as a
// contribution both as a pointwise program and as a C++ functor (the same bits).
#ifndef KFIELD_LEARN_RULES_HPP
#define KFIELD_LEARN_RULES_HPP

#include "kfield/learn/DataParallelSystem.hpp"
#include "kfield/sum/InnerSum.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <vector>

namespace kfield::rules {

struct UpdateRule {
  PointwiseProgram update;
  std::vector<Word> initialState;
  std::int64_t perCoordinateState = 0;  // q: the per-coordinate state words (for partitioning)
};

// p_i := p_i - rate * mean_i.  No state.
UpdateRule sgd(std::int64_t k);
// Heavy ball: v_i := beta * v_i + mean_i; p_i := p_i - rate * v_i.  State v (q = 1).
UpdateRule momentum(std::int64_t k, double beta);
// Adam with bias correction. State: first moments [0, k), second moments [k, 2k), then the
// shared step counter t and the running powers beta1^t, beta2^t (products, not pow, so every
// backend rounds them alike). Per step: t := t + 1; b1t := b1t * beta1; b2t := b2t * beta2;
//   m_i := beta1 m_i + (1 - beta1) g_i;  v_i := beta2 v_i + (1 - beta2) g_i g_i;
//   p_i := p_i - rate * (m_i / (1 - b1t)) / (sqrt(v_i / (1 - b2t)) + epsilon).
UpdateRule adam(std::int64_t k, double beta1 = 0.9, double beta2 = 0.999, double epsilon = 1e-8);

// Least squares: a sample is x (k words) then y; the contribution is the gradient of
// (w . x - y)^2, g_i = 2 (w . x - y) x_i with w . x an inner sum (kfield/sum/InnerSum.hpp).
// Slots 3k + 1.
PointwiseProgram leastSquaresContribution(std::int64_t k);

// A least-squares system without samples yet: k parameters starting at 0, samples of x (k
// words) then y, the contribution above, and `rule` with its initial state at `rate`.
DataParallelSystem leastSquaresSystem(std::int64_t k, const UpdateRule& rule, double rate);

// The same contribution as a C++ functor (kernel code; the same operations in the same order).
struct LeastSquaresGradient {
  std::int64_t k = 0;
  KOKKOS_INLINE_FUNCTION void operator()(const double* w, const double* sample, double* out) const {
    const double dot = innerDot(k, w, sample);
    const double scale = 2.0 * (dot - sample[k]);
    for (std::int64_t i = 0; i < k; ++i) out[i] = scale * sample[i];
  }
};

}  // namespace kfield::rules

#endif
