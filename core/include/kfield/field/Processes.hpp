// Aggregate processes: Program::spawn, and the folds of what it returns over a device's live
// processes. Included by Operators.hpp, after its own operators.
#ifndef KFIELD_FIELD_PROCESSES_HPP
#define KFIELD_FIELD_PROCESSES_HPP

#include "kfield/field/Operators.hpp"
#include "kfield/field/Program.hpp"

#include <limits>
#include <type_traits>
#include <vector>

namespace kfield {

template <class T, class Body>
Processes<T> Program::spawn(const Field<int>& launch, int maxKeys, Body&& body) {
  SpawnScope scope = beginSpawn(launch.operand_, maxKeys);
  Processes<T> out;
  for (int s = 0; s < maxKeys; ++s) {
    const Field<int> key(this, scope.keys[static_cast<std::size_t>(s)]);
    const std::int32_t exportsBefore = static_cast<std::int32_t>(traced_.exports.size());
    const Field<Tuple<T, bool>> step = branch(
        key >= 0,
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
    out.live.push_back(key >= 0 && step.template get<1>());
  }
  std::vector<impl::Operand> keys;
  for (int s = 0; s < maxKeys; ++s) {
    out.keys[s] = mux(out.live[s], out.keys[s], constant(-1));
    keys.push_back(out.keys[s].operand_);
  }
  endSpawn(scope, keys);
  return out;
}

template <class T>
Field<int> Processes<T>::count() const {
  Program& p = keys.at(0).program();
  Field<int> n = p.constant(0);
  for (const Field<bool>& l : live) n = n + p.mux(l, 1, p.constant(0));
  return n;
}

namespace impl {
// The fold of the live processes' values: identity where none lives.
template <class T, class Combine>
Field<T> foldProcesses(const Processes<T>& processes, T identity, Combine&& combine) {
  Program& p = processes.keys.at(0).program();
  Field<T> acc = p.constant(identity);
  for (std::size_t s = 0; s < processes.live.size(); ++s) {
    acc = combine(acc, p.mux(processes.live[s], processes.values[s], p.constant(identity)));
  }
  return acc;
}
}  // namespace impl

template <class T>
Field<T> Processes<T>::min() const {
  static_assert(std::is_same<T, double>::value, "min and max of processes' values of double");
  return impl::foldProcesses(*this, std::numeric_limits<T>::infinity(),
                             [](const Field<T>& a, const Field<T>& b) { return kfield::min(a, b); });
}
template <class T>
Field<T> Processes<T>::max() const {
  static_assert(std::is_same<T, double>::value, "min and max of processes' values of double");
  return impl::foldProcesses(*this, -std::numeric_limits<T>::infinity(),
                             [](const Field<T>& a, const Field<T>& b) { return kfield::max(a, b); });
}
template <class T>
Field<T> Processes<T>::sum() const {
  return impl::foldProcesses(*this, T(0), [](const Field<T>& a, const Field<T>& b) { return a + b; });
}
template <class T>
Field<T> Processes<T>::valueOf(const Field<int>& key, T otherwise) const {
  Program& p = keys.at(0).program();
  Field<T> found = p.constant(otherwise);
  for (std::size_t s = 0; s < keys.size(); ++s) {
    found = p.mux(live[s] && keys[s] == key, values[s], found);
  }
  return found;
}

}  // namespace kfield

#endif
