// Tracing an aggregate program: a C++ function over a Program runs once, and every operator
// it calls records an operation with the alignment path of its call (phyelds' rules: a call's
// path is its name and position among its siblings, under the aggregate calls around it).
#ifndef KFIELD_FIELD_PROGRAM_HPP
#define KFIELD_FIELD_PROGRAM_HPP

#include "kfield/field/Field.hpp"
#include "kfield/field/TracedProgram.hpp"
#include "kfield/field/Tuple.hpp"
#include "kfield/field/impl/Bytecode.hpp"

#include <limits>
#include <set>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace kfield {

class Program;
template <class Fn>
TracedProgram trace(Fn&& fn, const std::string& name = "program");

// What a spawn returns: a device's live processes, slot by slot (kfield/field/Processes.hpp
// folds them). Key: int, or a Tuple of up to impl::kMaxKeyWidth ints.
template <class T, class Key = int>
struct Processes {
  std::vector<Field<Key>> keys;  // the key of the slot's live process; -1 (each part) where none
  std::vector<Field<T>> values;  // its value (where live)
  std::vector<Field<bool>> live;
  Field<int> count() const;
  Field<T> min() const;  // over the live processes; +inf (-inf, 0) where none
  Field<T> max() const;
  Field<T> sum() const;
  Field<T> valueOf(const Field<Key>& key, T otherwise) const;  // the process `key`'s value
};

class Program {
 public:
  explicit Program(std::string name = "program") : name_(std::move(name)) {}
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;

  // ---- values ----
  template <class T>
  Field<T> constant(T value) {
    sensorTypeOf<T>();
    return {this, impl::Operand{-1, static_cast<double>(value)}};
  }
  template <class T>
  Field<T> sense(const std::string& name) {
    return {this, senseOperand(name, sensorTypeOf<T>())};
  }
  // A tuple field (a tuple neighbor field) of its components.
  template <class... Ts>
  Field<Tuple<Ts...>> tuple(const Field<Ts>&... parts) {
    return Field<Tuple<Ts...>>(parts...);
  }
  template <class... Ts>
  NbrField<Tuple<Ts...>> tuple(const NbrField<Ts>&... parts) {
    return NbrField<Tuple<Ts...>>(parts...);
  }
  Field<int> uid() { return {this, emit(impl::OpCode::Uid, "uid", {})}; }
  // The device's clock: the time of this round (its firing, under a Schedule), and the time
  // since its previous one, 0 in its first. Synchronous rounds fire at times 0, 1, 2, ...
  Field<double> time() { return {this, emit(impl::OpCode::Time, "time", {})}; }
  Field<double> deltaTime() { return {this, emit(impl::OpCode::DeltaTime, "delta_time", {})}; }
  // A learnable value every device reads every round, the same on all devices; width > 1: a
  // vector of values (e.g. a small network's weights), one field per component. Set before a
  // run (Simulation::parameter, diff::Gradient::parameter); a name keeps one width.
  Field<double> parameter(const std::string& name) { return parameter(name, 1)[0]; }
  std::vector<Field<double>> parameter(const std::string& name, int width);
  NbrField<double> edgeLength();
  // How long ago each neighbor sent what this device hears of it (FCPP's and ScaFi's nbrLag):
  // this round's time minus the neighbor's last round's; 1 in synchronous rounds, 0 for itself.
  NbrField<double> nbrLag();

  // ---- aggregate operators ----
  // The neighbors' values of x (their last round's), and this device's current one.
  template <class T>
  NbrField<T> neighbors(const Field<T>& x) {
    return NbrField<T>(this, neighborsExpressions(operandsOf(x))[0], false);
  }
  template <class... Ts>
  NbrField<Tuple<Ts...>> neighbors(const Field<Tuple<Ts...>>& x) {
    return nbrTupleOf<Ts...>(neighborsExpressions(operandsOf(x)), false);
  }

  // FCPP's nbr: x is sent to the neighbors, and every entry is a value sent last round, the
  // device's own too (init in a device's first round in this call), where `neighbors` gives
  // the device's current value for itself.
  template <class T>
  NbrField<T> nbr(const Field<T>& init, const Field<T>& x) {
    const ShareScope scope = beginShare(operandsOf(init), "nbr");
    endShare(scope, operandsOf(x));
    return NbrField<T>(this, scope.shared[0], false);
  }
  template <class T>
  NbrField<T> nbr(T init, const Field<T>& x) {
    return nbr(constant(init), x);
  }
  template <class... Ts>
  NbrField<Tuple<Ts...>> nbr(const Field<Tuple<Ts...>>& init, const Field<Tuple<Ts...>>& x) {
    const ShareScope scope = beginShare(operandsOf(init), "nbr");
    endShare(scope, operandsOf(x));
    return nbrTupleOf<Ts...>(scope.shared, false);
  }

  // FCPP's nbr of a neighbor field: entry j of x is sent to neighbor j, and the result is
  // what each neighbor sent this device last round (its own entry: what it sent itself; init
  // where nothing came, as in a device's first round in the call).
  template <class T>
  NbrField<T> nbr(const Field<T>& init, const NbrField<T>& x) {
    const ShareScope scope = beginShare(operandsOf(init), "nbr", true);
    endExchange(scope, std::vector<std::int32_t>{x.expression_});
    return NbrField<T>(this, scope.shared[0], false);
  }
  template <class T>
  NbrField<T> nbr(T init, const NbrField<T>& x) {
    return nbr(constant(init), x);
  }

  // XC's exchange: update gets the neighbor field of what each neighbor sent this device last
  // round (as nbr's result) and returns the neighbor field to send, entry j to neighbor j; the
  // result is that field. To a neighbor not aligned with it this round (one it did not hear in
  // this call last round) a device sends its own entry. share is the case of one value for all.
  template <class T, class Update>
  NbrField<T> exchange(const Field<T>& init, Update&& update) {
    const ShareScope scope = beginShare(operandsOf(init), "exchange", true);
    const NbrField<T> sent = update(NbrField<T>(this, scope.shared[0], false));
    endExchange(scope, std::vector<std::int32_t>{sent.expression_});
    return sent;
  }
  template <class T, class Update>
  NbrField<T> exchange(T init, Update&& update) {
    return exchange(constant(init), std::forward<Update>(update));
  }
  // A tuple exchanged whole: one call, one alignment, an edge plane per component.
  template <class... Ts, class Update>
  NbrField<Tuple<Ts...>> exchange(const Field<Tuple<Ts...>>& init, Update&& update) {
    const ShareScope scope = beginShare(operandsOf(init), "exchange", true);
    const NbrField<Tuple<Ts...>> sent = update(nbrTupleOf<Ts...>(scope.shared, false));
    endExchange(scope, expressionsOf(sent));
    return sent;
  }

  // State kept from round to round: starts at init, then update(previous) each round.
  // Returns this round's value, update(previous).
  template <class T, class Update>
  Field<T> remember(const Field<T>& init, Update&& update) {
    const RememberScope scope = beginRemember(operandsOf(init), "remember");
    const Field<T> next = update(Field<T>(this, scope.reads[0]));
    endRemember(scope, operandsOf(next));
    return next;
  }
  // A tuple kept whole: update gets and returns a field of the same tuple type.
  template <class... Ts, class Update>
  Field<Tuple<Ts...>> remember(const Field<Tuple<Ts...>>& init, Update&& update) {
    const RememberScope scope = beginRemember(operandsOf(init), "remember");
    const Field<Tuple<Ts...>> next = update(tupleOf<Ts...>(scope.reads));
    endRemember(scope, operandsOf(next));
    return next;
  }
  template <class T, class Update>
  Field<T> remember(T init, Update&& update) {
    return remember(constant(init), std::forward<Update>(update));
  }

  // State shared with the neighbors (ScaFi's share, FCPP's nbr with a function): update gets
  // the neighbors' values of last round (the device's own previous value for itself) and
  // returns the new value, which is kept and shared. Information moves one hop per round.
  template <class T, class Update>
  Field<T> share(const Field<T>& init, Update&& update) {
    const ShareScope scope = beginShare(operandsOf(init));
    const Field<T> next = update(NbrField<T>(this, scope.shared[0], false));
    endShare(scope, operandsOf(next));
    return next;
  }
  // A tuple shared whole (one call, one alignment): the G block's (distance, value) pairs.
  template <class... Ts, class Update>
  Field<Tuple<Ts...>> share(const Field<Tuple<Ts...>>& init, Update&& update) {
    const ShareScope scope = beginShare(operandsOf(init));
    const Field<Tuple<Ts...>> next = update(nbrTupleOf<Ts...>(scope.shared, false));
    endShare(scope, operandsOf(next));
    return next;
  }
  template <class T, class Update>
  Field<T> share(T init, Update&& update) {
    return share(constant(init), std::forward<Update>(update));
  }

  // Splits the network: devices where cond holds run thenFn, the others elseFn; the sides
  // never hear each other, and the state of a side not taken is dropped.
  template <class Then, class Else>
  auto branch(const Field<bool>& cond, Then&& thenFn, Else&& elseFn) {
    using R = decltype(thenFn());
    static_assert(std::is_same<R, decltype(elseFn())>::value,
                  "both sides of a branch return the same Field type");
    const BranchScope scope = beginBranch(cond.operand_);
    enterSide(scope, true);
    const R left = thenFn();
    enterSide(scope, false);
    const R right = elseFn();
    endBranch(scope);
    return mux(cond, left, right);
  }

  // Both values computed everywhere; no split.
  template <class T>
  Field<T> mux(const Field<bool>& cond, const Field<T>& a, const Field<T>& b) {
    return {this, emit(impl::OpCode::Mux, "mux", cond.operand_, a.operand_, b.operand_)};
  }
  template <class T>
  Field<T> mux(const Field<bool>& cond, T a, const Field<T>& b) {
    return mux(cond, constant(a), b);
  }
  template <class T>
  Field<T> mux(const Field<bool>& cond, const Field<T>& a, T b) {
    return mux(cond, a, constant(b));
  }
  // Component by component.
  template <class... Ts>
  Field<Tuple<Ts...>> mux(const Field<bool>& cond, const Field<Tuple<Ts...>>& a,
                          const Field<Tuple<Ts...>>& b) {
    return muxTuple(cond, a, b, std::index_sequence_for<Ts...>{});
  }
  // Entry by entry across the neighborhood.
  template <class T>
  NbrField<T> mux(const NbrField<bool>& cond, const NbrField<T>& a, T b) {
    const std::int32_t otherwise = nbrLocal(impl::Operand{-1, static_cast<double>(b)});
    return NbrField<T>(this,
                       nbrCombine(impl::EntryCode::Mux, cond.expression_, a.expression_, otherwise),
                       cond.excludesSelf() || a.excludesSelf());
  }
  // Two constants: counts of the entries where cond holds, with a sum (mux(cond, 1.0, 0.0)).
  template <class T>
  NbrField<T> mux(const NbrField<bool>& cond, T a, T b) {
    const std::int32_t yes = nbrLocal(impl::Operand{-1, static_cast<double>(a)});
    const std::int32_t otherwise = nbrLocal(impl::Operand{-1, static_cast<double>(b)});
    return NbrField<T>(this, nbrCombine(impl::EntryCode::Mux, cond.expression_, yes, otherwise),
                       cond.excludesSelf());
  }
  template <class T>
  NbrField<T> mux(const NbrField<bool>& cond, const NbrField<T>& a, const NbrField<T>& b) {
    return NbrField<T>(
        this, nbrCombine(impl::EntryCode::Mux, cond.expression_, a.expression_, b.expression_),
        cond.excludesSelf() || a.excludesSelf() || b.excludesSelf());
  }
  template <class T>
  NbrField<T> mux(const NbrField<bool>& cond, const NbrField<T>& a, const Field<T>& b) {
    return NbrField<T>(
        this,
        nbrCombine(impl::EntryCode::Mux, cond.expression_, a.expression_, nbrLocal(b.operand_)),
        cond.excludesSelf() || a.excludesSelf());
  }

  // Aggregate processes (FCPP's spawn, ScaFi's sspawn): a device launches process `launch`
  // (a key >= 0; negative: none; or a tuple of up to three ints, such as (source id, start
  // round), whose first part says so) and runs, each round, every process it holds: those it
  // launched or still keeps, and those its neighbors spread to it last round. body(key) gives
  // (value, keep): the process's value, and whether the device keeps it (and spreads it to its
  // neighbors) after this round. Each process runs as align(key): its calls hear only
  // neighbors running the same key, and its state restarts when it re-enters. At most maxKeys
  // processes per device (1 to kMaxProcesses): more is an error naming the spawn, raised after
  // the round that would hold them. A key keeps its slot while it lives; new keys take the
  // free slots in key order (lexicographic for tuples).
  template <class T, class Key, class Body>
  Processes<T, Key> spawn(const Field<Key>& launch, int maxKeys, Body&& body);  // Processes.hpp

  // An aligned block whose key may differ per device: inside it a device hears only the
  // neighbors that entered with the same key (every part of a tuple key), and its state
  // restarts when its key changes.
  template <class Key, class Body>
  auto align(const Field<Key>& key, Body&& body) {
    const AlignScope scope = beginAlign(operandsOf(key));
    auto result = body();
    endAlign(scope);
    return result;
  }

  // A user aggregate function: its name goes on the path of every call inside it.
  template <class Body>
  auto aggregate(const std::string& name, Body&& body) {
    const std::string path = call(name);
    pushLevel(path);
    auto result = body();
    popLevel();
    return result;
  }

  // An aggregate call at a fixed path element, `name` without a position: alignment that
  // stays put when calls around it are added or removed. Two pinned calls of one name at one
  // level are a trace error.
  template <class Body>
  auto pinned(const std::string& name, Body&& body) {
    pushLevel(pinnedPath(name));
    auto result = body();
    popLevel();
    return result;
  }

 private:
  // The operators and folds record through impl::Tracer; trace() ends the recording.
  friend struct impl::Tracer;
  template <class Fn>
  friend TracedProgram trace(Fn&& fn, const std::string& name);

  impl::Operand emit(impl::OpCode code, const char* kind, impl::Operand a, impl::Operand b = {},
                     impl::Operand c = {});
  std::int32_t nbrCombine(impl::EntryCode code, std::int32_t a, std::int32_t b,
                          std::int32_t c = -1);
  std::int32_t nbrLocal(impl::Operand value);
  impl::Operand fold(impl::FoldCode code, std::int32_t expression, bool excludeSelf);
  std::pair<std::int32_t, std::int32_t> compileEntries(std::int32_t expression, graph::Node& node);
  template <class T>
  TracedProgram finish(const Field<T>& output) {
    (void)sensorTypeOf<T>();  // refuses a result that is not a field of double, int or bool
    return finishWith(operandsOf(output));
  }
  template <class... Ts>
  TracedProgram finish(const Field<Tuple<Ts...>>& output) {  // one output plane per component
    return finishWith(operandsOf(output));
  }

  // Fields and tuples to and from their components' operands (expressions).
  template <class T>
  static std::vector<impl::Operand> operandsOf(const Field<T>& x) {
    std::vector<impl::Operand> parts;
    parts.push_back(x.operand_);
    return parts;
  }
  template <class... Ts>
  static std::vector<impl::Operand> operandsOf(const Field<Tuple<Ts...>>& t) {
    return std::apply([](const auto&... p) { return std::vector<impl::Operand>{p.operand_...}; },
                      t.parts_);
  }
  template <class... Ts>
  static std::vector<std::int32_t> expressionsOf(const NbrField<Tuple<Ts...>>& t) {
    return std::apply([](const auto&... p) { return std::vector<std::int32_t>{p.expression_...}; },
                      t.parts_);
  }
  template <class... Ts>
  Field<Tuple<Ts...>> tupleOf(const std::vector<impl::Operand>& v) {
    return tupleOf<Ts...>(v, std::index_sequence_for<Ts...>{});
  }
  template <class... Ts, std::size_t... I>
  Field<Tuple<Ts...>> tupleOf(const std::vector<impl::Operand>& v, std::index_sequence<I...>) {
    return Field<Tuple<Ts...>>(Field<Ts>(this, v[I])...);
  }
  template <class T>
  Field<T> fieldOf(const std::vector<impl::Operand>& v) {
    if constexpr (impl::IsTuple<T>::value) {
      return tupleFrom(v, static_cast<T*>(nullptr));
    } else {
      return Field<T>(this, v.at(0));
    }
  }
  template <class... Ts>
  Field<Tuple<Ts...>> tupleFrom(const std::vector<impl::Operand>& v, Tuple<Ts...>*) {
    return tupleOf<Ts...>(v);
  }
  template <class... Ts>
  NbrField<Tuple<Ts...>> nbrTupleOf(const std::vector<std::int32_t>& e, bool excludeSelf) {
    return nbrTupleOf<Ts...>(e, excludeSelf, std::index_sequence_for<Ts...>{});
  }
  template <class... Ts, std::size_t... I>
  NbrField<Tuple<Ts...>> nbrTupleOf(const std::vector<std::int32_t>& e, bool excludeSelf,
                                    std::index_sequence<I...>) {
    return NbrField<Tuple<Ts...>>(NbrField<Ts>(this, e[I], excludeSelf)...);
  }
  template <class... Ts, std::size_t... I>
  Field<Tuple<Ts...>> muxTuple(const Field<bool>& cond, const Field<Tuple<Ts...>>& a,
                               const Field<Tuple<Ts...>>& b, std::index_sequence<I...>) {
    return Field<Tuple<Ts...>>(mux(cond, a.template get<I>(), b.template get<I>())...);
  }

  struct Level {
    std::string prefix;
    int counter = 0;
  };
  struct BranchScope {
    std::string path;
    impl::Operand cond;
    std::int32_t savedMask;
  };
  struct AlignScope {
    std::string path;
    std::int32_t savedContext;
  };
  // A remember or share of one value or of a tuple's components (one plane each).
  struct RememberScope {
    std::string path;
    std::vector<std::int32_t> states;
    std::vector<impl::Operand> reads;
  };
  struct SpawnScope {
    std::string path;
    std::int32_t spawn, state, spread;        // its index, first key state, first spread export
    std::int32_t keyWidth;                    // parts per key
    std::vector<impl::Operand> keys;          // the slots' keys this round, part by part
    std::int32_t entriesBegin, exportsBegin;  // what the process copies traced
    std::int32_t copyStride = -1;             // exports per copy
  };
  SpawnScope beginSpawn(const std::vector<impl::Operand>& launch, int maxKeys);
  void checkEnds(const SpawnScope& scope, impl::Operand keep);
  void copyTraced(SpawnScope& scope, int slot, std::int32_t exportsBefore);
  void endSpawn(const SpawnScope& scope, const std::vector<impl::Operand>& keys);

  // A share, nbr or exchange.
  struct ShareScope {
    std::string path;
    std::vector<std::int32_t> shared;  // the neighbor-field expressions, one per component
  };

  std::string call(const std::string& name);  // the path of a new call here
  std::string pinnedPath(const std::string& name);
  void pushLevel(const std::string& path);
  void popLevel();
  void claimPath(const std::string& path);
  impl::Operand senseOperand(const std::string& name, SensorType type);
  std::vector<std::int32_t> neighborsExpressions(const std::vector<impl::Operand>& x);
  RememberScope beginRemember(const std::vector<impl::Operand>& init, const char* name);
  void endRemember(const RememberScope& scope, const std::vector<impl::Operand>& next);
  std::int32_t addExport(const std::string& path, impl::Operand value, std::int32_t index);
  // perEdge: an exchange's (its neighbor field reads what was sent to this device).
  ShareScope beginShare(const std::vector<impl::Operand>& init, const char* name = "share",
                        bool perEdge = false);
  void endShare(const ShareScope& scope, const std::vector<impl::Operand>& next);
  void endExchange(const ShareScope& scope, const std::vector<std::int32_t>& sent);
  std::vector<impl::Operand> lexicographicFold(impl::FoldCode code,
                                               const std::vector<std::int32_t>& expressions,
                                               bool excludeSelf);
  BranchScope beginBranch(impl::Operand cond);
  void enterSide(const BranchScope& scope, bool left);
  void endBranch(const BranchScope& scope);
  AlignScope beginAlign(const std::vector<impl::Operand>& key);
  void endAlign(const AlignScope& scope);
  impl::Operand record(impl::Op op, graph::Node node);
  impl::Op alignedOp(impl::OpCode code, impl::Operand a, std::int32_t plane, bool keyedPlane,
                     graph::Node& node) const;
  std::int32_t addExpression(const impl::NbrExpression& e);
  std::string keyOf(impl::Operand v) const;
  TracedProgram finishWith(const std::vector<impl::Operand>& outputs);
  bool keyed() const { return mask_ >= 0 || context_ >= 0; }

  std::string name_;
  TracedProgram traced_;
  std::vector<impl::NbrExpression> expressions_;  // neighbor-field expressions, by id
  std::vector<Level> levels_{Level{}};
  std::set<std::string> paths_;
  std::int32_t mask_ = -1;     // value id of the current mask; -1: every device
  std::int32_t context_ = -1;  // value id of the current alignment context; -1: none
  bool finished_ = false;
  bool inProcess_ = false;  // tracing a spawn's process
};

// Traces fn(Program&) -> Field<T> once.
template <class Fn>
TracedProgram trace(Fn&& fn, const std::string& name) {
  Program program(name);
  return program.finish(fn(program));
}

}  // namespace kfield

#include "kfield/field/Operators.hpp"

#endif
