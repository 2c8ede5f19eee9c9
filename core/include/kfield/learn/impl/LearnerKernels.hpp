// The learner's kernels: contributions summed straight into canonical subtrees (no
// per-sample rows in memory), and replica hashes.
#ifndef KFIELD_LEARN_IMPL_LEARNERKERNELS_HPP
#define KFIELD_LEARN_IMPL_LEARNERKERNELS_HPP

#include "kfield/Random.hpp"
#include "kfield/backends/Tuning.hpp"
#include "kfield/impl/Bits.hpp"
#include "kfield/impl/KokkosCompat.hpp"
#include "kfield/learn/impl/LearnerPlan.hpp"
#include "kfield/sum/impl/TreeSum.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>

namespace kfield::impl {

// Tasks per launch: each needs a stack of kTaskRows x k words. Enough to keep every thread
// busy where that fits in 2^28 words (2 GiB); otherwise as many as 2^25 words hold; a
// multiple of the thread count when more than one wave runs, so waves stay balanced.
inline std::int64_t taskWave(std::int64_t count, std::int64_t k, std::int64_t concurrency) {
  const std::int64_t perTask = kTaskRows * std::max<std::int64_t>(k, 1);
  std::int64_t wave = std::max<std::int64_t>(1, (std::int64_t(1) << 25) / perTask);
  const std::int64_t threads = std::max<std::int64_t>(1, concurrency);
  if (wave < threads) {
    wave = std::max(wave, std::min(threads, (std::int64_t(1) << 28) / perTask));
  }
  if (wave > threads && wave < count) wave -= wave % threads;
  return std::min(wave, count);
}

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
  const auto rows = static_cast<std::int64_t>(samples.extent(0));
  if (count == 0) return;
  const std::int64_t wave = taskWave(count, k, static_cast<std::int64_t>(space.concurrency()));
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
            const std::int64_t row = task.local + (j - task.begin);
            // The next sample streams in while this one's row is summed (in cache).
            if (row + 1 < rows) prefetch(samples.data() + (row + 1) * s, s);
            double* out = stack.next();
            for (std::int64_t c = 0; c < k; ++c) out[c] = 0.0;
            contribution(w, samples.data() + row * s, out);
            stack.push();
          }
          const double* root = stack.fold();
          for (std::int64_t c = 0; c < k; ++c) sums(p, c) = root[c];
        });
  }
}

// The task sums merged in the plan's order (LearnerPlan::merges), each coordinate by its own
// thread; then, when `root` >= 0, mean := sums(root, :) / mass.
template <class ExecSpace, class MergeView, class SumView, class MeanView>
void mergeTaskSums(const ExecSpace& space, const MergeView& merges, const SumView& sums,
                   std::int64_t root, double mass, const MeanView& mean) {
  constexpr std::int64_t width = CanonicalTuning<ExecSpace>::kVectorWidth;
  const auto k = static_cast<std::int64_t>(sums.extent(1));
  const auto count = static_cast<std::int64_t>(merges.extent(0));
  Kokkos::parallel_for(
      "kfield::learn::merge_task_sums",
      Kokkos::RangePolicy<ExecSpace>(space, 0, (k + width - 1) / width),
      KOKKOS_LAMBDA(std::int64_t b) {
        const std::int64_t c0 = b * width, c1 = c0 + width < k ? c0 + width : k;
        for (std::int64_t j = 0; j < count; ++j) {
          double* left = &sums(merges(j).left, 0);
          const double* right = &sums(merges(j).right, 0);
          for (std::int64_t c = c0; c < c1; ++c) left[c] = left[c] + right[c];
        }
        if (root >= 0) {
          for (std::int64_t c = c0; c < c1; ++c) mean(c) = sums(root, c) / mass;
        }
      });
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
