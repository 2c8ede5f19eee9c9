// compiledRoundsSource: a traced program's round as C++. Each device runs the operations in
// order over a block of at most 64 of its samples (one, when a round has one sample), every
// value in a local array of its own, so the compiler keeps what it can in registers and fuses
// nothing by itself that the round kernel would not compute the same way. Consecutive
// pointwise operations share one loop over the samples (each sample's values are computed
// apart from the others', so the order across samples is free). The expressions are the round
// kernel's own (kfield/sim/impl/Operations.hpp), in its order.
#include "kfield/sim/CompiledRound.hpp"

#include "impl/GeneratedSource.hpp"
#include "kfield/impl/Errors.hpp"
#include "kfield/sim/impl/Operations.hpp"

#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>

namespace kfield {
namespace {

using impl::EntryCode;
using impl::EntryOp;
using impl::FoldCode;
using impl::Op;
using impl::OpCode;
using impl::source::entryCodeName;
using impl::source::foldName;
using impl::source::integerName;
using impl::source::literal;

class RoundWriter {
 public:
  RoundWriter(const TracedProgram& p, std::ostream& o) : p_(p), o_(o), slot_(p.slots) {}

  void write(const std::string& function) {
    o_ << "// " << p_.name << ": " << p_.ops.size() << " operations, " << p_.entries.size()
       << " entry operations.\n"
       << "template <int W>\nvoid " << function
       << "_block(const kfield::CompiledRoundArgs& a, std::int64_t d, std::int64_t s0,\n"
       << "    std::int64_t m) {\n"
       << "  const std::int64_t n = W == 1 ? 1 : m;\n"
       << "  const std::int64_t ds = a.devices, xs = a.exportStride;\n"
       << "  const double* c = a.constants;\n"
       << "  const bool stream = ds * xs >= kStreamedPlane;\n"
       << "  (void)n, (void)ds, (void)xs, (void)c, (void)s0, (void)stream;\n";
    for (std::size_t i = 0; i < p_.ops.size(); ++i) op(i);
    flush();
    o_ << "}\n\n"
       << "void " << function
       << "(const kfield::CompiledRoundArgs& a, std::int64_t first, std::int64_t end) {\n"
       << "  if (a.live == 1) {\n"
       << "    for (std::int64_t d = first; d < end; ++d) " << function
       << "_block<1>(a, d, 0, 1);\n"
       << "    return;\n  }\n"
       << "  for (std::int64_t d = first; d < end; ++d) {\n"
       << "    for (std::int64_t s0 = 0; s0 < a.live; s0 += 64) {\n"
       << "      " << function << "_block<64>(a, d, s0, a.live - s0 < 64 ? a.live - s0 : 64);\n"
       << "    }\n  }\n  streamFence();\n}\n\n";
  }

 private:
  const TracedProgram& p_;
  std::ostream& o_;
  std::vector<std::string> slot_;  // each slot's current value: an array or row over s
  // Consecutive pointwise operations share one sample loop, written when an operation that is
  // not one of them comes: each value is still stored to its array, in the operations' order.
  std::ostringstream pending_;

  static constexpr const char* kLoop =
      "KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s)";

  std::string constant(std::size_t index) const { return "c[" + std::to_string(index) + "]"; }
  std::string operand(std::size_t i, int which) const {
    const Op& op = p_.ops[i];
    const impl::Operand& x = which == 0 ? op.a : which == 1 ? op.b : op.c;
    if (x.slot >= 0) return slotValue(x.slot);
    return constant(3 * i + static_cast<std::size_t>(which));
  }
  // An operand of a fused operation: a constant is read before the loop, since GCC would sink
  // a mux's load of it into the branch that uses it, a masked load it cannot vectorise.
  std::string fusedOperand(std::size_t i, int which) {
    const std::string x = operand(i, which);
    if (x.compare(0, 2, "c[") != 0) return x;
    const std::string name = "k" + std::to_string(3 * i + static_cast<std::size_t>(which));
    o_ << "  const double " << name << " = " << x << ";\n";
    return name;
  }
  std::string slotValue(std::int32_t slot) const {
    const std::string& name = slot_.at(static_cast<std::size_t>(slot));
    if (name.empty()) {
      impl::invalidArgument("kfield::compiledRoundsSource",
                            "program '" + p_.name + "' reads slot " + std::to_string(slot) +
                                " before any operation writes it");
    }
    return name + "[s]";
  }
  static std::string row(const std::string& base, const std::string& plane, const std::string& who,
                         const std::string& stride) {
    return base + " + (" + plane + " * ds + " + who + ") * " + stride + " + s0";
  }
  std::string value(std::size_t i) { return "r" + std::to_string(i); }
  // Does an operation after export i read the device's own entry of its plane this round (a
  // neighbor field's own value from the export, not a slot)? Then the row stays in cache.
  bool readsOwnExportAfter(std::size_t i) const {
    const std::int32_t plane = p_.ops[i].plane;
    for (std::size_t k = i + 1; k < p_.ops.size(); ++k) {
      const Op& op = p_.ops[k];
      if (op.code != OpCode::Fold && op.code != OpCode::ExchangeSend) continue;
      for (std::int32_t e = 0; e < op.entryCount; ++e) {
        const EntryOp& x = p_.entries[static_cast<std::size_t>(op.entryBegin + e)];
        if (x.code == EntryCode::Neighbor && x.plane == plane && x.slot < 0) return true;
      }
    }
    return false;
  }
  void array(std::size_t i) { o_ << "  double " << value(i) << "[W];\n"; }
  void flush() {
    if (pending_.tellp() <= 0) return;
    o_ << "  " << kLoop << " {\n" << pending_.str() << "  }\n";
    pending_.str("");
  }
  // Entry operations that vectorise (no call into a math library), and muxes: fused.
  static bool fusable(const Op& op) {
    if (op.code == OpCode::Mux) return true;
    switch (impl::pointwiseEntry(op.code)) {
      case EntryCode::Constant:
      case EntryCode::Pow:
      case EntryCode::Sqrt:
      case EntryCode::Exp:
      case EntryCode::Log:
      case EntryCode::Tanh:
      case EntryCode::Sigmoid: return false;
      default: return true;
    }
  }

  void op(std::size_t i) {
    const Op& op = p_.ops[i];
    const std::string out = value(i), plane = std::to_string(op.plane);
    const bool declaresOnly = op.code == OpCode::Sense || op.code == OpCode::ShareRead ||
                              op.code == OpCode::FoldComponent;
    if (!declaresOnly && !fusable(op)) flush();
    switch (op.code) {
      case OpCode::Sense:
        o_ << "  const double* " << out << " = " << row("a.sensors", plane, "d", "a.sensorStride")
           << ";\n";
        break;
      case OpCode::Uid:
        array(i);
        o_ << "  { const double v = a.ids ? double(a.ids[d]) : double(d); " << kLoop << " " << out
           << "[s] = v; }\n";
        break;
      case OpCode::Param:
        array(i);
        o_ << "  { const double v = a.parameters[" << plane << "]; " << kLoop << " " << out
           << "[s] = v; }\n";
        break;
      case OpCode::RememberRead:  // no sample is in its first round: every device has its state
        array(i);
        o_ << "  { const double* v = " << row("a.states", plane, "d", "a.stateStride") << "; "
           << kLoop << " " << out << "[s] = v[s]; }\n";
        break;
      case OpCode::ShareRead:
        o_ << "  const double* " << out << " = " << row("a.exportsPrev", plane, "d", "xs") << ";\n";
        break;
      case OpCode::RememberWrite:
        o_ << "  storeRow<W>(" << row("a.states", plane, "d", "a.stateStride") << ", n, stream, "
           << "[&](std::int64_t s) { return " << operand(i, 0) << "; });\n";
        return;
      case OpCode::Export:  // streamed unless this round reads the device's own entry back
        o_ << "  storeRow<W>(" << row("a.exportsNow", plane, "d", "xs") << ", n, "
           << (readsOwnExportAfter(i) ? "false" : "stream") << ", [&](std::int64_t s) { return "
           << operand(i, 0) << "; });\n";
        return;
      case OpCode::Output:
        o_ << "  if (a.writeOutput) storeRow<W>(" << row("a.output", plane, "d", "a.outputStride")
           << ", n, stream, [&](std::int64_t s) { return " << operand(i, 0) << "; });\n";
        return;
      case OpCode::Mux:
        array(i);
        pending_ << "    {\n      const double x = " << fusedOperand(i, 1)
                 << ", y = " << fusedOperand(i, 2) << ";\n      " << out
                 << "[s] = " << fusedOperand(i, 0) << " == 1.0 ? x : y;\n    }\n";
        break;
      case OpCode::ContextMix:
        array(i);
        o_ << "  " << kLoop << " " << out << "[s] = kfield::impl::contextMix(" << operand(i, 0)
           << ", " << operand(i, 1) << ");\n";
        break;
      case OpCode::BitNot:
        array(i);
        o_ << "  " << kLoop << " " << out << "[s] = kfield::impl::integer::bitNot(" << operand(i, 0)
           << ");\n";
        break;
      case OpCode::Fold:
        if (op.lexicographic > 1) {
          lexicographicFold(i);
          return;
        }
        fold(i);
        break;
      case OpCode::FoldComponent: return;  // the lexicographic fold before it wrote its slot
      case OpCode::ExchangeSend: send(i); return;
      default:
        if (const char* e = entryCodeName(impl::pointwiseEntry(op.code))) {
          array(i);
          if (fusable(op)) {
            const std::string x = fusedOperand(i, 0), y = fusedOperand(i, 1);
            pending_ << "    " << out << "[s] = kfield::impl::entryOperation(kfield::impl::"
                     << "EntryCode::" << e << ", " << x << ", " << y << ");\n";
          } else {
            o_ << "  " << kLoop << " " << out << "[s] = kfield::impl::entryOperation(kfield::impl::"
               << "EntryCode::" << e << ", " << operand(i, 0) << ", " << operand(i, 1) << ");\n";
          }
        } else if (const char* n = integerName(op.code)) {
          array(i);
          o_ << "  " << kLoop << " " << out << "[s] = kfield::impl::integer::apply("
             << "kfield::impl::integer::Op::" << n << ", " << operand(i, 0) << ", " << operand(i, 1)
             << ");\n";
        } else {
          impl::invalidArgument("kfield::compiledRoundsSource",
                                "program '" + p_.name + "', operation " + std::to_string(i) +
                                    ": code " + std::to_string(int(op.code)) +
                                    " cannot be compiled");
        }
    }
    o_ << "  (void)" << out << ";\n";  // a value no later operation reads
    if (op.out >= 0) slot_[static_cast<std::size_t>(op.out)] = out;
  }

  // The leaves of op i's entry program for entry k (d hears j), before the sample loop: rows
  // and scalars named q<prefix><register>. `self`: "true" or "false" when known, else "j == d".
  void leaves(std::size_t i, const std::string& prefix, const std::string& self,
              std::int32_t start = 0) {
    const Op& op = p_.ops[i];
    for (std::int32_t r = start; r < op.entryCount; ++r) {
      const EntryOp& x = p_.entries[static_cast<std::size_t>(op.entryBegin + r)];
      const std::string q = "q" + prefix + std::to_string(r);
      const std::string plane = std::to_string(x.plane);
      switch (x.code) {
        case EntryCode::Neighbor: {
          const std::string own = x.slot >= 0 ? slot_.at(static_cast<std::size_t>(x.slot))
                                              : row("a.exportsNow", plane, "d", "xs");
          o_ << "    const double* " << q << " = "
             << choose(self, own, row("a.exportsPrev", plane, "j", "xs")) << ";\n";
          break;
        }
        case EntryCode::Received: {
          const std::string edge =
              "a.edgeRow + " + std::to_string(x.edge) + " * a.entries + a.reverse[k]";
          // No slot: the device never reads its own entry (a fold without it).
          const std::string own = x.slot >= 0 ? slot_.at(static_cast<std::size_t>(x.slot))
                                              : "static_cast<const double*>(nullptr)";
          o_ << "    const double* " << q << " = "
             << choose(self, own, "a.exportsPrev + (" + edge + ") * xs + s0") << ";\n";
          break;
        }
        case EntryCode::EdgeLength:
          o_ << "    const double " << q << " = a.lengths ? a.lengths[k] : 0.0;\n";
          break;
        case EntryCode::Lag:  // synchronous rounds: a neighbor sent one round ago
          o_ << "    const double " << q << " = " << choose(self, "0.0", "1.0") << ";\n";
          break;
        case EntryCode::Constant:  // read here: a row the loop writes might alias the table
          o_ << "    const double " << q << " = "
             << constant(3 * p_.ops.size() + static_cast<std::size_t>(op.entryBegin + r)) << ";\n";
          break;
        default: break;
      }
    }
  }
  // Entry k's row of edge plane `edge`, this round's.
  static std::string edgeRow(std::int32_t edge) {
    return "a.exportsNow + (a.edgeRow + " + std::to_string(edge) + " * a.entries + k) * xs + s0";
  }
  static std::string choose(const std::string& self, const std::string& own,
                            const std::string& other) {
    if (self == "true") return own;
    if (self == "false") return other;
    return "j == d ? " + own + " : " + other;
  }

  // Op i's entry program inside the sample loop: register r is e<prefix><r>; returns the last.
  // From `start` on: register start - 1 is read from row `kept` (a send repeating a fold's
  // entry program starts from the value the fold kept: Op::sharedEntries).
  std::string registers(std::size_t i, const std::string& prefix, std::int32_t start = 0,
                        const std::string& kept = "") {
    const Op& op = p_.ops[i];
    auto reg = [&](std::int32_t r) { return "e" + prefix + std::to_string(r); };
    if (start > 0) o_ << "      const double " << reg(start - 1) << " = " << kept << "[s];\n";
    for (std::int32_t r = start; r < op.entryCount; ++r) {
      const std::size_t index = static_cast<std::size_t>(op.entryBegin + r);
      const EntryOp& x = p_.entries[index];
      const std::string q = "q" + prefix + std::to_string(r);
      o_ << "      const double " << reg(r) << " = ";
      switch (x.code) {
        case EntryCode::Neighbor:
        case EntryCode::Received: o_ << q << "[s]"; break;
        case EntryCode::EdgeLength:
        case EntryCode::Lag:
        case EntryCode::Constant: o_ << q; break;
        case EntryCode::Local: o_ << slotValue(x.slot); break;
        case EntryCode::Mux: o_ << reg(x.a) << " == 1.0 ? " << reg(x.b) << " : " << reg(x.c); break;
        default:
          o_ << "kfield::impl::entryOperation(kfield::impl::EntryCode::" << entryCodeName(x.code)
             << ", " << reg(x.a) << ", " << (x.b >= 0 ? reg(x.b) : std::string("0.0")) << ")";
      }
      o_ << ";\n";
    }
    return reg(op.entryCount - 1);
  }

  void fold(std::size_t i) {
    const Op& op = p_.ops[i];
    const std::string out = value(i),
                      code = std::string("kfield::impl::FoldCode::") + foldName(op.fold);
    array(i);
    o_ << "  { const double init = kfield::impl::initialOf(" << code << "); " << kLoop << " " << out
       << "[s] = init; }\n"
       << "  kfield::impl::withCombine(" << code << ", [&](const auto& combine) {\n"
       << "  for (std::int64_t k = a.offsets[d]; k < a.offsets[d + 1]; ++k) {\n"
       << "    const std::int64_t j = a.neighbors[k];\n    (void)j;\n";
    if (op.fold == FoldCode::Self) {
      o_ << "    if (j != d) continue;\n";
    } else if (op.excludeSelf != 0) {
      o_ << "    if (j == d) continue;\n";
    }
    leaves(i, "", "j == d");
    if (op.keepEdge >= 0) {  // each entry's value, for the send that repeats this program
      o_ << "    double* keep = " << edgeRow(op.keepEdge) << ";\n";
    }
    o_ << "    " << kLoop << " {\n";
    const std::string last = registers(i, "");
    if (op.keepEdge >= 0) o_ << "      keep[s] = " << last << ";\n";
    o_ << "      " << out << "[s] = combine(" << out << "[s], " << last
       << ");\n    }\n  }\n  });\n";
  }

  // ops i .. i + width - 1: one pass over the entries, each compared component by component; the
  // first better where all before it are equal replaces the rest (RoundKernel's merge).
  void lexicographicFold(std::size_t i) {
    const Op& op = p_.ops[i];
    const int width = op.lexicographic;
    const bool isMax = op.fold == FoldCode::Max;
    o_ << "  const double init" << i
       << " = kfield::impl::initialOf(kfield::impl::FoldCode::" << foldName(op.fold) << ");\n";
    for (int w = 0; w < width; ++w) {
      array(i + std::size_t(w));
      o_ << "  " << kLoop << " " << value(i + std::size_t(w)) << "[s] = init" << i << ";\n";
    }
    o_ << "  for (std::int64_t k = a.offsets[d]; k < a.offsets[d + 1]; ++k) {\n"
       << "    const std::int64_t j = a.neighbors[k];\n    (void)j;\n";
    if (op.excludeSelf != 0) o_ << "    if (j == d) continue;\n";
    for (int w = 0; w < width; ++w) leaves(i + std::size_t(w), std::to_string(w) + "_", "j == d");
    // Where no component is better the bests stay as they are, so they are written only where
    // one is: a block of samples none of which improves stores nothing.
    o_ << "    " << kLoop << " {\n      bool better = false, tied = true;\n";
    for (int w = 0; w < width; ++w) {
      const std::string x = std::to_string(w);
      const std::string v = registers(i + std::size_t(w), x + "_");
      o_ << "      const double v" << x << " = " << v << ", best" << x << " = "
         << value(i + std::size_t(w)) << "[s];\n"
         << "      const bool improves" << x << " = tied & ("
         << (isMax ? "best" + x + " < v" + x : "v" + x + " < best" + x) << ");\n"
         << "      better = better | improves" << x << ";\n"
         << "      tied = tied & (v" << x << " == best" << x << ");\n";
    }
    o_ << "      if (better) {\n        const double init = init" << i << ";\n"
       << "        bool replaced = false;\n";
    for (int w = 0; w < width; ++w) {
      const std::string x = std::to_string(w), v = "v" + x;
      o_ << "        " << value(i + std::size_t(w)) << "[s] = replaced ? ("
         << (isMax ? "init < " + v : v + " < init") << " ? " << v << " : init) : improves" << x
         << " ? " << v << " : best" << x << ";\n"
         << "        replaced = replaced | improves" << x << ";\n";
    }
    o_ << "      }\n";
    o_ << "    }\n  }\n";
    for (int w = 0; w < width; ++w) {
      const Op& part = p_.ops[i + std::size_t(w)];
      if (part.out >= 0) slot_[static_cast<std::size_t>(part.out)] = value(i + std::size_t(w));
    }
  }

  // An exchange's send: the own entry to the export row, then each neighbor's to the edge plane
  // at its entry (the own entry to the device itself).
  void send(std::size_t i) {
    const Op& op = p_.ops[i];
    const std::string own = value(i);
    array(i);
    o_ << "  {\n  std::int64_t self = a.offsets[d];\n"
       << "  while (self < a.offsets[d + 1] && a.neighbors[self] != d) ++self;\n"
       << "  {\n    const std::int64_t k = self, j = d;\n    (void)k, (void)j;\n";
    const std::int32_t start = op.sharedEntries;
    leaves(i, "", "true", start);
    if (start > 0) o_ << "    const double* kept = " << edgeRow(op.edge) << ";\n";
    o_ << "    " << kLoop << " {\n";
    const std::string last = registers(i, "", start, "kept");
    o_ << "      " << own << "[s] = " << last << ";\n    }\n  }\n"
       << "  storeRow<W>(" << row("a.exportsNow", std::to_string(op.plane), "d", "xs")
       << ", n, stream, [&](std::int64_t s) { return " << own << "[s]; });\n"
       << "  for (std::int64_t k = a.offsets[d]; k < a.offsets[d + 1]; ++k) {\n"
       << "    const std::int64_t j = a.neighbors[k];\n"
       << "    double* to = " << edgeRow(op.edge) << ";\n"
       << "    if (j == d) { storeRow<W>(to, n, stream, [&](std::int64_t s) { return " << own
       << "[s]; }); continue; }\n";
    leaves(i, "", "false", start);
    o_ << "    double sent[W];\n    " << kLoop << " {\n";
    const std::string sent = registers(i, "", start, "to");
    o_ << "      sent[s] = " << sent << ";\n    }\n"
       << "    storeRow<W>(to, n, stream, [&](std::int64_t s) { return sent[s]; });\n  }\n  }\n";
  }
};

// Rows written for the next round (exports, states, an exchange's edges, the output) where a
// plane is too large to stay in cache (64 MiB): a whole block of 64 samples, aligned, goes to
// memory with streaming stores, which do not read the lines first; other rows are stored
// plainly. The same values either way, and a fence at the end of a chunk orders them before
// the round ends.
constexpr const char* kStoreRow =
    R"(constexpr std::int64_t kStreamedPlane = std::int64_t(1) << 23;  // doubles

template <int W, class F>
inline void storeRow(double* to, std::int64_t n, bool stream, const F& f) {
#if defined(__AVX__)
  if (W == 64 && stream && n == 64 && (reinterpret_cast<std::uintptr_t>(to) & 31) == 0) {
    for (std::int64_t s = 0; s < 64; s += 4) {
      _mm256_stream_pd(to + s, _mm256_set_pd(f(s + 3), f(s + 2), f(s + 1), f(s)));
    }
    return;
  }
#elif defined(__SSE2__)
  if (W == 64 && stream && n == 64 && (reinterpret_cast<std::uintptr_t>(to) & 15) == 0) {
    for (std::int64_t s = 0; s < 64; s += 2) _mm_stream_pd(to + s, _mm_set_pd(f(s + 1), f(s)));
    return;
  }
#endif
  (void)stream;
  KFIELD_IMPL_INDEPENDENT for (std::int64_t s = 0; s < n; ++s) to[s] = f(s);
}

inline void streamFence() {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

)";

}  // namespace

std::string compiledRoundsSource(const std::vector<TracedProgram>& programs,
                                 const std::string& table) {
  constexpr const char* kWho = "kfield::compiledRoundsSource";
  const impl::source::TableName where = impl::source::tableName(kWho, table);
  std::ostringstream o;
  o << "// Compiled rounds written by kfield::compiledRoundsSource "
       "(kfield/sim/CompiledRound.hpp).\n"
    << "// Generated: regenerate, do not edit.\n"
    << "#include \"kfield/impl/IntegerMath.hpp\"\n"
    << "#include \"kfield/sim/CompiledRound.hpp\"\n"
    << "#include \"kfield/sim/impl/Operations.hpp\"\n\n"
    << "#include <cstdint>\n#include <vector>\n"
    << "#if defined(__SSE2__)\n#include <immintrin.h>\n#endif\n\n"
    << "namespace {\n\n"
    << kStoreRow;
  std::set<std::string> taken;
  std::vector<std::string> names;
  std::set<std::string> keys;
  std::vector<const TracedProgram*> kept;
  for (const TracedProgram& p : programs) {
    std::string why;
    if (!canCompileRound(p, &why)) impl::invalidArgument(kWho, why);
    if (!keys.insert(compiledRoundKey(p)).second) continue;  // one round serves both
    names.push_back(impl::source::functionName("round_", p.name, taken));
    kept.push_back(&p);
    RoundWriter(p, o).write(names.back());
  }
  o << "}  // namespace\n\n";
  const std::string &space = where.space, &name = where.name;
  if (!space.empty()) o << "namespace " << space << " {\n\n";
  o << "std::vector<kfield::CompiledRoundEntry> " << name << "() {\n  return {\n";
  for (std::size_t i = 0; i < kept.size(); ++i) {
    o << "      {" << literal(compiledRoundKey(*kept[i])) << ",\n       " << literal(kept[i]->name)
      << ", &" << names[i] << "},\n";
  }
  o << "  };\n}\n";
  if (!space.empty()) o << "\n}  // namespace " << space << "\n";
  return o.str();
}

}  // namespace kfield
