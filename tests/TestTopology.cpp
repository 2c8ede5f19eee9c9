#include "support/TempFolder.hpp"

#include <kfield/rt/Topology.hpp>

#include <gtest/gtest.h>

#include <sched.h>

#include <filesystem>
#include <fstream>

namespace kfield {
namespace {

TEST(Topology, CountsNestPackagesCoresAndPus) {
  const Topology t = readTopology();
  EXPECT_GE(t.packages, 1);
  EXPECT_GE(t.numaNodes, 1);
  EXPECT_GE(t.cores, t.packages);
  EXPECT_GE(t.pus, t.cores);
  EXPECT_FALSE(t.hwlocVersion.empty());
}

TEST(Topology, SeesEveryPuThisProcessMayRunOn) {
  cpu_set_t set;
  CPU_ZERO(&set);
  ASSERT_EQ(sched_getaffinity(0, sizeof set, &set), 0);
  const Topology t = readTopology();
  EXPECT_GE(t.pus, CPU_COUNT(&set));
  EXPECT_FALSE(t.binding.empty());
}

TEST(Topology, CachesHaveSizesAndDataCachesComeFirst) {
  const Topology t = readTopology();
  for (const CacheLevel& c : t.caches) {
    EXPECT_GT(c.bytes, 0u) << c.name;
    EXPECT_GE(c.count, 1) << c.name;
  }
  if (!t.caches.empty()) {
    EXPECT_NE(t.caches.front().name.back(), 'i');
  }
}

TEST(Topology, DescriptionNamesEachCount) {
  Topology t;
  t.packages = 1;
  t.numaNodes = 1;
  t.cores = 2;
  t.pus = 4;
  t.caches = {{"L1d", 48 * 1024, 2}, {"L3", 32u << 20, 1}};
  EXPECT_EQ(describe(t), "1 package, 1 NUMA node, 2 cores, 4 PUs; L1d 2x48 KiB, L3 1x32 MiB");
}

// A fake /sys/fs/cgroup and /proc/self/cgroup: the limit that binds is the smallest on the way
// from the process's own group up to the root, in cgroup v2 and in v1's memory hierarchy.
TEST(Topology, MemoryLimitIsTheProcessOwnCgroups) {
  test::TempFolder root;
  auto write = [&](const std::string& path, const std::string& text) {
    std::filesystem::create_directories(std::filesystem::path(root / path).parent_path());
    std::ofstream(root / path) << text;
  };
  write("v2/memory.max", "max\n");
  write("v2/job.slice/memory.max", "8589934592\n");
  write("v2/job.slice/step/memory.max", "max\n");
  write("v2.cgroup", "0::/job.slice/step\n");
  EXPECT_EQ(impl::cgroupMemoryLimit(root / "v2.cgroup", root / "v2"), 8589934592u);
  write("v2/job.slice/step/memory.max", "1073741824\n");
  EXPECT_EQ(impl::cgroupMemoryLimit(root / "v2.cgroup", root / "v2"), 1073741824u);

  write("v1/memory/memory.limit_in_bytes", "9223372036854771712\n");
  write("v1/memory/docker/abc/memory.limit_in_bytes", "2147483648\n");
  write("v1.cgroup", "12:pids:/docker/abc\n4:cpu,memory:/docker/abc\n1:name=systemd:/\n");
  EXPECT_EQ(impl::cgroupMemoryLimit(root / "v1.cgroup", root / "v1"), 2147483648u);

  // A group the mount does not show (another cgroup namespace): the root's limit.
  write("other.cgroup", "4:memory:/not/mounted/here\n");
  EXPECT_EQ(impl::cgroupMemoryLimit(root / "other.cgroup", root / "v1"), 9223372036854771712u);
  EXPECT_EQ(impl::cgroupMemoryLimit(root / "none.cgroup", root / "empty"), 0u);
  EXPECT_GT(hostMemoryBytes(), 0u);
}

}  // namespace
}  // namespace kfield
