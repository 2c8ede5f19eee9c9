#include "kfield/sum/Partials.hpp"

#include "kfield/impl/Errors.hpp"

#include <algorithm>
#include <string>

namespace kfield {

std::int64_t TreeNode::end(std::int64_t n) const {
  return std::min(n, (index + 1) << level);  // past n lies the padding
}

std::vector<TreeNode> canonicalCover(std::int64_t begin, std::int64_t end, std::int64_t n) {
  if (begin < 0 || begin > end || end > n) {
    impl::invalidArgument("kfield::canonicalCover",
                          "need 0 <= begin <= end <= n, got begin = " + std::to_string(begin) +
                              ", end = " + std::to_string(end) + ", n = " + std::to_string(n));
  }
  int rootLevel = 0;
  while ((std::int64_t(1) << rootLevel) < n) ++rootLevel;
  std::vector<TreeNode> nodes;
  for (std::int64_t pos = begin; pos < end;) {
    int level = 0;
    // Grow while pos stays aligned and the node's present samples stay inside [pos, end).
    while (level < rootLevel && pos % (std::int64_t(2) << level) == 0 &&
           std::min(n, pos + (std::int64_t(2) << level)) <= end) {
      ++level;
    }
    const TreeNode node{level, pos >> level};
    nodes.push_back(node);
    pos = node.end(n);
  }
  return nodes;
}

}  // namespace kfield
