// Simulation exports (docs/file-format.md, kind "simulation-export"): the network (CSR,
// positions, edge lengths) and a field of every sample every K rounds, chunked and
// deflate-compressed, readable with h5py and h5dump.
//
// Snapshots are committed as they are taken: the export is written as PATH.partial until its
// first commit, then renamed over PATH and written on in HDF5's single-writer mode, so that a
// run killed at any moment leaves PATH holding every snapshot up to its last commit, whole
// (and, when it keeps the run's carry, resumable from there). A second writer of PATH is
// refused before it touches anything.
//
//   io::SimulationExport out("hop.h5", net, "hop-gradient", samples);
//   out.append(sim.rounds()[0], sim.output());   // every K rounds
//   out.commit();                                // durable from here
//   out.finish();
//
// Resumable (`kfield run --resume`): the export keeps the run's carry at every commit.
//   io::SimulationExport out("a.h5", net, "hop-gradient", samples, "output", 1, 1, {false, false,
//   &program, {}}); out.append(round, sim.output()); out.commit(sim.carry());
#ifndef KFIELD_IO_EXPORT_HPP
#define KFIELD_IO_EXPORT_HPP

#include "kfield/Plane.hpp"
#include "kfield/field/TracedProgram.hpp"
#include "kfield/io/FileError.hpp"
#include "kfield/io/Restart.hpp"
#include "kfield/net/Network.hpp"
#include "kfield/sim/SimulationCarry.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace kfield::io {

// What each snapshot of an export holds besides the field, and what each commit keeps.
struct ExportContents {
  bool time = false;       // /fields/time, [T, N, B]: every device's clock (Simulation::times)
  bool positions = false;  // /fields/positions, [T, N, 2]: x, y (Simulation::positions)
  // The program whose run is exported: every commit then keeps the run's carry (/restart),
  // so that `kfield run --resume FILE` (io::loadRestart) continues it bit for bit. Null: none.
  const TracedProgram* carryOf = nullptr;
  RunInputs inputs;  // with it: what else the run was given that changes its bits
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
  // every host thread. Refuses (FileError) a PATH another process writes, or that is not a
  // regular file.
  SimulationExport(const std::string& path, const Network& network, const std::string& program,
                   std::int64_t samples, const std::string& field = "output", int deflate = 1,
                   std::int64_t components = 1, Contents contents = {});
  // Never committed: the partial file is removed, PATH untouched. Committed: PATH keeps every
  // committed snapshot.
  ~SimulationExport();
  SimulationExport(const SimulationExport&) = delete;
  SimulationExport& operator=(const SimulationExport&) = delete;

  // The field after `round` rounds ((components x devices) x samples): one more snapshot, with
  // what `contents` asked for in `more`; durable at the next commit.
  void append(std::int64_t round, const HostPlane& field, const Snapshot& more = {});
  std::int64_t snapshots() const;  // appended, committed or not
  // Makes every snapshot appended so far durable (flushed to disk; PATH from the first commit
  // on). An export that keeps the carry commits the run's carry after its last snapshot with
  // them (`carry`: sim.carry(); required then, ignored otherwise).
  void commit(const SimulationCarry* carry = nullptr);
  void commit(const SimulationCarry& carry) { commit(&carry); }
  // Commits what is left (an export that keeps the carry: its snapshots must be committed) and
  // closes the file.
  void finish();

 private:
  struct Writer;
  std::unique_ptr<Writer> writer_;
};

}  // namespace kfield::io

#endif
