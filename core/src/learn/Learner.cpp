#include "kfield/learn/Learner.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace kfield {

std::string learnerNumericalContract() {
  return "kfield-learner-v1; combine: canonical pairwise tree over the global sample sequence "
         "in owner order, padded right with absent entries; mean: numerator / mass in binary64; "
         "contraction: off (no fused multiply-add); pointwise min/max: left operand unless the "
         "right is strictly smaller/larger";
}

namespace learn::impl {

Plan plan(const DataParallelSystem& system, const LearnerOptions& options) {
  Plan p;
  p.k = system.parameters;
  p.s = system.sampleWidth;
  p.m = system.stateWords();
  p.mass = system.totalMass();
  p.owners = static_cast<std::int64_t>(system.owners.size());
  const int ranks = options.placement.ranks();
  if (ranks > p.owners) {
    throw std::invalid_argument("DataParallelLearner: " + std::to_string(ranks) + " ranks but " +
                                std::to_string(p.owners) +
                                " owners: every rank needs at least one owner");
  }
  if (options.checkEvery < 0) {
    throw std::invalid_argument("DataParallelLearner: checkEvery = " +
                                std::to_string(options.checkEvery) + " is negative");
  }
  p.ownerFirst = shareBegin(p.owners, ranks, options.placement.rank());
  p.ownerLast = p.ownerFirst + shareSize(p.owners, ranks, options.placement.rank());
  p.ownerBegin.push_back(0);
  for (const auto& owned : system.owners) {
    p.ownerBegin.push_back(p.ownerBegin.back() + static_cast<std::int64_t>(owned.size()));
  }
  p.replicas = options.placement.distributed() ? 1 : static_cast<int>(p.owners);

  const std::int64_t block = std::int64_t(1) << kPieceLog2;
  const std::int64_t localFirst = p.ownerBegin[static_cast<std::size_t>(p.ownerFirst)];
  for (std::int64_t o = p.ownerFirst; o < p.ownerLast; ++o) {
    p.ownerPieces.push_back(p.pieces.size());
    const std::int64_t a = p.ownerBegin[static_cast<std::size_t>(o)];
    const std::int64_t b = p.ownerBegin[static_cast<std::size_t>(o) + 1];
    // Cut at block boundaries, then each cut into its canonical nodes: every piece is a
    // subtree of at most one block's samples.
    for (std::int64_t lo = a; lo < b;) {
      const std::int64_t hi = std::min(b, (lo / block + 1) * block);
      for (const TreeNode& node : canonicalCover(lo, hi, p.mass)) {
        const int replica = options.placement.distributed() ? 0 : static_cast<int>(o);
        p.pieces.push_back(Piece{node.begin(), node.end(p.mass), node.begin() - localFirst, replica});
        p.nodes.push_back(node);
      }
      lo = hi;
    }
  }
  p.ownerPieces.push_back(p.pieces.size());

  if (options.partitionState >= 0) {
    const std::string problem = separabilityProblem(system, options.partitionState);
    if (!problem.empty()) {
      throw std::invalid_argument("DataParallelLearner: cannot partition the optimizer state (q = " +
                                  std::to_string(options.partitionState) +
                                  "): the update is not separable: " + problem);
    }
    // Coordinates split among owners like samples; a replica owns its owners' coordinates.
    if (options.placement.distributed()) {
      p.coordinateBegin = {shareBegin(p.k, p.owners, p.ownerFirst),
                           shareBegin(p.k, p.owners, p.ownerLast)};
    } else {
      for (std::int64_t o = 0; o <= p.owners; ++o) {
        p.coordinateBegin.push_back(shareBegin(p.k, p.owners, o));
      }
    }
  }
  return p;
}

pointwise::impl::SlotLayout updateLayout(std::int64_t k, std::int64_t m) {
  return {{0, k, k + m, 2 * k + m, 2 * k + m + 1}, {true, true, false, false}};
}

namespace {

template <class T>
void put(std::vector<unsigned char>& out, const T& v) {
  const auto* b = reinterpret_cast<const unsigned char*>(&v);
  out.insert(out.end(), b, b + sizeof v);
}

template <class T>
T take(const std::vector<unsigned char>& in, std::size_t& at) {
  if (at + sizeof(T) > in.size()) throw std::runtime_error("kfield owners: truncated partials");
  T v;
  std::memcpy(&v, in.data() + at, sizeof v);
  at += sizeof v;
  return v;
}

}  // namespace

std::vector<unsigned char> serialize(const Partials<double>& p) {
  std::vector<unsigned char> out;
  put(out, p.n);
  put(out, p.begin);
  put(out, p.end);
  put(out, static_cast<std::int64_t>(p.width));
  put(out, static_cast<std::int64_t>(p.nodes.size()));
  for (const TreeNode& node : p.nodes) {
    put(out, static_cast<std::int64_t>(node.level));
    put(out, node.index);
  }
  const auto* b = reinterpret_cast<const unsigned char*>(p.values.data());
  out.insert(out.end(), b, b + p.values.size() * sizeof(double));
  return out;
}

Partials<double> deserialize(const std::vector<unsigned char>& in) {
  std::size_t at = 0;
  Partials<double> p;
  p.n = take<std::int64_t>(in, at);
  p.begin = take<std::int64_t>(in, at);
  p.end = take<std::int64_t>(in, at);
  p.width = static_cast<int>(take<std::int64_t>(in, at));
  const auto nodes = take<std::int64_t>(in, at);
  for (std::int64_t j = 0; j < nodes; ++j) {
    TreeNode node;
    node.level = static_cast<int>(take<std::int64_t>(in, at));
    node.index = take<std::int64_t>(in, at);
    p.nodes.push_back(node);
  }
  const std::size_t values = static_cast<std::size_t>(nodes) * static_cast<std::size_t>(p.width);
  if (at + values * sizeof(double) != in.size()) {
    throw std::runtime_error("kfield owners: partials of the wrong size");
  }
  p.values.resize(values);
  std::memcpy(p.values.data(), in.data() + at, values * sizeof(double));
  return p;
}

void requireSameSystem(const OwnerPlacement& placement, const Digest& identity) {
  const auto all = placement.allgather(std::vector<unsigned char>(identity.begin(), identity.end()));
  for (std::size_t r = 1; r < all.size(); ++r) {
    if (all[r] != all[0]) {
      Digest theirs{}, first{};
      std::memcpy(theirs.data(), all[r].data(), std::min(all[r].size(), theirs.size()));
      std::memcpy(first.data(), all[0].data(), std::min(all[0].size(), first.size()));
      throw std::invalid_argument("DataParallelLearner: rank " + std::to_string(r) +
                                  " holds a different system from rank 0 (identity " + hex(theirs) +
                                  ", rank 0's " + hex(first) + ")");
    }
  }
}

void checkHashes(const std::vector<std::uint64_t>& hashes, bool byRank, std::int64_t step) {
  for (std::size_t r = 1; r < hashes.size(); ++r) {
    if (hashes[r] != hashes[0]) {
      char text[160];
      std::snprintf(text, sizeof text,
                    "kfield learner: owners disagree after step %lld: %s %zu's parameters and "
                    "state hash to %016llx, %s 0's to %016llx",
                    static_cast<long long>(step), byRank ? "rank" : "owner", r,
                    static_cast<unsigned long long>(hashes[r]), byRank ? "rank" : "owner",
                    static_cast<unsigned long long>(hashes[0]));
      throw std::runtime_error(text);
    }
  }
}

}  // namespace learn::impl
}  // namespace kfield
