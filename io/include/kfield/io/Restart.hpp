// Continuing a simulation from an export that holds its carry (SimulationExport::restart):
//   sim.restore(io::loadRestart("run.h5", program, network, samples));
#ifndef KFIELD_IO_RESTART_HPP
#define KFIELD_IO_RESTART_HPP

#include "kfield/field/TracedProgram.hpp"
#include "kfield/io/FileError.hpp"
#include "kfield/net/Network.hpp"
#include "kfield/sim/SimulationCarry.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace kfield::io {

// What a run was given besides its program, network and samples that changes its bits (the
// command line's sources, say), as (name, value as text): kept in /restart (@input_NAME), so a
// run resumed with other inputs, which no uninterrupted run would give, is refused by name.
using RunInputs = std::vector<std::pair<std::string, std::string>>;

// Throws FileError naming the file and the problem: not an export, no /restart, another
// program or network (named), another sample count, other inputs (the first named), a plane
// of another shape.
SimulationCarry loadRestart(const std::string& path, const TracedProgram& program,
                            const Network& network, std::int64_t samples,
                            const RunInputs& inputs = {});

// The SHA-256 (hex) of the program's graph, operations and constants and of the network:
// what a restart must match.
std::string runIdentity(const TracedProgram& program, const Network& network);

}  // namespace kfield::io

#endif
