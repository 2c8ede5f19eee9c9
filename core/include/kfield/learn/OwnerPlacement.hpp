// Where a learner's owners run: all in this process, or spread over the ranks of an MPI
// communicator (each rank holds a contiguous run of owners, near-equal counts, larger first).
// The placement is the one object that knows which: it says which replicas (copies of the
// parameters and state that get updated) live here and which owners each holds, and it
// exchanges what the replicas must share. Over ranks every rank calls it in the same order.
#ifndef KFIELD_LEARN_OWNERPLACEMENT_HPP
#define KFIELD_LEARN_OWNERPLACEMENT_HPP

#include "kfield/Config.hpp"
#include "kfield/IndexRange.hpp"
#include "kfield/sum/Partials.hpp"

#if KFIELD_ENABLE_MPI
#include <mpi.h>
#endif

#include <cstdint>
#include <string>
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

  // In process every owner is a replica; over ranks every rank is one.
  std::int64_t replicas(std::int64_t owners) const;
  // The replicas this process holds, in the global numbering.
  IndexRange localReplicas(std::int64_t owners) const;
  // The owners replica r holds.
  IndexRange ownersOf(std::int64_t replica, std::int64_t owners) const;
  // What a replica is, for messages: "owner" or "rank".
  const char* replicaNoun() const;

  // Every rank's bytes, by rank (in process: this one's).
  std::vector<std::vector<unsigned char>> allgather(const std::vector<unsigned char>& local) const;
  // The partials of every owner, from this rank's: merged over ranks in rank order.
  Partials<double> combine(Partials<double> local) const;

 private:
  bool overRanks() const { return ranks_ > 1; }

  int ranks_ = 1;
  int rank_ = 0;
#if KFIELD_ENABLE_MPI
  MPI_Comm comm_ = MPI_COMM_NULL;
#endif
};

}  // namespace kfield

#endif
