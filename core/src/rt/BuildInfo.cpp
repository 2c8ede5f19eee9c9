#include "kfield/rt/BuildInfo.hpp"

#include "kfield/Config.hpp"
#include "kfield/backends/ExecutionSpaces.hpp"
#include "kfield/impl/KokkosCompat.hpp"

namespace kfield {

namespace impl {
const char* gitRevision();  // defined in the generated Revision.cpp
}

BuildInfo buildInfo() {
  BuildInfo info;
  info.version = KFIELD_VERSION_STRING;
  info.gitRevision = impl::gitRevision();
  info.buildType = KFIELD_BUILD_TYPE;
  info.compiler = KFIELD_CXX_COMPILER;
  info.cxxFlags = KFIELD_CXX_FLAGS;
  info.kokkosVersion = impl::kokkosVersion();
  info.backends = enabledBackendNames();
  info.defaultSpace = Kokkos::DefaultExecutionSpace::name();
  info.mpi = KFIELD_ENABLE_MPI;
  return info;
}

}  // namespace kfield
