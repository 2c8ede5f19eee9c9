// A learner's host-side plan: which owners and samples this process holds, the canonical-tree
// nodes its threads sum, and (when the optimizer state is partitioned) which coordinates each
// replica updates.
#ifndef KFIELD_LEARN_IMPL_LEARNERPLAN_HPP
#define KFIELD_LEARN_IMPL_LEARNERPLAN_HPP

#include "kfield/learn/DataParallelSystem.hpp"
#include "kfield/learn/Identity.hpp"
#include "kfield/learn/OwnerPlacement.hpp"
#include "kfield/sum/Partials.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace kfield::impl {

// A node of the canonical tree that one thread sums: samples [begin, end) of the global
// sequence, held by local replica `replica`; `local` is the first one's row in this process's
// sample array.
struct SumTask {
  std::int64_t begin = 0;
  std::int64_t end = 0;
  std::int64_t local = 0;
  int replica = 0;
};

// One step of merging task sums into this process's partials: row left := left + right.
struct RowMerge {
  std::int64_t left = 0;
  std::int64_t right = 0;
};

// Tasks hold at most 2^kTaskLog2 samples (the unit of parallel work; not part of the bits).
constexpr int kTaskLog2 = 8;
constexpr int kTaskRows = kTaskLog2 + 2;

struct LearnerPlan {
  std::int64_t k = 0, s = 0, m = 0, mass = 0, owners = 0;
  IndexRange localOwners;                // the owners this process holds
  std::vector<std::int64_t> ownerBegin;  // global first sample, per owner + end
  IndexRange localReplicas;              // in the placement's global numbering
  int replicas = 0;                      // local replicas
  std::vector<SumTask> tasks;
  std::vector<TreeNode> nodes;  // one per task
  // The task sums' merges into this process's partials, in the canonical order, and where
  // those partials are left: rows of the task sums, one per node of partialNodes.
  std::vector<RowMerge> merges;
  std::vector<TreeNode> partialNodes;
  std::vector<std::int64_t> partialRows;
  std::int64_t perCoordinateState = -1;  // q >= 0: partitioned
  std::vector<IndexRange> coordinates;   // per global replica, when partitioned
};

// Throws std::invalid_argument naming the problem (more ranks than owners, a negative check
// interval, an update that cannot be partitioned).
LearnerPlan planLearner(const DataParallelSystem& system, const OwnerPlacement& placement,
                        std::int64_t checkEvery, std::int64_t partitionState);

// Throws std::invalid_argument naming the first rank whose system identity is not rank 0's.
void requireSameSystem(const OwnerPlacement& placement, const Digest& identity);
// Throws std::runtime_error naming the first replica whose hash differs from the first one's.
void checkHashes(const std::vector<std::uint64_t>& hashes, const char* replicaNoun,
                 std::int64_t step);

}  // namespace kfield::impl

#endif
