// Aggregate processes: Program::spawn, and the folds of what it returns over a device's live
// processes. Included by Operators.hpp, after its own operators.
#ifndef KFIELD_FIELD_PROCESSES_HPP
#define KFIELD_FIELD_PROCESSES_HPP

#include "kfield/field/Operators.hpp"
#include "kfield/field/Program.hpp"

#include <cstddef>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

namespace kfield {

namespace impl {
// What a spawn needs of its key type: an int, or a tuple of ints (lexicographic order), live
// where its first part is >= 0.
template <class Key>
struct ProcessKey {
  static_assert(std::is_same<Key, int>::value, "a process key is an int or a Tuple of ints");
  static Field<int> none(Program& p) { return p.constant(-1); }
  static Field<bool> live(const Field<int>& k) { return k >= 0; }
  static Field<bool> same(const Field<int>& a, const Field<int>& b) { return a == b; }
};
template <class... Ks>
struct ProcessKey<Tuple<Ks...>> {
  static_assert((... && std::is_same<Ks, int>::value),
                "a process key is an int or a Tuple of ints");
  static_assert(sizeof...(Ks) <= static_cast<std::size_t>(kMaxKeyWidth),
                "a process key has at most impl::kMaxKeyWidth parts");
  static Field<Tuple<Ks...>> none(Program& p) { return p.tuple(p.constant(Ks(-1))...); }
  static Field<bool> live(const Field<Tuple<Ks...>>& k) { return get<0>(k) >= 0; }
  static Field<bool> same(const Field<Tuple<Ks...>>& a, const Field<Tuple<Ks...>>& b) {
    return same(a, b, std::index_sequence_for<Ks...>{});
  }
  template <std::size_t... I>
  static Field<bool> same(const Field<Tuple<Ks...>>& a, const Field<Tuple<Ks...>>& b,
                          std::index_sequence<I...>) {
    return (... && (get<I>(a) == get<I>(b)));
  }
};
}  // namespace impl

template <class T, class Key, class Body>
Processes<T, Key> Program::spawn(const Field<Key>& launch, int maxKeys, Body&& body) {
  using Keys = impl::ProcessKey<Key>;
  SpawnScope scope = beginSpawn(operandsOf(launch), maxKeys);
  const auto width = static_cast<std::size_t>(scope.keyWidth);
  Processes<T, Key> out;
  for (int s = 0; s < maxKeys; ++s) {
    const auto part = scope.keys.begin() + static_cast<std::ptrdiff_t>(s * width);
    const Field<Key> key =
        fieldOf<Key>(std::vector<impl::Operand>(part, part + static_cast<std::ptrdiff_t>(width)));
    const std::int32_t exportsBefore = static_cast<std::int32_t>(traced_.exports.size());
    const Field<Tuple<T, bool>> step = branch(
        Keys::live(key),
        [&] {
          return align(key, [&] {
            const auto result = body(key);
            checkEnds(scope, result.second.operand_);
            return tuple(Field<T>(result.first), Field<bool>(result.second));
          });
        },
        [&] { return tuple(constant(T()), constant(false)); });
    copyTraced(scope, s, exportsBefore);
    out.keys.push_back(key);
    out.values.push_back(step.template get<0>());
    out.live.push_back(Keys::live(key) && step.template get<1>());
  }
  const Field<Key> none = Keys::none(*this);
  std::vector<impl::Operand> keys;
  for (int s = 0; s < maxKeys; ++s) {
    out.keys[s] = mux(out.live[s], out.keys[s], none);
    for (const impl::Operand& part : operandsOf(out.keys[s])) keys.push_back(part);
  }
  endSpawn(scope, keys);
  return out;
}

template <class T, class Key>
Field<int> Processes<T, Key>::count() const {
  Program& p = live.at(0).program();
  Field<int> n = p.constant(0);
  for (const Field<bool>& l : live) n = n + p.mux(l, 1, p.constant(0));
  return n;
}

namespace impl {
// The fold of the live processes' values: identity where none lives.
template <class T, class Key, class Combine>
Field<T> foldProcesses(const Processes<T, Key>& processes, T identity, Combine&& combine) {
  Program& p = processes.live.at(0).program();
  Field<T> acc = p.constant(identity);
  for (std::size_t s = 0; s < processes.live.size(); ++s) {
    acc = combine(acc, p.mux(processes.live[s], processes.values[s], p.constant(identity)));
  }
  return acc;
}
}  // namespace impl

template <class T, class Key>
Field<T> Processes<T, Key>::min() const {
  static_assert(std::is_same<T, double>::value, "min and max of processes' values of double");
  return impl::foldProcesses(
      *this, std::numeric_limits<T>::infinity(),
      [](const Field<T>& a, const Field<T>& b) { return kfield::min(a, b); });
}
template <class T, class Key>
Field<T> Processes<T, Key>::max() const {
  static_assert(std::is_same<T, double>::value, "min and max of processes' values of double");
  return impl::foldProcesses(
      *this, -std::numeric_limits<T>::infinity(),
      [](const Field<T>& a, const Field<T>& b) { return kfield::max(a, b); });
}
template <class T, class Key>
Field<T> Processes<T, Key>::sum() const {
  return impl::foldProcesses(*this, T(0),
                             [](const Field<T>& a, const Field<T>& b) { return a + b; });
}
template <class T, class Key>
Field<T> Processes<T, Key>::valueOf(const Field<Key>& key, T otherwise) const {
  Program& p = live.at(0).program();
  Field<T> found = p.constant(otherwise);
  for (std::size_t s = 0; s < keys.size(); ++s) {
    found = p.mux(live[s] && impl::ProcessKey<Key>::same(keys[s], key), values[s], found);
  }
  return found;
}

}  // namespace kfield

#endif
