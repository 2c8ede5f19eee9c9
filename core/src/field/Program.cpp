#include "kfield/field/Program.hpp"

#include "kfield/impl/Errors.hpp"

#include "CompileTrace.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <sstream>
#include <tuple>

namespace kfield {

using impl::EntryCode;
using impl::Op;
using impl::OpCode;
using impl::Operand;

namespace {
[[noreturn]] void traceError(const std::string& what) {
  impl::invalidArgument("kfield::trace", what);
}
}  // namespace

namespace {
void checkName(const std::string& name) {
  if (name.empty() || name.find_first_of("/@") != std::string::npos) {
    traceError("an aggregate name must be non-empty, without '/' or '@': '" + name + "'");
  }
}

// A traced value's name in the graph: "v" and its slot. (Appended, not `"v" + ...`: GCC 12
// reports a false overlap in that operator+ under C++20.)
std::string valueName(std::int32_t slot) {
  std::string name = "v";
  name += std::to_string(slot);
  return name;
}
}  // namespace

std::string Program::pinnedPath(const std::string& name) {
  checkName(name);
  const std::string& prefix = levels_.back().prefix;
  return prefix.empty() ? name : prefix + "/" + name;
}

std::string Program::call(const std::string& name) {
  checkName(name);
  Level& level = levels_.back();
  const std::string element = name + "@" + std::to_string(level.counter++);
  return level.prefix.empty() ? element : level.prefix + "/" + element;
}

void Program::pushLevel(const std::string& path) {
  claimPath(path);
  levels_.push_back(Level{path, 0});
}

void Program::popLevel() { levels_.pop_back(); }

void Program::claimPath(const std::string& path) {
  if (!paths_.insert(path).second) {
    traceError("two call sites have the path '" + path + "'");
  }
}

std::string Program::keyOf(Operand v) const {
  if (v.slot < 0) {
    std::ostringstream out;
    out.precision(17);
    out << v.constant;
    return out.str();
  }
  return valueName(v.slot);
}

// An operation of an aligned call: it carries the current mask and alignment context, and
// its node reads them.
Op Program::alignedOp(OpCode code, Operand a, std::int32_t plane, bool keyedPlane,
                      graph::Node& node) const {
  Op op;
  op.code = code;
  op.a = a;
  op.plane = plane;
  op.mask = mask_;
  op.context = context_;
  op.keyed = keyedPlane ? 1 : 0;
  if (mask_ >= 0) node.reads.push_back(valueName(mask_));
  if (context_ >= 0) node.reads.push_back(valueName(context_));
  return op;
}

std::int32_t Program::addExpression(const impl::NbrExpression& e) {
  expressions_.push_back(e);
  return static_cast<std::int32_t>(expressions_.size() - 1);
}

Operand Program::record(Op op, graph::Node node) {
  if (finished_) traceError("the program is already finished");
  const auto id = static_cast<std::int32_t>(traced_.ops.size());
  for (const Operand* operand : {&op.a, &op.b, &op.c}) {
    if (operand->slot >= id) traceError("an operand is not a value of this program");
  }
  if (node.writes.empty() && op.code != OpCode::RememberWrite && op.code != OpCode::Export &&
      op.code != OpCode::Output && op.code != OpCode::ExchangeSend) {
    op.out = id;
    node.writes.push_back(valueName(id));
  }
  traced_.ops.push_back(op);
  traced_.description.nodes.push_back(std::move(node));
  return Operand{op.out, 0.0};
}

Operand Program::emit(OpCode code, const char* kind, Operand a, Operand b, Operand c) {
  Op op;
  op.code = code;
  op.a = a;
  op.b = b;
  op.c = c;
  graph::Node node{kind, "", {}, {}, false};
  const bool unary = code == OpCode::Neg || code == OpCode::Not || code == OpCode::Abs ||
                     code == OpCode::Sqrt || code == OpCode::Exp || code == OpCode::Log ||
                     code == OpCode::Tanh || code == OpCode::Sigmoid || code == OpCode::BitNot ||
                     code == OpCode::Floor || code == OpCode::Ceil;
  const bool nullary = code == OpCode::Uid || code == OpCode::Time || code == OpCode::DeltaTime;
  const int arity = code == OpCode::Mux ? 3 : nullary ? 0 : unary ? 1 : 2;
  const Operand* operands[] = {&a, &b, &c};
  for (int k = 0; k < arity; ++k) node.reads.push_back(keyOf(*operands[k]));
  if (code == OpCode::Uid) node.reads.push_back("network:ids");
  if (code == OpCode::Time || code == OpCode::DeltaTime) node.reads.push_back("clock:time");
  return record(op, node);
}

Operand Program::senseOperand(const std::string& name, SensorType type) {
  if (name.empty()) traceError("a sensor needs a name");
  std::int32_t index = traced_.sensorIndex(name);
  if (index < 0) {
    index = static_cast<std::int32_t>(traced_.sensors.size());
    traced_.sensors.push_back({name, type});
  } else if (traced_.sensors[index].type != type) {
    traceError("sensor '" + name + "' is read with two different types");
  }
  Op op;
  op.code = OpCode::Sense;
  op.plane = index;
  return record(op, graph::Node{"sense", "", {"sensor:" + name}, {}, false});
}

std::vector<Field<double>> Program::parameter(const std::string& name, int width) {
  if (name.empty()) traceError("a parameter needs a name");
  if (width < 1)
    traceError("parameter '" + name + "': width must be >= 1, got " + std::to_string(width));
  std::int32_t index = traced_.parameterIndex(name);
  if (index < 0) {
    index = static_cast<std::int32_t>(traced_.parameters.size());
    const std::int64_t offset = traced_.parameterWidth();
    if (offset + width > (std::int64_t(1) << 30)) {
      traceError("parameter '" + name + "': more than 2^30 parameter values in one program");
    }
    traced_.parameters.push_back({name, width, static_cast<std::int32_t>(offset)});
  } else if (traced_.parameters[index].width != width) {
    traceError("parameter '" + name + "' is declared with widths " +
               std::to_string(traced_.parameters[index].width) + " and " + std::to_string(width));
  }
  std::vector<Field<double>> values;
  for (int i = 0; i < width; ++i) {
    Op op;
    op.code = OpCode::Param;
    op.plane = traced_.parameters[index].offset + i;
    const std::string key = "parameter:" + name + "[" + std::to_string(i) + "]";
    values.push_back({this, record(op, graph::Node{"parameter", "", {key}, {}, false})});
  }
  return values;
}

NbrField<double> Program::edgeLength() {
  impl::NbrExpression e;
  e.code = EntryCode::EdgeLength;
  return NbrField<double>(this, addExpression(e), false);
}

NbrField<double> Program::nbrLag() {
  impl::NbrExpression e;
  e.code = EntryCode::Lag;
  return NbrField<double>(this, addExpression(e), false);
}

// A tuple's component c gets plane path `path/@c` (no call or pinned name makes "@c"); a
// single value keeps the call's path.
namespace {
std::string componentPath(const std::string& path, std::size_t c, std::size_t width) {
  return width == 1 ? path : path + "/@" + std::to_string(c);
}
}  // namespace

std::vector<std::int32_t> Program::neighborsExpressions(const std::vector<Operand>& x) {
  const std::string path = call("neighbors");
  claimPath(path);
  std::vector<std::int32_t> expressions;
  for (std::size_t c = 0; c < x.size(); ++c) {
    impl::NbrExpression e;
    e.code = EntryCode::Neighbor;
    e.mask = mask_;
    e.context = context_;
    e.plane = addExport(componentPath(path, c, x.size()), x[c], -1);
    expressions.push_back(addExpression(e));
  }
  return expressions;
}

// Writes value (and, when keyed, this device's key) to export plane `index`, or to a new
// plane when index < 0.
std::int32_t Program::addExport(const std::string& path, Operand x, std::int32_t index) {
  if (index < 0) {
    traced_.exports.push_back({path, keyed()});
    index = static_cast<std::int32_t>(traced_.exports.size() - 1);
  }
  graph::Node node{"export", path, {keyOf(x)}, {"export:" + path}, false};
  const Op op = alignedOp(OpCode::Export, x, index, traced_.exports[index].keyed, node);
  record(op, node);
  return index;
}

// A share is one export plane per component: last round's shared value is this round's
// state, read back from the plane (keyed like any export), so it needs no state plane. An
// exchange's export holds what a device sent itself (read back the same way) and its edge
// plane what it sent each neighbor.
Program::ShareScope Program::beginShare(const std::vector<Operand>& init, const char* name,
                                        bool perEdge) {
  ShareScope scope{call(name), {}};
  pushLevel(scope.path);
  for (std::size_t c = 0; c < init.size(); ++c) {
    const std::string path = componentPath(scope.path, c, init.size());
    traced_.exports.push_back({path, keyed(), perEdge ? traced_.edgePlanes++ : -1});
    const auto index = static_cast<std::int32_t>(traced_.exports.size() - 1);
    graph::Node node{perEdge ? "exchange.read" : "share.read",
                     path,
                     {"export:" + path, keyOf(init[c])},
                     {},
                     false};
    impl::NbrExpression e;
    e.code = perEdge ? EntryCode::Received : EntryCode::Neighbor;
    e.mask = mask_;
    e.context = context_;
    e.plane = index;
    e.edge = traced_.exports[index].edge;
    const Op op = alignedOp(OpCode::ShareRead, init[c], index, keyed(), node);
    e.local = record(op, node);  // its own entry: what the device shared (sent itself) last round
    scope.shared.push_back(addExpression(e));
  }
  return scope;
}

void Program::endShare(const ShareScope& scope, const std::vector<Operand>& next) {
  for (std::size_t c = 0; c < next.size(); ++c) {
    const std::int32_t plane = expressions_[scope.shared[c]].plane;
    addExport(traced_.exports[plane].path, next[c], plane);
  }
  popLevel();
}

void Program::endExchange(const ShareScope& scope, const std::vector<std::int32_t>& sent) {
  for (std::size_t c = 0; c < sent.size(); ++c) {
    const std::int32_t plane = expressions_[scope.shared[c]].plane;
    const PlaneInfo& info = traced_.exports[plane];
    graph::Node node{
        "exchange.send", info.path, {}, {"export:" + info.path, "edges:" + info.path}, false};
    Op op = alignedOp(OpCode::ExchangeSend, Operand{}, plane, info.keyed, node);
    op.edge = info.edge;
    std::tie(op.entryBegin, op.entryCount) = compileEntries(sent[c], node);
    node.reads.push_back("network:neighbors");
    record(op, node);
  }
  popLevel();
}

std::int32_t Program::nbrCombine(EntryCode code, std::int32_t a, std::int32_t b, std::int32_t c) {
  impl::NbrExpression e;
  e.code = code;
  e.a = a;
  e.b = b;
  e.c = c;
  return addExpression(e);
}

std::int32_t Program::nbrLocal(Operand value) {
  impl::NbrExpression e;
  e.code = value.slot < 0 ? EntryCode::Constant : EntryCode::Local;
  e.local = value;
  return addExpression(e);
}

// An expression DAG as an entry program in post order, each node once (register i is entry
// i's result), appended to the program's entries: its first entry and count. The node gets the
// planes it reads.
std::pair<std::int32_t, std::int32_t> Program::compileEntries(std::int32_t expression,
                                                              graph::Node& node) {
  std::map<std::int32_t, std::int32_t> registerOf;
  std::vector<impl::EntryOp> program;
  auto visit = [&](auto&& self, std::int32_t e) -> std::int32_t {
    const auto found = registerOf.find(e);
    if (found != registerOf.end()) return found->second;
    const impl::NbrExpression& x = expressions_[e];
    impl::EntryOp op;
    op.code = x.code;
    switch (x.code) {
      case EntryCode::Neighbor:
      case EntryCode::Received:
        // Alignment is checked against the keys of the scope that read the neighbors: a fold
        // (or a send) in another branch side or align block would mix devices that never met.
        if (x.mask != mask_ || x.context != context_) {
          traceError("the neighbor field of '" + traced_.exports[x.plane].path +
                     "' is folded outside the branch side or align block that read it (at " +
                     (levels_.back().prefix.empty() ? std::string("the top level")
                                                    : "'" + levels_.back().prefix + "'") +
                     "): fold it there and return the field");
        }
        op.plane = x.plane;
        op.edge = x.edge;
        op.keyed = traced_.exports[x.plane].keyed ? 1 : 0;
        op.slot = x.local.slot;
        node.reads.push_back("export:" + traced_.exports[x.plane].path);
        break;
      case EntryCode::EdgeLength: node.reads.push_back("network:lengths"); break;
      case EntryCode::Lag: node.reads.push_back("clock:time"); break;
      case EntryCode::Local:
        op.slot = x.local.slot;
        node.reads.push_back(keyOf(x.local));
        break;
      case EntryCode::Constant: op.constant = x.local.constant; break;
      default:
        op.a = self(self, x.a);
        if (x.b >= 0) op.b = self(self, x.b);
        if (x.c >= 0) op.c = self(self, x.c);
    }
    if (program.size() >= std::size_t(impl::kMaxEntryOps)) {
      traceError("a neighbor-field expression has more than " + std::to_string(impl::kMaxEntryOps) +
                 " parts");
    }
    program.push_back(op);
    return registerOf[e] = static_cast<std::int32_t>(program.size() - 1);
  };
  visit(visit, expression);
  const auto begin = static_cast<std::int32_t>(traced_.entries.size());
  traced_.entries.insert(traced_.entries.end(), program.begin(), program.end());
  return {begin, static_cast<std::int32_t>(program.size())};
}

Operand Program::fold(impl::FoldCode code, std::int32_t expression, bool excludeSelf) {
  graph::Node node{"", "", {}, {}, false};
  Op op;
  op.code = OpCode::Fold;
  op.fold = code;
  op.excludeSelf = excludeSelf ? 1 : 0;
  std::tie(op.entryBegin, op.entryCount) = compileEntries(expression, node);
  static const char* names[] = {"fold.min", "fold.max", "fold.sum", "fold.count",
                                "self",     "fold.any", "fold.all"};
  node.kind = std::string(names[int(code)]) + (excludeSelf ? ".exclude_self" : "");
  node.reads.push_back("network:neighbors");
  return record(op, node);
}

Program::RememberScope Program::beginRemember(const std::vector<Operand>& init, const char* name) {
  RememberScope scope{call(name), {}, {}};
  pushLevel(scope.path);
  for (std::size_t c = 0; c < init.size(); ++c) {
    const std::string path = componentPath(scope.path, c, init.size());
    const auto state = static_cast<std::int32_t>(traced_.states.size());
    traced_.states.push_back({path, keyed()});
    graph::Node node{"remember.read", path, {"state:" + path, keyOf(init[c])}, {}, false};
    const Op op = alignedOp(OpCode::RememberRead, init[c], state, keyed(), node);
    scope.states.push_back(state);
    scope.reads.push_back(record(op, node));
  }
  return scope;
}

void Program::endRemember(const RememberScope& scope, const std::vector<Operand>& next) {
  for (std::size_t c = 0; c < next.size(); ++c) {
    const std::int32_t state = scope.states[c];
    const std::string& path = traced_.states[state].path;
    graph::Node node{"remember.write", path, {keyOf(next[c])}, {"state:" + path}, false};
    const Op op =
        alignedOp(OpCode::RememberWrite, next[c], state, traced_.states[state].keyed, node);
    record(op, node);
  }
  popLevel();
}

// Component k folds the entries that equal the fold's result in every component before it
// (the others stand in as the fold's identity, +inf or -inf): the lexicographic extreme,
// built from plain folds, so its gradient is theirs.
std::vector<Operand> Program::lexicographicFold(impl::FoldCode code,
                                                const std::vector<std::int32_t>& expressions,
                                                bool excludeSelf) {
  const double identity = code == impl::FoldCode::Min ? std::numeric_limits<double>::infinity()
                                                      : -std::numeric_limits<double>::infinity();
  std::vector<Operand> result;
  std::int32_t tied = -1;  // the entries equal to the result so far, in every component
  for (const std::int32_t e : expressions) {
    const std::int32_t candidates =
        tied < 0 ? e : nbrCombine(EntryCode::Mux, tied, e, nbrLocal(Operand{-1, identity}));
    result.push_back(fold(code, candidates, excludeSelf));
    // What a round runs instead (impl::compileTrace): one pass over the neighbors that
    // evaluates each component's own entry program, with the same bits.
    Op& folded = traced_.ops.back();
    folded.component = static_cast<std::int32_t>(result.size() - 1);
    graph::Node unused;
    std::tie(folded.componentBegin, folded.componentCount) = compileEntries(e, unused);
    if (result.size() == expressions.size()) break;
    const std::int32_t equal = nbrCombine(EntryCode::Equal, e, nbrLocal(result.back()));
    tied = tied < 0 ? equal : nbrCombine(EntryCode::And, tied, equal);
  }
  return result;
}

// A spawn keeps a key state and a spread export per slot and key part (each slot's key, or
// -1); its process is traced once per slot, each copy under align(key).
Program::SpawnScope Program::beginSpawn(const std::vector<Operand>& launch, int maxKeys) {
  if (inProcess_) {
    traceError("a spawn inside a spawn's process is not supported (at '" + levels_.back().prefix +
               "')");
  }
  SpawnScope scope;
  scope.path = call("spawn");
  if (maxKeys < 1 || maxKeys > impl::kMaxProcesses) {
    traceError("spawn '" + scope.path + "': maxKeys must be in [1, " +
               std::to_string(impl::kMaxProcesses) + "], got " + std::to_string(maxKeys));
  }
  const std::size_t width = launch.size();  // 1 to kMaxKeyWidth (ProcessKey asserts it)
  pushLevel(scope.path);
  scope.spawn = static_cast<std::int32_t>(traced_.spawns.size());
  scope.keyWidth = static_cast<std::int32_t>(width);
  traced_.spawns.push_back({scope.path, maxKeys});
  scope.state = static_cast<std::int32_t>(traced_.states.size());
  scope.spread = static_cast<std::int32_t>(traced_.exports.size());
  for (int s = 0; s < maxKeys; ++s) {
    for (std::size_t c = 0; c < width; ++c) {
      traced_.states.push_back(
          {componentPath(scope.path + "/key@" + std::to_string(s), c, width), keyed()});
      traced_.exports.push_back(
          {componentPath(scope.path + "/spread@" + std::to_string(s), c, width), keyed()});
    }
  }
  graph::Node reads{"spawn.key", "", {}, {}, false};
  for (const Operand& part : launch) reads.reads.push_back(keyOf(part));
  reads.reads.push_back("state:" + scope.path + "/key@*");
  reads.reads.push_back("export:" + scope.path + "/spread@*");
  for (int s = 0; s < maxKeys; ++s) {
    for (std::size_t c = 0; c < width; ++c) {
      graph::Node node = reads;
      node.path = componentPath(scope.path + "/key@" + std::to_string(s), c, width);
      Op op = alignedOp(OpCode::SpawnKey, launch[0], scope.spread, keyed(), node);
      if (width > 1) op.b = launch[1];
      if (width > 2) op.c = launch[2];
      op.spawn = scope.spawn;
      op.slot = s;
      op.width = maxKeys;
      op.state = scope.state;
      op.keyWidth = scope.keyWidth;
      op.component = static_cast<std::int32_t>(c);
      scope.keys.push_back(record(op, node));
    }
  }
  scope.entriesBegin = static_cast<std::int32_t>(traced_.entries.size());
  scope.exportsBegin = static_cast<std::int32_t>(traced_.exports.size());
  inProcess_ = true;
  return scope;
}

void Program::checkEnds(const SpawnScope& scope, Operand keep) {
  if (keep.slot < 0 && keep.constant == 1.0) {
    traceError("spawn '" + scope.path +
               "': the process never ends (keep is the constant true): "
               "give it an end rule, such as keeping it while a timer runs");
  }
}

void Program::copyTraced(SpawnScope& scope, int slot, std::int32_t exportsBefore) {
  const auto stride = static_cast<std::int32_t>(traced_.exports.size()) - exportsBefore;
  if (slot == 0) scope.copyStride = stride;
  if (stride != scope.copyStride) {
    traceError("spawn '" + scope.path + "': the process traced " + std::to_string(stride) +
               " neighbor calls for slot " + std::to_string(slot) + " and " +
               std::to_string(scope.copyStride) +
               " for slot 0: it must trace the same for every key");
  }
}

void Program::endSpawn(const SpawnScope& scope, const std::vector<Operand>& keys) {
  inProcess_ = false;
  // A neighbor read inside a process copy finds, on each neighbor, the copy (slot) that runs
  // the same key.
  for (std::size_t i = static_cast<std::size_t>(scope.entriesBegin); i < traced_.entries.size();
       ++i) {
    impl::EntryOp& e = traced_.entries[i];
    if (e.plane < scope.exportsBegin) continue;
    if (e.code == EntryCode::Received) {
      traceError("spawn '" + scope.path + "': an exchange inside a process is not supported ('" +
                 traced_.exports[static_cast<std::size_t>(e.plane)].path + "')");
    }
    if (e.code != EntryCode::Neighbor || scope.copyStride == 0) continue;
    e.copies = static_cast<std::int32_t>(keys.size()) / scope.keyWidth;
    e.copy = (e.plane - scope.exportsBegin) / scope.copyStride;
    e.copyStride = scope.copyStride;
  }
  // keys: slot by slot, part by part, as the key states and spread exports are laid out.
  for (std::size_t s = 0; s < keys.size(); ++s) {
    const auto state = static_cast<std::int32_t>(scope.state + s);
    const std::string& path = traced_.states[static_cast<std::size_t>(state)].path;
    graph::Node node{"remember.write", path, {keyOf(keys[s])}, {"state:" + path}, false};
    record(alignedOp(OpCode::RememberWrite, keys[s], state, keyed(), node), node);
    const auto spread = static_cast<std::int32_t>(scope.spread + s);
    addExport(traced_.exports[static_cast<std::size_t>(spread)].path, keys[s], spread);
  }
  popLevel();
}

Program::BranchScope Program::beginBranch(Operand cond) {
  const std::string path = call("branch");
  pushLevel(path);
  return {path, cond, mask_};
}

void Program::enterSide(const BranchScope& scope, bool left) {
  if (!left) popLevel();
  Operand side = scope.cond;
  if (!left) side = emit(OpCode::Not, "not", scope.cond);
  mask_ = scope.savedMask < 0
              ? (side.slot < 0 ? emit(OpCode::Or, "or", side, side).slot : side.slot)
              : emit(OpCode::And, "and", Operand{scope.savedMask, 0.0}, side).slot;
  pushLevel(scope.path + (left ? "/align_left" : "/align_right"));
}

void Program::endBranch(const BranchScope& scope) {
  popLevel();  // the right side
  popLevel();  // the branch
  mask_ = scope.savedMask;
}

// A tuple key mixes its parts into the context one after another.
Program::AlignScope Program::beginAlign(const std::vector<Operand>& key) {
  const std::string path = call("align");
  pushLevel(path);
  const AlignScope scope{path, context_};
  for (const Operand& part : key) {
    const Operand parent = context_ < 0 ? Operand{-1, 1.0} : Operand{context_, 0.0};
    context_ = emit(OpCode::ContextMix, "align.key", parent, part).slot;
  }
  return scope;
}

void Program::endAlign(const AlignScope& scope) {
  popLevel();
  context_ = scope.savedContext;
}

TracedProgram Program::finishWith(const std::vector<Operand>& outputs) {
  for (std::size_t c = 0; c < outputs.size(); ++c) {
    Op out;
    out.code = OpCode::Output;
    out.a = outputs[c];
    out.plane = static_cast<std::int32_t>(c);
    const std::string plane = outputPlane(out.plane, static_cast<std::int32_t>(outputs.size()));
    record(out, graph::Node{"output", "", {keyOf(outputs[c])}, {plane}, false});
  }
  finished_ = true;
  TracedProgram t = std::move(traced_);
  t.name = name_;
  t.outputWidth = static_cast<std::int32_t>(outputs.size());

  impl::compileTrace(t);
  return t;
}

}  // namespace kfield
