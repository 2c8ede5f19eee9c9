// Compiled reverse rounds: the key and constants of a program, what can be compiled, and the
// registry.
#include "kfield/diff/CompiledReverse.hpp"

#include "impl/GeneratedSource.hpp"
#include "kfield/field/Programs.hpp"
#include "kfield/net/Network.hpp"

#include <mutex>
#include <unordered_map>

namespace kfield::diff {
namespace impl {
std::vector<CompiledReverseEntry> libraryCompiledReverses();  // compiled/LibraryReverses.cpp
}  // namespace impl

namespace {

using kfield::impl::EntryCode;
using kfield::impl::OpCode;

struct Registry {
  std::mutex lock;
  std::unordered_map<std::string, CompiledReverseEntry> reverses;
  Registry() {
    for (const CompiledReverseEntry& e : impl::libraryCompiledReverses()) reverses[e.key] = e;
  }
};
Registry& registry() {
  static Registry r;
  return r;
}

// The codes the writer knows (CompiledReverseSource.cpp).
bool written(OpCode c) {
  switch (c) {
    case OpCode::ExchangeSend:
    case OpCode::FoldComponent:
    case OpCode::SpawnKey:
    case OpCode::Time:
    case OpCode::DeltaTime: return false;
    default: return true;
  }
}

}  // namespace

std::string compiledReverseKey(const TracedProgram& p) {
  return kfield::impl::source::operationsKey("kfield-reverse-1", p, p.valueOps, p.valueEntries,
                                             p.valueSlots);
}

std::vector<double> compiledReverseConstants(const TracedProgram& p) {
  return kfield::impl::source::operationConstants(p.valueOps, p.valueEntries);
}

bool canCompileReverse(const TracedProgram& p, std::string* why) {
  std::vector<char> exported(p.exports.size(), 0);
  for (std::size_t i = 0; i < p.valueOps.size(); ++i) {
    const kfield::impl::Op& op = p.valueOps[i];
    std::string what = kfield::impl::source::uncompilable(op, p.valueEntries);
    if (what.empty() && op.code == OpCode::ExchangeSend) what = "an exchange";
    if (what.empty() && op.component >= 0) what = "a component of a lexicographic fold";
    if (what.empty() && !written(op.code)) what = "code " + std::to_string(int(op.code));
    for (std::int32_t r = 0; what.empty() && r < op.entryCount; ++r) {
      const kfield::impl::EntryOp& x = p.valueEntries[static_cast<std::size_t>(op.entryBegin + r)];
      if (x.code == EntryCode::Received) what = "reads what an exchange sent";
      const bool readsSelf = op.fold == kfield::impl::FoldCode::Self || op.excludeSelf == 0;
      if (x.code == EntryCode::Neighbor && x.slot < 0 && readsSelf &&
          exported[static_cast<std::size_t>(x.plane)] == 0) {
        what = "reads the device's own export before the round writes it";
      }
    }
    if (!what.empty()) {
      if (why)
        *why = "program '" + p.name + "', value operation " + std::to_string(i) + ": " + what;
      return false;
    }
    if (op.code == OpCode::Export) exported[static_cast<std::size_t>(op.plane)] = 1;
  }
  return true;
}

std::string libraryReversesSource() {
  const lib::NetworkFacts facts(Network::grid(3, 3));  // constants differ by network, not the rest
  constexpr std::size_t largestRound = 256;            // as libraryRoundsSource
  std::vector<TracedProgram> programs;
  for (const lib::LibraryProgram& program : lib::programs()) {
    TracedProgram traced = program.build(facts, {});
    if (canCompileReverse(traced) && traced.valueOps.size() <= largestRound)
      programs.push_back(std::move(traced));
  }
  std::string source =
      compiledReversesSource(programs, "kfield::diff::impl::libraryCompiledReverses");
  kfield::impl::source::sayHowToRegenerate(source);
  return source;
}

void registerCompiledReverses(const std::vector<CompiledReverseEntry>& reverses) {
  Registry& r = registry();
  std::lock_guard<std::mutex> guard(r.lock);
  for (const CompiledReverseEntry& e : reverses) r.reverses[e.key] = e;
}

CompiledReverseEntry findCompiledReverse(const TracedProgram& program) {
  if (!canCompileReverse(program)) return {nullptr, nullptr, 0, 0, 0, nullptr, nullptr, nullptr};
  Registry& r = registry();
  std::lock_guard<std::mutex> guard(r.lock);
  const auto found = r.reverses.find(compiledReverseKey(program));
  return found == r.reverses.end()
             ? CompiledReverseEntry{nullptr, nullptr, 0, 0, 0, nullptr, nullptr, nullptr}
             : found->second;
}

}  // namespace kfield::diff
