#include <kfield/rt/Topology.hpp>

#include <gtest/gtest.h>

#include <sched.h>

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

}  // namespace
}  // namespace kfield
