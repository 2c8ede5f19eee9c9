#include "kfield/io/Provenance.hpp"

#include "kfield/Config.hpp"
#include "kfield/io/Hdf5Library.hpp"
#include "kfield/rt/BuildInfo.hpp"

#include <Kokkos_Core.hpp>

#include <ctime>
#include <fstream>
#include <iterator>

#if KFIELD_ENABLE_MPI
#include <mpi.h>
#endif

namespace kfield::io {

Provenance currentProvenance() {
  const BuildInfo build = buildInfo();
  Provenance p;
  p.kfieldVersion = build.version;
  p.kfieldRevision = build.gitRevision;
  p.kokkosVersion = build.kokkosVersion;
  for (const std::string& b : build.backends) p.backends += (p.backends.empty() ? "" : ",") + b;
  p.hdf5Version = hdf5LibraryVersion();
  if (Kokkos::is_initialized()) p.threads = Kokkos::DefaultHostExecutionSpace().concurrency();
#if KFIELD_ENABLE_MPI
  int started = 0, stopped = 0;
  MPI_Initialized(&started);
  MPI_Finalized(&stopped);
  if (started && !stopped) {
    int size = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    p.ranks = size;
  }
#endif
  char text[32];
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  p.created = text;
  std::ifstream cmdline("/proc/self/cmdline", std::ios::binary);  // NUL-separated arguments
  std::string args((std::istreambuf_iterator<char>(cmdline)), std::istreambuf_iterator<char>());
  while (!args.empty() && args.back() == '\0') args.pop_back();
  for (char& c : args) c = c == '\0' ? ' ' : c;
  p.commandLine = args;
  return p;
}

}  // namespace kfield::io
