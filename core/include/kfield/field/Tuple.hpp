// Tuple values: a field whose value on each device is a fixed-size tuple of doubles, ints and
// bools (ScaFi's and FCPP's (distance, value) pairs), and a neighbor field of such tuples.
// A tuple field is its components' fields side by side; share, remember, neighbors, mux,
// branch and the program's output take it whole, and its neighbor field folds
// lexicographically (kfield/field/TupleOperators.hpp).
#ifndef KFIELD_FIELD_TUPLE_HPP
#define KFIELD_FIELD_TUPLE_HPP

#include "kfield/field/Field.hpp"
#include "kfield/field/TracedProgram.hpp"

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

namespace kfield {

// The value type of a tuple field: Field<Tuple<double, int>>. Components are double, int or
// bool, as the values of plain fields.
template <class... Ts>
struct Tuple {
  static_assert(sizeof...(Ts) >= 1, "a tuple has at least one component");
  static constexpr std::size_t width = sizeof...(Ts);
};

namespace impl {
template <class T, class Seq>
struct RepeatedTuple;
template <class T, std::size_t... I>
struct RepeatedTuple<T, std::index_sequence<I...>> {
  template <std::size_t>
  using Same = T;
  using type = Tuple<Same<I>...>;
};
template <class T>
struct IsTuple : std::false_type {};
template <class... Ts>
struct IsTuple<Tuple<Ts...>> : std::true_type {};
}  // namespace impl

// N doubles: a vector value (a position, a velocity).
template <std::size_t N>
using Vec = typename impl::RepeatedTuple<double, std::make_index_sequence<N>>::type;

template <class... Ts>
class Field<Tuple<Ts...>> {
  static_assert((... && (std::is_same<Ts, double>::value || std::is_same<Ts, int>::value ||
                         std::is_same<Ts, bool>::value)),
                "tuple components are double, int or bool");

 public:
  static constexpr std::size_t width = sizeof...(Ts);
  Field() = default;
  explicit Field(const Field<Ts>&... parts) : parts_(parts...) {}
  template <std::size_t I>
  const auto& get() const {
    return std::get<I>(parts_);
  }
  Program& program() const { return std::get<0>(parts_).program(); }

 private:
  friend class Program;
  std::tuple<Field<Ts>...> parts_;
};

template <class... Ts>
class NbrField<Tuple<Ts...>> {
 public:
  static constexpr std::size_t width = sizeof...(Ts);
  explicit NbrField(const NbrField<Ts>&... parts) : parts_(parts...) {}
  template <std::size_t I>
  const auto& get() const {
    return std::get<I>(parts_);
  }
  Program& program() const { return std::get<0>(parts_).program(); }

  // Leaves the device itself out of the folds (of every component).
  NbrField excludeSelf() const {
    return std::apply([](const auto&... p) { return NbrField(p.excludeSelf()...); }, parts_);
  }
  bool excludesSelf() const {
    return std::apply([](const auto&... p) { return (... || p.excludesSelf()); }, parts_);
  }

  // Lexicographic: the smallest (largest) tuple, compared component by component, in the
  // neighbor's order of the components; entries equal in the first k components decide the
  // k+1st. Components compare with < and ==, so an entry with a NaN in a component takes no
  // part in the later ones. An empty fold gives +inf (-inf) in every component.
  Field<Tuple<Ts...>> min() const;
  Field<Tuple<Ts...>> max() const;
  // Component by component.
  Field<Tuple<Ts...>> sum() const;
  Field<Tuple<Ts...>> self() const;
  Field<int> count() const { return std::get<0>(parts_).count(); }

 private:
  friend class Program;
  std::tuple<NbrField<Ts>...> parts_;
};

// Component I of a tuple field or of a tuple neighbor field.
template <std::size_t I, class... Ts>
const auto& get(const Field<Tuple<Ts...>>& t) {
  return t.template get<I>();
}
template <std::size_t I, class... Ts>
const auto& get(const NbrField<Tuple<Ts...>>& t) {
  return t.template get<I>();
}

}  // namespace kfield

#endif
