#include "kfield/learn/Pointwise.hpp"

#include "kfield/impl/Bits.hpp"
#include "kfield/impl/Errors.hpp"
#include "kfield/learn/impl/PointwiseOps.hpp"
#include "kfield/sum/InnerSum.hpp"

namespace kfield {

Word wordOf(double value) { return impl::bitsOf(value); }
double valueOf(Word word) { return impl::doubleOf(word); }

namespace pointwise {

namespace {

constexpr std::int64_t kMaxSlot = std::int64_t(1) << 55;
constexpr std::uint64_t kSumForm = 8;  // the form word of `sum` (folds take 2 .. 7)

[[noreturn]] void bad(const std::string& what, std::size_t assignment, const std::string& why) {
  impl::invalidArgument(what, "assignment " + std::to_string(assignment) + ": " + why);
}

}  // namespace

std::uint64_t codeWord(std::uint64_t op, std::int64_t slot) {
  if (slot < 0 || slot >= kMaxSlot) {
    impl::invalidArgument("kfield::pointwise",
                          "slot " + std::to_string(slot) + " is outside [0, 2^55)");
  }
  return op | (static_cast<std::uint64_t>(slot) << 8);
}

std::string describe(Unary op) {
  static const char* names[] = {"neg", "abs", "sqrt", "exp", "log", "floor", "ceil"};
  return names[static_cast<int>(op)];
}

std::string describe(Binary op) {
  static const char* names[] = {"+", "-", "*", "/", "min", "max"};
  return names[static_cast<int>(op)];
}

Expr::Expr(double value) : code_{opcode::kConstant, wordOf(value)} {}

Expr Expr::word(std::uint64_t bits) {
  Expr e;
  e.code_ = {opcode::kConstant, bits};
  return e;
}

Expr Expr::slot(std::int64_t index) {
  Expr e;
  e.code_ = {codeWord(opcode::kRead, index)};
  return e;
}

Expr Expr::indexed(std::int64_t base) {
  Expr e;
  e.code_ = {codeWord(opcode::kIndexed, base)};
  return e;
}

Expr apply(Unary op, Expr a) {
  a.code_.push_back(opcode::kUnary + static_cast<std::uint64_t>(op));
  return a;
}

Expr apply(Binary op, Expr a, const Expr& b) {
  a.code_.insert(a.code_.end(), b.code_.begin(), b.code_.end());
  a.code_.push_back(opcode::kBinary + static_cast<std::uint64_t>(op));
  return a;
}

Expr operator+(Expr a, const Expr& b) { return apply(Binary::Add, std::move(a), b); }
Expr operator-(Expr a, const Expr& b) { return apply(Binary::Sub, std::move(a), b); }
Expr operator*(Expr a, const Expr& b) { return apply(Binary::Mul, std::move(a), b); }
Expr operator/(Expr a, const Expr& b) { return apply(Binary::Div, std::move(a), b); }
Expr operator-(Expr a) { return apply(Unary::Neg, std::move(a)); }
Expr min(Expr a, const Expr& b) { return apply(Binary::Min, std::move(a), b); }
Expr max(Expr a, const Expr& b) { return apply(Binary::Max, std::move(a), b); }
Expr abs(Expr a) { return apply(Unary::Abs, std::move(a)); }
Expr sqrt(Expr a) { return apply(Unary::Sqrt, std::move(a)); }
Expr exp(Expr a) { return apply(Unary::Exp, std::move(a)); }
Expr log(Expr a) { return apply(Unary::Log, std::move(a)); }
Expr floor(Expr a) { return apply(Unary::Floor, std::move(a)); }
Expr ceil(Expr a) { return apply(Unary::Ceil, std::move(a)); }

Assignment set(std::int64_t dest, const Expr& value) {
  return Assignment{dest, 1, Form::Set, Binary::Add, value.code()};
}

Assignment each(std::int64_t dest, std::int64_t count, const Expr& value) {
  return Assignment{dest, count, Form::Each, Binary::Add, value.code()};
}

Assignment fold(std::int64_t dest, Binary op, std::int64_t count, const Expr& value) {
  return Assignment{dest, count, Form::Fold, op, value.code()};
}

Assignment sum(std::int64_t dest, std::int64_t count, const Expr& value) {
  return Assignment{dest, count, Form::Sum, Binary::Add, value.code()};
}

std::int64_t writtenEnd(const Assignment& a) {
  return a.form == Form::Each ? a.dest + a.count : a.dest + 1;
}

std::vector<std::uint64_t> encode(const PointwiseProgram& program) {
  std::vector<std::uint64_t> words{static_cast<std::uint64_t>(program.slots),
                                   program.assignments.size()};
  for (const Assignment& a : program.assignments) {
    const std::uint64_t form = a.form == Form::Set    ? 0
                               : a.form == Form::Each ? 1
                               : a.form == Form::Sum  ? kSumForm
                                                      : 2 + static_cast<std::uint64_t>(a.fold);
    words.insert(words.end(), {static_cast<std::uint64_t>(a.dest),
                               static_cast<std::uint64_t>(a.count), form, a.code.size()});
    words.insert(words.end(), a.code.begin(), a.code.end());
  }
  return words;
}

std::vector<unsigned char> identityBytes(const PointwiseProgram& program) {
  impl::ByteWriter out;
  for (std::uint64_t w : encode(program)) out.word(w);
  return out.bytes;
}

PointwiseProgram decode(const std::vector<std::uint64_t>& words) {
  const char* kDecode = "kfield::pointwise::decode";
  std::size_t at = 0;
  auto next = [&](const char* field) {
    if (at >= words.size()) {
      impl::invalidArgument(kDecode, "the words end before " + std::string(field) + " (word " +
                                         std::to_string(at) + ")");
    }
    return words[at++];
  };
  PointwiseProgram p;
  p.slots = static_cast<std::int64_t>(next("the slot count"));
  const std::uint64_t count = next("the assignment count");
  for (std::uint64_t j = 0; j < count; ++j) {
    Assignment a;
    a.dest = static_cast<std::int64_t>(next("a destination"));
    a.count = static_cast<std::int64_t>(next("an instance count"));
    const std::uint64_t form = next("a form");
    if (form > kSumForm) {
      impl::invalidArgument(
          kDecode, "word " + std::to_string(at - 1) + ": unknown form " + std::to_string(form));
    }
    a.form = form == 0          ? Form::Set
             : form == 1        ? Form::Each
             : form == kSumForm ? Form::Sum
                                : Form::Fold;
    if (form >= 2 && form < kSumForm) a.fold = static_cast<Binary>(form - 2);
    const std::uint64_t length = next("a code length");
    if (length > words.size() - at) {
      impl::invalidArgument(kDecode, "word " + std::to_string(at - 1) + ": code of " +
                                         std::to_string(length) + " words runs past the end");
    }
    a.code.assign(words.begin() + static_cast<std::ptrdiff_t>(at),
                  words.begin() + static_cast<std::ptrdiff_t>(at + length));
    at += length;
    p.assignments.push_back(std::move(a));
  }
  if (at != words.size()) {
    impl::invalidArgument(kDecode,
                          std::to_string(words.size() - at) + " words after the last assignment");
  }
  validate(p, kDecode);
  return p;
}

void validate(const PointwiseProgram& program, const std::string& what) {
  if (program.slots < 0) impl::invalidArgument(what, "negative slot count");
  for (std::size_t j = 0; j < program.assignments.size(); ++j) {
    const Assignment& a = program.assignments[j];
    if (a.count < 1) bad(what, j, "instance count " + std::to_string(a.count) + " < 1");
    if (a.form == Form::Set && a.count != 1) bad(what, j, "a set has one instance");
    const std::int64_t span = a.form == Form::Set ? 1 : a.count;
    if (a.dest < 0 || writtenEnd(a) > program.slots) {
      bad(what, j,
          "writes slots [" + std::to_string(a.dest) + ", " + std::to_string(writtenEnd(a)) +
              ") of " + std::to_string(program.slots));
    }
    int depth = 0;
    int deepest = 0;
    for (std::size_t c = 0; c < a.code.size(); ++c) {
      const std::uint64_t op = opcodeOf(a.code[c]);
      const std::int64_t operand = operandOf(a.code[c]);
      if (op == opcode::kConstant) {
        if (++c == a.code.size()) bad(what, j, "a constant without its value word");
        ++depth;
      } else if (op == opcode::kRead || op == opcode::kIndexed) {
        const std::int64_t last = operand + (op == opcode::kIndexed ? span : 1);
        if (last > program.slots) {
          bad(what, j,
              "reads slot " + std::to_string(last - 1) + " of " + std::to_string(program.slots));
        }
        ++depth;
      } else if (op >= opcode::kUnary && op <= opcode::kUnary + std::uint64_t(Unary::Ceil)) {
        if (depth < 1) bad(what, j, "an operator with no operand");
      } else if (op >= opcode::kBinary && op <= opcode::kBinary + std::uint64_t(Binary::Max)) {
        if (depth < 2) bad(what, j, "a binary operator with fewer than two operands");
        --depth;
      } else {
        bad(what, j, "unknown opcode " + std::to_string(op) + " at code word " + std::to_string(c));
      }
      if (depth > deepest) deepest = depth;
    }
    if (depth != 1) bad(what, j, "the code leaves " + std::to_string(depth) + " values, not one");
    if (deepest > kMaxDepth) {
      bad(what, j,
          "the expression needs " + std::to_string(deepest) + " stack entries (at most " +
              std::to_string(kMaxDepth) + "); write long sums as a fold");
    }
    if (a.form == Form::Each && a.count > 1) {
      forEachRead(a.code, [&](std::int64_t slot, bool indexed) {
        // Instance i reads slot + i (or slot); another instance writes it when it lies in
        // [dest, dest + count) at a position other than i.
        const bool clash =
            indexed ? slot != a.dest && slot < a.dest + a.count && a.dest < slot + a.count
                    : slot >= a.dest && slot < a.dest + a.count;
        if (clash) {
          bad(what, j,
              std::string("its instances read slot ") + (indexed ? "indexed " : "") +
                  std::to_string(slot) + ", which other instances write (slots [" +
                  std::to_string(a.dest) + ", " + std::to_string(a.dest + a.count) +
                  ")); split it into separate assignments");
        }
      });
    }
  }
}

void evaluate(const PointwiseProgram& program, std::vector<double>& slots) {
  const char* who = "kfield::pointwise::evaluate";
  validate(program, who);
  if (static_cast<std::int64_t>(slots.size()) != program.slots) {
    impl::invalidArgument(who, std::to_string(slots.size()) + " slots given, the program has " +
                                   std::to_string(program.slots));
  }
  // One instance at a time, literally as the definition reads.
  auto run = [&](const Assignment& a, std::int64_t i) {
    std::vector<double> stack;
    for (std::size_t c = 0; c < a.code.size(); ++c) {
      const std::uint64_t op = opcodeOf(a.code[c]);
      const std::int64_t operand = operandOf(a.code[c]);
      if (op == opcode::kConstant) {
        stack.push_back(valueOf(a.code[++c]));
      } else if (op == opcode::kRead) {
        stack.push_back(slots[static_cast<std::size_t>(operand)]);
      } else if (op == opcode::kIndexed) {
        stack.push_back(slots[static_cast<std::size_t>(operand + i)]);
      } else if (op < opcode::kBinary) {
        stack.back() = impl::applyUnary(static_cast<int>(op - opcode::kUnary), stack.back());
      } else {
        const double r = stack.back();
        stack.pop_back();
        stack.back() = impl::applyBinary(static_cast<int>(op - opcode::kBinary), stack.back(), r);
      }
    }
    return stack.back();
  };
  for (const Assignment& a : program.assignments) {
    if (a.form == Form::Set) {
      slots[static_cast<std::size_t>(a.dest)] = run(a, 0);
    } else if (a.form == Form::Each) {
      for (std::int64_t i = 0; i < a.count; ++i) {
        slots[static_cast<std::size_t>(a.dest + i)] = run(a, i);
      }
    } else if (a.form == Form::Sum) {
      double lane[kInnerSumLanes];
      for (double& l : lane) l = -0.0;
      for (std::int64_t i = 0; i < a.count; ++i) {
        lane[i % kInnerSumLanes] = lane[i % kInnerSumLanes] + run(a, i);
      }
      for (int h = kInnerSumLanes / 2; h > 0; h /= 2) {
        for (int l = 0; l < h; ++l) lane[l] = lane[l] + lane[l + h];
      }
      slots[static_cast<std::size_t>(a.dest)] = lane[0];
    } else {
      double acc = run(a, 0);
      for (std::int64_t i = 1; i < a.count; ++i) {
        acc = impl::applyBinary(static_cast<int>(a.fold), acc, run(a, i));
      }
      slots[static_cast<std::size_t>(a.dest)] = acc;
    }
  }
}

}  // namespace pointwise
}  // namespace kfield
