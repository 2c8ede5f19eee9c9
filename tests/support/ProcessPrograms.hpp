// Programs with processes (spawn) that the gradient tests differentiate, in one process and
// over ranks: neighbor reads inside processes held in different slots.
#ifndef KFIELD_TEST_PROCESSPROGRAMS_HPP
#define KFIELD_TEST_PROCESSPROGRAMS_HPP

#include <kfield/field/Library.hpp>

#include <utility>

namespace kfield::test {

// A share inside each process, launched by device 0 (round 1) and device `other` (round 2).
inline Field<double> launchedProcesses(Program& p, const Field<double>& x, const Field<double>& y,
                                       int other) {
  const Field<int> id = p.uid();
  const Field<int> round = p.remember(0, [](Field<int> r) { return r + 1; });
  const Field<int> launch =
      p.mux((id == 0 && round == 1) || (id == other && round == 2), id, p.constant(-1));
  return p
      .spawn<double>(launch, 3,
                     [&](const Field<int>&) {
                       const Field<double> v = p.share(x, [&](const NbrField<double>& n) {
                         return (n * y).excludeSelf().sum() * 0.3 + x;
                       });
                       return std::make_pair(v, round < 50);
                     })
      .sum();
}

// Pair keys (launcher, start): device 0 launches in rounds 1 and 3, so two of its processes run
// side by side, and device `other` in round 2; each process's share starts from x * start.
inline Field<double> pairKeyedProcesses(Program& p, const Field<double>& x, const Field<double>& y,
                                        int other) {
  using Key = Tuple<int, int>;
  const Field<int> id = p.uid();
  const Field<int> round = p.remember(0, [](Field<int> r) { return r + 1; });
  const Field<bool> launches =
      (id == 0 && (round == 1 || round == 3)) || (id == other && round == 2);
  const Field<Key> launch =
      p.mux(launches, p.tuple(id, round), p.tuple(p.constant(-1), p.constant(-1)));
  return p
      .spawn<double>(launch, 3,
                     [&](const Field<Key>& key) {
                       const Field<double> z = x * toDouble(get<1>(key));
                       const Field<double> v = p.share(z, [&](const NbrField<double>& n) {
                         return (n * y).excludeSelf().sum() * 0.3 + z;
                       });
                       return std::make_pair(v, round < 50);
                     })
      .sum();
}

}  // namespace kfield::test

#endif
