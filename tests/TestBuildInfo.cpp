#include <kfield/Config.hpp>
#include <kfield/io/Hdf5Library.hpp>
#include <kfield/rt/BuildInfo.hpp>
#include <kfield/rt/Runtime.hpp>

#include <gtest/gtest.h>

#include <string>

namespace kfield {
namespace {

// The chain from CMake to the code: what configure found is what the library reports.
// kfield's targets compile as ISO C++ (-std=c++17), not with GNU extensions (gnu++17, the
// GCC and Clang default): what every Kokkos backend's compiler accepts.
TEST(BuildInfo, CompiledAsIsoCppWithoutExtensions) {
#if defined(__GNUC__) && !defined(__STRICT_ANSI__)
  ADD_FAILURE() << "compiled with GNU extensions (-std=gnu++NN)";
#endif
}

TEST(BuildInfo, BackendsAreTheOnesCMakeFound) {
  std::string joined;
  for (const auto& b : buildInfo().backends) joined += (joined.empty() ? "" : ",") + b;
  EXPECT_EQ(joined, KFIELD_TEST_EXPECTED_BACKENDS);
}

TEST(BuildInfo, KokkosVersionIsTheOneCMakeFound) {
  EXPECT_EQ(buildInfo().kokkosVersion, KFIELD_TEST_EXPECTED_KOKKOS_VERSION);
}

TEST(BuildInfo, VersionAndRevisionAreSet) {
  const BuildInfo info = buildInfo();
  EXPECT_EQ(info.version, KFIELD_VERSION_STRING);
  EXPECT_FALSE(info.gitRevision.empty());
  EXPECT_FALSE(info.compiler.empty());
}

TEST(BuildInfo, MpiAndHdf5AreReportedAsConfigured) {
  EXPECT_EQ(buildInfo().mpi, bool(KFIELD_ENABLE_MPI));
  EXPECT_EQ(!mpiLibraryVersion().empty(), bool(KFIELD_ENABLE_MPI));
  const std::string hdf5 = hdf5LibraryVersion();
  EXPECT_EQ(!hdf5.empty(), bool(KFIELD_ENABLE_HDF5));
  if (KFIELD_ENABLE_HDF5) {
    EXPECT_EQ(hdf5.substr(0, 2), "1.");
  }
}

}  // namespace
}  // namespace kfield
