// The library's programs by name, as `kfield run` runs them: each traces, reads the sensors
// it lists, and computes what its library function computes.
#include "support/ErrorOf.hpp"
#include "support/FieldReference.hpp"
#include "support/TestSpaces.hpp"

#include <kfield/diff/Gradient.hpp>
#include <kfield/field/Library.hpp>
#include <kfield/field/NeuralField.hpp>
#include <kfield/field/Programs.hpp>
#include <kfield/net/ShortestPaths.hpp>
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

// shortestPaths' settling round is the distance gradient's: exact after it, not one before.
TYPED_TEST(Programs, TheDistanceGradientSettlesWhenShortestPathsSay) {
  const Network net = Network::randomGeometric(300, 1.7, 3);
  const ShortestPaths exact = shortestPaths(net, {0, 150});
  const TracedProgram program = lib::findProgram("distance-gradient")->build(net, {});
  BasicSimulation<TypeParam> sim(program, net, 2);
  for (const std::int64_t s : {0, 150})
    sim.sensor("source").set(s, 0, true), sim.sensor("source").set(s, 1, true);
  sim.run({exact.roundsToSettle() - 1, exact.roundsToSettle()});
  const HostPlane out = sim.output();
  std::vector<double> early, settled;
  for (std::int64_t d = 0; d < net.devices(); ++d)
    early.push_back(out(d, 0)), settled.push_back(out(d, 1));
  EXPECT_EQ(settled, exact.distance);
  EXPECT_NE(early, exact.distance);
}

// The neural field: 0 at a source, +inf where no source is heard, and its gradient through
// the rounds is the central differences' (the reversal through tanh layers, means and mins).
TYPED_TEST(Programs, NeuralDistanceGradientIsCentralDifferences) {
  lib::NeuralFieldShape shape;
  shape.hidden = {3, 2};
  const TracedProgram program = trace(
      [&](Program& p) { return lib::neuralDistance(p, p.sense<bool>("source"), shape); }, "neural");
  // Edge lengths all differ: no two paths tie, so every min has one slope.
  std::vector<double> x{0, 1.03, 2.11, 0.47, 1.58, 2.62, 9}, y{0, 0.07, -0.05, 0.81, 0.77, 0.86, 9};
  const Network lone = Network::fromPositions(x, y, 1.2);  // device 6 hears no one
  x.pop_back(), y.pop_back();
  const Network net = Network::fromPositions(x, y, 1.2);
  const ShortestPaths exact = shortestPaths(net, {0});
  std::vector<double> w;
  for (const std::vector<double>& layer : lib::neuralInitialParameters(shape, 5))
    w.insert(w.end(), layer.begin(), layer.end());
  auto run = [&](const std::vector<double>& at) {
    diff::BasicGradient<TypeParam> g(program, net, 1);
    for (const ParameterInfo& p : program.parameters) {
      g.parameter(p.name,
                  std::vector<double>(at.begin() + p.offset, at.begin() + p.offset + p.width));
    }
    g.sensor("source").set(0, true);
    HostPlane target("target", net.devices(), 1);
    for (std::int64_t d = 0; d < net.devices(); ++d) target(d, 0) = exact.distance[std::size_t(d)];
    g.target(target);
    return g.run(exact.roundsToSettle() + 3);
  };
  {
    BasicSimulation<TypeParam> sim(program, lone, 1);
    for (const ParameterInfo& p : program.parameters) {
      sim.parameter(p.name,
                    std::vector<double>(w.begin() + p.offset, w.begin() + p.offset + p.width));
    }
    sim.sensor("source").set(0, true);
    sim.run(exact.roundsToSettle() + 3);
    EXPECT_EQ(sim.output()(0, 0), 0.0);
    EXPECT_EQ(sim.output()(6, 0), lib::kInfinity);
  }
  const diff::GradientResult r = run(w);
  ASSERT_TRUE(std::isfinite(r.loss));
  ASSERT_EQ(r.gradient.size(), w.size());
  for (std::size_t i = 0; i < w.size(); ++i) {
    const double h = 1e-6;
    auto plus = w, minus = w;
    plus[i] += h;
    minus[i] -= h;
    const double fd = (run(plus).loss - run(minus).loss) / (2 * h);
    EXPECT_NEAR(r.gradient[i], fd, 1e-6 * (1.0 + std::fabs(fd))) << "parameter value " << i;
  }
}

// Around obstacles: an obstacle outputs 0 and passes nothing on, so the devices behind a wall
// of them are never reached; with no obstacle it is the plain neural field, bit for bit.
TYPED_TEST(Programs, NeuralDistanceGoesRoundObstacles) {
  lib::NeuralFieldShape shape;
  shape.hidden = {4};
  const TracedProgram plain = trace(
      [&](Program& p) { return lib::neuralDistance(p, p.sense<bool>("source"), shape); }, "plain");
  const TracedProgram walled = trace(
      [&](Program& p) {
        return lib::neuralDistance(p, p.sense<bool>("source"), p.sense<bool>("obstacle"), shape);
      },
      "walled");
  const Network net = Network::grid(5, 4);  // a wall down column 2 cuts columns 3 and 4 off
  std::vector<double> w;
  for (const std::vector<double>& layer : lib::neuralInitialParameters(shape, 2))
    w.insert(w.end(), layer.begin(), layer.end());
  auto run = [&](const TracedProgram& program, bool wall) {
    BasicSimulation<TypeParam> sim(program, net, 2);
    for (const ParameterInfo& p : program.parameters) {
      sim.parameter(p.name,
                    std::vector<double>(w.begin() + p.offset, w.begin() + p.offset + p.width));
    }
    sim.sensor("source").set(0, 0, true), sim.sensor("source").set(0, 1, true);
    for (std::int64_t y = 0; y < 4 && wall; ++y) sim.sensor("obstacle").set(y * 5 + 2, 0, true);
    sim.run(12);
    return sim.output();
  };
  const HostPlane open = run(plain, false), around = run(walled, true);
  for (std::int64_t d = 0; d < net.devices(); ++d) {
    EXPECT_EQ(bitsOf(around(d, 1)), bitsOf(open(d, 1))) << d;  // sample 1 has no obstacle
    const std::int64_t column = d % 5;
    const double expected = column == 2 ? 0.0 : column > 2 ? lib::kInfinity : around(d, 0);
    EXPECT_EQ(around(d, 0), expected) << d;
    EXPECT_EQ(std::isfinite(around(d, 0)), column <= 2) << d;
  }
}

TYPED_TEST(Programs, NeuralShapesAreCheckedByLayer) {
  lib::NeuralFieldShape shape;
  shape.hidden = {};
  EXPECT_EQ(errorOf([&] { lib::neuralParameters(shape); }),
            "kfield::lib::neuralParameters: a neural field has 1 to 4 hidden layers, got 0");
  shape.hidden = {8, 65};
  EXPECT_EQ(errorOf([&] { lib::neuralParameters(shape); }),
            "kfield::lib::neuralParameters: hidden layer 2 has 65 units; 1 to 64 are allowed");
  shape.hidden = {4, 2};
  const auto layers = lib::neuralParameters(shape);
  ASSERT_EQ(layers.size(), 3u);
  EXPECT_EQ(layers[0].width(), 3 * 4 + 4);
  EXPECT_EQ(layers[1].width(), 4 * 2 + 2);
  EXPECT_EQ(layers[2].width(), 2 + 1 + 3 + 1);  // h_last, least, the features, the bias
  // The skip path starts as the identity: the weight on `least` (after h_last) is 1.
  EXPECT_EQ(lib::neuralInitialParameters(shape, 3)[2][2], 1.0);
  EXPECT_EQ(lib::neuralInitialParameters(shape, 3), lib::neuralInitialParameters(shape, 3));
  EXPECT_NE(lib::neuralInitialParameters(shape, 3), lib::neuralInitialParameters(shape, 4));
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
