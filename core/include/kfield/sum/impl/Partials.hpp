// Definitions of the templates declared in kfield/sum/Partials.hpp.
#ifndef KFIELD_SUM_IMPL_PARTIALS_HPP
#define KFIELD_SUM_IMPL_PARTIALS_HPP

#include "kfield/impl/Errors.hpp"

#include <string>
#include <utility>

namespace kfield {

template <class T>
Partials<T> emptyPartials(std::int64_t begin, std::int64_t n, std::int64_t width) {
  if (begin < 0 || n < 0 || begin > n) {
    impl::invalidArgument(
        "kfield::emptyPartials",
        "sample " + std::to_string(begin) + " does not lie in a sequence of " + std::to_string(n));
  }
  if (width < 0) {
    impl::invalidArgument("kfield::emptyPartials",
                          "width must be >= 0, got " + std::to_string(width));
  }
  Partials<T> p;
  p.n = n;
  p.begin = begin;
  p.end = begin;
  p.width = width;
  return p;
}

namespace impl {

// appendNode's walk: pushes `node` on a range's node stack, then lifts and merges as the tree
// does. merge(j) is called when entries j and j + 1 become their parent (left + right), just
// before entry j + 1 leaves the stack.
template <class Merge>
void pushNode(std::vector<TreeNode>& nodes, std::int64_t n, TreeNode node, const Merge& merge) {
  nodes.push_back(node);
  for (;;) {
    TreeNode& top = nodes.back();
    // A left child whose right sibling lies wholly past n holds all of its parent's samples.
    // (Only the root starts at 0 with nothing to its right; it stays.)
    if (top.index % 2 == 0 && ((top.index + 1) << top.level) >= n && top.begin() > 0) {
      top = TreeNode{top.level + 1, top.index / 2};
      continue;
    }
    const std::size_t k = nodes.size();
    if (k < 2) return;
    const TreeNode& left = nodes[k - 2];
    if (!(left.level == top.level && left.index + 1 == top.index && left.index % 2 == 0)) return;
    merge(k - 2);
    nodes[k - 2] = TreeNode{top.level + 1, top.index / 2};
    nodes.pop_back();
  }
}

}  // namespace impl

template <class T>
void appendNode(Partials<T>& p, TreeNode node, const T* values) {
  if (node.level < 0 || node.index < 0 || node.begin() != p.end || node.begin() >= p.n) {
    impl::invalidArgument("kfield::appendNode",
                          "node (level " + std::to_string(node.level) + ", index " +
                              std::to_string(node.index) + ") does not start at sample " +
                              std::to_string(p.end) + " of " + std::to_string(p.n));
  }
  const std::int64_t w = p.width;
  p.end = node.end(p.n);
  p.values.insert(p.values.end(), values, values + w);
  impl::pushNode(p.nodes, p.n, node, [&](std::size_t j) {
    T* l = p.values.data() + j * w;
    const T* r = l + w;
    for (std::int64_t c = 0; c < w; ++c) l[c] = l[c] + r[c];
    p.values.resize((j + 1) * w);
  });
}

template <class T>
Partials<T> mergePartials(const Partials<T>& left, const Partials<T>& right) {
  const char* who = "kfield::mergePartials";
  if (left.n != right.n) {
    impl::invalidArgument(who, "the ranges belong to sequences of " + std::to_string(left.n) +
                                   " and " + std::to_string(right.n) + " samples");
  }
  if (left.width != right.width) {
    impl::invalidArgument(who, "widths differ: " + std::to_string(left.width) + " and " +
                                   std::to_string(right.width));
  }
  if (left.end != right.begin) {
    impl::invalidArgument(who, "ranges [" + std::to_string(left.begin) + ", " +
                                   std::to_string(left.end) + ") and [" +
                                   std::to_string(right.begin) + ", " + std::to_string(right.end) +
                                   ") are not adjacent");
  }
  Partials<T> merged = left;
  for (std::size_t i = 0; i < right.nodes.size(); ++i) {
    appendNode(merged, right.nodes[i], right.values.data() + i * right.width);
  }
  return merged;
}

template <class T>
std::vector<T> finishPartials(const Partials<T>& all) {
  if (all.begin != 0 || all.end != all.n) {
    impl::invalidArgument("kfield::finishPartials",
                          "the partials cover [" + std::to_string(all.begin) + ", " +
                              std::to_string(all.end) + "), not the whole sequence [0, " +
                              std::to_string(all.n) + ")");
  }
  if (all.n == 0) return std::vector<T>(all.width, T(0));
  return std::vector<T>(all.values.begin(), all.values.begin() + all.width);  // the root
}

namespace impl {

// The empty partials of samples [begin, begin + count) of n, checked: where a View's
// partials start.
template <class T>
Partials<T> partialsOfRange(const char* who, std::int64_t begin, std::int64_t count, std::int64_t n,
                            std::int64_t width) {
  if (begin < 0 || n < 0 || count < 0 || begin > n - count) {
    invalidArgument(who, "samples [" + std::to_string(begin) + ", " +
                             std::to_string(begin + count) + ") do not lie in a sequence of " +
                             std::to_string(n));
  }
  return emptyPartials<T>(begin, n, width);
}

}  // namespace impl

template <class ExecSpace, class XView>
Partials<typename XView::non_const_value_type> canonicalPartials(const ExecSpace& space,
                                                                 const XView& x, std::int64_t begin,
                                                                 std::int64_t n) {
  using T = typename XView::non_const_value_type;
  const auto count = static_cast<std::int64_t>(x.extent(0));
  auto p = impl::partialsOfRange<T>("kfield::canonicalPartials", begin, count, n, 1);
  for (const TreeNode& node : canonicalCover(begin, begin + count, n)) {
    const std::pair<std::int64_t, std::int64_t> span{node.begin() - begin, node.end(n) - begin};
    const T value = canonicalSum(space, Kokkos::subview(x, span));
    appendNode(p, node, &value);
  }
  return p;
}

template <class ExecSpace, class VectorsView>
Partials<typename VectorsView::non_const_value_type> canonicalPartialsOfVectors(
    const ExecSpace& space, const VectorsView& vectors, std::int64_t begin, std::int64_t n) {
  using T = typename VectorsView::non_const_value_type;
  const auto width = static_cast<std::int64_t>(vectors.extent(1));
  const auto count = static_cast<std::int64_t>(vectors.extent(0));
  auto p = impl::partialsOfRange<T>("kfield::canonicalPartialsOfVectors", begin, count, n, width);
  Kokkos::View<T*, typename ExecSpace::memory_space> sum("kfield::sum::node", width);
  auto host = Kokkos::create_mirror_view(sum);
  for (const TreeNode& node : canonicalCover(begin, begin + count, n)) {
    const std::pair<std::int64_t, std::int64_t> span{node.begin() - begin, node.end(n) - begin};
    canonicalSumOfVectors(space, Kokkos::subview(vectors, span, Kokkos::ALL), sum);
    Kokkos::deep_copy(host, sum);
    appendNode(p, node, host.data());
  }
  return p;
}

}  // namespace kfield

#endif
