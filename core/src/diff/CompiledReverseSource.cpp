// compiledReversesSource: a traced program's reverse round as C++
// (kfield/diff/CompiledReverse.hpp). The own step runs the round's value ops forward for one device
// over a block of samples, as compiled rounds do (the round kernel's expressions,
// kfield/sim/impl/Operations.hpp), then backwards with ReverseOwn's expressions
// (diff/impl/ReverseRound.hpp), one adjoint array per value; the gather is ReverseGather's, its
// entry programs and their adjoints inline. Each adjoint's terms are added in the interpreted
// reverse's order, so the bits are its bits.
#include "kfield/diff/CompiledReverse.hpp"

#include "impl/GeneratedSource.hpp"
#include "kfield/diff/impl/ReverseFolds.hpp"
#include "kfield/impl/Errors.hpp"
#include "kfield/sim/impl/Operations.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <sstream>

namespace kfield::diff {
namespace {

using kfield::impl::EntryCode;
using kfield::impl::EntryOp;
using kfield::impl::FoldCode;
using kfield::impl::Op;
using kfield::impl::OpCode;
using kfield::impl::source::entryCodeName;
using kfield::impl::source::foldName;
using kfield::impl::source::integerName;

constexpr const char* kLoop = "KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s)";

class ReverseWriter {
 public:
  ReverseWriter(const TracedProgram& p, std::ostream& o)
      : p_(p),
        o_(o),
        folds_(impl::reverseFolds(p)),
        slotOp_(static_cast<std::size_t>(p.valueSlots), -1) {
    for (std::size_t i = 0; i < p.valueOps.size(); ++i) {
      if (p.valueOps[i].out >= 0) slotOp_[static_cast<std::size_t>(p.valueOps[i].out)] = int(i);
    }
    for (std::size_t i = 0; i < p.valueOps.size(); ++i) {
      const Op& op = p.valueOps[i];
      if (op.code == OpCode::Fold && op.fold != FoldCode::Self && op.out >= 0) {
        const int plane = static_cast<int>(foldTape_.size());
        foldTape_[i] = plane;
      }
    }
    // What the gather reads of the reader: values no row of the round's inputs holds.
    for (int f : folds_.gather) {
      const Op& op = p.valueOps[static_cast<std::size_t>(f)];
      seeded_.emplace(op.out, static_cast<int>(seeded_.size()));
      for (std::int32_t r = 0; r < op.entryCount; ++r) {
        const EntryOp& x = entry(op, r);
        if (x.code == EntryCode::Local && !isRow(x.slot) &&
            p.valueOps[static_cast<std::size_t>(slotOp_[static_cast<std::size_t>(x.slot)])].code !=
                OpCode::Param) {
          taped_.emplace(x.slot, static_cast<int>(taped_.size()));
        }
      }
    }
  }

  int foldPlanes() const { return static_cast<int>(foldTape_.size()); }
  int valuePlanes() const { return static_cast<int>(taped_.size()); }
  int adjointPlanes() const { return static_cast<int>(seeded_.size()); }

  void write(const std::string& function) {
    const std::size_t nOps = p_.valueOps.size();
    o_ << "// " << p_.name << ": " << nOps << " value operations, " << p_.valueEntries.size()
       << " entry operations.\n";
    header(function + "_record_block", "d");
    for (std::size_t i = 0; i < nOps; ++i) forward(i, true);
    o_ << "}\n\n";
    exported_.clear();
    header(function + "_own_block", "d");
    for (std::size_t i = 0; i < nOps; ++i) forward(i, false);
    for (std::size_t i = 0; i < nOps; ++i) {
      if (p_.valueOps[i].out >= 0) {
        o_ << "  double " << adjoint(p_.valueOps[i].out) << "[W];\n  " << kLoop << " "
           << adjoint(p_.valueOps[i].out) << "[s] = 0.0;\n  (void)" << adjoint(p_.valueOps[i].out)
           << ";\n";
      }
    }
    for (std::size_t i = nOps; i-- > 0;) backward(i);
    for (int f : folds_.gather) {  // the gather's seeds
      const std::int32_t out = p_.valueOps[static_cast<std::size_t>(f)].out;
      o_ << "  { double* t = a.adjoints + (" << seeded_.at(out) << " * ds + d) * live + s0; "
         << kLoop << " t[s] = " << adjoint(out) << "[s]; }\n";
    }
    o_ << "}\n\n";
    header(function + "_gather_block", "h");
    gather();
    o_ << "}\n\n";
    for (const char* step : {"record", "own", "gather"}) {
      const std::string block = function + "_" + step + "_block";
      o_ << "void " << function << "_" << step
         << "(const kfield::diff::CompiledReverseArgs& a, std::int64_t first, std::int64_t end) "
            "{\n"
         << "  if (a.round.live == 1) {\n"
         << "    for (std::int64_t d = first; d < end; ++d) " << block << "<1>(a, d, 0, 1);\n"
         << "    return;\n  }\n"
         << "  for (std::int64_t d = first; d < end; ++d) {\n"
         << "    for (std::int64_t s0 = 0; s0 < a.round.live; s0 += 64) {\n"
         << "      " << block
         << "<64>(a, d, s0, a.round.live - s0 < 64 ? a.round.live - s0 : 64);\n"
         << "    }\n  }\n}\n\n";
    }
  }

 private:
  const TracedProgram& p_;
  std::ostream& o_;
  const impl::ReverseFolds folds_;
  std::vector<int> slotOp_;  // the value op that writes each slot
  // Slots the own step keeps for the gather's entry programs, and the gathering folds' results
  // whose adjoints it keeps: their planes in CompiledReverseArgs::values and ::adjoints.
  std::map<std::int32_t, int> taped_, seeded_;
  std::map<std::int32_t, std::string> exported_;  // export plane -> this round's value (array)
  std::map<std::size_t, int> foldTape_;           // value op -> its plane on the fold tape

  const EntryOp& entry(const Op& op, std::int32_t r) const {
    return p_.valueEntries[static_cast<std::size_t>(op.entryBegin + r)];
  }
  const Op& writer(std::int32_t slot) const {
    return p_.valueOps[static_cast<std::size_t>(slotOp_.at(static_cast<std::size_t>(slot)))];
  }
  // Values read from a row of the round's inputs, not computed: sensors, last round's shares,
  // states.
  bool isRow(std::int32_t slot) const {
    const OpCode c = writer(slot).code;
    return c == OpCode::Sense || c == OpCode::ShareRead || c == OpCode::RememberRead;
  }
  static std::string value(std::int32_t slot) { return "v" + std::to_string(slot); }
  static std::string adjoint(std::int32_t slot) { return "g" + std::to_string(slot); }
  std::string constant(std::size_t index) const { return "c[" + std::to_string(index) + "]"; }
  std::string operand(std::size_t i, int which) const {
    const Op& op = p_.valueOps[i];
    const kfield::impl::Operand& x = which == 0 ? op.a : which == 1 ? op.b : op.c;
    return x.slot >= 0 ? value(x.slot) + "[s]" : constant(3 * i + std::size_t(which));
  }
  std::int32_t operandSlot(std::size_t i, int which) const {
    const Op& op = p_.valueOps[i];
    return (which == 0 ? op.a : which == 1 ? op.b : op.c).slot;
  }
  // `adjoint of operand which += expr`, or nothing for a constant operand.
  std::string add(std::size_t i, int which, const std::string& expr) const {
    const std::int32_t slot = operandSlot(i, which);
    return slot >= 0 ? adjoint(slot) + "[s] += " + expr + ";" : std::string();
  }
  static std::string row(const std::string& base, std::int32_t plane, const std::string& who,
                         const std::string& stride) {
    return base + " + (" + std::to_string(plane) + " * ds + " + who + ") * " + stride + " + s0";
  }

  void header(const std::string& name, const char* device) {
    o_ << "template <int W>\nvoid " << name
       << "(const kfield::diff::CompiledReverseArgs& a, std::int64_t " << device
       << ", std::int64_t s0,\n    std::int64_t m) {\n"
       << "  const kfield::CompiledRoundArgs& r = a.round;\n"
       << "  const std::int64_t n = W == 1 ? 1 : m;\n"
       << "  const std::int64_t ds = r.devices, xs = r.exportStride, live = r.live;\n"
       << "  const double* c = r.constants;\n"
       << "  (void)n, (void)ds, (void)xs, (void)live, (void)c, (void)s0;\n";
  }

  // The round forward, op i of the value ops: its value v<slot> (an array, or a row).
  // Recording (the record step), it also writes what the round leaves for the next (exports,
  // states) and the neighbor folds' results to the fold tape; stepping back (the own step), it
  // reads those results from the fold tape.
  void forward(std::size_t i, bool recording) {
    const Op& op = p_.valueOps[i];
    const std::string out = op.out >= 0 ? value(op.out) : "";
    auto array = [&] { o_ << "  double " << out << "[W];\n"; };
    switch (op.code) {
      case OpCode::Sense:
        o_ << "  const double* " << out << " = "
           << row("r.sensors", op.plane, "d", "r.sensorStride") << ";\n";
        break;
      case OpCode::ShareRead:
        o_ << "  const double* " << out << " = " << row("r.exportsPrev", op.plane, "d", "xs")
           << ";\n";
        break;
      case OpCode::RememberRead:  // no sample is in its first round
        if (recording) {          // a copy: the round writes the states in place
          array();
          o_ << "  { const double* t = " << row("r.states", op.plane, "d", "r.stateStride") << "; "
             << kLoop << " " << out << "[s] = t[s]; }\n";
        } else {
          o_ << "  const double* " << out << " = "
             << row("r.states", op.plane, "d", "r.stateStride") << ";\n";
        }
        break;
      case OpCode::Uid:
        array();
        o_ << "  { const double u = r.ids ? double(r.ids[d]) : double(d); " << kLoop << " " << out
           << "[s] = u; }\n";
        break;
      case OpCode::Param:
        array();
        o_ << "  { const double u = r.parameters[" << op.plane << "]; " << kLoop << " " << out
           << "[s] = u; }\n";
        break;
      case OpCode::Mux:
        array();
        o_ << "  " << kLoop << " " << out << "[s] = " << operand(i, 0) << " == 1.0 ? "
           << operand(i, 1) << " : " << operand(i, 2) << ";\n";
        break;
      case OpCode::ContextMix:
        array();
        o_ << "  " << kLoop << " " << out << "[s] = kfield::impl::contextMix(" << operand(i, 0)
           << ", " << operand(i, 1) << ");\n";
        break;
      case OpCode::BitNot:
        array();
        o_ << "  " << kLoop << " " << out << "[s] = kfield::impl::integer::bitNot(" << operand(i, 0)
           << ");\n";
        break;
      case OpCode::Export:  // this round's value, where the device's own entry reads it back
        if (readsOwnExport(op.plane)) {
          const std::string x = "x" + std::to_string(op.plane);
          o_ << "  double " << x << "[W];\n  " << kLoop << " " << x << "[s] = " << operand(i, 0)
             << ";\n  (void)" << x << ";\n";
          exported_[op.plane] = x;
        }
        if (recording) store(row("r.exportsNow", op.plane, "d", "xs"), operand(i, 0));
        return;
      case OpCode::RememberWrite:
        if (recording) store(row("r.states", op.plane, "d", "r.stateStride"), operand(i, 0));
        return;
      case OpCode::Output: return;
      case OpCode::Fold:
        if (taped(i) && !recording) {
          o_ << "  const double* " << out << " = " << foldTapeRow(i) << ";\n";
          break;
        }
        fold(i);
        if (taped(i)) store(foldTapeRow(i), out + "[s]");
        break;
      default:
        if (const char* e = entryCodeName(kfield::impl::pointwiseEntry(op.code))) {
          array();
          o_ << "  " << kLoop << " " << out << "[s] = kfield::impl::entryOperation("
             << "kfield::impl::EntryCode::" << e << ", " << operand(i, 0) << ", " << operand(i, 1)
             << ");\n";
        } else if (const char* name = integerName(op.code)) {
          array();
          o_ << "  " << kLoop << " " << out << "[s] = kfield::impl::integer::apply("
             << "kfield::impl::integer::Op::" << name << ", " << operand(i, 0) << ", "
             << operand(i, 1) << ");\n";
        }
    }
    if (op.out < 0) return;
    o_ << "  (void)" << out << ";\n";
    if (!recording && taped_.count(op.out) != 0) {
      o_ << "  { double* t = a.values + (" << taped_.at(op.out) << " * ds + d) * live + s0; "
         << kLoop << " t[s] = " << out << "[s]; }\n";
    }
  }

  void store(const std::string& to, const std::string& value) {
    o_ << "  { double* t = " << to << "; " << kLoop << " t[s] = " << value << "; }\n";
  }
  // The folds over the neighbors: their results are on the fold tape.
  bool taped(std::size_t i) const { return foldTape_.count(i) != 0; }
  std::string foldTapeRow(std::size_t i) const {
    return "a.foldTape + (" + std::to_string(foldTape_.at(i)) + " * ds + d) * live + s0";
  }

  bool readsOwnExport(std::int32_t plane) const {
    for (const EntryOp& x : p_.valueEntries) {
      if (x.code == EntryCode::Neighbor && x.plane == plane && x.slot < 0) return true;
    }
    return false;
  }

  // Leaves of op i's entry program at entry k of device d hearing j, before the sample loop.
  // In the gather j is the device gathered (h), never the reader d.
  void leaves(std::size_t i, bool gathering) {
    const Op& op = p_.valueOps[i];
    for (std::int32_t r = 0; r < op.entryCount; ++r) {
      const EntryOp& x = entry(op, r);
      const std::string q = "q" + std::to_string(r);
      switch (x.code) {
        case EntryCode::Neighbor: {
          const std::string other = row("r.exportsPrev", x.plane, "j", "xs");
          if (gathering) {
            o_ << "    const double* " << q << " = " << other << ";\n";
          } else if (op.fold != FoldCode::Self && op.excludeSelf != 0) {  // never the own entry
            o_ << "    const double* " << q << " = " << other << ";\n";
          } else {
            const std::string own = x.slot >= 0 ? value(x.slot) : exported_.at(x.plane);
            o_ << "    const double* " << q << " = j == d ? " << own << " : " << other << ";\n";
          }
          break;
        }
        case EntryCode::EdgeLength:
          o_ << "    const double " << q << " = r.lengths ? r.lengths[k] : 0.0;\n";
          break;
        case EntryCode::Lag:  // synchronous rounds: a neighbor sent one round ago
          o_ << "    const double " << q << " = j == d ? 0.0 : 1.0;\n";
          break;
        case EntryCode::Constant:
          o_ << "    const double " << q << " = "
             << constant(3 * p_.valueOps.size() + static_cast<std::size_t>(op.entryBegin + r))
             << ";\n";
          break;
        case EntryCode::Local:
          if (!gathering) break;  // the own step has the device's values
          if (writer(x.slot).code == OpCode::Param) {
            o_ << "    const double " << q << " = r.parameters[" << writer(x.slot).plane << "];\n";
          } else if (isRow(x.slot)) {
            const Op& w = writer(x.slot);
            const std::string rows = w.code == OpCode::Sense       ? "r.sensors"
                                     : w.code == OpCode::ShareRead ? "r.exportsPrev"
                                                                   : "r.states";
            const std::string stride = w.code == OpCode::Sense       ? "r.sensorStride"
                                       : w.code == OpCode::ShareRead ? "xs"
                                                                     : "r.stateStride";
            o_ << "    const double* " << q << " = " << row(rows, w.plane, "d", stride) << ";\n";
          } else {
            o_ << "    const double* " << q << " = a.values + (" << taped_.at(x.slot)
               << " * ds + d) * live + s0;\n";
          }
          break;
        default: break;
      }
    }
  }

  // Op i's entry program in the sample loop: registers e<r>; returns the last.
  std::string registers(std::size_t i, bool gathering) {
    const Op& op = p_.valueOps[i];
    auto reg = [](std::int32_t r) { return "e" + std::to_string(r); };
    for (std::int32_t r = 0; r < op.entryCount; ++r) {
      const EntryOp& x = entry(op, r);
      const std::string q = "q" + std::to_string(r);
      o_ << "      const double " << reg(r) << " = ";
      switch (x.code) {
        case EntryCode::Neighbor: o_ << q << "[s]"; break;
        case EntryCode::EdgeLength:
        case EntryCode::Lag:
        case EntryCode::Constant: o_ << q; break;
        case EntryCode::Local:
          if (!gathering) {
            o_ << value(x.slot) << "[s]";
          } else {
            o_ << q << (writer(x.slot).code == OpCode::Param ? "" : "[s]");
          }
          break;
        case EntryCode::Mux: o_ << reg(x.a) << " == 1.0 ? " << reg(x.b) << " : " << reg(x.c); break;
        default:
          o_ << "kfield::impl::entryOperation(kfield::impl::EntryCode::" << entryCodeName(x.code)
             << ", " << reg(x.a) << ", " << (x.b >= 0 ? reg(x.b) : std::string("0.0")) << ")";
      }
      o_ << ";\n      (void)" << reg(r) << ";\n";
    }
    return reg(op.entryCount - 1);
  }

  // The registers' adjoints A<r> for a seed of the last, as entryAdjoints sums them.
  void registerAdjoints(std::size_t i, const std::string& seed) {
    const Op& op = p_.valueOps[i];
    auto reg = [](std::int32_t r) { return "e" + std::to_string(r); };
    auto adj = [](std::int32_t r) { return "A" + std::to_string(r); };
    for (std::int32_t r = 0; r < op.entryCount; ++r) {
      o_ << "      double " << adj(r) << " = " << (r + 1 == op.entryCount ? seed : "0.0") << ";\n";
    }
    for (std::int32_t r = op.entryCount; r-- > 0;) {
      const EntryOp& x = entry(op, r);
      const std::string g = adj(r), e = reg(r);
      std::string body;
      switch (x.code) {
        case EntryCode::Add: body = adj(x.a) + " += " + g + ", " + adj(x.b) + " += " + g; break;
        case EntryCode::Sub: body = adj(x.a) + " += " + g + ", " + adj(x.b) + " -= " + g; break;
        case EntryCode::Mul:
          body = adj(x.a) + " += " + g + " * " + reg(x.b) + ", " + adj(x.b) + " += " + g + " * " +
                 reg(x.a);
          break;
        case EntryCode::Div:
          body = adj(x.a) + " += " + g + " / " + reg(x.b) + ", " + adj(x.b) + " -= " + g + " * (" +
                 e + " / " + reg(x.b) + ")";
          break;
        case EntryCode::Min:
          body =
              "(" + reg(x.b) + " < " + reg(x.a) + " ? " + adj(x.b) + " : " + adj(x.a) + ") += " + g;
          break;
        case EntryCode::Max:
          body =
              "(" + reg(x.a) + " < " + reg(x.b) + " ? " + adj(x.b) + " : " + adj(x.a) + ") += " + g;
          break;
        case EntryCode::Mux:
          body = "(" + reg(x.a) + " == 1.0 ? " + adj(x.b) + " : " + adj(x.c) + ") += " + g;
          break;
        case EntryCode::Pow:
          body = adj(x.a) + " += " + g + " * (" + reg(x.b) + " * kfield::impl::portable::pow(" +
                 reg(x.a) + ", " + reg(x.b) + " - 1.0)); if (" + reg(x.a) + " > 0.0) " + adj(x.b) +
                 " += " + g + " * (" + e + " * kfield::impl::portable::log(" + reg(x.a) + "))";
          break;
        case EntryCode::Neg: body = adj(x.a) + " -= " + g; break;
        case EntryCode::Abs:
          body = adj(x.a) + " += " + reg(x.a) + " > 0.0 ? " + g + " : " + reg(x.a) + " < 0.0 ? -" +
                 g + " : 0.0";
          break;
        case EntryCode::Sqrt: body = adj(x.a) + " += " + g + " * (0.5 / " + e + ")"; break;
        case EntryCode::Exp: body = adj(x.a) + " += " + g + " * " + e; break;
        case EntryCode::Log: body = adj(x.a) + " += " + g + " / " + reg(x.a); break;
        case EntryCode::Tanh:
          body = adj(x.a) + " += " + g + " * (1.0 - " + e + " * " + e + ")";
          break;
        case EntryCode::Sigmoid:
          body = adj(x.a) + " += " + g + " * (" + e + " * (1.0 - " + e + "))";
          break;
        default: break;  // leaves, comparisons, logic, floor, ceil
      }
      // An adjoint of exactly 0 propagates nothing (no 0 * inf).
      if (!body.empty()) o_ << "      if (" << g << " != 0.0) { " << body << "; }\n";
    }
    for (std::int32_t r = 0; r < op.entryCount; ++r) o_ << "      (void)" << adj(r) << ";\n";
  }

  // A fold's value: every entry of the device, in order (all aligned: no sample is fresh).
  void fold(std::size_t i) {
    const Op& op = p_.valueOps[i];
    const std::string out = value(op.out),
                      code = std::string("kfield::impl::FoldCode::") + foldName(op.fold);
    o_ << "  double " << out << "[W];\n"
       << "  { const double init = kfield::impl::initialOf(" << code << "); " << kLoop << " " << out
       << "[s] = init; }\n"
       << "  kfield::impl::withCombine(" << code << ", [&](const auto& combine) {\n";
    entriesOf(op, "d");
    leaves(i, false);
    o_ << "    " << kLoop << " {\n";
    const std::string last = registers(i, false);
    o_ << "      " << out << "[s] = combine(" << out << "[s], " << last
       << ");\n    }\n  }\n  });\n";
  }

  void entriesOf(const Op& op, const char* device) {
    o_ << "  for (std::int64_t k = r.offsets[" << device << "]; k < r.offsets[" << device
       << " + 1]; ++k) {\n    const std::int64_t j = r.neighbors[k];\n    (void)j;\n";
    if (op.fold == FoldCode::Self) {
      o_ << "    if (j != d) continue;\n";
    } else if (op.excludeSelf != 0) {
      o_ << "    if (j == d) continue;\n";
    }
  }

  std::string exportAdjointRow(std::int32_t plane, const char* device) const {
    return row("a.exportAdjoint", plane, device, "a.exportAdjointStride");
  }

  // ReverseOwn::step of op i, for device d's block of samples.
  void backward(std::size_t i) {
    const Op& op = p_.valueOps[i];
    const std::string G = op.out >= 0 ? adjoint(op.out) + "[s]" : "";
    const std::string out = op.out >= 0 ? value(op.out) + "[s]" : "";
    auto each = [&](const std::string& body) { o_ << "  " << kLoop << " { " << body << " }\n"; };
    // A kept value's row: reads add to it, a write takes it and leaves 0.
    auto keptRow = [&](const std::string& rows, const std::string& stride) {
      return row(rows, op.plane, "d", stride);
    };
    switch (op.code) {
      case OpCode::Neg: return each(add(i, 0, "-" + G));
      case OpCode::Abs:
        return each("const double x = " + operand(i, 0) + "; " +
                    add(i, 0, "x > 0.0 ? " + G + " : x < 0.0 ? -" + G + " : 0.0"));
      case OpCode::Sqrt:
        return each(add(i, 0, G + " == 0.0 ? 0.0 : " + G + " * (0.5 / " + out + ")"));
      case OpCode::Exp: return each(add(i, 0, G + " == 0.0 ? 0.0 : " + G + " * " + out));
      case OpCode::Log: return each(add(i, 0, G + " == 0.0 ? 0.0 : " + G + " / " + operand(i, 0)));
      case OpCode::Tanh:
        return each(add(i, 0, G + " == 0.0 ? 0.0 : " + G + " * (1.0 - " + out + " * " + out + ")"));
      case OpCode::Sigmoid:
        return each(
            add(i, 0, G + " == 0.0 ? 0.0 : " + G + " * (" + out + " * (1.0 - " + out + "))"));
      case OpCode::Add: return each(add(i, 0, G) + " " + add(i, 1, G));
      case OpCode::Sub: return each(add(i, 0, G) + " " + add(i, 1, "-" + G));
      case OpCode::Mul:
        return each("if (" + G + " == 0.0) continue; " + add(i, 0, G + " * " + operand(i, 1)) +
                    " " + add(i, 1, G + " * " + operand(i, 0)));
      case OpCode::Div:
        return each("if (" + G + " == 0.0) continue; const double b = " + operand(i, 1) + "; " +
                    add(i, 0, G + " / b") + " " + add(i, 1, "-(" + G + " * (" + out + " / b))"));
      case OpCode::Min:  // the selected operand: b when b < a, else a (ties: a)
        return each("if (" + operand(i, 1) + " < " + operand(i, 0) + ") { " + add(i, 1, G) +
                    " } else { " + add(i, 0, G) + " }");
      case OpCode::Max:
        return each("if (" + operand(i, 0) + " < " + operand(i, 1) + ") { " + add(i, 1, G) +
                    " } else { " + add(i, 0, G) + " }");
      case OpCode::Pow:
        return each(
            "if (" + G + " == 0.0) continue; const double x = " + operand(i, 0) +
            ", y = " + operand(i, 1) + "; " +
            add(i, 0, G + " * (y * kfield::impl::portable::pow(x, y - 1.0))") + " " +
            add(i, 1,
                "x > 0.0 ? " + G + " * (" + out + " * kfield::impl::portable::log(x)) : 0.0"));
      case OpCode::Mux:
        return each("if (" + operand(i, 0) + " == 1.0) { " + add(i, 1, G) + " } else { " +
                    add(i, 2, G) + " }");
      case OpCode::Param:
        o_ << "  { double* t = "
           << row("a.parameterAdjoint", op.plane, "d", "a.parameterAdjointStride") << "; ";
        each("t[s] += " + G + ";");
        o_ << "  }\n";
        return;
      case OpCode::Sense:
        o_ << "  if (a.sensorRow[" << op.plane << "] >= 0) {\n    double* t = a.sensorAdjoint + "
           << "(a.sensorRow[" << op.plane << "] * ds + d) * a.sensorAdjointStride + s0;\n  ";
        each("t[s] += " + G + ";");
        o_ << "  }\n";
        return;
      case OpCode::RememberRead:  // kept: no sample is in its first round
        o_ << "  { double* t = " << keptRow("a.stateAdjoint", "a.stateAdjointStride") << "; ";
        each("t[s] += " + G + ";");
        o_ << "  }\n";
        return;
      case OpCode::ShareRead:
        o_ << "  { double* t = " << keptRow("a.exportAdjoint", "a.exportAdjointStride") << "; ";
        each("t[s] += " + G + ";");
        o_ << "  }\n";
        return;
      case OpCode::RememberWrite:
      case OpCode::Export: {
        const bool state = op.code == OpCode::RememberWrite;
        o_ << "  { double* t = "
           << (state ? keptRow("a.stateAdjoint", "a.stateAdjointStride")
                     : keptRow("a.exportAdjoint", "a.exportAdjointStride"))
           << "; ";
        each(add(i, 0, "t[s]") + " t[s] = 0.0;");
        o_ << "  }\n";
        return;
      }
      case OpCode::Output:
        o_ << "  { const double* t = a.target + (" << op.plane
           << " * ds + d) * a.targetStride + s0; (void)t;\n  ";
        each("if (s0 + s < a.liveNext) continue; const double y = " + operand(i, 0) +
             "; const double u = a.outputLoss ? 0.0 : t[s]; " +
             add(i, 0, "a.outputLoss ? 1.0 : 2.0 * (y - u)"));
        o_ << "  }\n";
        return;
      case OpCode::Fold: return ownFold(i);
      default: return;  // comparisons, logic, uid, contexts: no gradient
    }
  }

  // ReverseOwn::fold: the device's own entry and local operands; a min/max fold's selection is
  // the first entry equal to its result.
  void ownFold(std::size_t i) {
    const Op& op = p_.valueOps[i];
    if (op.fold == FoldCode::Count || op.fold == FoldCode::Any || op.fold == FoldCode::All) return;
    const bool select = op.fold == FoldCode::Min || op.fold == FoldCode::Max;
    o_ << "  {\n";
    if (select) o_ << "  double sel[W];\n  " << kLoop << " sel[s] = -1.0;\n";
    entriesOf(op, "d");
    leaves(i, false);
    o_ << "    " << kLoop << " {\n      const double G = " << adjoint(op.out)
       << "[s];\n      if (G == 0.0) continue;\n";
    if (select) o_ << "      if (sel[s] >= 0.0) continue;\n";
    const std::string last = registers(i, false);
    if (select) {
      o_ << "      if (!(" << last << " == " << value(op.out) << "[s])) continue;\n"
         << "      sel[s] = r.ids ? double(r.ids[j]) : double(j);\n";
    }
    registerAdjoints(i, "G");
    for (std::int32_t r = 0; r < op.entryCount; ++r) {  // ReverseOwn::addOwn
      const EntryOp& x = entry(op, r);
      const std::string A = "A" + std::to_string(r);
      if (x.code == EntryCode::Local) {
        o_ << "      if (" << A << " != 0.0) " << adjoint(x.slot) << "[s] += " << A << ";\n";
      } else if (x.code == EntryCode::Neighbor) {
        o_ << "      if (" << A << " != 0.0 && j == d) "
           << (x.slot >= 0 ? adjoint(x.slot) + "[s]"
                           : "(" + exportAdjointRow(x.plane, "d") + ")[s]")
           << " += " << A << ";\n";
      }
    }
    o_ << "    }\n  }\n";
    const int selRow = folds_.selectedRow[i];
    if (select && std::count(folds_.gather.begin(), folds_.gather.end(), int(i)) != 0) {
      o_ << "  { double* t = a.selected + (" << selRow << " * ds + d) * a.selectedStride + s0; "
         << kLoop << " t[s] = sel[s]; }\n";
    }
    o_ << "  }\n";
  }

  // ReverseGather for device h: its readers d in the transposed order, the gathering folds in
  // op order, each sample's adjoint of n's export added to in that order.
  void gather() {
    o_ << "  const double id = r.ids ? double(r.ids[h]) : double(h);\n  (void)id;\n"
       << "  for (std::int64_t t = a.transposedOffsets[h]; t < a.transposedOffsets[h + 1]; ++t) {\n"
       << "    const std::int64_t d = a.transposedReaders[t], k = a.transposedEntries[t], j = h;\n"
       << "    (void)d, (void)k, (void)j;\n    if (d == h) continue;\n";
    for (int f : folds_.gather) {
      const auto i = static_cast<std::size_t>(f);
      const Op& op = p_.valueOps[i];
      const bool select = op.fold == FoldCode::Min || op.fold == FoldCode::Max;
      o_ << "    {\n    const double* G = a.adjoints + (" << seeded_.at(op.out)
         << " * ds + d) * live + s0;\n";
      if (select) {
        o_ << "    const double* sel = a.selected + (" << folds_.selectedRow[i]
           << " * ds + d) * a.selectedStride + s0;\n";
      }
      leaves(i, true);
      o_ << "    " << kLoop << " {\n      const double g = G[s];\n      if (g == 0.0) continue;\n";
      if (select) o_ << "      if (sel[s] != id) continue;\n";
      registers(i, true);
      registerAdjoints(i, "g");
      for (std::int32_t r = 0; r < op.entryCount; ++r) {
        const EntryOp& x = entry(op, r);
        if (x.code != EntryCode::Neighbor) continue;
        const std::string A = "A" + std::to_string(r);
        o_ << "      if (" << A << " != 0.0) (" << exportAdjointRow(x.plane, "h") << ")[s] += " << A
           << ";\n";
      }
      o_ << "    }\n    }\n";
    }
    o_ << "  }\n";
  }
};

}  // namespace

std::string compiledReversesSource(const std::vector<TracedProgram>& programs,
                                   const std::string& table) {
  constexpr const char* kWho = "kfield::diff::compiledReversesSource";
  const kfield::impl::source::TableName where = kfield::impl::source::tableName(kWho, table);
  std::ostringstream o;
  o << "// Compiled reverse rounds written by kfield::diff::compiledReversesSource "
       "(kfield/diff/CompiledReverse.hpp).\n"
    << "// Generated: regenerate, do not edit.\n"
    << "#include \"kfield/diff/CompiledReverse.hpp\"\n"
    << "#include \"kfield/impl/IntegerMath.hpp\"\n"
    << "#include \"kfield/impl/PortableMath.hpp\"\n"
    << "#include \"kfield/sim/impl/Operations.hpp\"\n\n"
    << "#include <cstdint>\n#include <vector>\n\n"
    << "namespace {\n\n";
  std::set<std::string> taken, keys;
  std::vector<std::string> names;
  std::vector<const TracedProgram*> kept;
  std::vector<std::array<int, 3>> planes;  // fold tape, values, adjoints
  for (const TracedProgram& p : programs) {
    std::string why;
    if (!canCompileReverse(p, &why)) kfield::impl::invalidArgument(kWho, why);
    if (!keys.insert(compiledReverseKey(p)).second) continue;  // one serves both
    names.push_back(kfield::impl::source::functionName("reverse_", p.name, taken));
    kept.push_back(&p);
    ReverseWriter writer(p, o);
    writer.write(names.back());
    planes.push_back({writer.foldPlanes(), writer.valuePlanes(), writer.adjointPlanes()});
  }
  o << "}  // namespace\n\n";
  if (!where.space.empty()) o << "namespace " << where.space << " {\n\n";
  o << "std::vector<kfield::diff::CompiledReverseEntry> " << where.name << "() {\n  return {\n";
  for (std::size_t i = 0; i < kept.size(); ++i) {
    o << "      {" << kfield::impl::source::literal(compiledReverseKey(*kept[i])) << ",\n       "
      << kfield::impl::source::literal(kept[i]->name) << ", " << planes[i][0] << ", "
      << planes[i][1] << ", " << planes[i][2] << ", &" << names[i] << "_record, &" << names[i]
      << "_own, &" << names[i] << "_gather},\n";
  }
  o << "  };\n}\n";
  if (!where.space.empty()) o << "\n}  // namespace " << where.space << "\n";
  return o.str();
}

}  // namespace kfield::diff
