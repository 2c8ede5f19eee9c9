// kfield info: what this kfield was built with and the machine it runs on.
#include "Command.hpp"
#include "Context.hpp"

#include <kfield/backends/SpaceInfo.hpp>
#include <kfield/io/Hdf5Library.hpp>
#include <kfield/learn/LearnerState.hpp>
#include <kfield/rt/BuildInfo.hpp>
#include <kfield/rt/Runtime.hpp>
#include <kfield/rt/Topology.hpp>

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <iostream>
#include <memory>

namespace kfield::cli {
namespace {

std::string joined(const std::vector<std::string>& items) {
  std::string text;
  for (const auto& item : items) text += (text.empty() ? "" : ", ") + item;
  return text;
}

nlohmann::ordered_json infoJson(const BuildInfo& build, const Topology& topo) {
  nlohmann::ordered_json j;
  j["kfield"] = {{"version", build.version},
                 {"revision", build.gitRevision},
                 {"build_type", build.buildType},
                 {"compiler", build.compiler},
                 {"cxx_flags", build.cxxFlags}};
  j["kokkos"] = {{"version", build.kokkosVersion}, {"backends", build.backends}};
  j["execution_spaces"] = nlohmann::ordered_json::array();
  for (const SpaceInfo& s : enabledSpaces()) {
    j["execution_spaces"].push_back(
        {{"name", s.name}, {"concurrency", s.concurrency}, {"default", s.isDefault}});
  }
  nlohmann::ordered_json caches = nlohmann::ordered_json::array();
  for (const CacheLevel& c : topo.caches) {
    caches.push_back({{"name", c.name}, {"bytes", c.bytes}, {"count", c.count}});
  }
  j["topology"] = {
      {"hwloc", topo.hwlocVersion}, {"packages", topo.packages}, {"numa_nodes", topo.numaNodes},
      {"cores", topo.cores},        {"pus", topo.pus},           {"caches", caches},
      {"binding", topo.binding}};
  j["mpi"] = {{"enabled", build.mpi}, {"library", mpiLibraryVersion()}};
  const std::string hdf5 = hdf5LibraryVersion();
  j["hdf5"] = {{"enabled", !hdf5.empty()}, {"version", hdf5}};
  j["numerical_contract"] = learnerNumericalContract();
  nlohmann::ordered_json environment = nlohmann::ordered_json::object();
  for (const char* name :
       {"OMP_NUM_THREADS", "OMP_PROC_BIND", "OMP_PLACES", "KOKKOS_NUM_THREADS"}) {
    const char* value = std::getenv(name);
    environment[name] = value ? nlohmann::ordered_json(value) : nlohmann::ordered_json();
  }
  j["environment"] = environment;
  return j;
}

void printText(const BuildInfo& build, const Topology& topo, std::ostream& out) {
  out << "kfield " << build.version << " (revision " << build.gitRevision << ")\n"
      << "build:      " << build.buildType << ", " << build.compiler << ", flags \""
      << build.cxxFlags << "\"\n"
      << "Kokkos:     " << build.kokkosVersion << ", backends " << joined(build.backends) << "\n";
  for (const SpaceInfo& s : enabledSpaces()) {
    out << "  " << s.name << ": concurrency " << s.concurrency
        << (s.isDefault ? " (default execution space)" : "") << "\n";
  }
  out << "topology:   " << describe(topo) << " (hwloc " << topo.hwlocVersion << ")\n"
      << "binding:    PUs " << (topo.binding.empty() ? "unknown" : topo.binding) << "\n"
      << "MPI:        "
      << (build.mpi ? "enabled (" + mpiLibraryVersion() + ")" : std::string("disabled")) << "\n";
  const std::string hdf5 = hdf5LibraryVersion();
  out << "HDF5:       " << (hdf5.empty() ? std::string("disabled") : "enabled (" + hdf5 + ")")
      << "\n";
}

}  // namespace

nlohmann::ordered_json contextJson() { return infoJson(buildInfo(), readTopology()); }

Command addInfoCommand(CLI::App& app) {
  CLI::App* info = app.add_subcommand(
      "info",
      "Version, Kokkos backends, hwloc topology, MPI and HDF5.\nExample: kfield info --json");
  auto json = std::make_shared<bool>(false);
  info->add_flag("--json", *json, "Print one JSON object instead of text");
  return {info, [json] {
            const BuildInfo build = buildInfo();
            const Topology topo = readTopology();
            if (*json) {
              std::cout << infoJson(build, topo).dump(2) << "\n";
            } else {
              printText(build, topo, std::cout);
            }
            return 0;
          }};
}

}  // namespace kfield::cli
