// The one way into a Program's recording for code outside it: the operators on fields and
// the folds of neighbor fields (kfield/field/Operators.hpp) record through here.
// Included by Operators.hpp, after Program is complete.
#ifndef KFIELD_FIELD_IMPL_TRACER_HPP
#define KFIELD_FIELD_IMPL_TRACER_HPP

#include "kfield/field/Field.hpp"
#include "kfield/field/Program.hpp"
#include "kfield/field/impl/Bytecode.hpp"

#include <cstdint>
#include <utility>
#include <vector>

namespace kfield::impl {

struct Tracer {
  template <class T>
  static Operand operand(const Field<T>& f) {
    return f.operand_;
  }
  template <class T>
  static Field<T> field(Program& p, Operand v) {
    return {&p, v};
  }

  // out = code(a, b) or code(a), recorded as a node of the given kind.
  template <class R, class T>
  static Field<R> apply(OpCode code, const char* kind, const Field<T>& a, const Field<T>& b) {
    return {a.program_, a.program_->emit(code, kind, a.operand_, b.operand_)};
  }
  template <class T>
  static Field<T> apply(OpCode code, const char* kind, const Field<T>& a) {
    return {a.program_, a.program_->emit(code, kind, a.operand_)};
  }
  template <class T>
  static Field<T> constant(const Field<T>& like, double value) {
    return {like.program_, Operand{-1, value}};
  }

  // Entry by entry: a neighbor field with another (or with a local value, or a constant).
  template <class R, class T>
  static NbrField<R> combine(EntryCode code, const NbrField<T>& a, const NbrField<T>& b) {
    return {a.program_, a.program_->nbrCombine(code, a.expression_, b.expression_), a.excludeSelf_};
  }
  template <class R, class T>
  static NbrField<R> combine(EntryCode code, const NbrField<T>& a, Operand local) {
    return {a.program_, a.program_->nbrCombine(code, a.expression_, a.program_->nbrLocal(local)),
            a.excludeSelf_};
  }

  template <class R, class T>
  static NbrField<R> combine(EntryCode code, Operand local, const NbrField<T>& b) {
    return {b.program_, b.program_->nbrCombine(code, b.program_->nbrLocal(local), b.expression_),
            b.excludeSelf_};
  }

  template <class R, class T>
  static NbrField<R> combine(EntryCode code, const NbrField<T>& a) {  // f(entry)
    return {a.program_, a.program_->nbrCombine(code, a.expression_, -1), a.excludeSelf_};
  }

  template <class R, class T>
  static Field<R> fold(FoldCode code, const NbrField<T>& f, bool excludeSelf) {
    return {f.program_, f.program_->fold(code, f.expression_, excludeSelf)};
  }

  // The lexicographic min or max of a tuple neighbor field (Program::lexicographicFold).
  template <class... Ts>
  static Field<Tuple<Ts...>> lexicographic(FoldCode code, const NbrField<Tuple<Ts...>>& f) {
    return lexicographic(code, f, std::index_sequence_for<Ts...>{});
  }
  template <class... Ts, std::size_t... I>
  static Field<Tuple<Ts...>> lexicographic(FoldCode code, const NbrField<Tuple<Ts...>>& f,
                                           std::index_sequence<I...>) {
    Program& p = f.program();
    const std::vector<std::int32_t> expressions{f.template get<I>().expression_...};
    return p.template tupleOf<Ts...>(p.lexicographicFold(code, expressions, f.excludesSelf()));
  }
};

}  // namespace kfield::impl

#endif
