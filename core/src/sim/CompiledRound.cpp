// Compiled rounds: the key and constants of a program, what can be compiled, and the registry.
#include "kfield/sim/CompiledRound.hpp"

#include "impl/GeneratedSource.hpp"
#include "kfield/field/Programs.hpp"
#include "kfield/net/Network.hpp"

#include <mutex>
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

}  // namespace

std::string compiledRoundKey(const TracedProgram& p) {
  return impl::source::operationsKey("kfield-round-1", p, p.ops, p.entries, p.slots);
}

std::vector<double> compiledRoundConstants(const TracedProgram& p) {
  return impl::source::operationConstants(p.ops, p.entries);
}

bool canCompileRound(const TracedProgram& p, std::string* why) {
  for (std::size_t i = 0; i < p.ops.size(); ++i) {
    const std::string what = impl::source::uncompilable(p.ops[i], p.entries);
    if (what.empty()) continue;
    if (why) *why = "program '" + p.name + "', operation " + std::to_string(i) + ": " + what;
    return false;
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
  kfield::impl::source::sayHowToRegenerate(source);
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
