// Handles to the values of a program being traced: a field (one value per device and sample)
// and a neighbor field (one value per device, sample and neighbor), folded to a field.
#ifndef KFIELD_FIELD_FIELD_HPP
#define KFIELD_FIELD_FIELD_HPP

#include "kfield/field/impl/Bytecode.hpp"

#include <cstdint>

namespace kfield {

class Program;
namespace impl {
struct Tracer;
}

// A field of T (double, int or bool; stored as double in the engine, so ints are exact up to
// 2^53). Made by a Program's operators; a handle, cheap to copy.
template <class T>
class Field {
 public:
  Field() = default;
  Program& program() const { return *program_; }
  bool isConstant() const { return operand_.slot < 0; }

 private:
  friend class Program;
  friend struct impl::Tracer;
  Field(Program* program, impl::Operand operand) : program_(program), operand_(operand) {}
  Program* program_ = nullptr;
  impl::Operand operand_;
};

// Values seen across the neighborhood: a neighbor's export (the device's own current value
// for itself), edge lengths, the device's own fields and constants, combined entry by entry.
template <class T>
class NbrField {
 public:
  // Leaves the device itself out of the folds.
  NbrField excludeSelf() const {
    NbrField f = *this;
    f.excludeSelf_ = true;
    return f;
  }
  bool excludesSelf() const { return excludeSelf_; }
  Program& program() const { return *program_; }

  // Folds over the neighborhood in network (CSR) order, over the neighbors aligned with this
  // device. An empty fold gives +inf (min), -inf (max), 0 (sum, count). A boolean neighbor
  // field folds with any() (empty: false) and all() (empty: true) instead of min, max, sum.
  Field<T> min() const;
  Field<T> max() const;
  Field<T> sum() const;
  Field<int> count() const;
  Field<bool> any() const;
  Field<bool> all() const;
  // The device's own entry (in a share: the value it shared last round).
  Field<T> self() const;

 private:
  friend class Program;
  friend struct impl::Tracer;
  NbrField(Program* program, std::int32_t expression, bool excludeSelf)
      : program_(program), expression_(expression), excludeSelf_(excludeSelf) {}
  Program* program_ = nullptr;
  std::int32_t expression_ = -1;
  bool excludeSelf_ = false;
};

}  // namespace kfield

#endif
