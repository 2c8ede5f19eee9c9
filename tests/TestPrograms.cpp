// The library's programs by name, as `kfield run` runs them: each traces, reads the sensors
// it lists, and computes what its library function computes.
#include "ErrorOf.hpp"
#include "FieldReference.hpp"
#include "TestSpaces.hpp"

#include <kfield/field/Library.hpp>
#include <kfield/field/Programs.hpp>
#include <kfield/sim/Simulation.hpp>

#include <cmath>
#include <set>
#include <string>
#include <vector>

namespace kfield::test {
namespace {

template <class Space>
class Programs : public ::testing::Test {};
TYPED_TEST_SUITE(Programs, Spaces, SpaceNames);

// The program's output once stable, with the source at device 0 and value = device id.
template <class Space>
std::vector<double> stable(const std::string& name, const Network& net) {
  const TracedProgram program = lib::findProgram(name)->build(net, {});
  BasicSimulation<Space> sim(program, net, 1);
  if (program.sensorIndex("source") >= 0) sim.sensor("source").set(0, true);
  if (program.sensorIndex("value") >= 0) {
    for (std::int64_t d = 0; d < net.devices(); ++d) sim.sensor("value").set(d, double(d));
  }
  sim.runUntilStable(10000);
  return sampleOf(sim.output());
}

TYPED_TEST(Programs, EachIsFoundByItsNameAndReadsTheSensorsItLists) {
  const Network net = Network::grid(4, 3);
  std::set<std::string> names;
  for (const lib::LibraryProgram& entry : lib::programs()) {
    EXPECT_TRUE(names.insert(entry.name).second) << entry.name << " is listed twice";
    EXPECT_EQ(lib::findProgram(entry.name), &entry);
    const TracedProgram program = entry.build(net, {});
    EXPECT_EQ(program.name, entry.name);
    std::vector<std::string> read;
    for (const SensorInfo& s : program.sensors) read.push_back(s.name);
    EXPECT_EQ(read, entry.sensors) << entry.name;
  }
  EXPECT_EQ(names.size(), 16u);
  EXPECT_EQ(lib::findProgram("frobnicate"), nullptr);
}

TYPED_TEST(Programs, GradientsAreExactGraphDistances) {
  const Network net = Network::randomGeometric(300, 1.7, 3);
  EXPECT_EQ(stable<TypeParam>("hop-gradient", net), bfsHops(net, {0}));
  EXPECT_EQ(stable<TypeParam>("distance-gradient", net), dijkstra(net, {0}));
}

// A tuple-valued program: its output is one block of device rows per component.
TYPED_TEST(Programs, NearestSourceGivesDistanceThenValueRows) {
  const Network net = Network::randomGeometric(300, 1.7, 3);
  const auto pair = stable<TypeParam>("nearest-source", net);
  const auto dist = dijkstra(net, {0});
  const std::size_t n = dist.size();
  ASSERT_EQ(pair.size(), 2 * n);
  for (std::size_t d = 0; d < n; ++d) {
    EXPECT_EQ(pair[d], dist[d]) << "device " << d;
    EXPECT_EQ(pair[n + d], std::isinf(dist[d]) ? double(d) : 0.0) << "device " << d;
  }
}

TYPED_TEST(Programs, GossipAndBroadcastAndCollectOnAGrid) {
  const Network net = Network::grid(7, 5);
  const auto n = static_cast<std::size_t>(net.devices());
  EXPECT_EQ(stable<TypeParam>("gossip-max", net), std::vector<double>(n, double(n - 1)));
  EXPECT_EQ(stable<TypeParam>("broadcast", net), std::vector<double>(n, 0.0));  // device 0's id
  const auto collected = stable<TypeParam>("collect-sum", net);
  EXPECT_EQ(collected[0], double(n * (n - 1) / 2));  // every id, at the source
  // Split along many paths, the parts add up to the same sum, to rounding.
  const auto weighted = stable<TypeParam>("collect-weighted", net);
  EXPECT_NEAR(weighted[0], double(n * (n - 1) / 2), 1e-9 * double(n * n));
  // Equal parts to every neighbor one hop nearer: the same sum, to rounding.
  const auto multiPath = stable<TypeParam>("collect-multipath", net);
  EXPECT_NEAR(multiPath[0], double(n * (n - 1) / 2), 1e-12 * double(n * n));
}

TYPED_TEST(Programs, SettingsAreCheckedByName) {
  const Network net = Network::grid(3, 3);
  lib::ProgramSettings settings;
  settings.radius = -1;
  EXPECT_EQ(errorOf([&] { lib::findProgram("election")->build(net, settings); }),
            "kfield::lib::election: radius must be in [0, 64] (one traced level per hop), got -1");
  settings.radius = 65;  // each hop is one more level of the traced program
  EXPECT_EQ(errorOf([&] { lib::findProgram("election")->build(net, settings); }),
            "kfield::lib::election: radius must be in [0, 64] (one traced level per hop), got 65");
  settings = {};
  settings.rate = -0.5;
  EXPECT_EQ(errorOf([&] { lib::findProgram("consensus")->build(net, settings); }),
            "kfield::lib::consensus: rate must be finite and >= 0, got -0.500000");
}

}  // namespace
}  // namespace kfield::test
