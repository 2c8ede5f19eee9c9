// Partial canonical sums of contiguous sample ranges, and their exact combination: how
// chunks, threads and owners of unequal shares each reduce their own range and still give
// the bits of one pass over the whole sequence.
//
// A range [begin, end) of a sequence of n samples is covered by O(log n) nodes of the
// canonical tree (Canonical.hpp): the maximal nodes whose present samples lie inside the
// range, left to right. Their values are the range's partials. Merging the partials of two
// adjacent ranges adds sibling nodes (left + right) and lifts a node whose sibling lies past
// n; once the ranges cover [0, n) one node is left, the root, with the canonical sum's bits.
#ifndef KFIELD_SUM_PARTIALS_HPP
#define KFIELD_SUM_PARTIALS_HPP

#include "kfield/sum/Canonical.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <vector>

namespace kfield {

// The node of the canonical tree covering samples [index << level, (index + 1) << level).
struct TreeNode {
  int level = 0;
  std::int64_t index = 0;

  std::int64_t begin() const { return index << level; }
  // The end of the node's present samples in a sequence of n.
  std::int64_t end(std::int64_t n) const;
  friend bool operator==(const TreeNode& a, const TreeNode& b) {
    return a.level == b.level && a.index == b.index;
  }
};

// The maximal nodes covering [begin, end) of n samples, left to right.
// Throws std::invalid_argument unless 0 <= begin <= end <= n.
std::vector<TreeNode> canonicalCover(std::int64_t begin, std::int64_t end, std::int64_t n);

// The partials of a range: one value per cover node and coordinate (width coordinates),
// node-major: values[node * width + c].
template <class T>
struct Partials {
  std::int64_t n = 0;  // samples in the whole sequence
  std::int64_t begin = 0;
  std::int64_t end = 0;
  std::int64_t width = 1;
  std::vector<TreeNode> nodes;
  std::vector<T> values;
};

// The partials of the empty range [begin, begin) of a sequence of n samples, width values per
// node: where a range's partials start before appendNode adds its nodes. Throws
// std::invalid_argument unless 0 <= begin <= n and width >= 0.
template <class T>
Partials<T> emptyPartials(std::int64_t begin, std::int64_t n, std::int64_t width = 1);

// Extends p by the node of the canonical tree that starts where p ends, with its width values
// (the node's sums over its present samples): siblings are added, left + right, and a node
// whose right sibling lies past n is lifted, as the tree does. Throws std::invalid_argument
// when the node does not start at p.end or reaches past n.
template <class T>
void appendNode(Partials<T>& p, TreeNode node, const T* values);

// Merges the partials of [a, b) and [b, c) into those of [a, c); throws
// std::invalid_argument when they belong to different sequences or widths or are not adjacent.
template <class T>
Partials<T> mergePartials(const Partials<T>& left, const Partials<T>& right);

// The canonical sums (width of them) of partials that cover the whole sequence [0, n);
// throws std::invalid_argument when they do not.
template <class T>
std::vector<T> finishPartials(const Partials<T>& all);

// Partials of x, which holds samples [begin, begin + x.extent(0)) of a sequence of n.
template <class ExecSpace, class XView>
Partials<typename XView::non_const_value_type> canonicalPartials(const ExecSpace& space,
                                                                 const XView& x, std::int64_t begin,
                                                                 std::int64_t n);

// Partials of per-sample vectors: rows of `vectors` are samples [begin, begin + extent(0)) of
// a sequence of n, each extent(1) wide.
template <class ExecSpace, class VectorsView>
Partials<typename VectorsView::non_const_value_type> canonicalPartialsOfVectors(
    const ExecSpace& space, const VectorsView& vectors, std::int64_t begin, std::int64_t n);

}  // namespace kfield

#include "kfield/sum/impl/Partials.hpp"

#endif
