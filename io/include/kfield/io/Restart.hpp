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

namespace kfield::io {

// Throws FileError naming the file and the problem: not an export, no /restart, another
// program or network (named), another sample count, a plane of another shape.
SimulationCarry loadRestart(const std::string& path, const TracedProgram& program,
                            const Network& network, std::int64_t samples);

// The SHA-256 (hex) of the program's graph, operations and constants and of the network:
// what a restart must match.
std::string runIdentity(const TracedProgram& program, const Network& network);

}  // namespace kfield::io

#endif
