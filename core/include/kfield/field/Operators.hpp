// Arithmetic, comparisons and logic on fields and neighbour fields.
#ifndef KFIELD_FIELD_OPERATORS_HPP
#define KFIELD_FIELD_OPERATORS_HPP

#include "kfield/field/Program.hpp"

#include <type_traits>

namespace kfield {
namespace impl {

template <class T>
Field<T> binary(OpCode code, const char* kind, const Field<T>& a, const Field<T>& b) {
  return a.program().template wrap<T>(a.program().emit(code, kind, a.operand(), b.operand()));
}
template <class T>
Field<bool> compare(OpCode code, const char* kind, const Field<T>& a, const Field<T>& b) {
  return a.program().template wrap<bool>(a.program().emit(code, kind, a.operand(), b.operand()));
}
template <class T>
Field<T> unary(OpCode code, const char* kind, const Field<T>& a) {
  return a.program().template wrap<T>(a.program().emit(code, kind, a.operand()));
}
template <class T>
NbrField<T> nbrBinary(EntryCode code, const NbrField<T>& a, std::int32_t b) {
  return a.program().template wrapNbr<T>(a.program().nbrCombine(code, a.expression(), b),
                                         a.excludesSelf());
}
}  // namespace impl

#define KFIELD_IMPL_FIELD_BINARY(op, code, kind)                                           \
  template <class T>                                                                        \
  Field<T> operator op(const Field<T>& a, const Field<T>& b) {                              \
    return impl::binary(impl::OpCode::code, kind, a, b);                                    \
  }                                                                                         \
  template <class T, class S, class = std::enable_if_t<std::is_arithmetic<S>::value>>       \
  Field<T> operator op(const Field<T>& a, S b) {                                            \
    return impl::binary(impl::OpCode::code, kind, a, a.program().constant(T(b)));           \
  }                                                                                         \
  template <class T, class S, class = std::enable_if_t<std::is_arithmetic<S>::value>>       \
  Field<T> operator op(S a, const Field<T>& b) {                                            \
    return impl::binary(impl::OpCode::code, kind, b.program().constant(T(a)), b);           \
  }
KFIELD_IMPL_FIELD_BINARY(+, Add, "add")
KFIELD_IMPL_FIELD_BINARY(-, Sub, "sub")
KFIELD_IMPL_FIELD_BINARY(*, Mul, "mul")
KFIELD_IMPL_FIELD_BINARY(/, Div, "div")
#undef KFIELD_IMPL_FIELD_BINARY

#define KFIELD_IMPL_FIELD_COMPARE(op, code, kind)                                          \
  template <class T>                                                                        \
  Field<bool> operator op(const Field<T>& a, const Field<T>& b) {                           \
    return impl::compare(impl::OpCode::code, kind, a, b);                                   \
  }                                                                                         \
  template <class T, class S, class = std::enable_if_t<std::is_arithmetic<S>::value>>       \
  Field<bool> operator op(const Field<T>& a, S b) {                                         \
    return impl::compare(impl::OpCode::code, kind, a, a.program().constant(T(b)));          \
  }                                                                                         \
  template <class T, class S, class = std::enable_if_t<std::is_arithmetic<S>::value>>       \
  Field<bool> operator op(S a, const Field<T>& b) {                                         \
    return impl::compare(impl::OpCode::code, kind, b.program().constant(T(a)), b);          \
  }
KFIELD_IMPL_FIELD_COMPARE(<, Less, "less")
KFIELD_IMPL_FIELD_COMPARE(<=, LessEqual, "less_equal")
KFIELD_IMPL_FIELD_COMPARE(>, Greater, "greater")
KFIELD_IMPL_FIELD_COMPARE(>=, GreaterEqual, "greater_equal")
KFIELD_IMPL_FIELD_COMPARE(==, Equal, "equal")
KFIELD_IMPL_FIELD_COMPARE(!=, NotEqual, "not_equal")
#undef KFIELD_IMPL_FIELD_COMPARE

inline Field<bool> operator&&(const Field<bool>& a, const Field<bool>& b) {
  return impl::binary(impl::OpCode::And, "and", a, b);
}
inline Field<bool> operator||(const Field<bool>& a, const Field<bool>& b) {
  return impl::binary(impl::OpCode::Or, "or", a, b);
}
inline Field<bool> operator!(const Field<bool>& a) { return impl::unary(impl::OpCode::Not, "not", a); }
template <class T>
Field<T> operator-(const Field<T>& a) {
  return impl::unary(impl::OpCode::Neg, "neg", a);
}
template <class T>
Field<T> min(const Field<T>& a, const Field<T>& b) {
  return impl::binary(impl::OpCode::Min, "min", a, b);
}
template <class T>
Field<T> max(const Field<T>& a, const Field<T>& b) {
  return impl::binary(impl::OpCode::Max, "max", a, b);
}
template <class T>
Field<T> abs(const Field<T>& a) {
  return impl::unary(impl::OpCode::Abs, "abs", a);
}
inline Field<double> sqrt(const Field<double>& a) {
  return impl::unary(impl::OpCode::Sqrt, "sqrt", a);
}
// A field of T as a field of double (values are stored as doubles: no operation).
template <class T>
Field<double> toDouble(const Field<T>& a) {
  return a.program().template wrap<double>(a.operand());
}

// ---- neighbour fields: entry by entry ----
#define KFIELD_IMPL_NBR_BINARY(op, code)                                                    \
  template <class T>                                                                        \
  NbrField<T> operator op(const NbrField<T>& a, const NbrField<T>& b) {                     \
    return impl::nbrBinary(impl::EntryCode::code, a, b.expression());                       \
  }                                                                                         \
  template <class T>                                                                        \
  NbrField<T> operator op(const NbrField<T>& a, const Field<T>& b) {                        \
    return impl::nbrBinary(impl::EntryCode::code, a, a.program().nbrLocal(b.operand()));    \
  }                                                                                         \
  template <class T, class S, class = std::enable_if_t<std::is_arithmetic<S>::value>>       \
  NbrField<T> operator op(const NbrField<T>& a, S b) {                                      \
    return impl::nbrBinary(impl::EntryCode::code, a,                                        \
                           a.program().nbrLocal(impl::Operand{-1, double(T(b))}));          \
  }
KFIELD_IMPL_NBR_BINARY(+, Add)
KFIELD_IMPL_NBR_BINARY(-, Sub)
KFIELD_IMPL_NBR_BINARY(*, Mul)
KFIELD_IMPL_NBR_BINARY(/, Div)
#undef KFIELD_IMPL_NBR_BINARY

template <class T>
NbrField<bool> operator==(const NbrField<T>& a, const Field<T>& b) {
  return a.program().template wrapNbr<bool>(
      a.program().nbrCombine(impl::EntryCode::Equal, a.expression(), a.program().nbrLocal(b.operand())),
      a.excludesSelf());
}
template <class T>
NbrField<bool> operator<(const NbrField<T>& a, const Field<T>& b) {
  return a.program().template wrapNbr<bool>(
      a.program().nbrCombine(impl::EntryCode::Less, a.expression(), a.program().nbrLocal(b.operand())),
      a.excludesSelf());
}

template <class T>
Field<T> NbrField<T>::min() const {
  return program_->template wrap<T>(program_->fold(impl::FoldCode::Min, expression_, excludeSelf_));
}
template <class T>
Field<T> NbrField<T>::max() const {
  return program_->template wrap<T>(program_->fold(impl::FoldCode::Max, expression_, excludeSelf_));
}
template <class T>
Field<T> NbrField<T>::sum() const {
  return program_->template wrap<T>(program_->fold(impl::FoldCode::Sum, expression_, excludeSelf_));
}
template <class T>
Field<T> NbrField<T>::self() const {
  return program_->template wrap<T>(program_->fold(impl::FoldCode::Self, expression_, false));
}
template <class T>
Field<int> NbrField<T>::count() const {
  return program_->template wrap<int>(
      program_->fold(impl::FoldCode::Count, expression_, excludeSelf_));
}

}  // namespace kfield

#endif
