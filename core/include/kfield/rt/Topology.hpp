// The machine as hwloc sees it: what a benchmark figure must be read against.
#ifndef KFIELD_RT_TOPOLOGY_HPP
#define KFIELD_RT_TOPOLOGY_HPP

#include <cstdint>
#include <string>
#include <vector>

namespace kfield {

struct CacheLevel {
  std::string name;         // "L1d", "L1i", "L2", "L3", ...
  std::uint64_t bytes = 0;  // size of one cache of this level
  int count = 0;            // caches of this level in the machine
};

struct Topology {
  int packages = 0;
  int numaNodes = 0;
  int cores = 0;
  int pus = 0;                     // processing units (hardware threads)
  std::vector<CacheLevel> caches;  // data and unified caches first, innermost first
  std::string binding;             // PUs this process may run on, as a list ("0-1")
  std::uint64_t memoryBytes = 0;   // hostMemoryBytes()
  std::string hwlocVersion;        // hwloc release kfield was built with
};

// The host memory this process may use: the machine's physical memory, or the smallest limit
// of the process's own cgroup and those above it (a batch job's or a container's share, cgroup
// v1 or v2) when that is smaller. What a size is refused against.
std::uint64_t hostMemoryBytes();

namespace impl {
// The smallest memory limit on the way from the process's cgroups (as `cgroupFile`, the format
// of /proc/self/cgroup, lists them) up to the root of the hierarchies mounted at `mountRoot`
// (/sys/fs/cgroup): v2's memory.max, v1's memory.limit_in_bytes. 0 when none is set.
std::uint64_t cgroupMemoryLimit(const std::string& cgroupFile, const std::string& mountRoot);
}  // namespace impl

// Reads the topology of this machine; throws std::runtime_error when hwloc cannot.
Topology readTopology();

// "1 package, 1 NUMA node, 2 cores, 2 PUs; L1d 2x48 KiB, L2 2x2 MiB, L3 1x32 MiB".
std::string describe(const Topology& topology);

}  // namespace kfield

#endif
