// The reverse of a program graph: given each node's vector-Jacobian product (the planes it
// reads and the planes whose adjoints flow into it), the order of the vjp steps, where each
// step's incoming adjoint comes from, which adjoints are summed and in what order, which
// forward planes must be copied before they are overwritten, and where each graph input's
// gradient comes from.
#ifndef KFIELD_DIFF_TRANSPOSE_HPP
#define KFIELD_DIFF_TRANSPOSE_HPP

#include "kfield/graph/Description.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace kfield::diff {

using gidx = std::int64_t;  // a node, snapshot or join index; negative: one of the below

constexpr gidx kSeed = -1;  // an adjoint that is the caller's seed for the plane
constexpr gidx kZero = -2;  // an adjoint that is zero: nothing flows into the plane
constexpr gidx kLive = -1;  // a read from the forward's own plane, not a snapshot

// What the reverse needs to know of one forward node: the planes its vjp reads (its inputs)
// and the planes whose adjoints flow into it (its outputs). Keys as in the Description.
struct NodeVjp {
  std::vector<std::string> reads;
  std::vector<std::string> writes;
};

// Copy forward plane `plane` just before forward node `node` runs.
struct Snapshot {
  std::string plane;
  gidx node = 0;
};

// Reverse node `target` sums the adjoints of `plane` from `sources` (reverse nodes, or kSeed
// first for the caller's seed), elementwise, in exactly this order (orderedSum).
struct Join {
  gidx target = 0;
  std::string plane;
  std::vector<gidx> sources;
};

// Reverse nodes run in id order: before each vjp step, the joins it consumes.
struct ReversePlan {
  graph::Description reversed;  // kinds "vjp", "broadcast" (a fold's), "sum" (a join)
  std::vector<gidx> forward;    // per reverse node: the forward node it reverses; -1 for a join
  // Per reverse node, per NodeVjp::writes entry: the reverse node whose adjoint it consumes,
  // kSeed or kZero. Empty for a join.
  std::vector<std::vector<gidx>> seedOf;
  // Per reverse node, per NodeVjp::reads entry: the snapshot holding the value the node
  // read, or kLive. Empty for a join.
  std::vector<std::vector<gidx>> readOf;
  std::vector<Snapshot> snapshots;
  std::vector<Join> joins;
  // Per graph input (a plane read before anything writes it), in first-use order: the
  // reverse node its gradient comes from, or kZero.
  std::vector<std::pair<std::string, gidx>> gradients;
};

// The copies the reverse needs: for each plane a node reads, the first node at or after it
// that writes the plane (itself, when in place), each (plane, node) once, in node order.
std::vector<Snapshot> snapshots(const std::vector<NodeVjp>& vjps);

// Reverses `forward`. An adjoint with several sources is a join summing them in reverse-node
// order (the last reader's first), the seed before all. Throws std::invalid_argument, naming
// the node, for a graph that is already a reverse (second order), an opaque node, or vjps
// not matching the nodes one for one.
ReversePlan transpose(const graph::Description& forward, const std::vector<NodeVjp>& vjps,
                      const std::vector<std::string>& seeded);

}  // namespace kfield::diff

#endif
