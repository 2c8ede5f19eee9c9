// The library's programs by name, as `kfield run`, the benchmarks and the tests run them: what
// each computes, the sensors it reads, and how it is traced for a network.
#ifndef KFIELD_FIELD_PROGRAMS_HPP
#define KFIELD_FIELD_PROGRAMS_HPP

#include "kfield/IndexRange.hpp"
#include "kfield/field/TracedProgram.hpp"
#include "kfield/net/Network.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace kfield::lib {

// What the programs that take a setting use.
struct ProgramSettings {
  int radius = 2;     // election: hops between leaders, in [0, kMaxElectionRadius]
  double rate = 0.0;  // consensus: the step; 0 picks 1 / (largest degree + 1) of the network
};

// A learnable parameter of a library program, with the values a run starts from.
struct ParameterDefault {
  std::string name;
  std::vector<double> values;
};

// What the programs read of their network: facts of the whole network. A part learns them from
// the other parts: each fact is the maximum of the parts' (MPI_Allreduce with MPI_MAX).
struct NetworkFacts {
  std::int64_t largestDegree = 0;  // neighbors besides the device itself
  double longestLength = 0;        // of an entry (0 when none has a length)

  NetworkFacts() = default;
  NetworkFacts(const Network& network);  // NOLINT(google-explicit-constructor): a network's own
  // The facts of rows [rows.begin, rows.end) (a part's owned rows: its share of the whole's).
  static NetworkFacts ofRows(const Network& network, IndexRange rows);
};

// What a library program's "value" sensor reads where the caller gives no values.
enum class DefaultValues { DeviceIds, Ones };

struct LibraryProgram {
  std::string name;                          // "hop-gradient", ...
  std::string summary;                       // one line
  std::vector<std::string> sensors;          // what it reads, in the traced program's order:
                                             // "source", "destination", "obstacle" (bool), "value"
  std::vector<ParameterDefault> parameters;  // learnable ones (kfield grad), with defaults
  TracedProgram (*build)(const NetworkFacts& network, const ProgramSettings& settings);
  // Where a run names only source devices (the command line's --source): "value" reads each
  // device's id, or 1 on every device for the collections (they count the devices).
  DefaultValues values = DefaultValues::DeviceIds;
};

// The inputs a run of a library program starts from when the caller names only source devices
// (at least one): "source" true on them, except that a program reading "destination" takes the
// first as its source and the second (else the last device) as its destination; "value" as the
// program's entry says. Sim: a Simulation or a DistributedSimulation.
template <class Sim>
void setDefaultInputs(Sim& sim, const LibraryProgram& program,
                      const std::vector<std::int64_t>& sources, std::int64_t devices) {
  auto reads = [&](const char* name) {
    return std::find(program.sensors.begin(), program.sensors.end(), name) != program.sensors.end();
  };
  if (reads("destination")) {
    sim.sensor("source").set(sources[0], true);
    sim.sensor("destination").set(sources.size() > 1 ? sources[1] : devices - 1, true);
  } else if (reads("source")) {
    for (std::int64_t s : sources) sim.sensor("source").set(s, true);
  }
  if (reads("value")) {
    const bool ones = program.values == DefaultValues::Ones;
    for (std::int64_t d = 0; d < devices; ++d) sim.sensor("value").set(d, ones ? 1.0 : double(d));
  }
}

// Every program, in a fixed order.
const std::vector<LibraryProgram>& programs();

// The values a parameter of the program starts from on a network.
std::vector<double> defaultParameter(const LibraryProgram& program, const std::string& name,
                                     const NetworkFacts& network);

// The program of that name, or nullptr.
const LibraryProgram* findProgram(const std::string& name);

}  // namespace kfield::lib

#endif
