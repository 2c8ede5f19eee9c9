// MPI as kfield calls it: every call checked (a failing call is a std::runtime_error naming the
// call and MPI's words), and the gathers the parts of a distributed simulation make.
#ifndef KFIELD_IMPL_MPI_HPP
#define KFIELD_IMPL_MPI_HPP

#include "kfield/Config.hpp"

#if KFIELD_ENABLE_MPI
#include "kfield/impl/Errors.hpp"
#include "kfield/rt/Mpi.hpp"

#include <mpi.h>

#include <climits>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace kfield::impl {

using kfield::failOnEveryRank;
using kfield::mpiCheck;

template <class T>
MPI_Datatype mpiType() {
  static_assert(std::is_same<T, double>::value || std::is_same<T, std::int64_t>::value,
                "gathers carry doubles and 64-bit integers");
  return std::is_same<T, double>::value ? MPI_DOUBLE : MPI_INT64_T;
}

// Every rank's values, concatenated in rank order, on `root`; empty on the other ranks.
template <class T>
std::vector<T> gatherToRoot(const char* who, const std::vector<T>& mine, int root, MPI_Comm comm) {
  int ranks = 0, rank = 0;
  mpiCheck(who, MPI_Comm_size(comm, &ranks), "MPI_Comm_size");
  mpiCheck(who, MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  if (mine.size() > std::size_t(INT_MAX)) {
    runtimeError(who, "more than 2^31 - 1 values to gather from one rank");
  }
  const int count = static_cast<int>(mine.size());
  std::vector<int> counts(static_cast<std::size_t>(ranks)), at(static_cast<std::size_t>(ranks));
  mpiCheck(who, MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, root, comm),
           "MPI_Gather");
  std::int64_t total = 0;
  for (int r = 0; r < ranks && rank == root; ++r) {
    if (total + counts[r] > INT_MAX) runtimeError(who, "more than 2^31 - 1 values in one gather");
    at[r] = static_cast<int>(total);
    total += counts[r];
  }
  std::vector<T> all(static_cast<std::size_t>(total));
  mpiCheck(who,
           MPI_Gatherv(mine.data(), count, mpiType<T>(), all.data(), counts.data(), at.data(),
                       mpiType<T>(), root, comm),
           "MPI_Gatherv");
  return all;
}

}  // namespace kfield::impl

#endif
#endif
