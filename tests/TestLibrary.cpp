// The coordination library against exact references computed on the host.
#include "support/FieldReference.hpp"
#include "support/TestSpaces.hpp"

#include <kfield/field/Library.hpp>
#include <kfield/impl/Bits.hpp>
#include <kfield/sim/Simulation.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <string>
#include <vector>

namespace kfield::test {
namespace {

template <class Space>
class Library : public ::testing::Test {};
TYPED_TEST_SUITE(Library, Spaces, SpaceNames);

template <class Space, class Build>
std::vector<double> stableOutput(Build&& build, const Network& net,
                                 const std::map<std::string, std::vector<double>>& sensors,
                                 std::int64_t rounds = 0) {
  BasicSimulation<Space> sim(trace(build), net, 1);
  for (const auto& [name, values] : sensors) {
    for (std::int64_t d = 0; d < net.devices(); ++d) sim.sensor(name).set(d, values[d]);
  }
  if (rounds > 0) {
    sim.run(rounds);
  } else {
    sim.runUntilStable(100000);
  }
  return sampleOf(sim.output());
}

std::vector<double> indicator(std::int64_t n, const std::vector<std::int64_t>& on) {
  std::vector<double> v(n, 0.0);
  for (auto d : on) v[d] = 1.0;
  return v;
}

TYPED_TEST(Library, BroadcastCarriesTheNearestSourcesValue) {
  const Network net = Network::grid(25, 18);
  const std::vector<std::int64_t> sources{0, 230, 449};
  std::vector<double> value(net.devices(), 0.0);
  value[0] = 10, value[230] = 20, value[449] = 5;
  const auto out = stableOutput<TypeParam>(
      [](Program& p) {
        return lib::broadcast(p, p.sense<bool>("source"), p.sense<double>("value"));
      },
      net, {{"source", indicator(net.devices(), sources)}, {"value", value}});
  std::vector<std::vector<double>> dist;
  for (auto s : sources) dist.push_back(dijkstra(net, {s}));
  for (std::int64_t d = 0; d < net.devices(); ++d) {
    double best = lib::kInfinity, expected = lib::kInfinity;
    for (std::size_t k = 0; k < sources.size(); ++k) {
      if (dist[k][d] < best || (dist[k][d] == best && value[sources[k]] < expected)) {
        best = dist[k][d], expected = value[sources[k]];
      }
    }
    ASSERT_EQ(out[d], expected) << "device " << d;
  }
}

TYPED_TEST(Library, CollectSumsCountsAndExtremesAtTheSource) {
  const Network net = Network::randomGeometric(1500, 1.7, 21);
  const auto hops = bfsHops(net, {0});
  std::vector<double> value(net.devices());
  for (std::int64_t d = 0; d < net.devices(); ++d) value[d] = double((d * 37) % 101) - 50.0;
  double total = 0, lowest = lib::kInfinity, highest = -lib::kInfinity, reached = 0;
  for (std::int64_t d = 0; d < net.devices(); ++d) {
    if (hops[d] == lib::kInfinity) continue;
    total += value[d], lowest = std::min(lowest, value[d]), highest = std::max(highest, value[d]);
    ++reached;
  }
  const std::map<std::string, std::vector<double>> sensors{
      {"source", indicator(net.devices(), {0})}, {"value", value}};
  auto at0 = [&](auto build) { return stableOutput<TypeParam>(build, net, sensors)[0]; };
  EXPECT_EQ(at0([](Program& p) {
              return lib::collectSum(p, p.sense<bool>("source"), p.sense<double>("value"));
            }),
            total);  // integers: exact in any order
  EXPECT_EQ(stableOutput<TypeParam>(
                [](Program& p) { return lib::collectCount(p, p.sense<bool>("source")); }, net,
                {{"source", indicator(net.devices(), {0})}})[0],
            reached);
  EXPECT_EQ(at0([](Program& p) {
              return lib::collectMin(p, p.sense<bool>("source"), p.sense<double>("value"));
            }),
            lowest);
  EXPECT_EQ(at0([](Program& p) {
              return lib::collectMax(p, p.sense<bool>("source"), p.sense<double>("value"));
            }),
            highest);
}

// Multi-path collection replayed round by round on the host, with the same operations in the
// same order (round 1 hears no neighbor): what each device collected after `rounds` rounds.
// sum: equal parts to the nearer neighbors; else the largest value, whole to each.
std::vector<double> collectMultiPathRef(const Network& net, const std::vector<double>& dist,
                                        const std::vector<double>& value, bool sum,
                                        std::int64_t rounds) {
  const auto& offsets = net.offsets();
  const auto& neighbors = net.neighbors();
  const std::int64_t n = net.devices();
  std::vector<double> collected(value), sent(n);
  for (std::int64_t r = 1; r <= rounds; ++r) {
    std::vector<double> next(n), nextSent(n);
    for (std::int64_t d = 0; d < n; ++d) {
      double acc = sum ? 0.0 : -lib::kInfinity, nearer = 0.0;
      for (std::int64_t k = offsets[d]; r > 1 && k < offsets[d + 1]; ++k) {
        const std::int64_t j = neighbors[k];
        if (j == d) continue;
        const double part = dist[j] > dist[d] ? sent[j] : (sum ? 0.0 : -lib::kInfinity);
        acc = sum ? acc + part : std::max(acc, part);
        nearer = nearer + (dist[j] < dist[d] ? 1.0 : 0.0);
      }
      next[d] = sum ? value[d] + acc : std::max(value[d], acc);
      nextSent[d] = sum ? next[d] / std::max(nearer, 1.0) : next[d];
    }
    collected.swap(next), sent.swap(nextSent);
  }
  return collected;
}

// Every round the bits of the host replay; settled, the sources hold the sum (to rounding:
// parts are divided) and the largest value of the devices that reach them.
TYPED_TEST(Library, CollectMultiPathMatchesAHostLoopAndConservesTheSum) {
  for (const Network& net : {Network::randomGeometric(600, 1.6, 7), Network::grid(17, 13, 8)}) {
    const std::vector<std::int64_t> sources = {5, net.devices() - 9};
    const std::vector<double> dist = dijkstra(net, sources);
    std::vector<double> value(net.devices());
    double total = 0.0, highest = -lib::kInfinity;
    for (std::int64_t d = 0; d < net.devices(); ++d) {
      value[d] = 1.0 + 0.5 * std::sin(0.61 * double(d));
      if (dist[d] < lib::kInfinity) total += value[d], highest = std::max(highest, value[d]);
    }
    const std::map<std::string, std::vector<double>> sensors{{"distance", dist}, {"value", value}};
    for (const bool sum : {true, false}) {
      const auto build = [sum](Program& p) {
        const Field<double> distance = p.sense<double>("distance"), v = p.sense<double>("value");
        return sum ? lib::collectMultiPathSum(p, distance, v)
                   : lib::collectMultiPathMax(p, distance, v);
      };
      for (const std::int64_t rounds : {1, 2, 5, 90}) {
        const std::vector<double> out = stableOutput<TypeParam>(build, net, sensors, rounds);
        const std::vector<double> expected = collectMultiPathRef(net, dist, value, sum, rounds);
        for (std::int64_t d = 0; d < net.devices(); ++d) {
          ASSERT_EQ(impl::bitsOf(out[d]), impl::bitsOf(expected[d]))
              << net.description() << ", " << (sum ? "sum" : "max") << ", round " << rounds
              << ", device " << d;
        }
        if (rounds < 90) continue;
        if (sum) {
          EXPECT_NEAR(out[sources[0]] + out[sources[1]], total, 1e-12 * total) << net.description();
        } else {
          EXPECT_EQ(std::max(out[sources[0]], out[sources[1]]), highest) << net.description();
        }
      }
    }
  }
  // Min, and the gradient computed in the program: settled, the single source holds the
  // smallest value of all.
  const Network net = Network::randomGeometric(400, 1.7, 2);
  std::vector<double> value(net.devices());
  for (std::int64_t d = 0; d < net.devices(); ++d) value[d] = double((d * 53) % 97);
  const std::vector<double> out = stableOutput<TypeParam>(
      [](Program& p) {
        const Field<bool> source = p.sense<bool>("source");
        return lib::collectMultiPathMin(p, lib::distanceGradient(p, source),
                                        p.sense<double>("value"));
      },
      net, {{"source", indicator(net.devices(), {3})}, {"value", value}});
  const std::vector<double> hops = bfsHops(net, {3});
  double lowest = lib::kInfinity;
  for (std::int64_t d = 0; d < net.devices(); ++d) {
    if (hops[d] < lib::kInfinity) lowest = std::min(lowest, value[d]);
  }
  EXPECT_EQ(out[3], lowest);
}

TYPED_TEST(Library, ElectionLeadersAreSmallestIdsOfTheirBalls) {
  const Network net = Network::randomGeometric(800, 1.6, 4);
  const int radius = 3;
  const auto out =
      stableOutput<TypeParam>([&](Program& p) { return lib::election(p, radius); }, net, {});
  std::vector<bool> leader(net.devices());
  for (std::int64_t d = 0; d < net.devices(); ++d) {
    const auto hops = bfsHops(net, {d});
    bool smallest = true;
    for (std::int64_t e = 0; e < d; ++e) smallest = smallest && hops[e] > radius;
    leader[d] = smallest;
  }
  std::vector<std::int64_t> leaders;
  for (std::int64_t d = 0; d < net.devices(); ++d) {
    if (leader[d]) leaders.push_back(d);
  }
  ASSERT_FALSE(leaders.empty());
  std::vector<std::vector<double>> dist;
  for (auto l : leaders) dist.push_back(dijkstra(net, {l}));
  for (std::int64_t d = 0; d < net.devices(); ++d) {
    double best = lib::kInfinity, expected = lib::kInfinity;
    for (std::size_t k = 0; k < leaders.size(); ++k) {
      if (dist[k][d] < best) best = dist[k][d], expected = double(leaders[k]);
    }
    ASSERT_EQ(out[d], expected) << "device " << d;
  }
}

TYPED_TEST(Library, GossipFindsTheExtremesOfEachConnectedPart) {
  const Network net = Network::randomGeometric(600, 1.2, 8);  // sparse: several parts
  std::vector<double> value(net.devices());
  for (std::int64_t d = 0; d < net.devices(); ++d) value[d] = std::sin(double(d));
  const auto maxima = stableOutput<TypeParam>(
      [](Program& p) { return lib::gossipMax(p, p.sense<double>("value")); }, net,
      {{"value", value}});
  const auto minima = stableOutput<TypeParam>(
      [](Program& p) { return lib::gossipMin(p, p.sense<double>("value")); }, net,
      {{"value", value}});
  for (std::int64_t d = 0; d < net.devices(); ++d) {
    const auto hops = bfsHops(net, {d});
    double hi = -lib::kInfinity, lo = lib::kInfinity;
    for (std::int64_t e = 0; e < net.devices(); ++e) {
      if (hops[e] != lib::kInfinity) hi = std::max(hi, value[e]), lo = std::min(lo, value[e]);
    }
    ASSERT_EQ(maxima[d], hi) << d;
    ASSERT_EQ(minima[d], lo) << d;
  }
}

TYPED_TEST(Library, ConsensusKeepsTheMeanAndConverges) {
  const Network net = Network::grid(8, 8, 8);
  std::vector<double> value(net.devices());
  for (std::int64_t d = 0; d < net.devices(); ++d) value[d] = double(d % 7);
  const double mean = std::accumulate(value.begin(), value.end(), 0.0) / double(value.size());
  const auto out = stableOutput<TypeParam>(
      [](Program& p) { return lib::consensus(p, p.sense<double>("value"), 0.1); }, net,
      {{"value", value}}, 2000);
  for (std::int64_t d = 0; d < net.devices(); ++d) EXPECT_NEAR(out[d], mean, 1e-9) << d;
}

TYPED_TEST(Library, TimerAndDecayCountByRound) {
  const Network net = Network::grid(2, 1);
  const auto t = stableOutput<TypeParam>([](Program& p) { return lib::timer(p, 5.0); }, net, {}, 3);
  EXPECT_EQ(t[0], 2.0);
  const auto t9 =
      stableOutput<TypeParam>([](Program& p) { return lib::timer(p, 5.0); }, net, {}, 9);
  EXPECT_EQ(t9[1], 0.0);
  const auto v = stableOutput<TypeParam>(
      [](Program& p) { return lib::decay(p, p.constant(8.0), 0.5); }, net, {}, 3);
  EXPECT_EQ(v[0], 1.0);  // 8 * 0.5^3
}

// The channel goes round an obstacle wall: inside it devices are never in the channel, and
// the channel's devices lie on shortest paths of the free network.
TYPED_TEST(Library, ChannelAvoidsObstacles) {
  const std::int64_t w = 15, h = 9;
  const Network net = Network::grid(w, h);
  std::vector<double> obstacle(net.devices(), 0.0);
  for (std::int64_t y = 0; y < 7; ++y) obstacle[y * w + 7] = 1.0;  // a wall with a gap on top
  const std::int64_t source = 4 * w + 1, destination = 4 * w + 13;
  const auto out = stableOutput<TypeParam>(
      [](Program& p) {
        return toDouble(lib::channel(p, p.sense<bool>("source"), p.sense<bool>("destination"),
                                     p.sense<bool>("obstacle"), 0.5));
      },
      net,
      {{"source", indicator(net.devices(), {source})},
       {"destination", indicator(net.devices(), {destination})},
       {"obstacle", obstacle}});
  EXPECT_EQ(out[source], 1.0);
  EXPECT_EQ(out[destination], 1.0);
  EXPECT_EQ(out[7 * w + 7], 1.0);  // through the gap
  for (std::int64_t y = 0; y < 7; ++y) EXPECT_EQ(out[y * w + 7], 0.0) << "wall row " << y;
  // On a 4-neighbor grid every cell on some shortest path (18 steps round the wall) is in,
  // and cells off them are out.
  EXPECT_EQ(out[4 * w + 3], 1.0);   // 2 + 16
  EXPECT_EQ(out[0 * w + 1], 0.0);   // 4 + 22
  EXPECT_EQ(out[1 * w + 10], 0.0);  // 18 + 6, behind the wall
}

// Devices 0-4 on a line, 5-6 a pair, 7 alone: only the line holds the source.
Network partedNetwork() {
  return Network::fromPositions({0, 1, 2, 3, 4, 50, 51, 100}, std::vector<double>(8, 0.0), 1.0);
}

TYPED_TEST(Library, BroadcastKeepsAValueOfItsOwnWhereNoSourceReaches) {
  const Network net = partedNetwork();
  const std::vector<double> value{10, 11, 12, 13, 14, 15, 16, 17};
  const std::map<std::string, std::vector<double>> sensors{{"source", indicator(8, {0})},
                                                           {"value", value}};
  const auto own = stableOutput<TypeParam>(
      [](Program& p) {
        return lib::broadcast(p, p.sense<bool>("source"), p.sense<double>("value"));
      },
      net, sensors);
  EXPECT_EQ(own, (std::vector<double>{10, 10, 10, 10, 10, 15, 16, 17}));
  const auto given = stableOutput<TypeParam>(
      [](Program& p) {
        return lib::broadcast(p, p.sense<bool>("source"), p.sense<double>("value"),
                              p.constant(-1.0));
      },
      net, sensors);
  EXPECT_EQ(given, (std::vector<double>{10, 10, 10, 10, 10, -1, -1, -1}));
}

template <class Space>
std::vector<double> channel(const Network& net, const std::vector<double>& source,
                            const std::vector<double>& destination) {
  return stableOutput<Space>(
      [](Program& p) {
        return toDouble(lib::channel(p, p.sense<bool>("source"), p.sense<bool>("destination"),
                                     p.sense<bool>("obstacle"), 0.5));
      },
      net,
      {{"source", source},
       {"destination", destination},
       {"obstacle", std::vector<double>(net.devices(), 0.0)}});
}

// The channel holds only devices that reach both ends: not the parts cut off from them, not
// a lone device, and nothing when there is no source or no destination.
TYPED_TEST(Library, ChannelIsEmptyWhereAnEndIsUnreachable) {
  const Network net = partedNetwork();
  EXPECT_EQ(channel<TypeParam>(net, indicator(8, {0}), indicator(8, {3})),
            (std::vector<double>{1, 1, 1, 1, 0, 0, 0, 0}));
  const std::vector<double> none(8, 0.0);
  EXPECT_EQ(channel<TypeParam>(net, none, indicator(8, {3})), none);
  EXPECT_EQ(channel<TypeParam>(net, indicator(8, {0}), none), none);
  EXPECT_EQ(channel<TypeParam>(net, indicator(8, {0}), indicator(8, {6})), none);
}

}  // namespace
}  // namespace kfield::test
