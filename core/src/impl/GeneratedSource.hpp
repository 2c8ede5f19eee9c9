// What the writers of generated C++ share (compiled rounds, compiled reverse rounds): the names
// of the operations they emit, function and table names, string literals.
#ifndef KFIELD_SRC_IMPL_GENERATEDSOURCE_HPP
#define KFIELD_SRC_IMPL_GENERATEDSOURCE_HPP

#include "kfield/field/TracedProgram.hpp"
#include "kfield/field/impl/Bytecode.hpp"

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace kfield::impl::source {

// The enumerator's name, or null where the code is not an operation of registers (leaves, Mux).
const char* entryCodeName(EntryCode c);
// An integer operator's name in kfield::impl::integer::Op, or null.
const char* integerName(OpCode c);
const char* foldName(FoldCode c);

// A function name for the program, not yet in `taken` (which it joins).
std::string functionName(const std::string& prefix, const std::string& program,
                         std::set<std::string>& taken);

// A table name split into its namespaces and its own name; throws std::invalid_argument (for
// `who`) unless it is identifiers joined by ::.
struct TableName {
  std::string space, name;
};
TableName tableName(const char* who, const std::string& table);

// Why the op cannot run in generated code, or "" if it can: branches, align blocks, spawns, the
// clock, conditional calls and lexicographic folds other than min and max are left to the
// round kernel.
std::string uncompilable(const Op& op, const std::vector<EntryOp>& entries);

// A key of the program's operations without their constants: `tag`, the planes, then every
// field of the ops and entries that the generated code depends on.
std::string operationsKey(const char* tag, const TracedProgram& p, const std::vector<Op>& ops,
                          const std::vector<EntryOp>& entries, std::int32_t slots);
// The constants, in the order generated code reads them: each op's operands a, b, c, then each
// entry operation's constant.
std::vector<double> operationConstants(const std::vector<Op>& ops,
                                       const std::vector<EntryOp>& entries);

// The library's generated files say how to regenerate them: the build target of
// core/CMakeLists.txt, in place of the generator's "regenerate, do not edit".
void sayHowToRegenerate(std::string& source);

// A C++ string literal of s.
std::string literal(const std::string& s);

}  // namespace kfield::impl::source

#endif
