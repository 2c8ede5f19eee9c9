// Simulation exports (docs/file-format.md, kind "simulation-export"): the network (CSR,
// positions, edge lengths) and a field of every sample every K rounds, chunked and
// deflate-compressed, readable with h5py and h5dump. Written as PATH.partial and renamed over
// PATH by finish(), so PATH is never a half-written export.
//
//   io::SimulationExport out("hop.h5", net, "hop-gradient", samples);
//   out.append(sim.rounds()[0], sim.output());   // every K rounds
//   out.finish();
//
// Runs on a Schedule also keep each device's clock per snapshot (/fields/time), runs of moving
// devices where each device is (/fields/positions):
//   io::SimulationExport out("a.h5", net, "hop-gradient", samples, {/*time*/ true, /*positions*/ true});
//   out.append(sim.rounds()[0], sim.output(), {sim.times(), sim.positions()});
#ifndef KFIELD_IO_EXPORT_HPP
#define KFIELD_IO_EXPORT_HPP

#include "kfield/Plane.hpp"
#include "kfield/field/TracedProgram.hpp"
#include "kfield/io/FileError.hpp"
#include "kfield/net/Network.hpp"
#include "kfield/sim/SimulationCarry.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace kfield::io {

// What each snapshot of an export holds besides the field.
struct ExportContents {
  bool time = false;       // /fields/time, [T, N, B]: every device's clock (Simulation::times)
  bool positions = false;  // /fields/positions, [T, N, 2]: x, y (Simulation::positions)
};
// Those values, for one snapshot.
struct ExportSnapshot {
  HostPlane times;                                                // devices x samples
  std::pair<std::vector<double>, std::vector<double>> positions;  // x, y: devices values each
};

class SimulationExport {
 public:
  using Contents = ExportContents;
  using Snapshot = ExportSnapshot;

  // `field` names the dataset (/fields/<field>); rows are devices, columns samples (of a
  // tuple-valued field, `components` blocks of device rows, as Simulation::output gives them).
  // `deflate`: zlib's level for the fields, 0 (off: fastest) to 9; chunks are compressed on
  // every host thread.
  SimulationExport(const std::string& path, const Network& network, const std::string& program,
                   std::int64_t samples, const std::string& field = "output", int deflate = 1,
                   std::int64_t components = 1, Contents contents = {});
  ~SimulationExport();  // unfinished: the partial file is removed, PATH untouched
  SimulationExport(const SimulationExport&) = delete;
  SimulationExport& operator=(const SimulationExport&) = delete;

  // The field after `round` rounds ((components x devices) x samples): one more snapshot, with
  // what `contents` asked for in `more`.
  void append(std::int64_t round, const HostPlane& field, const Snapshot& more = {});
  std::int64_t snapshots() const;
  // Adds /restart: the carry (sim.carry()) and the identity of the program and network, so
  // that `kfield run --resume FILE` (io::loadRestart) continues the run bit for bit.
  void restart(const TracedProgram& program, const SimulationCarry& carry);
  void finish();

 private:
  struct Writer;
  std::unique_ptr<Writer> writer_;
};

}  // namespace kfield::io

#endif
