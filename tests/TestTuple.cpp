// Tuple fields: shared, remembered, exported and folded whole, against host loops, to the bit.
#include "support/ErrorOf.hpp"
#include "support/FieldReference.hpp"
#include "support/TestSpaces.hpp"

#include <kfield/diff/FieldContribution.hpp>
#include <kfield/diff/Gradient.hpp>
#include <kfield/field/Library.hpp>
#include <kfield/sim/Simulation.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

namespace kfield::test {
namespace {

template <class Space>
class Tuples : public ::testing::Test {};
TYPED_TEST_SUITE(Tuples, Spaces, SpaceNames);

constexpr double kInf = std::numeric_limits<double>::infinity();

// Small integers with many ties, so later components decide often.
double tied(int which, std::int64_t d, std::int64_t s) {
  std::uint64_t h = std::uint64_t(d) * 0x9E3779B97F4A7C15ull ^
                    std::uint64_t(s) * 0xC2B2AE3D27D4EB4Full ^
                    std::uint64_t(which + 1) * 0x165667B19E3779F9ull;
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9ull;
  h ^= h >> 32;
  return double(h % std::uint64_t(3 + which));
}

template <class Space>
HostPlane runOn(const TracedProgram& program, const Network& net, std::int64_t samples,
                std::int64_t rounds) {
  BasicSimulation<Space> sim(program, net, samples);
  for (const SensorInfo& sensor : program.sensors) {
    const int which = sensor.name == "x" ? 0 : sensor.name == "y" ? 1 : 2;
    for (std::int64_t d = 0; d < net.devices(); ++d) {
      for (std::int64_t s = 0; s < samples; ++s) {
        double v = tied(which, d, s);
        if (sensor.type == SensorType::Bool) v = double(int(v) % 2);
        sim.sensor(sensor.name).set(d, s, v);
      }
    }
  }
  sim.run(rounds);
  return sim.output();
}

// The host's lexicographic extreme over a device's neighborhood (its CSR row, which holds the
// device itself, skipped when excluded).
std::vector<double> lexicographicRef(const Network& net, std::int64_t d, std::int64_t s, bool max,
                                     bool excludeSelf, int width) {
  std::vector<double> best(static_cast<std::size_t>(width), max ? -kInf : kInf);
  bool any = false;
  auto consider = [&](std::int64_t j) {
    std::vector<double> v;
    for (int c = 0; c < width; ++c) {
      double x = tied(c, j, s);
      if (c == 2) x = double(int(x) % 2);  // the bool component
      v.push_back(x);
    }
    if (!any || (max ? v > best : v < best)) best = v;
    any = true;
  };
  for (std::int64_t j : net.neighborsOf(d)) {
    if (j != d || !excludeSelf) consider(j);
  }
  return best;
}

// Folded in one pass (RoundKernel::lexicographicFold; one sample and several take different
// loops), the same bits as component by component.
template <class Space>
void expectLexicographicFolds(const Network& net, std::int64_t kSamples) {
  for (const bool max : {false, true}) {
    for (const bool exclude : {false, true}) {
      const auto program = trace([&](Program& p) {
        const auto t = p.tuple(p.sense<double>("x"), p.sense<int>("y"), p.sense<bool>("z"));
        auto n = p.neighbors(t);
        if (exclude) n = n.excludeSelf();
        return max ? n.max() : n.min();
      });
      ASSERT_EQ(program.outputWidth, 3);
      const HostPlane out = runOn<Space>(program, net, kSamples, 2);  // neighbors' round-1 exports
      ASSERT_EQ(out.extent(0), std::size_t(3 * net.devices()));
      for (std::int64_t d = 0; d < net.devices(); ++d) {
        for (std::int64_t s = 0; s < kSamples; ++s) {
          const auto expected = lexicographicRef(net, d, s, max, exclude, 3);
          for (int c = 0; c < 3; ++c) {
            ASSERT_EQ(bitsOf(out(c * net.devices() + d, s)), bitsOf(expected[c]))
                << (max ? "max" : "min") << (exclude ? " excluding self" : "") << ", device " << d
                << ", sample " << s << ", component " << c;
          }
        }
      }
    }
  }
}

TYPED_TEST(Tuples, NeighborTuplesFoldLexicographically) {
  for (const std::int64_t samples : {1, 3}) {
    expectLexicographicFolds<TypeParam>(Network::grid(9, 7), samples);
    expectLexicographicFolds<TypeParam>(Network::randomGeometric(300, 1.8, 12), samples);
  }
}

// Inside a branch a tuple's exports are conditional: a device folds only the neighbors that
// took its side (each component's export checked).
TYPED_TEST(Tuples, FoldsInsideABranchSeeOnlyTheirSide) {
  const Network net = Network::randomGeometric(300, 1.8, 5);
  constexpr std::int64_t kSamples = 2;
  const auto program = trace([](Program& p) {
    const auto x = p.sense<double>("x");
    const auto y = toDouble(p.sense<int>("y"));
    return p.branch(
        x < 1.5, [&] { return p.neighbors(p.tuple(x, y)).excludeSelf().min(); },
        [&] { return p.neighbors(p.tuple(y, x)).max(); });
  });
  const HostPlane out = runOn<TypeParam>(program, net, kSamples, 2);
  const std::int64_t n = net.devices();
  for (std::int64_t d = 0; d < n; ++d) {
    for (std::int64_t s = 0; s < kSamples; ++s) {
      const bool left = tied(0, d, s) < 1.5;
      std::tuple<double, double> best{left ? kInf : -kInf, left ? kInf : -kInf};
      for (std::int64_t j : net.neighborsOf(d)) {
        if ((tied(0, j, s) < 1.5) != left || (left && j == d)) continue;
        const std::tuple<double, double> v = left ? std::make_tuple(tied(0, j, s), tied(1, j, s))
                                                  : std::make_tuple(tied(1, j, s), tied(0, j, s));
        if (left ? v < best : best < v) best = v;
      }
      EXPECT_EQ(bitsOf(out(d, s)), bitsOf(std::get<0>(best))) << "device " << d << ", sample " << s;
      EXPECT_EQ(bitsOf(out(n + d, s)), bitsOf(std::get<1>(best)))
          << "device " << d << ", sample " << s;
    }
  }
}

// FCPP's nbr of a tuple: every entry what was sent last round, the device's own too (init in
// its first round).
TYPED_TEST(Tuples, NbrOfATupleSeesWhatWasSentLastRound) {
  const Network net = Network::grid(7, 1);
  const auto program = trace([](Program& p) {
    const auto x = p.sense<double>("x");
    return p.nbr(p.tuple(p.constant(-1.0), p.constant(-2.0)), p.tuple(x, x * 2.0)).min();
  });
  const HostPlane first = runOn<TypeParam>(program, net, 1, 1);
  for (std::int64_t d = 0; d < 7; ++d) {
    EXPECT_EQ(first(d, 0), -1.0);
    EXPECT_EQ(first(7 + d, 0), -2.0);
  }
  const HostPlane later = runOn<TypeParam>(program, net, 1, 3);
  for (std::int64_t d = 0; d < 7; ++d) {
    double lowest = kInf;
    for (std::int64_t j = std::max<std::int64_t>(d - 1, 0); j <= std::min<std::int64_t>(d + 1, 6);
         ++j) {
      lowest = std::min(lowest, tied(0, j, 0));
    }
    EXPECT_EQ(later(d, 0), lowest) << "device " << d;
    EXPECT_EQ(later(7 + d, 0), lowest * 2.0) << "device " << d;
  }
}

// An isolated device excluding itself folds nothing: +inf (min) in every component.
TYPED_TEST(Tuples, AnEmptyFoldIsTheIdentityInEveryComponent) {
  const Network net = Network::grid(1, 1);
  const auto program = trace([](Program& p) {
    const auto n = p.neighbors(p.tuple(p.sense<double>("x"), p.sense<double>("y"))).excludeSelf();
    const auto lo = n.min(), hi = n.max();
    return p.tuple(get<0>(lo), get<1>(lo), get<0>(hi), get<1>(hi));
  });
  const HostPlane out = runOn<TypeParam>(program, net, 1, 2);
  EXPECT_EQ(out(0, 0), kInf);
  EXPECT_EQ(out(1, 0), kInf);
  EXPECT_EQ(out(2, 0), -kInf);
  EXPECT_EQ(out(3, 0), -kInf);
}

// A remembered (count, total) pair and a vector scaled and added, round by round.
TYPED_TEST(Tuples, RememberKeepsEveryComponent) {
  const Network net = Network::grid(5, 4);
  const auto program = trace([](Program& p) {
    const auto x = p.sense<double>("x");
    const auto kept = p.remember(p.tuple(p.constant(0), p.constant(0.0)), [&](const auto& t) {
      return p.tuple(get<0>(t) + 1, get<1>(t) + x);
    });
    const Field<Vec<2>> v = p.tuple(x, toDouble(get<0>(kept)));
    const auto moved = v * 0.5 + v - v * p.constant(0.25);
    return p.tuple(toDouble(get<0>(kept)), get<1>(kept), get<0>(moved), get<1>(moved));
  });
  constexpr std::int64_t kRounds = 6;
  const HostPlane out = runOn<TypeParam>(program, net, 2, kRounds);
  const std::int64_t n = net.devices();
  for (std::int64_t d = 0; d < n; ++d) {
    for (std::int64_t s = 0; s < 2; ++s) {
      const double x = tied(0, d, s);
      double total = 0.0;
      for (int k = 0; k < kRounds; ++k) total = total + x;
      const double count = double(kRounds);
      EXPECT_EQ(bitsOf(out(d, s)), bitsOf(count));
      EXPECT_EQ(bitsOf(out(n + d, s)), bitsOf(total));
      EXPECT_EQ(bitsOf(out(2 * n + d, s)), bitsOf(x * 0.5 + x - x * 0.25));
      EXPECT_EQ(bitsOf(out(3 * n + d, s)), bitsOf(count * 0.5 + count - count * 0.25));
    }
  }
}

// Each component of a tuple share (and of a neighbors call) is an export plane of its own,
// under the call's path; a branch and a mux take tuples whole.
TYPED_TEST(Tuples, ComponentsArePlanesUnderTheCallsPath) {
  const auto program = trace([](Program& p) {
    const auto x = p.sense<double>("x");
    const auto pair = p.share(p.tuple(x, p.constant(1)), [&](const auto& n) { return n.min(); });
    const auto chosen = p.branch(
        x < 1.0, [&] { return pair; }, [&] { return p.tuple(x * 2.0, p.constant(5)); });
    return p.neighbors(chosen).max();
  });
  ASSERT_EQ(program.exports.size(), 4u);
  EXPECT_EQ(program.exports[0].path, "share@0/@0");
  EXPECT_EQ(program.exports[1].path, "share@0/@1");
  EXPECT_EQ(program.exports[2].path, "neighbors@2/@0");
  EXPECT_EQ(program.exports[3].path, "neighbors@2/@1");
  EXPECT_EQ(outputPlanes(program), (std::vector<std::string>{"output/@0", "output/@1"}));

  // On a line the tuple (x, 1) is shared and folded to its minimum: after enough rounds
  // every device holds the line's smallest x; the branch's right side doubles x.
  const Network net = Network::grid(12, 1);
  const HostPlane out = runOn<TypeParam>(program, net, 1, 30);
  double smallest = kInf;
  for (std::int64_t d = 0; d < 12; ++d) smallest = std::min(smallest, tied(0, d, 0));
  for (std::int64_t d = 0; d < 12; ++d) {
    std::tuple<double, double> best{-kInf, -kInf};
    for (std::int64_t j = std::max<std::int64_t>(d - 1, 0); j <= std::min<std::int64_t>(d + 1, 11);
         ++j) {
      const double x = tied(0, j, 0);
      const std::tuple<double, double> here = x < 1.0 ? std::tuple<double, double>{smallest, 1.0}
                                                      : std::tuple<double, double>{x * 2.0, 5.0};
      if (here > best) best = here;
    }
    EXPECT_EQ(out(d, 0), std::get<0>(best)) << "device " << d;
    EXPECT_EQ(out(12 + d, 0), std::get<1>(best)) << "device " << d;
  }
}

// The G block on tuples: the nearest source's value (the smallest among equally near ones),
// against Dijkstra from every source.
template <class Space>
void expectGradientCast(const Network& net, const std::vector<std::int64_t>& sources) {
  std::vector<double> value(static_cast<std::size_t>(net.devices()));
  for (std::int64_t d = 0; d < net.devices(); ++d) value[d] = double((d * 13) % 17);
  const auto program = trace([](Program& p) {
    return lib::gradientCast(p, p.sense<bool>("source"), p.sense<double>("value"));
  });
  BasicSimulation<Space> sim(program, net, 1);
  for (std::int64_t d = 0; d < net.devices(); ++d) {
    sim.sensor("value").set(d, value[d]);
    sim.sensor("source").set(d, 0.0);
  }
  for (auto s : sources) sim.sensor("source").set(s, 1.0);
  sim.runUntilStable(100000);
  const auto out = sampleOf(sim.output());
  std::vector<std::vector<double>> dist;
  for (auto s : sources) dist.push_back(dijkstra(net, {s}));
  for (std::int64_t d = 0; d < net.devices(); ++d) {
    double best = kInf, expected = value[d];  // unreached: its own value
    for (std::size_t k = 0; k < sources.size(); ++k) {
      if (dist[k][d] == kInf) continue;
      if (dist[k][d] < best || (dist[k][d] == best && value[sources[k]] < expected)) {
        best = dist[k][d], expected = value[sources[k]];
      }
    }
    ASSERT_EQ(bitsOf(out[d]), bitsOf(expected))
        << "device " << d << ": " << out[d] << " vs " << expected << " at " << best;
  }
}

TYPED_TEST(Tuples, GradientCastCarriesTheNearestSourcesValue) {
  expectGradientCast<TypeParam>(Network::grid(25, 18), {0, 230, 449});
  expectGradientCast<TypeParam>(Network::randomGeometric(1200, 1.3, 8), {3, 600, 1100});
}

// A tuple output's loss is the sum over its components: the gradient of the first component
// of a (distance, value) share equals the plain distance gradient's, bit for bit.
TYPED_TEST(Tuples, GradientsFlowThroughTupleSharesAndOutputs) {
  const Network net = Network::grid(20, 20);
  auto gradientOf = [&](const TracedProgram& program) {
    diff::BasicGradient<TypeParam> g(program, net, 2);
    g.parameter("scale", {1.25});
    for (std::int64_t d = 0; d < net.devices(); ++d) {
      for (std::int64_t s = 0; s < 2; ++s)
        g.sensor("source").set(d, s, d == 7 * (s + 1) ? 1.0 : 0.0);
    }
    g.loss(diff::Loss::Output);
    return g.run(15).sampleGradient;
  };
  const auto plain = gradientOf(trace([](Program& p) {
    return lib::distanceGradient(p, p.sense<bool>("source"), p.parameter("scale"));
  }));
  const auto paired = gradientOf(trace([](Program& p) {
    const auto source = p.sense<bool>("source");
    const auto scale = p.parameter("scale");
    const auto t = p.share(p.tuple(p.constant(kInf), p.constant(0.0)), [&](const auto& n) {
      const auto best = p.tuple(get<0>(n) + p.edgeLength() * scale, get<1>(n)).excludeSelf().min();
      return p.mux(source, p.tuple(p.constant(0.0), p.constant(0.0)), best);
    });
    return p.tuple(get<0>(t), get<1>(t) * 0.0);  // the second component adds nothing
  }));
  // A tuple output's target has its rows; the learner's scenario, its words.
  const auto pair = trace(
      [](Program& p) { return lib::nearestSource(p, p.sense<bool>("source"), p.constant(1.0)); });
  diff::BasicGradient<TypeParam> g(pair, net, 2);
  EXPECT_EQ(errorOf([&] { g.target(HostPlane("t", 400, 2)); }),
            "kfield::diff::Gradient: the target is 400 x 2, expected (output width x devices) x "
            "samples = 800 x 2");
  EXPECT_EQ(diff::fieldSampleWidth(pair, net), 1 + 3 * 400);
  EXPECT_EQ(errorOf([&] {
              diff::fieldSample(pair, net, 3, {{"source", std::vector<double>(400, 0.0)}},
                                std::vector<double>(400, 0.0));
            }),
            "kfield::diff::fieldSample: the target has 400 values for 400 devices x 2 output "
            "components");
  ASSERT_EQ(plain.size(), paired.size());
  for (std::size_t s = 0; s < plain.size(); ++s) {
    ASSERT_EQ(plain[s].size(), 1u);
    EXPECT_EQ(bitsOf(paired[s][0]), bitsOf(plain[s][0])) << "sample " << s;
    EXPECT_NE(plain[s][0], 0.0);
  }
}

}  // namespace
}  // namespace kfield::test
