// Where a file came from, stored in every file kfield writes (docs/file-format.md).
#ifndef KFIELD_IO_PROVENANCE_HPP
#define KFIELD_IO_PROVENANCE_HPP

#include <cstdint>
#include <string>

namespace kfield::io {

struct Provenance {
  std::string kfieldVersion;   // "0.1.0"
  std::string kfieldRevision;  // `git describe` at build time, or "unknown"
  std::string kokkosVersion;   // "4.6.1"
  std::string backends;        // enabled Kokkos backends, "Serial,OpenMP"
  std::string hdf5Version;     // the HDF5 library that wrote it
  std::int64_t threads = 0;    // host threads of the default host execution space
  std::int64_t ranks = 1;      // MPI ranks in the world (1 without MPI)
  std::string created;         // UTC, ISO 8601: "2026-12-03T13:22:23Z"
  std::string commandLine;     // this process's arguments, space-separated
};

// This process now (Kokkos must be initialised for the thread count; 0 otherwise).
Provenance currentProvenance();

}  // namespace kfield::io

#endif
