#include "kfield/learn/impl/LearnerPlan.hpp"

#include "kfield/impl/Errors.hpp"
#include "kfield/learn/Partition.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>

namespace kfield::impl {

namespace {
constexpr const char* kWho = "kfield::DataParallelLearner";
}

LearnerPlan planLearner(const DataParallelSystem& system, const OwnerPlacement& placement,
                        std::int64_t checkEvery, std::int64_t partitionState) {
  LearnerPlan p;
  p.k = system.parameters;
  p.s = system.sampleWidth;
  p.m = system.stateWords();
  p.mass = system.totalMass();
  p.owners = static_cast<std::int64_t>(system.owners.size());
  if (placement.ranks() > p.owners) {
    invalidArgument(kWho, std::to_string(placement.ranks()) + " ranks but " +
                              std::to_string(p.owners) +
                              " owners: every rank needs at least one owner");
  }
  if (checkEvery < 0) {
    invalidArgument(kWho, "checkEvery = " + std::to_string(checkEvery) + " is negative");
  }
  p.localReplicas = placement.localReplicas(p.owners);
  p.replicas = static_cast<int>(p.localReplicas.end - p.localReplicas.begin);
  p.localOwners = {placement.ownersOf(p.localReplicas.begin, p.owners).begin,
                   placement.ownersOf(p.localReplicas.end - 1, p.owners).end};
  p.ownerBegin.push_back(0);
  for (std::size_t o = 0; o < system.owners.size(); ++o) {
    p.ownerBegin.push_back(p.ownerBegin.back() + system.ownerSize(o));
  }

  const std::int64_t block = std::int64_t(1) << kTaskLog2;
  const std::int64_t localFirst = p.ownerBegin[static_cast<std::size_t>(p.localOwners.begin)];
  for (std::int64_t r = p.localReplicas.begin; r < p.localReplicas.end; ++r) {
    const IndexRange owners = placement.ownersOf(r, p.owners);
    for (std::int64_t o = owners.begin; o < owners.end; ++o) {
      const std::int64_t a = p.ownerBegin[static_cast<std::size_t>(o)];
      const std::int64_t b = p.ownerBegin[static_cast<std::size_t>(o) + 1];
      // Cut at block boundaries, then each cut into its canonical nodes: every task is a
      // subtree of at most one block's samples.
      for (std::int64_t lo = a; lo < b;) {
        const std::int64_t hi = std::min(b, (lo / block + 1) * block);
        for (const TreeNode& node : canonicalCover(lo, hi, p.mass)) {
          p.tasks.push_back(SumTask{node.begin(), node.end(p.mass), node.begin() - localFirst,
                                    static_cast<int>(r - p.localReplicas.begin)});
          p.nodes.push_back(node);
        }
        lo = hi;
      }
    }
  }

  // The tasks' nodes in order, merged as appendNode would merge their values.
  for (std::size_t q = 0; q < p.tasks.size(); ++q) {
    p.partialRows.push_back(static_cast<std::int64_t>(q));
    pushNode(p.partialNodes, p.mass, p.nodes[q], [&](std::size_t j) {
      p.merges.push_back({p.partialRows[j], p.partialRows[j + 1]});
      p.partialRows.pop_back();
    });
  }

  if (partitionState >= 0) {
    const std::string problem = separabilityProblem(system, partitionState);
    if (!problem.empty()) {
      invalidArgument(
          kWho, "cannot partition the optimizer state (q = " + std::to_string(partitionState) +
                    "): the update is not separable: " + problem);
    }
    p.perCoordinateState = partitionState;
    // Coordinates split among owners like samples; a replica owns its owners' coordinates.
    for (std::int64_t r = 0; r < placement.replicas(p.owners); ++r) {
      const IndexRange owners = placement.ownersOf(r, p.owners);
      p.coordinates.push_back(
          {shareBegin(p.k, p.owners, owners.begin), shareBegin(p.k, p.owners, owners.end)});
    }
  }
  return p;
}

void requireSameSystem(const OwnerPlacement& placement, const Digest& identity) {
  const auto all =
      placement.allgather(std::vector<unsigned char>(identity.begin(), identity.end()));
  for (std::size_t r = 1; r < all.size(); ++r) {
    if (all[r] != all[0]) {
      Digest theirs{}, first{};
      std::memcpy(theirs.data(), all[r].data(), std::min(all[r].size(), theirs.size()));
      std::memcpy(first.data(), all[0].data(), std::min(all[0].size(), first.size()));
      invalidArgument(kWho, "rank " + std::to_string(r) +
                                " holds a different system from rank 0 (identity " +
                                describe(theirs) + ", rank 0's " + describe(first) + ")");
    }
  }
}

void checkHashes(const std::vector<std::uint64_t>& hashes, const char* replicaNoun,
                 std::int64_t step) {
  for (std::size_t r = 1; r < hashes.size(); ++r) {
    if (hashes[r] != hashes[0]) {
      char text[160];
      std::snprintf(text, sizeof text,
                    "owners disagree after step %" PRId64
                    ": %s %zu's parameters and state hash "
                    "to %016" PRIx64 ", %s 0's to %016" PRIx64,
                    step, replicaNoun, r, hashes[r], replicaNoun, hashes[0]);
      runtimeError(kWho, text);
    }
  }
}

}  // namespace kfield::impl
