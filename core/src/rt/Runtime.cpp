#include "kfield/rt/Runtime.hpp"

#include "kfield/Config.hpp"
#include "kfield/impl/Errors.hpp"
#include "kfield/impl/KokkosCompat.hpp"

#if KFIELD_ENABLE_MPI
#include <mpi.h>
#endif

#include <cstdlib>
#include <stdexcept>

namespace kfield {

Runtime::Runtime(int& argc, char** argv) { start(&argc, &argv, 0); }

Runtime::Runtime(RuntimeOptions options) {
  if (options.threads < 0) {
    impl::invalidArgument("kfield::Runtime",
                          "threads must be >= 0, got " + std::to_string(options.threads));
  }
  start(nullptr, nullptr, options.threads, options.mpi);
}

bool launchedByMpi() {
  for (const char* name :
       {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID"}) {
    if (std::getenv(name)) return true;
  }
  return false;
}

void Runtime::start(int* argc, char*** argv, int threads, bool mpi) {
#if KFIELD_ENABLE_MPI
  int started = 0;
  MPI_Initialized(&started);
  if (!started && !mpi) {
    // One process, MPI left off.
  } else if (!started) {
    int provided = 0;
    // Only the thread that calls MPI is the main one: kernels never call MPI.
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
      impl::runtimeError("kfield::Runtime", "MPI_Init_thread failed");
    }
    ownsMpi_ = true;
  }
  if (started || mpi) {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks_);
  }
#else
  (void)mpi;
#endif
  if (!Kokkos::is_initialized()) {
    // Threads pinned one per place, as Kokkos recommends, unless the user chose otherwise.
    setenv("OMP_PROC_BIND", "spread", /*overwrite=*/0);
    setenv("OMP_PLACES", "threads", /*overwrite=*/0);
    int noArgc = 0;
    impl::initializeKokkos(argc ? *argc : noArgc, argv ? *argv : nullptr, threads);
    ownsKokkos_ = true;
  }
}

Runtime::~Runtime() {
  if (ownsKokkos_) Kokkos::finalize();
#if KFIELD_ENABLE_MPI
  int stopped = 0;
  MPI_Finalized(&stopped);
  if (ownsMpi_ && !stopped) MPI_Finalize();
#endif
}

std::string mpiLibraryVersion() {
#if KFIELD_ENABLE_MPI
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  MPI_Get_library_version(text, &length);  // allowed before MPI_Init
  std::string line(text, static_cast<std::size_t>(length));
  return line.substr(0, line.find_first_of("\n,"));
#else
  return "";
#endif
}

}  // namespace kfield
