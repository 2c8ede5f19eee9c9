// MPI calls checked: a failing call is a std::runtime_error naming the call and MPI's words.
#ifndef KFIELD_IMPL_MPICHECK_HPP
#define KFIELD_IMPL_MPICHECK_HPP

#include "kfield/Config.hpp"

#if KFIELD_ENABLE_MPI
#include "kfield/impl/Errors.hpp"

#include <mpi.h>

#include <string>

namespace kfield::impl {

inline void mpiCheck(const char* who, int rc, const char* call) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  runtimeError(who, std::string(call) + " failed: " + std::string(text, static_cast<std::size_t>(len)));
}

}  // namespace kfield::impl

#endif
#endif
