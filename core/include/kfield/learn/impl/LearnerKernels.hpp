// The learner's kernels: contributions summed straight into canonical subtrees (no
// per-sample rows in memory), and replica hashes.
#ifndef KFIELD_LEARN_IMPL_LEARNERKERNELS_HPP
#define KFIELD_LEARN_IMPL_LEARNERKERNELS_HPP

#include "kfield/Random.hpp"
#include "kfield/impl/Bits.hpp"
#include "kfield/learn/impl/LearnerPlan.hpp"
#include "kfield/sum/impl/TreeSum.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>

namespace kfield::impl {

// sums(p, :) := the canonical sum over task p's samples of contribution(params(replica),
// sample). Work in waves so the per-thread stacks stay within a fixed budget.
template <class ExecSpace, class Contribution, class TaskView, class SampleView, class ParamView,
          class SumView>
void taskSums(const ExecSpace& space, const Contribution& contribution, const TaskView& tasks,
              const SampleView& samples, const ParamView& params, const SumView& sums) {
  using Memory = typename ExecSpace::memory_space;
  const auto count = static_cast<std::int64_t>(tasks.extent(0));
  const auto k = static_cast<std::int64_t>(sums.extent(1));
  const auto s = static_cast<std::int64_t>(samples.extent(1));
  if (count == 0) return;
  const std::int64_t budget = std::int64_t(1) << 25;  // workspace words per wave
  const std::int64_t wave =
      std::max<std::int64_t>(1, std::min<std::int64_t>(count, budget / (kTaskRows * k)));
  Kokkos::View<double*, Memory> work(
      Kokkos::ViewAllocateWithoutInitializing("kfield::learn::stacks"),
      static_cast<std::size_t>(wave * kTaskRows * k));
  for (std::int64_t first = 0; first < count; first += wave) {
    const std::int64_t last = std::min(count, first + wave);
    Kokkos::parallel_for(
        "kfield::learn::task_sums", Kokkos::RangePolicy<ExecSpace>(space, first, last),
        KOKKOS_LAMBDA(std::int64_t p) {
          const SumTask task = tasks(p);
          RowTreeStack<double> stack(work.data() + (p - first) * kTaskRows * k, k);
          const double* w = params.data() + task.replica * k;
          for (std::int64_t j = task.begin; j < task.end; ++j) {
            double* out = stack.next();
            for (std::int64_t c = 0; c < k; ++c) out[c] = 0.0;
            contribution(w, samples.data() + (task.local + (j - task.begin)) * s, out);
            stack.push();
          }
          const double* root = stack.fold();
          for (std::int64_t c = 0; c < k; ++c) sums(p, c) = root[c];
        });
  }
}

// A position-keyed hash of a replica's words: integer addition commutes, so any reduction
// order gives the same value.
template <class ExecSpace, class View>
std::uint64_t wordsHash(const ExecSpace& space, const View& values) {
  std::uint64_t hash = 0;
  Kokkos::parallel_reduce(
      "kfield::learn::hash", Kokkos::RangePolicy<ExecSpace>(space, 0, values.extent(0)),
      KOKKOS_LAMBDA(std::int64_t i, std::uint64_t & h) {
        h += mix64(bitsOf(values(i)), static_cast<std::uint64_t>(i));
      },
      hash);
  return hash;
}

}  // namespace kfield::impl

#endif
