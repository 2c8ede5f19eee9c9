#include "kfield/rt/Topology.hpp"

#include "kfield/impl/Errors.hpp"

#include <hwloc.h>

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace kfield {
namespace {

struct TopologyHandle {
  hwloc_topology_t topology = nullptr;
  TopologyHandle() {
    if (hwloc_topology_init(&topology) != 0) {
      impl::runtimeError("kfield::readTopology", "hwloc_topology_init failed");
    }
    if (hwloc_topology_load(topology) != 0) {
      hwloc_topology_destroy(topology);
      impl::runtimeError("kfield::readTopology", "hwloc_topology_load failed");
    }
  }
  ~TopologyHandle() { hwloc_topology_destroy(topology); }
  TopologyHandle(const TopologyHandle&) = delete;
  TopologyHandle& operator=(const TopologyHandle&) = delete;

  int count(hwloc_obj_type_t type) const {
    const int n = hwloc_get_nbobjs_by_type(topology, type);
    return n < 0 ? 0 : n;  // -1: objects of this type sit at several depths (rare)
  }
};

std::string bytesText(std::uint64_t bytes) {
  if (bytes % (1u << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  if (bytes % (1u << 10) == 0) return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + " B";
}

}  // namespace

namespace impl {

std::uint64_t cgroupMemoryLimit(const std::string& cgroupFile, const std::string& mountRoot) {
  std::uint64_t limit = 0;  // 0: none found
  auto consider = [&](const std::string& file) {
    std::ifstream in(file);
    std::uint64_t value = 0;
    if (in >> value && value > 0 && (limit == 0 || value < limit)) limit = value;  // "max": none
  };
  // The process's group and every group above it, up to the mount's root: the smallest limit
  // on the way binds (a job's share of a node sits above the step's group).
  auto walk = [&](const std::string& mount, std::string group, const char* name) {
    while (true) {
      consider(mount + (group == "/" ? "" : group) + "/" + name);
      if (group.empty() || group == "/") break;
      const auto slash = group.rfind('/');
      group = slash == 0 || slash == std::string::npos ? "/" : group.substr(0, slash);
    }
  };
  std::ifstream in(cgroupFile);
  bool listed = false;
  for (std::string line; std::getline(in, line);) {  // "ID:CONTROLLERS:PATH"
    const auto first = line.find(':'), second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const std::string controllers = "," + line.substr(first + 1, second - first - 1) + ",";
    const std::string group = line.substr(second + 1);
    if (controllers == ",,") {  // cgroup v2: mounted alone, or beside v1 as "unified"
      walk(mountRoot, group, "memory.max");
      walk(mountRoot + "/unified", group, "memory.max");
      listed = true;
    } else if (controllers.find(",memory,") != std::string::npos) {  // cgroup v1
      walk(mountRoot + "/memory", group, "memory.limit_in_bytes");
      listed = true;
    }
  }
  if (!listed) {  // no /proc/self/cgroup: the roots alone
    consider(mountRoot + "/memory.max");
    consider(mountRoot + "/memory/memory.limit_in_bytes");
  }
  return limit;
}

}  // namespace impl

std::uint64_t hostMemoryBytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  std::uint64_t bytes = pages > 0 && page > 0 ? std::uint64_t(pages) * std::uint64_t(page) : 0;
  const std::uint64_t limit = impl::cgroupMemoryLimit("/proc/self/cgroup", "/sys/fs/cgroup");
  if (limit > 0 && (bytes == 0 || limit < bytes)) bytes = limit;
  return bytes;
}

Topology readTopology() {
  TopologyHandle handle;
  Topology t;
  t.packages = handle.count(HWLOC_OBJ_PACKAGE);
  t.numaNodes = handle.count(HWLOC_OBJ_NUMANODE);
  t.cores = handle.count(HWLOC_OBJ_CORE);
  t.pus = handle.count(HWLOC_OBJ_PU);
  t.memoryBytes = hostMemoryBytes();

  const struct {
    hwloc_obj_type_t type;
    const char* name;
  } levels[] = {{HWLOC_OBJ_L1CACHE, "L1d"},  {HWLOC_OBJ_L2CACHE, "L2"},
                {HWLOC_OBJ_L3CACHE, "L3"},   {HWLOC_OBJ_L4CACHE, "L4"},
                {HWLOC_OBJ_L5CACHE, "L5"},   {HWLOC_OBJ_L1ICACHE, "L1i"},
                {HWLOC_OBJ_L2ICACHE, "L2i"}, {HWLOC_OBJ_L3ICACHE, "L3i"}};
  for (const auto& level : levels) {
    const int n = handle.count(level.type);
    if (n == 0) continue;
    hwloc_obj_t first = hwloc_get_obj_by_type(handle.topology, level.type, 0);
    t.caches.push_back({level.name, first && first->attr ? first->attr->cache.size : 0, n});
  }

  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  if (set && hwloc_get_cpubind(handle.topology, set, HWLOC_CPUBIND_PROCESS) == 0) {
    char* text = nullptr;
    if (hwloc_bitmap_list_asprintf(&text, set) >= 0 && text) t.binding = text;
    std::free(text);
  }
  hwloc_bitmap_free(set);

  t.hwlocVersion = HWLOC_VERSION;  // the release; hwloc_get_api_version() is the API's
  return t;
}

std::string describe(const Topology& t) {
  auto plural = [](int n, const char* what) {
    return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
  };
  std::ostringstream out;
  out << plural(t.packages, "package") << ", " << plural(t.numaNodes, "NUMA node") << ", "
      << plural(t.cores, "core") << ", " << plural(t.pus, "PU");
  for (std::size_t i = 0; i < t.caches.size(); ++i) {
    out << (i == 0 ? "; " : ", ") << t.caches[i].name << " " << t.caches[i].count << "x"
        << bytesText(t.caches[i].bytes);
  }
  return out.str();
}

}  // namespace kfield
