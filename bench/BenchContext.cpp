#include "BenchContext.hpp"

#include <kfield/backends/SpaceInfo.hpp>
#include <kfield/learn/LearnerState.hpp>
#include <kfield/rt/BuildInfo.hpp>
#include <kfield/rt/Topology.hpp>

#include <cstdlib>

namespace kfield::bench {

namespace {
bool failed = false;
}

void fail(benchmark::State& state, const std::string& why) {
  failed = true;
  state.SkipWithError(why.c_str());
}

bool anyFailed() { return failed; }

void addKfieldContext() {
  const BuildInfo build = buildInfo();
  benchmark::AddCustomContext("kfield_version", build.version);
  benchmark::AddCustomContext("kfield_revision", build.gitRevision);
  benchmark::AddCustomContext("kfield_build_type", build.buildType);
  benchmark::AddCustomContext("kfield_compiler", build.compiler);
  benchmark::AddCustomContext("kfield_cxx_flags", build.cxxFlags);
  benchmark::AddCustomContext("kokkos_version", build.kokkosVersion);
  benchmark::AddCustomContext("numerical_contract", learnerNumericalContract());
  std::string spaces;
  for (const SpaceInfo& s : enabledSpaces()) {
    spaces += (spaces.empty() ? "" : ", ") + s.name + ":" + std::to_string(s.concurrency);
  }
  benchmark::AddCustomContext("kokkos_spaces_concurrency", spaces);
  const Topology topo = readTopology();
  benchmark::AddCustomContext("hwloc_topology", describe(topo));
  benchmark::AddCustomContext("hwloc_binding", topo.binding);
  for (const char* variable : {"OMP_PROC_BIND", "OMP_PLACES"}) {
    const char* value = std::getenv(variable);
    benchmark::AddCustomContext(variable, value ? value : "");
  }
}

}  // namespace kfield::bench
