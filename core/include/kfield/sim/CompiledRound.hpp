// Rounds compiled ahead of time. compiledRoundsSource writes a traced program's round as plain
// C++: each device's samples run every operation in one pass, values in locals, folds with their
// entry programs inline, where the round kernel runs an operation at a time over a tile of
// devices. Compiled into a program (the library's own programs are, in libkfield) and
// registered, a simulation on a host backend runs it in place of the round kernel wherever
// both do the same thing: synchronous rounds with no sample in its first round, no tape and no
// change tracking. The same operations on the same values in the same order: the same bits.
#ifndef KFIELD_SIM_COMPILEDROUND_HPP
#define KFIELD_SIM_COMPILEDROUND_HPP

#include "kfield/field/TracedProgram.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace kfield {

// What a compiled round reads and writes: the simulation's planes and network on the host.
// Planes are rows of samples (row stride in doubles), as RoundPlanes holds them.
struct CompiledRoundArgs {
  const double* sensors = nullptr;
  std::int64_t sensorStride = 0;
  double* states = nullptr;
  std::int64_t stateStride = 0;
  const double* exportsPrev = nullptr;  // last round's exports, then edge planes
  double* exportsNow = nullptr;         // this round's
  std::int64_t exportStride = 0;
  std::int64_t edgeRow = 0;  // the export planes' first edge row
  double* output = nullptr;
  std::int64_t outputStride = 0;
  bool writeOutput = true;
  const double* parameters = nullptr;
  const double* constants = nullptr;  // compiledRoundConstants(program)
  const std::int64_t* offsets = nullptr;
  const std::int32_t* neighbors = nullptr;
  const double* lengths = nullptr;        // null when the network has none
  const std::int64_t* reverse = nullptr;  // null unless the program exchanges
  const std::int64_t* ids = nullptr;      // null: device d is id d
  std::int64_t devices = 0, entries = 0;
  std::int64_t live = 0;  // samples computed: positions [0, live) of each row
};

// Devices [first, end) of one round.
using CompiledRound = void (*)(const CompiledRoundArgs& args, std::int64_t first, std::int64_t end);

// A compiled round and the program structure it was compiled from.
struct CompiledRoundEntry {
  const char* key;      // compiledRoundKey of the program
  const char* program;  // its name when compiled (for messages)
  CompiledRound run;
};

// The program's operations without its constants (which a compiled round reads from
// CompiledRoundArgs::constants): programs that differ only in constants share a compiled round.
std::string compiledRoundKey(const TracedProgram& program);
// The constants, in the order compiled rounds read them: each op's operands a, b, c, then each
// entry operation's constant.
std::vector<double> compiledRoundConstants(const TracedProgram& program);

// Whether rounds of the program can be compiled; if not, why (the first operation that cannot,
// by its path): branches, align blocks, spawns, the clock and conditional calls are left to the
// round kernel.
bool canCompileRound(const TracedProgram& program, std::string* why = nullptr);

// A C++ source file defining `std::vector<kfield::CompiledRoundEntry> <table>()` with the
// compiled rounds of the programs. Throws std::invalid_argument naming a program that cannot be
// compiled (canCompileRound) or a table name that is not a C++ name (identifiers joined by
// ::, the namespaces the table goes into).
std::string compiledRoundsSource(const std::vector<TracedProgram>& programs,
                                 const std::string& table);

// The source of the library's own compiled rounds (core/src/sim/compiled/LibraryRounds.cpp):
// every program of lib::programs() that can be compiled and has at most 256 operations (a
// larger round's compile time outweighs it; neural-distance runs interpreted). The test
// CompiledRoundSource.TheLibrarySourceIsWhatTheGeneratorWrites checks the file against it, and
// writes the new source for copying over it when they differ.
std::string libraryRoundsSource();

// Makes the rounds known to every simulation created afterwards (one with the same key replaces
// the earlier one).
void registerCompiledRounds(const std::vector<CompiledRoundEntry>& rounds);

// The compiled round of the program, the library's own or a registered one; null if none.
CompiledRound findCompiledRound(const TracedProgram& program);

}  // namespace kfield

#endif
