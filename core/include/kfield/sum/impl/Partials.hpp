// Definitions of the templates declared in kfield/sum/Partials.hpp.
#ifndef KFIELD_SUM_IMPL_PARTIALS_HPP
#define KFIELD_SUM_IMPL_PARTIALS_HPP

#include "kfield/sum/impl/ViewChecks.hpp"

#include <string>
#include <utility>

namespace kfield {
namespace impl {

// Adds node `node` with values v[0..width) after the nodes on the stack, then adds siblings
// and lifts lone left children (right sibling past n) until neither applies.
template <class T>
void pushNode(Partials<T>& p, TreeNode node, const T* v) {
  const int w = p.width;
  p.nodes.push_back(node);
  p.values.insert(p.values.end(), v, v + w);
  for (;;) {
    TreeNode& top = p.nodes.back();
    // A left child whose right sibling lies wholly past n holds all of its parent's samples.
    // (Only the root starts at 0 with nothing to its right; it stays.)
    if (top.index % 2 == 0 && ((top.index + 1) << top.level) >= p.n && top.begin() > 0) {
      top = TreeNode{top.level + 1, top.index / 2};
      continue;
    }
    const std::size_t k = p.nodes.size();
    if (k < 2) return;
    const TreeNode& left = p.nodes[k - 2];
    if (!(left.level == top.level && left.index + 1 == top.index && left.index % 2 == 0)) return;
    T* l = p.values.data() + (k - 2) * w;
    const T* r = p.values.data() + (k - 1) * w;
    for (int c = 0; c < w; ++c) l[c] = l[c] + r[c];
    p.nodes[k - 2] = TreeNode{top.level + 1, top.index / 2};
    p.nodes.pop_back();
    p.values.resize((k - 1) * w);
  }
}

}  // namespace impl

template <class T>
Partials<T> mergePartials(const Partials<T>& left, const Partials<T>& right) {
  const char* fn = "mergePartials";
  if (left.n != right.n) {
    impl::invalidArgument(fn, "the ranges belong to sequences of " + std::to_string(left.n) +
                                  " and " + std::to_string(right.n) + " samples");
  }
  if (left.width != right.width) {
    impl::invalidArgument(fn, "widths differ: " + std::to_string(left.width) + " and " +
                                  std::to_string(right.width));
  }
  if (left.end != right.begin) {
    impl::invalidArgument(fn, "ranges [" + std::to_string(left.begin) + ", " +
                                  std::to_string(left.end) + ") and [" +
                                  std::to_string(right.begin) + ", " + std::to_string(right.end) +
                                  ") are not adjacent");
  }
  Partials<T> merged = left;
  merged.end = right.end;
  for (std::size_t i = 0; i < right.nodes.size(); ++i) {
    impl::pushNode(merged, right.nodes[i], right.values.data() + i * right.width);
  }
  return merged;
}

template <class T>
std::vector<T> finishPartials(const Partials<T>& all) {
  if (all.begin != 0 || all.end != all.n) {
    impl::invalidArgument("finishPartials",
                          "the partials cover [" + std::to_string(all.begin) + ", " +
                              std::to_string(all.end) + "), not the whole sequence [0, " +
                              std::to_string(all.n) + ")");
  }
  if (all.n == 0) return std::vector<T>(all.width, T(0));
  return std::vector<T>(all.values.begin(), all.values.begin() + all.width);  // the root
}

namespace impl {

template <class T>
Partials<T> emptyPartials(const char* fn, std::int64_t begin, std::int64_t count, std::int64_t n,
                          int width) {
  if (begin < 0 || n < 0 || begin + count > n) {
    invalidArgument(fn, "samples [" + std::to_string(begin) + ", " +
                            std::to_string(begin + count) + ") do not lie in a sequence of " +
                            std::to_string(n));
  }
  Partials<T> p;
  p.n = n;
  p.begin = begin;
  p.end = begin + count;
  p.width = width;
  return p;
}

}  // namespace impl

template <class ExecSpace, class XView>
Partials<typename XView::non_const_value_type> canonicalPartials(const ExecSpace& space,
                                                                 const XView& x,
                                                                 std::int64_t begin,
                                                                 std::int64_t n) {
  using T = typename XView::non_const_value_type;
  auto p = impl::emptyPartials<T>("canonicalPartials", begin,
                                  static_cast<std::int64_t>(x.extent(0)), n, 1);
  for (const TreeNode& node : canonicalCover(p.begin, p.end, n)) {
    const std::pair<std::int64_t, std::int64_t> span{node.begin() - begin, node.end(n) - begin};
    const T value = canonicalSum(space, Kokkos::subview(x, span));
    p.nodes.push_back(node);
    p.values.push_back(value);
  }
  return p;
}

template <class ExecSpace, class VectorsView>
Partials<typename VectorsView::non_const_value_type> canonicalPartialsOfVectors(
    const ExecSpace& space, const VectorsView& vectors, std::int64_t begin, std::int64_t n) {
  using T = typename VectorsView::non_const_value_type;
  const auto width = static_cast<int>(vectors.extent(1));
  auto p = impl::emptyPartials<T>("canonicalPartialsOfVectors", begin,
                                  static_cast<std::int64_t>(vectors.extent(0)), n, width);
  Kokkos::View<T*, typename ExecSpace::memory_space> sum("kfield::sum::node", width);
  auto host = Kokkos::create_mirror_view(sum);
  for (const TreeNode& node : canonicalCover(p.begin, p.end, n)) {
    const std::pair<std::int64_t, std::int64_t> span{node.begin() - begin, node.end(n) - begin};
    canonicalSumOfVectors(space, Kokkos::subview(vectors, span, Kokkos::ALL), sum);
    Kokkos::deep_copy(host, sum);
    p.nodes.push_back(node);
    p.values.insert(p.values.end(), host.data(), host.data() + width);
  }
  return p;
}

}  // namespace kfield

#endif
