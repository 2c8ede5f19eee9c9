#include "kfield/field/Program.hpp"

#include "kfield/impl/Errors.hpp"

#include <algorithm>
#include <map>
#include <sstream>

namespace kfield {

using impl::EntryCode;
using impl::Op;
using impl::OpCode;
using impl::Operand;

namespace {
[[noreturn]] void traceError(const std::string& what) { impl::invalidArgument("kfield::trace", what); }
}  // namespace

std::int32_t TracedProgram::sensorIndex(const std::string& name) const {
  for (std::size_t i = 0; i < sensors.size(); ++i) {
    if (sensors[i].name == name) return static_cast<std::int32_t>(i);
  }
  return -1;
}

namespace {
void checkName(const std::string& name) {
  if (name.empty() || name.find_first_of("/@") != std::string::npos) {
    traceError("an aggregate name must be non-empty, without '/' or '@': '" + name + "'");
  }
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
  return "v" + std::to_string(v.slot);
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
  if (mask_ >= 0) node.reads.push_back("v" + std::to_string(mask_));
  if (context_ >= 0) node.reads.push_back("v" + std::to_string(context_));
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
      op.code != OpCode::Output) {
    op.out = id;
    node.writes.push_back("v" + std::to_string(id));
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
  const int arity = code == OpCode::Mux ? 3
                    : (code == OpCode::Neg || code == OpCode::Not || code == OpCode::Abs ||
                       code == OpCode::Sqrt || code == OpCode::Uid)
                        ? (code == OpCode::Uid ? 0 : 1)
                        : 2;
  const Operand* operands[] = {&a, &b, &c};
  for (int k = 0; k < arity; ++k) node.reads.push_back(keyOf(*operands[k]));
  if (code == OpCode::Uid) node.reads.push_back("network:ids");
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

NbrField<double> Program::edgeLength() {
  impl::NbrExpression e;
  e.code = EntryCode::EdgeLength;
  return NbrField<double>(this, addExpression(e), false);
}

std::int32_t Program::neighborsExpression(Operand x) {
  const std::string path = call("neighbors");
  claimPath(path);
  impl::NbrExpression e;
  e.code = EntryCode::Neighbor;
  e.plane = addExport(path, x, -1);
  return addExpression(e);
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

// A share is one export plane: last round's shared value is this round's state, read back
// from the plane (keyed like any export), so it needs no state plane of its own.
std::pair<std::string, std::int32_t> Program::beginShare(Operand init) {
  const std::string path = call("share");
  pushLevel(path);
  traced_.exports.push_back({path, keyed()});
  const auto index = static_cast<std::int32_t>(traced_.exports.size() - 1);
  graph::Node node{"share.read", path, {"export:" + path, keyOf(init)}, {}, false};
  impl::NbrExpression e;
  e.code = EntryCode::Neighbor;
  e.plane = index;
  const Op op = alignedOp(OpCode::ShareRead, init, index, keyed(), node);
  e.local = record(op, node);
  return {path, addExpression(e)};  // its own entry: what the device shared last round
}

void Program::endShare(const std::string& path, std::int32_t shared, Operand next) {
  addExport(path, next, expressions_[shared].plane);
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

Operand Program::fold(impl::FoldCode code, std::int32_t expression, bool excludeSelf) {
  // The expression DAG in post order, each node once: register i is entry i's result.
  std::map<std::int32_t, std::int32_t> registerOf;
  std::vector<impl::EntryOp> program;
  graph::Node node{"", "", {}, {}, false};
  auto visit = [&](auto&& self, std::int32_t e) -> std::int32_t {
    const auto found = registerOf.find(e);
    if (found != registerOf.end()) return found->second;
    const impl::NbrExpression& x = expressions_[e];
    impl::EntryOp op;
    op.code = x.code;
    switch (x.code) {
      case EntryCode::Neighbor:
        op.plane = x.plane;
        op.keyed = traced_.exports[x.plane].keyed ? 1 : 0;
        op.slot = x.local.slot;
        node.reads.push_back("export:" + traced_.exports[x.plane].path);
        break;
      case EntryCode::EdgeLength:
        node.reads.push_back("network:lengths");
        break;
      case EntryCode::Local:
        op.slot = x.local.slot;
        node.reads.push_back(keyOf(x.local));
        break;
      case EntryCode::Constant:
        op.constant = x.local.constant;
        break;
      default:
        op.a = self(self, x.a);
        op.b = self(self, x.b);
        if (x.c >= 0) op.c = self(self, x.c);
    }
    if (program.size() >= std::size_t(impl::kMaxEntryOps)) {
      traceError("a neighbor-field expression has more than " +
                 std::to_string(impl::kMaxEntryOps) + " parts");
    }
    program.push_back(op);
    return registerOf[e] = static_cast<std::int32_t>(program.size() - 1);
  };
  visit(visit, expression);
  Op op;
  op.code = OpCode::Fold;
  op.fold = code;
  op.excludeSelf = excludeSelf ? 1 : 0;
  op.entryBegin = static_cast<std::int32_t>(traced_.entries.size());
  op.entryCount = static_cast<std::int32_t>(program.size());
  traced_.entries.insert(traced_.entries.end(), program.begin(), program.end());
  static const char* names[] = {"fold.min", "fold.max", "fold.sum", "fold.count", "self"};
  node.kind = std::string(names[int(code)]) + (excludeSelf ? ".exclude_self" : "");
  node.reads.push_back("network:neighbors");
  return record(op, node);
}

Program::RememberScope Program::beginRemember(Operand init, const char* name) {
  const std::string path = call(name);
  pushLevel(path);
  const auto state = static_cast<std::int32_t>(traced_.states.size());
  traced_.states.push_back({path, keyed()});
  graph::Node node{"remember.read", path, {"state:" + path, keyOf(init)}, {}, false};
  const Op op = alignedOp(OpCode::RememberRead, init, state, keyed(), node);
  const Operand read = record(op, node);
  return {path, state, read};
}

void Program::endRemember(const std::string& path, std::int32_t state, Operand next) {
  graph::Node node{"remember.write", path, {keyOf(next)}, {"state:" + path}, false};
  const Op op = alignedOp(OpCode::RememberWrite, next, state, traced_.states[state].keyed, node);
  record(op, node);
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
  mask_ = scope.savedMask < 0 ? (side.slot < 0 ? emit(OpCode::Or, "or", side, side).slot
                                               : side.slot)
                              : emit(OpCode::And, "and", Operand{scope.savedMask, 0.0}, side).slot;
  pushLevel(scope.path + (left ? "/align_left" : "/align_right"));
}

void Program::endBranch(const BranchScope& scope) {
  popLevel();  // the right side
  popLevel();  // the branch
  mask_ = scope.savedMask;
}

Program::AlignScope Program::beginAlign(Operand key) {
  const std::string path = call("align");
  pushLevel(path);
  const AlignScope scope{path, context_};
  const Operand parent = context_ < 0 ? Operand{-1, 1.0} : Operand{context_, 0.0};
  context_ = emit(OpCode::ContextMix, "align.key", parent, key).slot;
  return scope;
}

void Program::endAlign(const AlignScope& scope) {
  popLevel();
  context_ = scope.savedContext;
}

namespace {

// Removes operations whose value nothing reads and that write nothing kept across rounds (for
// instance the read of a shared value that only feeds an exclude-self fold: every round would
// sweep the export plane for nothing). Values are op indices here; they are renumbered.
void dropDeadOps(TracedProgram& t) {
  const auto n = static_cast<std::int32_t>(t.ops.size());
  std::vector<char> live(static_cast<std::size_t>(n), 0);
  auto effect = [](const Op& op) {
    return op.code == OpCode::Export || op.code == OpCode::RememberWrite ||
           op.code == OpCode::Output || (op.code == OpCode::ShareRead && op.keyed != 0);
  };
  auto mark = [&](std::int32_t v) {
    if (v >= 0) live[static_cast<std::size_t>(v)] = 1;
  };
  for (std::int32_t i = n - 1; i >= 0; --i) {
    const Op& op = t.ops[static_cast<std::size_t>(i)];
    if (effect(op)) live[static_cast<std::size_t>(i)] = 1;
    if (!live[static_cast<std::size_t>(i)]) continue;
    mark(op.a.slot), mark(op.b.slot), mark(op.c.slot), mark(op.mask), mark(op.context);
    if (op.code != OpCode::Fold) continue;
    const bool visitsSelf = op.excludeSelf == 0 || op.fold == impl::FoldCode::Self;
    for (std::int32_t k = 0; k < op.entryCount; ++k) {
      const impl::EntryOp& e = t.entries[static_cast<std::size_t>(op.entryBegin + k)];
      // A neighbor entry's own slot is read only for the device itself.
      if (e.code == impl::EntryCode::Local || visitsSelf) mark(e.slot);
    }
  }
  std::vector<std::int32_t> index(static_cast<std::size_t>(n), -1);
  std::vector<Op> kept;
  for (std::int32_t i = 0; i < n; ++i) {
    if (!live[static_cast<std::size_t>(i)]) continue;
    index[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(kept.size());
    kept.push_back(t.ops[static_cast<std::size_t>(i)]);
  }
  auto renumber = [&](std::int32_t& v) {
    if (v >= 0) v = index[static_cast<std::size_t>(v)];
  };
  for (Op& op : kept) {
    renumber(op.out), renumber(op.a.slot), renumber(op.b.slot), renumber(op.c.slot);
    renumber(op.mask), renumber(op.context);
  }
  // Entry slots of dropped values are never read (see above): -1 keeps them from being used.
  for (impl::EntryOp& e : t.entries) renumber(e.slot);
  t.ops = std::move(kept);
  // The description lists what runs: one node per kept operation.
  std::vector<graph::Node> nodes;
  for (std::int32_t i = 0; i < n; ++i) {
    if (live[static_cast<std::size_t>(i)]) {
      nodes.push_back(std::move(t.description.nodes[static_cast<std::size_t>(i)]));
    }
  }
  t.description.nodes = std::move(nodes);
}

}  // namespace

TracedProgram Program::finishWith(Operand output) {
  Op out;
  out.code = OpCode::Output;
  out.a = output;
  record(out, graph::Node{"output", "", {keyOf(output)}, {"output"}, false});
  finished_ = true;
  TracedProgram t = std::move(traced_);
  t.name = name_;

  dropDeadOps(t);
  // Scratch slots: a value lives from its op to its last use; slots are reused after that.
  const auto n = static_cast<std::int32_t>(t.ops.size());
  std::vector<std::int32_t> lastUse(n, -1);
  auto use = [&](std::int32_t v, std::int32_t at) {
    if (v >= 0) lastUse[v] = std::max(lastUse[v], at);
  };
  for (std::int32_t i = 0; i < n; ++i) {
    const Op& op = t.ops[i];
    use(op.a.slot, i), use(op.b.slot, i), use(op.c.slot, i), use(op.mask, i), use(op.context, i);
    for (std::int32_t k = 0; op.code == OpCode::Fold && k < op.entryCount; ++k) {
      use(t.entries[op.entryBegin + k].slot, i);
    }
  }
  std::vector<std::int32_t> slotOf(n, -1), freeSlots;
  std::vector<std::vector<std::int32_t>> dying(n);
  for (std::int32_t v = 0; v < n; ++v) {
    if (t.ops[v].out >= 0) dying[std::max(lastUse[v], v)].push_back(v);
  }
  std::int32_t slots = 0;
  for (std::int32_t i = 0; i < n; ++i) {
    if (t.ops[i].out >= 0) {
      if (freeSlots.empty()) freeSlots.push_back(slots++);
      slotOf[i] = freeSlots.back();
      freeSlots.pop_back();
    }
    for (std::int32_t v : dying[i]) freeSlots.push_back(slotOf[v]);
  }
  auto remap = [&](std::int32_t& v) {
    if (v >= 0) v = slotOf[v];
  };
  for (Op& op : t.ops) {
    remap(op.out), remap(op.a.slot), remap(op.b.slot), remap(op.c.slot);
    remap(op.mask), remap(op.context);
  }
  for (impl::EntryOp& e : t.entries) remap(e.slot);
  t.slots = slots;
  return t;
}

std::string describe(const TracedProgram& p) {
  std::ostringstream out;
  out << p.name << ": " << p.description.nodes.size() << " nodes, " << p.exports.size()
      << " exports, " << p.states.size() << " states, " << p.sensors.size() << " sensors, "
      << p.slots << " scratch slots\n";
  out << graph::describe(p.description);
  return out.str();
}

}  // namespace kfield
