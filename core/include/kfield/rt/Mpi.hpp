// MPI as kfield calls it, for a program that drives kfield under mpirun (the command line
// does): every call checked (a failing call is a std::runtime_error naming the call and MPI's
// words), and a problem found on some ranks made an error on all of them, so no rank is left
// waiting in a collective call. Only where kfield is built with MPI.
#ifndef KFIELD_RT_MPI_HPP
#define KFIELD_RT_MPI_HPP

#include "kfield/Config.hpp"

#if KFIELD_ENABLE_MPI
#include "kfield/impl/Errors.hpp"

#include <mpi.h>

#include <climits>
#include <cstddef>
#include <string>

namespace kfield {

inline void mpiCheck(const char* who, int rc, const char* call) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  impl::runtimeError(
      who, std::string(call) + " failed: " + std::string(text, static_cast<std::size_t>(len)));
}

// A problem some ranks found (empty: none here) becomes an error on every rank, in the words of
// the first rank that found one: no rank is left waiting in a collective call.
inline void failOnEveryRank(const char* who, const std::string& problem, MPI_Comm comm) {
  int rank = 0;
  mpiCheck(who, MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  int first = problem.empty() ? INT_MAX : rank;
  mpiCheck(who, MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce");
  if (first == INT_MAX) return;
  int length = static_cast<int>(problem.size());
  mpiCheck(who, MPI_Bcast(&length, 1, MPI_INT, first, comm), "MPI_Bcast");
  std::string text = problem;
  text.resize(static_cast<std::size_t>(length));
  mpiCheck(who, MPI_Bcast(&text[0], length, MPI_CHAR, first, comm), "MPI_Bcast");
  impl::invalidArgument(who, text);
}

}  // namespace kfield

#endif
#endif
