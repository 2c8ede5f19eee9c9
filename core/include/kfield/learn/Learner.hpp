// Runs a DataParallelSystem: owners in this process or over MPI ranks, contributions summed
// by the canonical reduction over the global sample sequence, every owner applying the update
// to its own replica, replicas compared by hash every few steps.
//
// A contribution is a device functor `void operator()(const double* parameters,
// const double* sample, double* out) const` writing the sample's k-word contribution into
// `out` (zeroed before the call): PointwiseContribution runs the system's program; a C++
// functor (for instance rules::LeastSquaresGradient) must compute the same operations. The
// gradient of a field program through its rounds will plug in here as a third kind that fills
// the per-sample rows of a whole batch of scenarios at once (DESIGN.md, reversal).
#ifndef KFIELD_LEARN_LEARNER_HPP
#define KFIELD_LEARN_LEARNER_HPP

#include "kfield/learn/DataParallelSystem.hpp"
#include "kfield/learn/OwnerPlacement.hpp"
#include "kfield/learn/impl/LearnerKernels.hpp"
#include "kfield/learn/impl/PointwiseKernel.hpp"
#include "kfield/sum/Partials.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace kfield {

// What fixes the bits of a run besides its inputs; stored with the learner state.
std::string learnerNumericalContract();

// Everything a checkpoint of a learner holds, in one plain structure.
struct LearnerState {
  std::int64_t parameterCount = 0;
  std::vector<Word> parameters;
  std::vector<Word> state;
  std::int64_t step = 0;
  Word rate = 0;
  Digest systemIdentity{};
  Digest learnerIdentity{};
  std::string numericalContract;
};

struct LearnerOptions {
  std::int64_t checkEvery = 16;       // steps between comparisons of the owners' replicas
  std::int64_t partitionState = -1;   // q >= 0: each owner updates only its coordinates
  OwnerPlacement placement;           // in process unless overRanks(...)
};

template <class ExecSpace>
struct PointwiseContribution {
  pointwise::impl::CompiledProgram<typename ExecSpace::memory_space> program;

  static PointwiseContribution of(const DataParallelSystem& system) {
    const std::int64_t k = system.parameters, s = system.sampleWidth;
    const pointwise::impl::SlotLayout layout{{0, k, k + s, 2 * k + s}, {false, false, true}};
    return {pointwise::impl::upload<typename ExecSpace::memory_space>(
        pointwise::impl::compile(system.contribution, layout, "contribution"))};
  }

  KOKKOS_INLINE_FUNCTION void operator()(const double* w, const double* sample,
                                         double* out) const {
    pointwise::impl::Segments seg;
    seg.base[0] = const_cast<double*>(w);  // never written: the layout marks it read-only
    seg.base[1] = const_cast<double*>(sample);
    seg.base[2] = out;
    program.template run<pointwise::impl::PointwiseLanes<ExecSpace>::value>(seg);
  }
};

namespace learn::impl {

// The host-side plan: which owners and samples this rank holds and how they are cut.
struct Plan {
  std::int64_t k = 0, s = 0, m = 0, mass = 0;
  std::int64_t owners = 0, ownerFirst = 0, ownerLast = 0;  // this rank's owners
  std::vector<std::int64_t> ownerBegin;                    // global first sample, per owner + end
  int replicas = 0;                                        // in process: one per owner
  std::vector<Piece> pieces;
  std::vector<TreeNode> nodes;              // one per piece
  std::vector<std::size_t> ownerPieces;     // pieces of local owner j: [ownerPieces[j], [j+1])
  std::vector<std::int64_t> coordinateBegin;  // per replica + end, when partitioned
};

Plan plan(const DataParallelSystem& system, const LearnerOptions& options);
std::vector<unsigned char> serialize(const Partials<double>& p);
Partials<double> deserialize(const std::vector<unsigned char>& bytes);
// Throws std::invalid_argument naming the first rank whose system identity is not rank 0's.
void requireSameSystem(const OwnerPlacement& placement, const Digest& identity);
// Throws std::runtime_error naming the first replica (owner or rank) whose hash differs.
void checkHashes(const std::vector<std::uint64_t>& hashes, bool byRank, std::int64_t step);

}  // namespace learn::impl

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
  // Copies the state of this rank's first replica to the host.
  LearnerState state() const;
  const learn::impl::Plan& plan() const { return plan_; }

 private:
  void step();
  void checkReplicas();
  void gatherPartitioned();

  DataParallelSystem system_;
  Contribution contribution_;
  LearnerOptions options_;
  ExecSpace space_;
  learn::impl::Plan plan_;
  Digest systemId_{}, learnerId_{};
  std::int64_t step_ = 0;
  Kokkos::View<learn::impl::Piece*, Memory> pieces_;
  Kokkos::View<double**, Kokkos::LayoutRight, Memory> samples_, params_, state_, sums_;
  Kokkos::View<double*, Memory> mean_, rate_;
  // One update program per replica (the owned program when partitioned).
  std::vector<pointwise::impl::CompiledHost> updateHost_;
  std::vector<pointwise::impl::CompiledProgram<Memory>> update_;
};

}  // namespace kfield

#include "kfield/learn/impl/Learner.hpp"

#endif
