// What a traced program compiles to: a flat list of operations that every round replays for
// a tile of devices x samples, with values in scratch slots. Plain data, usable in kernels.
#ifndef KFIELD_FIELD_IMPL_BYTECODE_HPP
#define KFIELD_FIELD_IMPL_BYTECODE_HPP

#include <cstdint>

namespace kfield::impl {

enum class OpCode : std::int32_t {
  Sense,  // out = sensor[plane](d, s)
  Uid,    // out = d
  Param,  // out = parameters[plane]: a learnable value, the same on every device
  Neg,
  Not,
  Abs,
  Sqrt,
  Exp,
  Log,
  Tanh,
  Sigmoid,  // out = f(a)
  Add,
  Sub,
  Mul,
  Div,
  Min,
  Max,
  Pow,  // out = f(a, b)
  Less,
  LessEqual,
  Greater,
  GreaterEqual,
  Equal,
  NotEqual,
  And,
  Or,
  Mux,            // out = a == 1 ? b : c (only exact 1 is true, as in Not, And, Or)
  ContextMix,     // out = the alignment context of key b inside context a
  RememberRead,   // out = this device's state, or a (the initial value) when it has none
  RememberWrite,  // state = a
  ShareRead,      // out = the value this device shared last round, or a (initial) if none
  Export,         // export plane = a, for neighbors to read next round
  Fold,           // out = fold over the neighborhood of the entry program
  Output,         // output plane = a
  // Integer operators (fields of int; impl/IntegerMath.hpp): out = f(a, b), or f(a) for BitNot.
  IntDiv,
  IntMod,
  BitAnd,
  BitOr,
  BitXor,
  ShiftLeft,
  ShiftRight,
  BitNot,
  Floor,  // out = f(a), no gradient
  Ceil,
  // A component of the lexicographic fold that precedes it in a round's ops: that fold writes
  // it, so it does nothing itself (only in TracedProgram::ops; valueOps keep plain folds).
  FoldComponent,
  // An exchange's send (Program::exchange): the entry program evaluated for every neighbor,
  // entry k's value written to edge plane `edge` at k, the own entry to export `plane` (what
  // the exchange's ShareRead gives back next round).
  ExchangeSend,
  // A component of the key of process slot `slot` of a spawn (Program::spawn): the slot's key
  // of last round while its process lives, else the next new key (launched here as (a, b, c),
  // or spread by a neighbor) in lexicographic key order over the free slots; -1 for none.
  SpawnKey,
  // The device's clock (sim/Schedule.hpp): the time of this firing, and the time since its
  // last one (0 at its first). Synchronous rounds fire at 0, 1, 2, ...
  Time,
  DeltaTime
};

// Self: own entry only. Any, All: of boolean entries (exact 1 is true); empty: 0 and 1.
enum class FoldCode : std::int32_t { Min, Max, Sum, Count, Self, Any, All };

// An operand: a scratch slot, or a constant when slot < 0.
struct Operand {
  std::int32_t slot = -1;
  double constant = 0.0;
};

struct Op {
  OpCode code = OpCode::Add;
  std::int32_t out = -1;  // result slot
  Operand a, b, c;
  std::int32_t mask = -1;     // slot of the 0/1 mask of devices executing this op; -1: all
  std::int32_t context = -1;  // slot of the alignment context (align blocks); -1: none
  std::int32_t plane = -1;    // sensor, state, export or parameter index
  std::int32_t keyed =
      0;  // the state or export is conditional: it has a key plane (kKeyedByClock: see there)
  FoldCode fold = FoldCode::Min;
  std::int32_t excludeSelf = 0;
  std::int32_t entryBegin = 0;  // Fold: its entry program, in the entry op list
  std::int32_t entryCount = 0;
  // Fold k of a lexicographic fold (Program::lexicographicFold): component = k, and the
  // component's own entry program (its fold reads only the entries tied so far). In a round's
  // ops, the first component's fold does them all: lexicographic = how many components follow
  // it as FoldComponent ops, plus itself.
  std::int32_t component = -1;
  std::int32_t componentBegin = 0, componentCount = 0;
  std::int32_t lexicographic = 0;
  std::int32_t edge = -1;  // ExchangeSend: its edge plane
  // A fold and a later send whose entry program starts with the fold's (CompileTrace.cpp:
  // shareEntryPrograms). Where both take every (entry, sample) pair (RoundKernel::
  // sharesEntries), the fold keeps each pair's value in the send's edge plane (keepEdge, on
  // the fold), and the send starts there: register sharedEntries - 1 (on the send) read from
  // the edge plane, not computed again. The same operations on the same values: the same bits.
  std::int32_t keepEdge = -1;
  std::int32_t sharedEntries = 0;
  // SpawnKey: component `component` of the key of spawn `spawn`'s slot `slot` of `width`. A
  // key has `keyWidth` components (the launch's are a, b, c); slot t's component i is state
  // `state` + t * keyWidth + i, and the key it spreads is that export from `plane` on.
  std::int32_t spawn = -1, slot = -1, width = 0, state = -1, keyWidth = 1;
};

// Op::keyed and EntryOp::keyed of a call that is keyed only because the simulation runs on a
// Schedule (asynchronous devices: a neighbor is heard only once it has fired); its key is 1.
constexpr std::int32_t kKeyedByClock = 2;

// The most process slots a spawn keeps per device, and the most components of its keys.
constexpr int kMaxProcesses = 64;
constexpr int kMaxKeyWidth = 3;

// The most components one lexicographic fold evaluates in one pass (wider ones fold
// component by component).
constexpr int kMaxLexicographicComponents = 8;

// One step of a fold's entry program, evaluated for each (device, neighbor) pair; step i's
// result is register i of the program.
enum class EntryCode : std::int32_t {
  Neighbor,    // the neighbor's export value (the device's own current one for itself)
  EdgeLength,  // length of the edge to the neighbor (0 to itself)
  Local,       // the device's own value of slot
  Constant,
  Add,
  Sub,
  Mul,
  Div,
  Min,
  Max,
  Less,
  Equal,  // 1 or 0
  Mux,    // a == 1 ? b : c
  // f(a, b), as the field operators of the same names
  LessEqual,
  Greater,
  GreaterEqual,
  NotEqual,
  And,
  Or,
  Pow,
  // f(a): every code from Neg on takes one register
  Neg,
  Not,
  Abs,
  Sqrt,
  Exp,
  Log,
  Tanh,
  Sigmoid,
  Floor,
  Ceil,
  // What the neighbor sent this device last round through an exchange (edge plane `edge`, at
  // the neighbor's entry for this device); for the device itself, slot (what it sent itself,
  // or the exchange's initial value).
  Received,
  // How long ago the neighbor sent what this device hears of it: this firing's time minus
  // the neighbor's last firing (1 in synchronous rounds); 0 for the device itself.
  Lag
};

struct EntryOp {
  EntryCode code = EntryCode::Constant;
  std::int32_t a = -1, b = -1, c = -1;  // registers
  std::int32_t plane = -1;              // Neighbor, Received: export index (presence keys)
  std::int32_t keyed = 0;               // Neighbor, Received: the export is conditional
  std::int32_t edge = -1;               // Received: edge plane
  std::int32_t slot = -1;               // Local; Neighbor: where the device's own value is, if not
                                        // in its export (share: the value it shared last round)
  double constant = 0.0;
  // Neighbor inside a spawn's process: the call has `copies` copies (one per slot),
  // `copyStride` exports apart, and this is copy `copy`; a neighbor's entry is read from the
  // copy where it runs the same process (the same presence key), whatever its slot.
  std::int32_t copies = 0, copy = 0, copyStride = 0;
};

constexpr int kMaxEntryOps = 32;

// A neighbor-field expression as traced; a fold compiles the expressions it reads into an
// entry program.
struct NbrExpression {
  EntryCode code = EntryCode::Constant;
  std::int32_t a = -1, b = -1, c = -1;  // child expressions
  std::int32_t plane = -1;              // Neighbor, Received: export index
  std::int32_t edge = -1;               // Received: edge plane
  Operand local;                        // Local: the device's own value; Constant: constant
  std::int32_t mask = -1,
               context = -1;  // Neighbor, Received: the scope (branch side, align) it was read in
};

}  // namespace kfield::impl

#endif
