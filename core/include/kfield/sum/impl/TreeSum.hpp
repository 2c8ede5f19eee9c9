// The canonical tree inside one thread: a binary counter of subtree sums, so that a
// sequential pass over consecutive samples yields exactly the pairwise tree's bits.
#ifndef KFIELD_SUM_IMPL_TREESUM_HPP
#define KFIELD_SUM_IMPL_TREESUM_HPP

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kfield::impl {

// Subtree sums on a stack, levels strictly decreasing from bottom to top: at most one entry
// per level, so 64 entries cover any int64 count.
template <class T>
struct TreeStack {
  T value[64];
  int level[64];
  int top = 0;

  // Adds a subtree of the given level that directly follows everything pushed so far.
  KOKKOS_INLINE_FUNCTION void push(T sum, int lvl) {
    while (top > 0 && level[top - 1] == lvl) {
      sum = value[--top] + sum;  // the earlier subtree is always the left operand
      ++lvl;
    }
    value[top] = sum;
    level[top] = lvl;
    ++top;
  }

  // The root of the padded tree: a missing right sibling passes its left one up unchanged,
  // so the stack folds from the top, each older entry on the left.
  KOKKOS_INLINE_FUNCTION T fold() const {
    if (top == 0) return T(0);  // the empty sum
    T acc = value[top - 1];
    for (int j = top - 2; j >= 0; --j) acc = value[j] + acc;
    return acc;
  }
};

// The subtree of 8 samples from j, in the tree's own shape.
template <class T, class Load>
KOKKOS_INLINE_FUNCTION T treeOf8(const Load& load, std::int64_t j) {
  return ((load(j) + load(j + 1)) + (load(j + 2) + load(j + 3))) +
         ((load(j + 4) + load(j + 5)) + (load(j + 6) + load(j + 7)));
}

// The canonical sum of load(0), ..., load(len-1), len >= 1, where position 0 starts a subtree
// at least as large as len rounds up to. Whole subtrees of 64 and then 8 samples are written
// out in the tree's shape (straight-line code with independent adds, close to read speed);
// only their totals and the last few samples go through the stack.
template <class T, class Load>
KOKKOS_INLINE_FUNCTION T treeSum(const Load& load, std::int64_t len) {
  TreeStack<T> stack;
  std::int64_t i = 0;
  for (; i + 64 <= len; i += 64) {
    const T a = (treeOf8<T>(load, i) + treeOf8<T>(load, i + 8)) +
                (treeOf8<T>(load, i + 16) + treeOf8<T>(load, i + 24));
    const T b = (treeOf8<T>(load, i + 32) + treeOf8<T>(load, i + 40)) +
                (treeOf8<T>(load, i + 48) + treeOf8<T>(load, i + 56));
    stack.push(a + b, 6);
  }
  for (; i + 8 <= len; i += 8) stack.push(treeOf8<T>(load, i), 3);
  for (; i < len; ++i) stack.push(load(i), 0);
  return stack.fold();
}

// K independent canonical sums at once (coordinates c < width of sample rows s < len,
// load(s, c)): the stack holds K-wide rows, so the inner loops vectorise across coordinates.
// Levels never exceed maxLevel, so the stack needs maxLevel + 1 rows.
template <class T, int K, int MaxRows>
struct VectorTreeStack {
  T value[MaxRows][K];
  int level[MaxRows];
  int top = 0;

  template <class Load>
  KOKKOS_INLINE_FUNCTION void pushSample(const Load& load, std::int64_t s, int width) {
    int lvl = 0;
    T* row = value[top];
    for (int c = 0; c < width; ++c) row[c] = load(s, c);
    while (top > 0 && level[top - 1] == lvl) {
      T* left = value[top - 1];
      for (int c = 0; c < width; ++c) left[c] = left[c] + row[c];
      --top;
      row = left;
      ++lvl;
    }
    level[top] = lvl;
    ++top;
  }

  template <class Store>
  KOKKOS_INLINE_FUNCTION void fold(const Store& store, int width) {
    for (int j = top - 2; j >= 0; --j) {
      for (int c = 0; c < width; ++c) value[j][c] = value[j][c] + value[j + 1][c];
    }
    for (int c = 0; c < width; ++c) store(c, value[0][c]);
  }
};

// The same counter over rows of a runtime width kept in caller memory (rows x width words;
// a count of at most 2^L samples needs L + 2 rows): the caller writes each sample's row into
// next(), then push() adds it in.
template <class T>
struct RowTreeStack {
  T* rows = nullptr;
  std::int64_t width = 0;
  int level[64] = {};
  int top = 0;

  KOKKOS_INLINE_FUNCTION RowTreeStack(T* storage, std::int64_t w) : rows(storage), width(w) {}

  KOKKOS_INLINE_FUNCTION T* next() const { return rows + top * width; }

  KOKKOS_INLINE_FUNCTION void push() {
    int lvl = 0;
    const T* right = next();
    while (top > 0 && level[top - 1] == lvl) {
      T* left = rows + (top - 1) * width;
      for (std::int64_t c = 0; c < width; ++c) left[c] = left[c] + right[c];
      right = left;
      --top;
      ++lvl;
    }
    level[top] = lvl;
    ++top;
  }

  // The padded tree's root, left in row 0; top must be > 0.
  KOKKOS_INLINE_FUNCTION const T* fold() {
    for (int j = top - 2; j >= 0; --j) {
      T* left = rows + j * width;
      const T* right = left + width;
      for (std::int64_t c = 0; c < width; ++c) left[c] = left[c] + right[c];
    }
    return rows;
  }
};

}  // namespace kfield::impl

#endif
