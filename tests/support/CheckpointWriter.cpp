// The writer process of the checkpoint tests: resumes FILE if it exists, then steps the
// checkpoint system and saves FILE (keeping FILE.1) after every step, until step LAST. The
// test kills it at random moments with SIGKILL.
//   kfield_checkpoint_writer FILE THREADS OWNERS RULE PARAMETERS SAMPLES LAST
#include "support/CheckpointSystem.hpp"

#include <kfield/impl/KokkosCompat.hpp>
#include <kfield/io/Checkpoint.hpp>

#include <unistd.h>

#include <cstdlib>
#include <iostream>

int main(int argc, char* argv[]) {
  using namespace kfield;
  if (argc != 8) {
    std::cerr << "usage: " << argv[0] << " FILE THREADS OWNERS RULE PARAMETERS SAMPLES LAST\n";
    return 2;
  }
  const std::string file = argv[1], rule = argv[4];
  const int threads = std::atoi(argv[2]);
  const std::int64_t owners = std::atoll(argv[3]), k = std::atoll(argv[5]),
                     samples = std::atoll(argv[6]), last = std::atoll(argv[7]);
  setenv("OMP_PROC_BIND", "false", 0);  // a test helper: no pinning, no warning about it
  // THREADS decides: the test's own KOKKOS_NUM_THREADS would contradict it (Kokkos aborts).
  unsetenv("KOKKOS_NUM_THREADS");
  // Kokkos alone: MPI's start-up (a daemon under a singleton) would dwarf the writes.
  impl::initializeKokkos(argc, argv, threads);
  struct Finalize {
    ~Finalize() { Kokkos::finalize(); }
  } finalize;
  const auto system = test::checkpointSystem(rule, owners, k, samples);
  try {
    DataParallelLearner<> learner(system);
    if (access(file.c_str(), F_OK) == 0) learner.resume(io::loadCheckpoint(file));
    for (std::int64_t step = learner.state().step; step < last; ++step) {
      learner.run(1);
      io::saveCheckpoint(file, learner.state(), {2});
    }
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
  return 0;
}
