// The process-wide runtime: MPI (when built with it) and Kokkos, started and stopped in order.
#ifndef KFIELD_RT_RUNTIME_HPP
#define KFIELD_RT_RUNTIME_HPP

#include <string>

namespace kfield {

struct RuntimeOptions {
  int threads = 0;  // host threads for OpenMP; 0 lets Kokkos decide (KOKKOS_NUM_THREADS, OMP_*)
  // Start MPI (when built with it). A process no MPI launcher started may leave it off: one
  // rank, and no MPI daemon started for a singleton (most of a short run's start-up).
  bool mpi = true;
};

// Whether an MPI launcher (mpiexec, srun) started this process: its rank is in the environment.
bool launchedByMpi();

// Starts MPI and Kokkos unless already started, and stops what it started, in reverse order.
// One per process, for the whole of main(); Kokkos cannot be started again once stopped.
// Unless already set, OMP_PROC_BIND=spread and OMP_PLACES=threads pin OpenMP threads.
class Runtime {
 public:
  // Takes Kokkos' own command-line flags (--kokkos-...) out of argv.
  Runtime(int& argc, char** argv);
  explicit Runtime(RuntimeOptions options = {});
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  int rank() const { return rank_; }    // this process's MPI rank, 0 without MPI
  int ranks() const { return ranks_; }  // MPI ranks in the world, 1 without MPI

 private:
  void start(int* argc, char*** argv, int threads, bool mpi = true);
  bool ownsMpi_ = false;
  bool ownsKokkos_ = false;
  int rank_ = 0;
  int ranks_ = 1;
};

// The MPI library's own version line, or "" when kfield is built without MPI.
std::string mpiLibraryVersion();

}  // namespace kfield

#endif
