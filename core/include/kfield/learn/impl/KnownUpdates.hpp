// The shipped update rules (rules::sgd, momentum, adam) recognised in a program and run as
// one hand-written kernel each: the same operations in the same order as the program, so the
// same bits, without the interpreter's per-operator passes (Adam at k = 10^7 runs about 2.5x
// faster). Any other program, or a partitioned one, is interpreted.
#ifndef KFIELD_LEARN_IMPL_KNOWNUPDATES_HPP
#define KFIELD_LEARN_IMPL_KNOWNUPDATES_HPP

#include "kfield/impl/KokkosCompat.hpp"
#include "kfield/learn/Pointwise.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kfield::impl {

struct KnownUpdate {
  enum Kind { kNone, kSgd, kMomentum, kAdam } kind = kNone;
  double beta1 = 0, beta2 = 0, epsilon = 0;  // momentum's beta is beta1
};

// The shipped rule whose program (for k parameters and m state words) `update` is, word for
// word; kind kNone otherwise.
KnownUpdate recogniseUpdate(const PointwiseProgram& update, std::int64_t k, std::int64_t m);

const char* describe(KnownUpdate::Kind kind);

// Runs a recognised rule on k parameters, its state, the mean and the rate (device arrays).
template <class ExecSpace>
void runKnownUpdate(const ExecSpace& space, const KnownUpdate& rule, std::int64_t k, double* p,
                    double* state, const double* mean, const double* rate) {
  using Policy = Kokkos::RangePolicy<ExecSpace>;
  using Memory = typename ExecSpace::memory_space;
  using Words = Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
  using DeviceWords = Kokkos::View<const double*, Memory, Kokkos::MemoryUnmanaged>;
  const double b1 = rule.beta1, b2 = rule.beta2, eps = rule.epsilon;
  // The rate (and Adam's powers) as kernel constants: read through a pointer that may alias
  // what the kernel writes, they would be reloaded per coordinate and block vectorising.
  double rate0 = 0.0;
  Kokkos::deep_copy(space, Words(&rate0, 1), DeviceWords(rate, 1));
  space.fence();
  if (rule.kind == KnownUpdate::kSgd) {
    Kokkos::parallel_for(
        "kfield::learn::sgd", Policy(space, 0, k),
        KOKKOS_LAMBDA(std::int64_t i) { p[i] = p[i] - rate0 * mean[i]; });
  } else if (rule.kind == KnownUpdate::kMomentum) {
    Kokkos::parallel_for(
        "kfield::learn::momentum", Policy(space, 0, k), KOKKOS_LAMBDA(std::int64_t i) {
          const double v = b1 * state[i] + mean[i];
          state[i] = v;
          p[i] = p[i] - rate0 * v;
        });
  } else if (rule.kind == KnownUpdate::kAdam) {
    // The shared words first (t, beta1^t, beta2^t after the moments' 2k words), as the
    // program's first three assignments; then every coordinate reads them.
    Kokkos::parallel_for(
        "kfield::learn::adam_counters", Policy(space, 0, 1), KOKKOS_LAMBDA(int) {
          state[2 * k] = state[2 * k] + 1.0;
          state[2 * k + 1] = state[2 * k + 1] * b1;
          state[2 * k + 2] = state[2 * k + 2] * b2;
        });
    double powers[2] = {0.0, 0.0};
    Kokkos::deep_copy(space, Words(powers, 2), DeviceWords(state + 2 * k + 1, 2));
    space.fence();
    const double c1 = 1.0 - b1, c2 = 1.0 - b2;  // as the program's constants were made
    const double d1 = 1.0 - powers[0], d2 = 1.0 - powers[1];  // as the program computes them
    Kokkos::parallel_for(
        "kfield::learn::adam", Policy(space, 0, k), KOKKOS_LAMBDA(std::int64_t i) {
          const double g = mean[i];
          const double m1 = b1 * state[i] + c1 * g;
          const double m2 = b2 * state[k + i] + c2 * g * g;
          state[i] = m1;
          state[k + i] = m2;
          p[i] = p[i] - rate0 * (m1 / d1) / (math::sqrt(m2 / d2) + eps);
        });
  }
}

}  // namespace kfield::impl

#endif
