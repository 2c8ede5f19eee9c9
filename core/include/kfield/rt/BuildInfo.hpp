// What this kfield was built with: version, revision, compiler, Kokkos and its backends.
#ifndef KFIELD_RT_BUILDINFO_HPP
#define KFIELD_RT_BUILDINFO_HPP

#include <string>
#include <vector>

namespace kfield {

struct BuildInfo {
  std::string version;                // kfield's version, "major.minor.patch"
  std::string gitRevision;            // `git describe` at build time, or "unknown"
  std::string buildType;              // CMAKE_BUILD_TYPE
  std::string compiler;               // compiler id and version
  std::string cxxFlags;               // flags of that build type
  std::string kokkosVersion;          // "major.minor.patch"
  std::vector<std::string> backends;  // enabled Kokkos backends, in kfield's order
  std::string defaultSpace;           // Kokkos::DefaultExecutionSpace's name
  bool mpi = false;                   // built with MPI owners
};

BuildInfo buildInfo();

}  // namespace kfield

#endif
