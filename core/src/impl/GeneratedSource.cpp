// What the writers of generated C++ share.
#include "impl/GeneratedSource.hpp"

#include "kfield/impl/Errors.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace kfield::impl::source {

const char* entryCodeName(EntryCode c) {
  switch (c) {
    case EntryCode::Add: return "Add";
    case EntryCode::Sub: return "Sub";
    case EntryCode::Mul: return "Mul";
    case EntryCode::Div: return "Div";
    case EntryCode::Min: return "Min";
    case EntryCode::Max: return "Max";
    case EntryCode::Less: return "Less";
    case EntryCode::Equal: return "Equal";
    case EntryCode::LessEqual: return "LessEqual";
    case EntryCode::Greater: return "Greater";
    case EntryCode::GreaterEqual: return "GreaterEqual";
    case EntryCode::NotEqual: return "NotEqual";
    case EntryCode::And: return "And";
    case EntryCode::Or: return "Or";
    case EntryCode::Pow: return "Pow";
    case EntryCode::Neg: return "Neg";
    case EntryCode::Not: return "Not";
    case EntryCode::Abs: return "Abs";
    case EntryCode::Sqrt: return "Sqrt";
    case EntryCode::Exp: return "Exp";
    case EntryCode::Log: return "Log";
    case EntryCode::Tanh: return "Tanh";
    case EntryCode::Sigmoid: return "Sigmoid";
    case EntryCode::Floor: return "Floor";
    case EntryCode::Ceil: return "Ceil";
    default: return nullptr;
  }
}

const char* integerName(OpCode c) {
  switch (c) {
    case OpCode::IntDiv: return "Div";
    case OpCode::IntMod: return "Mod";
    case OpCode::BitAnd: return "And";
    case OpCode::BitOr: return "Or";
    case OpCode::BitXor: return "Xor";
    case OpCode::ShiftLeft: return "ShiftLeft";
    case OpCode::ShiftRight: return "ShiftRight";
    default: return nullptr;
  }
}

const char* foldName(FoldCode c) {
  switch (c) {
    case FoldCode::Min: return "Min";
    case FoldCode::Max: return "Max";
    case FoldCode::Sum: return "Sum";
    case FoldCode::Count: return "Count";
    case FoldCode::Self: return "Self";
    case FoldCode::Any: return "Any";
    default: return "All";
  }
}

namespace {
bool identifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char ch : s) {
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_') return false;
  }
  return true;
}
}  // namespace

std::string functionName(const std::string& prefix, const std::string& program,
                         std::set<std::string>& taken) {
  std::string name = prefix;
  for (char ch : program) name += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
  std::string unique = name;
  for (int k = 2; !taken.insert(unique).second; ++k) unique = name + "_" + std::to_string(k);
  return unique;
}

TableName tableName(const char* who, const std::string& table) {
  bool named = !table.empty();
  for (std::size_t at = 0; named && at <= table.size();) {  // identifiers joined by ::
    const std::size_t next = std::min(table.find("::", at), table.size());
    named = identifier(table.substr(at, next - at));
    at = next + 2;
  }
  if (!named) invalidArgument(who, "table name '" + table + "' is not a C++ name");
  const std::size_t last = table.rfind("::");
  if (last == std::string::npos) return {"", table};
  return {table.substr(0, last), table.substr(last + 2)};
}

std::string uncompilable(const Op& op, const std::vector<EntryOp>& entries) {
  if (op.mask >= 0) return "runs inside a branch (a mask)";
  if (op.context >= 0) return "runs inside an align block";
  if (op.keyed != 0) return "a conditional export or state";
  if (op.code == OpCode::SpawnKey) return "a spawn";
  if (op.code == OpCode::Time || op.code == OpCode::DeltaTime) return "reads the clock";
  if (op.lexicographic > 1 && op.fold != FoldCode::Min && op.fold != FoldCode::Max) {
    return "a lexicographic fold that is neither min nor max";
  }
  for (std::int32_t r = 0; r < op.entryCount; ++r) {
    const EntryOp& x = entries[static_cast<std::size_t>(op.entryBegin + r)];
    if (x.keyed != 0 || x.copies != 0) {
      return "reads a conditional export (inside a branch, align block or spawn)";
    }
  }
  return "";
}

std::string operationsKey(const char* tag, const TracedProgram& p, const std::vector<Op>& ops,
                          const std::vector<EntryOp>& entries, std::int32_t slots) {
  std::ostringstream o;
  o << tag << ";slots " << slots << ";sensors " << p.sensors.size() << ";exports "
    << p.exports.size() << ";edges " << p.edgePlanes << ";states " << p.states.size() << ";output "
    << p.outputWidth << ";ops";
  for (const Op& op : ops) {
    o << ';' << int(op.code) << ',' << op.out << ',' << op.a.slot << ',' << op.b.slot << ','
      << op.c.slot << ',' << op.mask << ',' << op.context << ',' << op.plane << ',' << op.keyed
      << ',' << int(op.fold) << ',' << op.excludeSelf << ',' << op.entryBegin << ','
      << op.entryCount << ',' << op.component << ',' << op.lexicographic << ',' << op.edge << ','
      << op.keepEdge << ',' << op.sharedEntries << ',' << op.spawn;
  }
  o << ";entries";
  for (const EntryOp& x : entries) {
    o << ';' << int(x.code) << ',' << x.a << ',' << x.b << ',' << x.c << ',' << x.plane << ','
      << x.keyed << ',' << x.edge << ',' << x.slot << ',' << x.copies;
  }
  return o.str();
}

std::vector<double> operationConstants(const std::vector<Op>& ops,
                                       const std::vector<EntryOp>& entries) {
  std::vector<double> c;
  c.reserve(3 * ops.size() + entries.size());
  for (const Op& op : ops) {
    c.push_back(op.a.constant);
    c.push_back(op.b.constant);
    c.push_back(op.c.constant);
  }
  for (const EntryOp& x : entries) c.push_back(x.constant);
  return c;
}

void sayHowToRegenerate(std::string& source) {
  const std::string generated = "// Generated: regenerate, do not edit.\n";
  const std::size_t at = source.find(generated);
  if (at == std::string::npos) return;
  source.replace(at, generated.size(),
                 "// Generated: do not edit; regenerate it with the build target\n"
                 "// kfield_regenerate_library_rounds (cmake --build BUILD --target ...).\n");
}

std::string literal(const std::string& s) {
  std::string out = "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  return out + "\"";
}

}  // namespace kfield::impl::source
