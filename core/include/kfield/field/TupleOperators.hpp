// Tuple fields component by component (+, -, scaling), and the folds of tuple neighbor fields.
// Included by Operators.hpp, after its own operators.
#ifndef KFIELD_FIELD_TUPLEOPERATORS_HPP
#define KFIELD_FIELD_TUPLEOPERATORS_HPP

#include "kfield/field/Operators.hpp"
#include "kfield/field/Program.hpp"
#include "kfield/field/Tuple.hpp"
#include "kfield/field/impl/Tracer.hpp"

#include <type_traits>
#include <utility>

namespace kfield {

namespace impl {
// Component I of a tuple, for the index constants componentwise passes.
template <class I, class Tuple>
const auto& component(const Tuple& t) {
  return get<I::value>(t);
}
template <class... Ts, class F, std::size_t... I>
Field<Tuple<Ts...>> componentwise(F&& f, std::index_sequence<I...>) {
  return Field<Tuple<Ts...>>(f(std::integral_constant<std::size_t, I>{})...);
}
template <class... Ts, class F>
Field<Tuple<Ts...>> componentwise(F&& f) {
  return componentwise<Ts...>(std::forward<F>(f), std::index_sequence_for<Ts...>{});
}
}  // namespace impl

template <class... Ts>
Field<Tuple<Ts...>> operator+(const Field<Tuple<Ts...>>& a, const Field<Tuple<Ts...>>& b) {
  return impl::componentwise<Ts...>(
      [&](auto i) { return impl::component<decltype(i)>(a) + impl::component<decltype(i)>(b); });
}
template <class... Ts>
Field<Tuple<Ts...>> operator-(const Field<Tuple<Ts...>>& a, const Field<Tuple<Ts...>>& b) {
  return impl::componentwise<Ts...>(
      [&](auto i) { return impl::component<decltype(i)>(a) - impl::component<decltype(i)>(b); });
}
// A tuple of doubles (a vector) scaled: every component times a constant or a field.
template <class... Ts, class = std::enable_if_t<(... && std::is_same<Ts, double>::value)>>
Field<Tuple<Ts...>> operator*(const Field<Tuple<Ts...>>& a, const Field<double>& b) {
  return impl::componentwise<Ts...>([&](auto i) { return impl::component<decltype(i)>(a) * b; });
}
template <class... Ts, class S,
          class = std::enable_if_t<std::is_arithmetic<S>::value &&
                                   (... && std::is_same<Ts, double>::value)>>
Field<Tuple<Ts...>> operator*(const Field<Tuple<Ts...>>& a, S b) {
  return impl::componentwise<Ts...>(
      [&](auto i) { return impl::component<decltype(i)>(a) * double(b); });
}

template <class... Ts>
Field<Tuple<Ts...>> NbrField<Tuple<Ts...>>::min() const {
  return impl::Tracer::lexicographic(impl::FoldCode::Min, *this);
}
template <class... Ts>
Field<Tuple<Ts...>> NbrField<Tuple<Ts...>>::max() const {
  return impl::Tracer::lexicographic(impl::FoldCode::Max, *this);
}
template <class... Ts>
Field<Tuple<Ts...>> NbrField<Tuple<Ts...>>::sum() const {
  return impl::componentwise<Ts...>(
      [&](auto i) { return impl::component<decltype(i)>(*this).sum(); });
}
template <class... Ts>
Field<Tuple<Ts...>> NbrField<Tuple<Ts...>>::self() const {
  return impl::componentwise<Ts...>(
      [&](auto i) { return impl::component<decltype(i)>(*this).self(); });
}

}  // namespace kfield

#endif
