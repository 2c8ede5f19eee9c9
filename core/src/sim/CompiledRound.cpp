// Compiled rounds: the key and constants of a program, what can be compiled, and the registry.
#include "kfield/sim/CompiledRound.hpp"

#include "kfield/field/Programs.hpp"
#include "kfield/net/Network.hpp"

#include <mutex>
#include <sstream>
#include <unordered_map>

namespace kfield {
namespace impl {
std::vector<CompiledRoundEntry> libraryCompiledRounds();  // compiled/LibraryRounds.cpp
}  // namespace impl

namespace {

// Registered rounds by key, the library's first.
struct Registry {
  std::mutex lock;
  std::unordered_map<std::string, CompiledRound> rounds;
  Registry() {
    for (const CompiledRoundEntry& e : impl::libraryCompiledRounds()) rounds[e.key] = e.run;
  }
};
Registry& registry() {
  static Registry r;
  return r;
}

void writeOperand(std::ostream& o, const impl::Operand& x) { o << x.slot << ','; }

}  // namespace

std::string compiledRoundKey(const TracedProgram& p) {
  std::ostringstream o;
  o << "kfield-round-1;slots " << p.slots << ";sensors " << p.sensors.size() << ";exports "
    << p.exports.size() << ";edges " << p.edgePlanes << ";states " << p.states.size() << ";output "
    << p.outputWidth << ";ops";
  for (const impl::Op& op : p.ops) {
    o << ';' << int(op.code) << ',' << op.out << ',';
    writeOperand(o, op.a);
    writeOperand(o, op.b);
    writeOperand(o, op.c);
    o << op.mask << ',' << op.context << ',' << op.plane << ',' << op.keyed << ',' << int(op.fold)
      << ',' << op.excludeSelf << ',' << op.entryBegin << ',' << op.entryCount << ','
      << op.component << ',' << op.lexicographic << ',' << op.edge << ',' << op.keepEdge << ','
      << op.sharedEntries << ',' << op.spawn;
  }
  o << ";entries";
  for (const impl::EntryOp& x : p.entries) {
    o << ';' << int(x.code) << ',' << x.a << ',' << x.b << ',' << x.c << ',' << x.plane << ','
      << x.keyed << ',' << x.edge << ',' << x.slot << ',' << x.copies;
  }
  return o.str();
}

std::vector<double> compiledRoundConstants(const TracedProgram& p) {
  std::vector<double> c;
  c.reserve(3 * p.ops.size() + p.entries.size());
  for (const impl::Op& op : p.ops) {
    c.push_back(op.a.constant);
    c.push_back(op.b.constant);
    c.push_back(op.c.constant);
  }
  for (const impl::EntryOp& x : p.entries) c.push_back(x.constant);
  return c;
}

bool canCompileRound(const TracedProgram& p, std::string* why) {
  auto refuse = [&](std::size_t i, const std::string& what) {
    if (why) *why = "program '" + p.name + "', operation " + std::to_string(i) + ": " + what;
    return false;
  };
  using impl::OpCode;
  for (std::size_t i = 0; i < p.ops.size(); ++i) {
    const impl::Op& op = p.ops[i];
    if (op.mask >= 0) return refuse(i, "runs inside a branch (a mask)");
    if (op.context >= 0) return refuse(i, "runs inside an align block");
    if (op.keyed != 0) return refuse(i, "a conditional export or state");
    if (op.code == OpCode::SpawnKey) return refuse(i, "a spawn");
    if (op.code == OpCode::Time || op.code == OpCode::DeltaTime)
      return refuse(i, "reads the clock");
    if (op.lexicographic > 1 && op.fold != impl::FoldCode::Min && op.fold != impl::FoldCode::Max) {
      return refuse(i, "a lexicographic fold that is neither min nor max");
    }
    for (std::int32_t r = 0; r < op.entryCount; ++r) {
      const impl::EntryOp& x = p.entries[static_cast<std::size_t>(op.entryBegin + r)];
      if (x.keyed != 0 || x.copies != 0) {
        return refuse(i, "reads a conditional export (inside a branch, align block or spawn)");
      }
    }
  }
  return true;
}

std::string libraryRoundsSource() {
  const lib::NetworkFacts facts(Network::grid(3, 3));  // constants differ by network, not the rest
  // Larger rounds stay interpreted in the library: neural-distance's 1,058 operations take the
  // compiler a minute and a half, twenty times the rest of the table together.
  constexpr std::size_t largestRound = 256;
  std::vector<TracedProgram> programs;
  for (const lib::LibraryProgram& program : lib::programs()) {
    TracedProgram traced = program.build(facts, {});
    if (canCompileRound(traced) && traced.ops.size() <= largestRound)
      programs.push_back(std::move(traced));
  }
  std::string source = compiledRoundsSource(programs, "kfield::impl::libraryCompiledRounds");
  const std::string generated = "// Generated: regenerate, do not edit.\n";
  const std::size_t at = source.find(generated);
  if (at != std::string::npos) {  // says how: the build target of core/CMakeLists.txt
    source.replace(at, generated.size(),
                   "// Generated: do not edit; regenerate it with the build target\n"
                   "// kfield_regenerate_library_rounds (cmake --build BUILD --target ...).\n");
  }
  return source;
}

void registerCompiledRounds(const std::vector<CompiledRoundEntry>& rounds) {
  Registry& r = registry();
  std::lock_guard<std::mutex> guard(r.lock);
  for (const CompiledRoundEntry& e : rounds) r.rounds[e.key] = e.run;
}

CompiledRound findCompiledRound(const TracedProgram& program) {
  if (!canCompileRound(program)) return nullptr;
  Registry& r = registry();
  std::lock_guard<std::mutex> guard(r.lock);
  const auto found = r.rounds.find(compiledRoundKey(program));
  return found == r.rounds.end() ? nullptr : found->second;
}

}  // namespace kfield
