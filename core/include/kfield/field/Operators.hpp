// Arithmetic, comparisons and logic on fields and neighbor fields, and the folds of neighbor
// fields. Each records one operation in the field's Program.
#ifndef KFIELD_FIELD_OPERATORS_HPP
#define KFIELD_FIELD_OPERATORS_HPP

#include "kfield/field/Program.hpp"
#include "kfield/field/impl/Tracer.hpp"

#include <type_traits>

namespace kfield {

#define KFIELD_IMPL_FIELD_BINARY(op, R, code, kind)                                   \
  template <class T>                                                                  \
  Field<R> operator op(const Field<T>& a, const Field<T>& b) {                        \
    return impl::Tracer::apply<R>(impl::OpCode::code, kind, a, b);                    \
  }                                                                                   \
  template <class T, class S, class = std::enable_if_t<std::is_arithmetic<S>::value>> \
  Field<R> operator op(const Field<T>& a, S b) {                                      \
    return impl::Tracer::apply<R>(impl::OpCode::code, kind, a,                        \
                                  impl::Tracer::constant(a, double(T(b))));           \
  }                                                                                   \
  template <class T, class S, class = std::enable_if_t<std::is_arithmetic<S>::value>> \
  Field<R> operator op(S a, const Field<T>& b) {                                      \
    return impl::Tracer::apply<R>(impl::OpCode::code, kind,                           \
                                  impl::Tracer::constant(b, double(T(a))), b);        \
  }
KFIELD_IMPL_FIELD_BINARY(+, T, Add, "add")
KFIELD_IMPL_FIELD_BINARY(-, T, Sub, "sub")
KFIELD_IMPL_FIELD_BINARY(*, T, Mul, "mul")
KFIELD_IMPL_FIELD_BINARY(/, T, Div, "div")
KFIELD_IMPL_FIELD_BINARY(<, bool, Less, "less")
KFIELD_IMPL_FIELD_BINARY(<=, bool, LessEqual, "less_equal")
KFIELD_IMPL_FIELD_BINARY(>, bool, Greater, "greater")
KFIELD_IMPL_FIELD_BINARY(>=, bool, GreaterEqual, "greater_equal")
KFIELD_IMPL_FIELD_BINARY(==, bool, Equal, "equal")
KFIELD_IMPL_FIELD_BINARY(!=, bool, NotEqual, "not_equal")
#undef KFIELD_IMPL_FIELD_BINARY

// Integer operators on fields of int (impl/IntegerMath.hpp): / truncates toward zero and %
// takes the dividend's sign, as in C++; &, |, ^, ~ on two's complement; << and >> (arithmetic)
// by 0 to 63. Exact in [-2^53, 2^53]; a result outside it, a division by zero or a shift
// count outside [0, 63] gives NaN.
#define KFIELD_IMPL_INT_BINARY(op, code, kind)                                          \
  inline Field<int> operator op(const Field<int>& a, const Field<int>& b) {             \
    return impl::Tracer::apply<int>(impl::OpCode::code, kind, a, b);                    \
  }                                                                                     \
  template <class S, class = std::enable_if_t<std::is_integral<S>::value>>              \
  Field<int> operator op(const Field<int>& a, S b) {                                    \
    return a op impl::Tracer::constant(a, double(b));                                   \
  }                                                                                     \
  template <class S, class = std::enable_if_t<std::is_integral<S>::value>>              \
  Field<int> operator op(S a, const Field<int>& b) {                                    \
    return impl::Tracer::constant(b, double(a)) op b;                                   \
  }                                                                                     \
  /* a field of int and a floating-point constant: say which with toDouble or an int */ \
  template <class S, std::enable_if_t<std::is_floating_point<S>::value, int> = 0>       \
  Field<int> operator op(const Field<int>& a, S b) = delete;                            \
  template <class S, std::enable_if_t<std::is_floating_point<S>::value, int> = 0>       \
  Field<int> operator op(S a, const Field<int>& b) = delete;
KFIELD_IMPL_INT_BINARY(/, IntDiv, "int_div")
KFIELD_IMPL_INT_BINARY(%, IntMod, "int_mod")
KFIELD_IMPL_INT_BINARY(&, BitAnd, "bit_and")
KFIELD_IMPL_INT_BINARY(|, BitOr, "bit_or")
KFIELD_IMPL_INT_BINARY(^, BitXor, "bit_xor")
KFIELD_IMPL_INT_BINARY(<<, ShiftLeft, "shift_left")
KFIELD_IMPL_INT_BINARY(>>, ShiftRight, "shift_right")
#undef KFIELD_IMPL_INT_BINARY
inline Field<int> operator~(const Field<int>& a) {
  return impl::Tracer::apply(impl::OpCode::BitNot, "bit_not", a);
}

inline Field<bool> operator&&(const Field<bool>& a, const Field<bool>& b) {
  return impl::Tracer::apply<bool>(impl::OpCode::And, "and", a, b);
}
inline Field<bool> operator||(const Field<bool>& a, const Field<bool>& b) {
  return impl::Tracer::apply<bool>(impl::OpCode::Or, "or", a, b);
}
inline Field<bool> operator!(const Field<bool>& a) {
  return impl::Tracer::apply(impl::OpCode::Not, "not", a);
}
template <class T>
Field<T> operator-(const Field<T>& a) {
  return impl::Tracer::apply(impl::OpCode::Neg, "neg", a);
}
template <class T>
Field<T> min(const Field<T>& a, const Field<T>& b) {
  return impl::Tracer::apply<T>(impl::OpCode::Min, "min", a, b);
}
template <class T>
Field<T> max(const Field<T>& a, const Field<T>& b) {
  return impl::Tracer::apply<T>(impl::OpCode::Max, "max", a, b);
}
template <class T>
Field<T> abs(const Field<T>& a) {
  return impl::Tracer::apply(impl::OpCode::Abs, "abs", a);
}
inline Field<double> sqrt(const Field<double>& a) {
  return impl::Tracer::apply(impl::OpCode::Sqrt, "sqrt", a);
}
// The smooth functions a learnable update needs (each with its vector-Jacobian product).
inline Field<double> exp(const Field<double>& a) {
  return impl::Tracer::apply(impl::OpCode::Exp, "exp", a);
}
inline Field<double> log(const Field<double>& a) {
  return impl::Tracer::apply(impl::OpCode::Log, "log", a);
}
inline Field<double> tanh(const Field<double>& a) {
  return impl::Tracer::apply(impl::OpCode::Tanh, "tanh", a);
}
// 1 / (1 + exp(-a)).
inline Field<double> sigmoid(const Field<double>& a) {
  return impl::Tracer::apply(impl::OpCode::Sigmoid, "sigmoid", a);
}
// Rounded to an integer value, toward -inf and +inf (no gradient).
inline Field<double> floor(const Field<double>& a) {
  return impl::Tracer::apply(impl::OpCode::Floor, "floor", a);
}
inline Field<double> ceil(const Field<double>& a) {
  return impl::Tracer::apply(impl::OpCode::Ceil, "ceil", a);
}
inline Field<double> pow(const Field<double>& a, const Field<double>& b) {
  return impl::Tracer::apply<double>(impl::OpCode::Pow, "pow", a, b);
}
inline Field<double> pow(const Field<double>& a, double b) {
  return pow(a, impl::Tracer::constant(a, b));
}
inline Field<double> pow(double a, const Field<double>& b) {
  return pow(impl::Tracer::constant(b, a), b);
}
// A field of T as a field of double (values are stored as doubles: no operation).
template <class T>
Field<double> toDouble(const Field<T>& a) {
  return impl::Tracer::field<double>(a.program(), impl::Tracer::operand(a));
}

// ---- neighbor fields: entry by entry ----
#define KFIELD_IMPL_NBR_BINARY(op, code)                                                        \
  template <class T>                                                                            \
  NbrField<T> operator op(const NbrField<T>& a, const NbrField<T>& b) {                         \
    return impl::Tracer::combine<T>(impl::EntryCode::code, a, b);                               \
  }                                                                                             \
  template <class T>                                                                            \
  NbrField<T> operator op(const NbrField<T>& a, const Field<T>& b) {                            \
    return impl::Tracer::combine<T>(impl::EntryCode::code, a, impl::Tracer::operand(b));        \
  }                                                                                             \
  template <class T, class S, class = std::enable_if_t<std::is_arithmetic<S>::value>>           \
  NbrField<T> operator op(const NbrField<T>& a, S b) {                                          \
    return impl::Tracer::combine<T>(impl::EntryCode::code, a, impl::Operand{-1, double(T(b))}); \
  }                                                                                             \
  template <class T>                                                                            \
  NbrField<T> operator op(const Field<T>& a, const NbrField<T>& b) {                            \
    return impl::Tracer::combine<T>(impl::EntryCode::code, impl::Tracer::operand(a), b);        \
  }                                                                                             \
  template <class T, class S, class = std::enable_if_t<std::is_arithmetic<S>::value>>           \
  NbrField<T> operator op(S a, const NbrField<T>& b) {                                          \
    return impl::Tracer::combine<T>(impl::EntryCode::code, impl::Operand{-1, double(T(a))}, b); \
  }
KFIELD_IMPL_NBR_BINARY(+, Add)
KFIELD_IMPL_NBR_BINARY(-, Sub)
KFIELD_IMPL_NBR_BINARY(*, Mul)
KFIELD_IMPL_NBR_BINARY(/, Div)
#undef KFIELD_IMPL_NBR_BINARY
// Entries of int would divide as reals: fold first, or divide toDouble'd fields.
NbrField<int> operator/(const NbrField<int>& a, const NbrField<int>& b) = delete;
NbrField<int> operator/(const NbrField<int>& a, const Field<int>& b) = delete;
NbrField<int> operator/(const Field<int>& a, const NbrField<int>& b) = delete;

// Comparisons entry by entry: with another neighbor field, a field or a constant.
#define KFIELD_IMPL_NBR_COMPARE(op, code)                                                          \
  template <class T>                                                                               \
  NbrField<bool> operator op(const NbrField<T>& a, const NbrField<T>& b) {                         \
    return impl::Tracer::combine<bool>(impl::EntryCode::code, a, b);                               \
  }                                                                                                \
  template <class T>                                                                               \
  NbrField<bool> operator op(const NbrField<T>& a, const Field<T>& b) {                            \
    return impl::Tracer::combine<bool>(impl::EntryCode::code, a, impl::Tracer::operand(b));        \
  }                                                                                                \
  template <class T, class S, class = std::enable_if_t<std::is_arithmetic<S>::value>>              \
  NbrField<bool> operator op(const NbrField<T>& a, S b) {                                          \
    return impl::Tracer::combine<bool>(impl::EntryCode::code, a, impl::Operand{-1, double(T(b))}); \
  }
KFIELD_IMPL_NBR_COMPARE(<, Less)
KFIELD_IMPL_NBR_COMPARE(<=, LessEqual)
KFIELD_IMPL_NBR_COMPARE(>, Greater)
KFIELD_IMPL_NBR_COMPARE(>=, GreaterEqual)
KFIELD_IMPL_NBR_COMPARE(==, Equal)
KFIELD_IMPL_NBR_COMPARE(!=, NotEqual)
#undef KFIELD_IMPL_NBR_COMPARE

// Logic entry by entry (only an exact 1 is true).
inline NbrField<bool> operator&&(const NbrField<bool>& a, const NbrField<bool>& b) {
  return impl::Tracer::combine<bool>(impl::EntryCode::And, a, b);
}
inline NbrField<bool> operator&&(const NbrField<bool>& a, const Field<bool>& b) {
  return impl::Tracer::combine<bool>(impl::EntryCode::And, a, impl::Tracer::operand(b));
}
inline NbrField<bool> operator||(const NbrField<bool>& a, const NbrField<bool>& b) {
  return impl::Tracer::combine<bool>(impl::EntryCode::Or, a, b);
}
inline NbrField<bool> operator||(const NbrField<bool>& a, const Field<bool>& b) {
  return impl::Tracer::combine<bool>(impl::EntryCode::Or, a, impl::Tracer::operand(b));
}
inline NbrField<bool> operator!(const NbrField<bool>& a) {
  return impl::Tracer::combine<bool>(impl::EntryCode::Not, a);
}

// The pointwise functions entry by entry, with the same bits as on fields.
template <class T>
NbrField<T> operator-(const NbrField<T>& a) {
  return impl::Tracer::combine<T>(impl::EntryCode::Neg, a);
}
// Entry by entry, as the field min and max (ties and NaN: the first operand).
#define KFIELD_IMPL_NBR_EXTREME(name, code)                                                     \
  template <class T>                                                                            \
  NbrField<T> name(const NbrField<T>& a, const NbrField<T>& b) {                                \
    return impl::Tracer::combine<T>(impl::EntryCode::code, a, b);                               \
  }                                                                                             \
  template <class T>                                                                            \
  NbrField<T> name(const NbrField<T>& a, const Field<T>& b) {                                   \
    return impl::Tracer::combine<T>(impl::EntryCode::code, a, impl::Tracer::operand(b));        \
  }                                                                                             \
  template <class T, class S, class = std::enable_if_t<std::is_arithmetic<S>::value>>           \
  NbrField<T> name(const NbrField<T>& a, S b) {                                                 \
    return impl::Tracer::combine<T>(impl::EntryCode::code, a, impl::Operand{-1, double(T(b))}); \
  }
KFIELD_IMPL_NBR_EXTREME(min, Min)
KFIELD_IMPL_NBR_EXTREME(max, Max)
#undef KFIELD_IMPL_NBR_EXTREME
template <class T>
NbrField<T> abs(const NbrField<T>& a) {
  return impl::Tracer::combine<T>(impl::EntryCode::Abs, a);
}
#define KFIELD_IMPL_NBR_FUNCTION(name, code)                        \
  inline NbrField<double> name(const NbrField<double>& a) {         \
    return impl::Tracer::combine<double>(impl::EntryCode::code, a); \
  }
KFIELD_IMPL_NBR_FUNCTION(sqrt, Sqrt)
KFIELD_IMPL_NBR_FUNCTION(exp, Exp)
KFIELD_IMPL_NBR_FUNCTION(log, Log)
KFIELD_IMPL_NBR_FUNCTION(tanh, Tanh)
KFIELD_IMPL_NBR_FUNCTION(sigmoid, Sigmoid)
KFIELD_IMPL_NBR_FUNCTION(floor, Floor)
KFIELD_IMPL_NBR_FUNCTION(ceil, Ceil)
#undef KFIELD_IMPL_NBR_FUNCTION
inline NbrField<double> pow(const NbrField<double>& a, const NbrField<double>& b) {
  return impl::Tracer::combine<double>(impl::EntryCode::Pow, a, b);
}
inline NbrField<double> pow(const NbrField<double>& a, const Field<double>& b) {
  return impl::Tracer::combine<double>(impl::EntryCode::Pow, a, impl::Tracer::operand(b));
}
inline NbrField<double> pow(const NbrField<double>& a, double b) {
  return impl::Tracer::combine<double>(impl::EntryCode::Pow, a, impl::Operand{-1, b});
}

// min, max and sum of booleans would leave {0, 1} (an empty max is -inf): any() and all().
#define KFIELD_IMPL_NOT_BOOLEAN(fold)          \
  static_assert(!std::is_same<T, bool>::value, \
                "fold a boolean neighbor field with any() or all(), not " fold "()")
template <class T>
Field<T> NbrField<T>::min() const {
  KFIELD_IMPL_NOT_BOOLEAN("min");
  return impl::Tracer::fold<T>(impl::FoldCode::Min, *this, excludeSelf_);
}
template <class T>
Field<T> NbrField<T>::max() const {
  KFIELD_IMPL_NOT_BOOLEAN("max");
  return impl::Tracer::fold<T>(impl::FoldCode::Max, *this, excludeSelf_);
}
template <class T>
Field<T> NbrField<T>::sum() const {
  KFIELD_IMPL_NOT_BOOLEAN("sum");
  return impl::Tracer::fold<T>(impl::FoldCode::Sum, *this, excludeSelf_);
}
#undef KFIELD_IMPL_NOT_BOOLEAN
template <class T>
Field<bool> NbrField<T>::any() const {
  static_assert(std::is_same<T, bool>::value, "any() folds a boolean neighbor field");
  return impl::Tracer::fold<bool>(impl::FoldCode::Any, *this, excludeSelf_);
}
template <class T>
Field<bool> NbrField<T>::all() const {
  static_assert(std::is_same<T, bool>::value, "all() folds a boolean neighbor field");
  return impl::Tracer::fold<bool>(impl::FoldCode::All, *this, excludeSelf_);
}
template <class T>
Field<T> NbrField<T>::self() const {
  return impl::Tracer::fold<T>(impl::FoldCode::Self, *this, false);
}
template <class T>
Field<int> NbrField<T>::count() const {
  return impl::Tracer::fold<int>(impl::FoldCode::Count, *this, excludeSelf_);
}

}  // namespace kfield

#include "kfield/field/Processes.hpp"
#include "kfield/field/TupleOperators.hpp"

#endif
