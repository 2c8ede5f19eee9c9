// Where a learner's owners run: all in this process, or spread over the ranks of an MPI
// communicator (each rank holds a contiguous run of owners, near-equal counts, larger first).
// The collectives exchange bytes; every rank calls them in the same order.
#ifndef KFIELD_LEARN_OWNERPLACEMENT_HPP
#define KFIELD_LEARN_OWNERPLACEMENT_HPP

#include "kfield/Config.hpp"

#if KFIELD_ENABLE_MPI
#include <mpi.h>
#endif

#include <cstdint>
#include <vector>

namespace kfield {

class OwnerPlacement {
 public:
  OwnerPlacement() = default;  // in process
#if KFIELD_ENABLE_MPI
  // Owners over the ranks of `comm` (MPI must be initialised).
  static OwnerPlacement overRanks(MPI_Comm comm);
#endif

  int ranks() const { return ranks_; }
  int rank() const { return rank_; }
  bool distributed() const { return ranks_ > 1; }

  // Every rank's bytes, by rank.
  std::vector<std::vector<unsigned char>> allgather(const std::vector<unsigned char>& local) const;

 private:
  int ranks_ = 1;
  int rank_ = 0;
#if KFIELD_ENABLE_MPI
  MPI_Comm comm_ = MPI_COMM_NULL;
#endif
};

}  // namespace kfield

#endif
