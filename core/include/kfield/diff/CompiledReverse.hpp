// Reverse rounds compiled ahead of time, as rounds are (kfield/sim/CompiledRound.hpp).
// compiledReversesSource writes a traced program's adjoint round as plain C++ from the ops the
// reversal runs (TracedProgram::valueOps), in three steps, each over a device and a block of at
// most 64 of its samples. Record (the window's rounds run again): the round from one carry to
// the next, keeping the results of its folds over the neighbors on a fold tape, a plane each,
// the only values the tape holds. Own: the round's values again from the carry before it and
// the fold tape (in locals), then its operations backwards, entry programs differentiated
// register by register inline; it keeps for the gather only what the gather reads (the
// gathering folds' results' adjoints, min/max selections, the local values their entry
// programs read that no parameter, sensor or carry row holds). Gather: each device sums, over
// the transposed network, what its readers' folds give back to its exports. Every value is the
// round kernel's and every adjoint is summed in the interpreted reverse's order
// (diff/impl/ReverseRound.hpp): the same bits. A gradient pass on a host backend runs them in
// place of the interpreted reverse for every round but a sample's first, with the carry tape
// (Tape::Carry); GradientOptions::compiledReverse turns them off.
#ifndef KFIELD_DIFF_COMPILEDREVERSE_HPP
#define KFIELD_DIFF_COMPILEDREVERSE_HPP

#include "kfield/field/TracedProgram.hpp"
#include "kfield/sim/CompiledRound.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace kfield::diff {

// What a compiled reverse round reads and writes. Rows of samples at their strides (doubles).
struct CompiledReverseArgs {
  // The round as it ran: sensors, parameters, network, and the carry before it (states,
  // exportsPrev); constants are compiledReverseConstants(program), live the round's samples.
  CompiledRoundArgs round;
  // Fold plane x device x live: the record step's folds' results (CompiledReverseEntry).
  double* foldTape = nullptr;
  // What the own step keeps for the gather, plane x device x live (CompiledReverseEntry): the
  // values the gather's entry programs read, the gathering folds' results' adjoints.
  double* values = nullptr;
  double* adjoints = nullptr;
  double* stateAdjoint = nullptr;  // state x device rows
  std::int64_t stateAdjointStride = 0;
  double* exportAdjoint = nullptr;  // export x device rows
  std::int64_t exportAdjointStride = 0;
  double* parameterAdjoint = nullptr;  // parameter value x device rows
  std::int64_t parameterAdjointStride = 0;
  double* sensorAdjoint = nullptr;  // differentiated sensor x device rows
  std::int64_t sensorAdjointStride = 0;
  const int* sensorRow = nullptr;  // per sensor: its block in sensorAdjoint, or -1
  double* selected = nullptr;      // min/max fold x device rows: the neighbor's id selected
  std::int64_t selectedStride = 0;
  const double* target = nullptr;  // output component x device rows (squared error)
  std::int64_t targetStride = 0;
  bool outputLoss = false;    // the loss is the output itself, not its squared error
  std::int64_t liveNext = 0;  // samples at positions >= liveNext end with this round
  // The transposed network (diff::impl::Transposed): per device, the entries that read it.
  const std::int64_t* transposedOffsets = nullptr;
  const std::int64_t* transposedEntries = nullptr;
  const std::int32_t* transposedReaders = nullptr;
};

// Devices [first, end) of one step.
using CompiledReverseStep = void (*)(const CompiledReverseArgs& args, std::int64_t first,
                                     std::int64_t end);

struct CompiledReverseEntry {
  const char* key;      // compiledReverseKey of the program
  const char* program;  // its name when compiled
  int foldPlanes;       // planes of the fold tape
  int valuePlanes;      // planes of CompiledReverseArgs::values
  int adjointPlanes;    // planes of CompiledReverseArgs::adjoints
  // record: round.exportsNow (and the states, in place) receive the next carry.
  CompiledReverseStep record, own, gather;
};

// The reversal's operations without their constants (read from CompiledRoundArgs::constants).
std::string compiledReverseKey(const TracedProgram& program);
// The constants, in the order compiled reverse rounds read them: each value op's operands a, b,
// c, then each value entry operation's constant.
std::vector<double> compiledReverseConstants(const TracedProgram& program);

// Whether the program's reverse round can be compiled; if not, why (the first operation that
// cannot): what canCompileRound refuses, and exchanges and lexicographic folds.
bool canCompileReverse(const TracedProgram& program, std::string* why = nullptr);

// A C++ source file defining `std::vector<kfield::diff::CompiledReverseEntry> <table>()`.
// Throws std::invalid_argument naming a program that cannot be compiled or a table name that is
// not a C++ name.
std::string compiledReversesSource(const std::vector<TracedProgram>& programs,
                                   const std::string& table);

// The source of the library's own compiled reverse rounds (core/src/diff/compiled/
// LibraryReverses.cpp): every program of lib::programs() whose reverse can be compiled, of at
// most 256 value operations as for the rounds (neural-distance's reverse runs interpreted).
// Regenerated with the rounds (kfield_regenerate_library_rounds).
std::string libraryReversesSource();

// Makes the reverse rounds known to every gradient created afterwards.
void registerCompiledReverses(const std::vector<CompiledReverseEntry>& reverses);

// The program's compiled reverse round, the library's or a registered one; its steps are null
// if none.
CompiledReverseEntry findCompiledReverse(const TracedProgram& program);

}  // namespace kfield::diff

#endif
