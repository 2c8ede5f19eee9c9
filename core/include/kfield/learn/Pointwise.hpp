// Pointwise programs: assignments of expressions over numbered 64-bit slots that hold
// binary64 values. The learner's contribution and update rules are written in them (see
// DataParallelSystem.hpp for the slot layouts). Word, wordOf and valueOf move binary64 values
// in and out of slot words bit for bit.
//
// Semantics. A program runs its assignments in order and each one sees every earlier write
// (sequential, in place): a contribution may use one of its output slots as a temporary
// before overwriting it. Four forms of assignment:
//   set     slot[dest] := e
//   each    slot[dest + i] := e(i)        for i = 0, 1, ..., count - 1, in that order
//   fold    slot[dest] := e(0) op e(1) op ... op e(count - 1), left to right
//   sum     slot[dest] := the inner sum of e(0), ..., e(count - 1): 16 lanes, term i in lane
//           i mod 16, lanes combined by halving (kfield/sum/InnerSum.hpp); vectorises, where
//           a long left-to-right fold waits on every addition
// where e(i) reads `indexed(b)` as slot[b + i] (and as slot[b] in a set). `each`, `fold` and
// `sum` are notation for the count assignments (or the one long expression) they stand for: they
// keep a rule over 10^7 coordinates a few words long. The instances of an `each` may not
// read a slot that another of its instances writes (they would see it half updated, which
// no parallel evaluation reproduces); such a program is refused with the assignment named.
//
// Encoding (the program's identity): 64-bit little-endian words
//   slots, assignments, then per assignment: dest, count, form (0 set, 1 each,
//   2 + binary op for fold, 8 sum), code length L, L code words;
// a code word holds its opcode in the low 8 bits and a slot number above them; a constant
// is the opcode word followed by the constant's own 64 bits. Code is postfix.
#ifndef KFIELD_LEARN_POINTWISE_HPP
#define KFIELD_LEARN_POINTWISE_HPP

#include <Kokkos_Macros.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace kfield {

using Word = std::uint64_t;  // a 64-bit slot word holding a binary64
Word wordOf(double value);
double valueOf(Word word);

namespace pointwise {

enum class Unary : std::uint8_t { Neg, Abs, Sqrt, Exp, Log, Floor, Ceil };
enum class Binary : std::uint8_t { Add, Sub, Mul, Div, Min, Max };

namespace opcode {
constexpr std::uint64_t kConstant = 1;  // the next word is the value's bits
constexpr std::uint64_t kRead = 2;      // slot[operand]
constexpr std::uint64_t kIndexed = 3;   // slot[operand + i]
constexpr std::uint64_t kUnary = 16;    // + Unary
constexpr std::uint64_t kBinary = 32;   // + Binary
}  // namespace opcode

// A code word: the opcode in the low 8 bits, the operand (a slot) above them.
KOKKOS_INLINE_FUNCTION constexpr std::uint64_t opcodeOf(std::uint64_t word) { return word & 0xff; }
KOKKOS_INLINE_FUNCTION constexpr std::int64_t operandOf(std::uint64_t word) {
  return static_cast<std::int64_t>(word >> 8);
}
// Throws std::invalid_argument for a slot outside [0, 2^55).
std::uint64_t codeWord(std::uint64_t opcode, std::int64_t slot);

std::string describe(Unary op);
std::string describe(Binary op);

// An expression under construction: postfix code words.
class Expr {
 public:
  Expr(double value);  // NOLINT: constants read naturally in rules
  static Expr word(std::uint64_t bits);
  static Expr slot(std::int64_t index);
  static Expr indexed(std::int64_t base);

  const std::vector<std::uint64_t>& code() const { return code_; }

  friend Expr apply(Unary op, Expr a);
  friend Expr apply(Binary op, Expr a, const Expr& b);

 private:
  Expr() = default;
  std::vector<std::uint64_t> code_;
};

Expr operator+(Expr a, const Expr& b);
Expr operator-(Expr a, const Expr& b);
Expr operator*(Expr a, const Expr& b);
Expr operator/(Expr a, const Expr& b);
Expr operator-(Expr a);
Expr min(Expr a, const Expr& b);
Expr max(Expr a, const Expr& b);
Expr abs(Expr a);
Expr sqrt(Expr a);
Expr exp(Expr a);
Expr log(Expr a);
Expr floor(Expr a);
Expr ceil(Expr a);

enum class Form : std::uint8_t { Set, Each, Fold, Sum };

struct Assignment {
  std::int64_t dest = 0;
  std::int64_t count = 1;
  Form form = Form::Set;
  Binary fold = Binary::Add;  // the fold's operator
  std::vector<std::uint64_t> code;
};

Assignment set(std::int64_t dest, const Expr& value);
Assignment each(std::int64_t dest, std::int64_t count, const Expr& value);
Assignment fold(std::int64_t dest, Binary op, std::int64_t count, const Expr& value);
Assignment sum(std::int64_t dest, std::int64_t count, const Expr& value);

}  // namespace pointwise

struct PointwiseProgram {
  std::int64_t slots = 0;
  std::vector<pointwise::Assignment> assignments;
};

namespace pointwise {

// The program's words (see above) and their little-endian bytes.
std::vector<std::uint64_t> encode(const PointwiseProgram& program);
std::vector<unsigned char> identityBytes(const PointwiseProgram& program);
// The inverse of encode; throws std::invalid_argument naming the first bad word.
PointwiseProgram decode(const std::vector<std::uint64_t>& words);

// Checks that every slot read or written lies below program.slots, that codes are well
// formed (one value left, stack depth <= kMaxDepth) and that no `each` reads what its other
// instances write; throws std::invalid_argument naming the assignment and the problem.
constexpr int kMaxDepth = 16;
void validate(const PointwiseProgram& program, const std::string& what);

// Slots written by assignment `a`: [dest, dest + count) for each, {dest} otherwise.
std::int64_t writtenEnd(const Assignment& a);

// Calls visit(slot, indexed) for every read in a code.
template <class Visit>
void forEachRead(const std::vector<std::uint64_t>& code, const Visit& visit) {
  for (std::size_t j = 0; j < code.size(); ++j) {
    const std::uint64_t op = opcodeOf(code[j]);
    if (op == opcode::kConstant) {
      ++j;
    } else if (op == opcode::kRead || op == opcode::kIndexed) {
      visit(operandOf(code[j]), op == opcode::kIndexed);
    }
  }
}

// Evaluates a program on host slots (the reference the device evaluator is tested against).
void evaluate(const PointwiseProgram& program, std::vector<double>& slots);

}  // namespace pointwise
}  // namespace kfield

#endif
