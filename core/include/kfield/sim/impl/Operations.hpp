// What the operations of a round compute, one definition for every way a round runs: the round
// kernel's loops and the compiled rounds (kfield/sim/CompiledRound.hpp) call these.
#ifndef KFIELD_SIM_IMPL_OPERATIONS_HPP
#define KFIELD_SIM_IMPL_OPERATIONS_HPP

#include "kfield/Random.hpp"
#include "kfield/field/impl/Bytecode.hpp"
#include "kfield/impl/Bits.hpp"
#include "kfield/impl/KokkosCompat.hpp"
#include "kfield/impl/PortableMath.hpp"

#include <Kokkos_Core.hpp>

namespace kfield::impl {

// The alignment context of key inside parent: a 53-bit hash, never 0 (0 means "absent").
KOKKOS_INLINE_FUNCTION double contextMix(double parent, double key) {
  if (key == 0.0) key = 0.0;  // -0.0 and 0.0 are one key
  return double((mix64(bitsOf(parent), bitsOf(key)) >> 11) | 1u);
}

// Calls f(operation) with an entry operation on registers a (and b), the field operator of
// the same name, as a type: a loop over it has nothing left to decide.
KFIELD_IMPL_EXEC_CHECK_DISABLE
template <class F>
KOKKOS_INLINE_FUNCTION void withEntryOperation(EntryCode code, const F& f) {
  switch (code) {
    case EntryCode::Add: return f([](double a, double b) { return a + b; });
    case EntryCode::Sub: return f([](double a, double b) { return a - b; });
    case EntryCode::Mul: return f([](double a, double b) { return a * b; });
    case EntryCode::Div: return f([](double a, double b) { return a / b; });
    case EntryCode::Min: return f([](double a, double b) { return b < a ? b : a; });
    case EntryCode::Max: return f([](double a, double b) { return a < b ? b : a; });
    case EntryCode::Less: return f([](double a, double b) { return a < b ? 1.0 : 0.0; });
    case EntryCode::Equal: return f([](double a, double b) { return a == b ? 1.0 : 0.0; });
    case EntryCode::LessEqual: return f([](double a, double b) { return a <= b ? 1.0 : 0.0; });
    case EntryCode::Greater: return f([](double a, double b) { return a > b ? 1.0 : 0.0; });
    case EntryCode::GreaterEqual: return f([](double a, double b) { return a >= b ? 1.0 : 0.0; });
    case EntryCode::NotEqual: return f([](double a, double b) { return a != b ? 1.0 : 0.0; });
    case EntryCode::And:
      return f([](double a, double b) { return (a == 1.0 && b == 1.0) ? 1.0 : 0.0; });
    case EntryCode::Or:
      return f([](double a, double b) { return (a == 1.0 || b == 1.0) ? 1.0 : 0.0; });
    case EntryCode::Pow: return f([](double a, double b) { return portable::pow(a, b); });
    case EntryCode::Neg: return f([](double a, double) { return -a; });
    case EntryCode::Not: return f([](double a, double) { return a == 1.0 ? 0.0 : 1.0; });
    case EntryCode::Abs: return f([](double a, double) { return math::fabs(a); });
    case EntryCode::Sqrt: return f([](double a, double) { return math::sqrt(a); });
    case EntryCode::Exp: return f([](double a, double) { return portable::exp(a); });
    case EntryCode::Log: return f([](double a, double) { return portable::log(a); });
    case EntryCode::Tanh: return f([](double a, double) { return portable::tanh(a); });
    case EntryCode::Sigmoid: return f([](double a, double) { return portable::sigmoid(a); });
    case EntryCode::Floor: return f([](double a, double) { return math::floor(a); });
    case EntryCode::Ceil: return f([](double a, double) { return math::ceil(a); });
    default: return f([](double, double) { return 0.0; });  // leaves and Mux: not operations
  }
}
KOKKOS_INLINE_FUNCTION double entryOperation(EntryCode code, double a, double b) {
  double result = 0.0;
  withEntryOperation(code, [&](const auto& op) { result = op(a, b); });
  return result;
}

// The entry operation computing what pointwise field operator `code` computes (the same
// expression), or Constant where none does.
KOKKOS_INLINE_FUNCTION constexpr EntryCode pointwiseEntry(OpCode code) {
  switch (code) {
    case OpCode::Neg: return EntryCode::Neg;
    case OpCode::Not: return EntryCode::Not;
    case OpCode::Abs: return EntryCode::Abs;
    case OpCode::Sqrt: return EntryCode::Sqrt;
    case OpCode::Exp: return EntryCode::Exp;
    case OpCode::Log: return EntryCode::Log;
    case OpCode::Tanh: return EntryCode::Tanh;
    case OpCode::Sigmoid: return EntryCode::Sigmoid;
    case OpCode::Pow: return EntryCode::Pow;
    case OpCode::Add: return EntryCode::Add;
    case OpCode::Sub: return EntryCode::Sub;
    case OpCode::Mul: return EntryCode::Mul;
    case OpCode::Div: return EntryCode::Div;
    case OpCode::Min: return EntryCode::Min;
    case OpCode::Max: return EntryCode::Max;
    case OpCode::Less: return EntryCode::Less;
    case OpCode::LessEqual: return EntryCode::LessEqual;
    case OpCode::Greater: return EntryCode::Greater;
    case OpCode::GreaterEqual: return EntryCode::GreaterEqual;
    case OpCode::Equal: return EntryCode::Equal;
    case OpCode::NotEqual: return EntryCode::NotEqual;
    case OpCode::And: return EntryCode::And;
    case OpCode::Or: return EntryCode::Or;
    case OpCode::Floor: return EntryCode::Floor;
    case OpCode::Ceil: return EntryCode::Ceil;
    default: return EntryCode::Constant;
  }
}

// Calls f(combine) with the fold's combining function as a type, so that the loops over it
// are compiled once per fold kind with nothing to decide inside them. (f may be host code:
// compiled rounds call it from plain C++.)
KFIELD_IMPL_EXEC_CHECK_DISABLE
template <class F>
KOKKOS_INLINE_FUNCTION void withCombine(FoldCode code, const F& f) {
  switch (code) {
    case FoldCode::Min: return f([](double acc, double v) { return v < acc ? v : acc; });
    case FoldCode::Max: return f([](double acc, double v) { return acc < v ? v : acc; });
    case FoldCode::Sum: return f([](double acc, double v) { return acc + v; });
    case FoldCode::Count: return f([](double acc, double) { return acc + 1.0; });
    case FoldCode::Any:
      return f([](double acc, double v) { return acc == 1.0 || v == 1.0 ? 1.0 : 0.0; });
    case FoldCode::All:
      return f([](double acc, double v) { return acc == 1.0 && v == 1.0 ? 1.0 : 0.0; });
    default: return f([](double, double v) { return v; });  // Self: only its entry is visited
  }
}

// A fold's result over no entries.
KOKKOS_INLINE_FUNCTION double initialOf(FoldCode code) {
  const double inf = math::infinity();
  return code == FoldCode::Min   ? inf
         : code == FoldCode::Max ? -inf
         : code == FoldCode::All ? 1.0
                                 : 0.0;
}

}  // namespace kfield::impl

#endif
