// Runs a DataParallelSystem: owners in this process or over MPI ranks (OwnerPlacement),
// contributions summed by the canonical reduction over the global sample sequence, every
// replica applying the update, replicas compared by hash every few steps.
//
// The contribution is a device functor (Contribution.hpp): the system's pointwise program by
// default, or a C++ functor that computes the same operations; or a row contribution that fills
// the per-sample rows of all local samples at once: the gradient of a field program through
// its rounds (diff::FieldContribution, for a system from diff::fieldSystem).
#ifndef KFIELD_LEARN_LEARNER_HPP
#define KFIELD_LEARN_LEARNER_HPP

#include "kfield/learn/Contribution.hpp"
#include "kfield/learn/DataParallelSystem.hpp"
#include "kfield/learn/Identity.hpp"
#include "kfield/learn/LearnerState.hpp"
#include "kfield/learn/OwnerPlacement.hpp"
#include "kfield/learn/Update.hpp"
#include "kfield/learn/impl/LearnerKernels.hpp"
#include "kfield/learn/impl/LearnerPlan.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <vector>

namespace kfield {

struct LearnerOptions {
  std::int64_t checkEvery = 16;      // steps between comparisons of the replicas
  std::int64_t partitionState = -1;  // q >= 0: each replica updates only its coordinates
  OwnerPlacement placement;          // in process unless overRanks(...)
};

template <class ExecSpace = Kokkos::DefaultExecutionSpace,
          class Contribution = PointwiseContribution<ExecSpace>>
class DataParallelLearner {
 public:
  using Memory = typename ExecSpace::memory_space;

  // Throws std::invalid_argument when the system is not admitted (naming the condition),
  // when the placement has more ranks than owners or ranks hold different systems, or when
  // partitioning is asked of an update that is not separable. Over ranks, every rank
  // constructs the learner (it is collective).
  DataParallelLearner(const DataParallelSystem& system, Contribution contribution,
                      LearnerOptions options = {}, ExecSpace space = {});
  explicit DataParallelLearner(const DataParallelSystem& system, LearnerOptions options = {},
                               ExecSpace space = {})
      : DataParallelLearner(system, Contribution::of(system), options, space) {}

  void run(std::int64_t steps);
  // Copies the state of this process's first replica to the host.
  LearnerState state() const;
  // Continues from a saved state (io::loadCheckpoint): every replica takes its parameters,
  // optimizer state and step, so the steps that follow give the bits an uninterrupted run
  // gives, whatever the owner count, thread count or rank count it was saved under. Throws
  // std::invalid_argument naming the first difference (firstDifference) when `saved` is not of
  // this learner's system.
  void resume(const LearnerState& saved);
  // The contribution this process's owners share (e.g. to read what its last step saw).
  const Contribution& contribution() const { return contribution_; }
  // The mean contribution of the last step (for a gradient, what the update applied), on the
  // host; zeros before the first step.
  std::vector<double> mean() const {
    const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), mean_);
    return std::vector<double>(h.data(), h.data() + h.extent(0));
  }

 private:
  void step();
  void checkReplicas();
  void gatherPartitioned();

  Contribution contribution_;
  LearnerOptions options_;
  ExecSpace space_;
  impl::LearnerPlan plan_;
  LearnerState identity_;  // everything of state() but the parameters, state and step
  std::int64_t step_ = 0;
  Kokkos::View<impl::SumTask*, Memory> tasks_;
  Kokkos::View<impl::RowMerge*, Memory> merges_;
  Kokkos::View<double**, Kokkos::LayoutRight, Memory> samples_, params_, state_, sums_;
  Kokkos::View<double**, Kokkos::LayoutRight, Memory> rows_;  // a row contribution's rows
  Kokkos::View<double*, Memory> mean_, rate_;
  std::vector<PointwiseUpdate<ExecSpace>> update_;  // per local replica
};

}  // namespace kfield

#include "kfield/learn/impl/Learner.hpp"

#endif
