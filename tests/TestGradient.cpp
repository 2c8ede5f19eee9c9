#include "support/ErrorOf.hpp"
#include "support/FieldReference.hpp"
#include "support/ProcessPrograms.hpp"
#include "support/ReverseTestPrograms.hpp"
#include "support/TempFolder.hpp"
#include "support/TestSpaces.hpp"

#include <kfield/Config.hpp>
#if KFIELD_ENABLE_HDF5
#include <kfield/io/Spill.hpp>
#endif
#include <kfield/diff/Gradient.hpp>
#include <kfield/field/Library.hpp>

#include <cmath>
#include <fstream>
#include <functional>
#include <vector>

namespace kfield::test {
namespace {

template <class Space>
class Gradient : public ::testing::Test {};
TYPED_TEST_SUITE(Gradient, Spaces, SpaceNames);

template <class Space>
using Grad = diff::BasicGradient<Space>;

// The distance gradient over edge lengths scaled by a learnable factor.
TracedProgram scaledDistance() {
  return trace(
      [](Program& p) {
        return lib::distanceGradient(p, p.sense<bool>("source"), p.parameter("scale"));
      },
      "scaled_distance");
}

// Stop rounds around a window of 16, in no order: 0, 1, S, W, W +- 1, kW +- 1.
const std::vector<std::int64_t> kStops{17, 0, 47, 1, 16, 49, 15, 33, 31, 50};

TYPED_TEST(Gradient, AffineRecurrenceHasItsClosedForm) {
  const Network one = Network::grid(1, 1);
  const auto n = static_cast<std::int64_t>(kStops.size());
  Grad<TypeParam> g(affineRecurrence(), one, n);
  g.parameter("a", {0.5}).parameter("b", {1.0}).loss(diff::Loss::Output).differentiate("x0");
  g.sensor("x0").fill(1.0);
  diff::GradientOptions o;
  o.window = 16;
  const auto r = g.run(kStops, o);
  for (std::int64_t s = 0; s < n; ++s) {
    const std::int64_t S = kStops[s];
    // x_S = 0.5^S + 2 - 2^(1-S) = 2 - 0.5^S; dL/dx0 = 0.5^S; dL/db = 2 - 2^(1-S): exact.
    const double half = std::ldexp(1.0, -static_cast<int>(S));
    EXPECT_EQ(bitsOf(r.sampleLoss[s]), bitsOf(S == 0 ? 0.0 : 2.0 - half)) << "stop " << S;
    EXPECT_EQ(bitsOf(r.sensorGradient.at("x0")(0, s)), bitsOf(S == 0 ? 0.0 : half)) << "stop " << S;
    EXPECT_EQ(bitsOf(r.sampleGradient[s][1]), bitsOf(S == 0 ? 0.0 : 2.0 - 2.0 * half))
        << "stop " << S;
    // dL/da = sum_k a^(S-1-k) x_k, x_k = 2 - 0.5^k: compared to the same sum in that order.
    double dA = 0.0, x = 1.0, power = 1.0;
    std::vector<double> terms;
    for (std::int64_t k = 0; k < S; ++k) {
      terms.push_back(x);
      x = 0.5 * x + 1.0;
    }
    for (std::int64_t k = S - 1; k >= 0; --k) {
      dA += power * terms[k];
      power *= 0.5;
    }
    EXPECT_NEAR(r.sampleGradient[s][0], dA, 1e-14) << "stop " << S;
  }
  // a = 1: x_S = x0 + S b, dL/dx0 = 1, dL/db = S, dL/da = sum_k x_k.
  g.parameter("a", {1.0});
  const auto unit = g.run(kStops, o);
  for (std::int64_t s = 0; s < n; ++s) {
    const double S = static_cast<double>(kStops[s]);
    EXPECT_EQ(unit.sensorGradient.at("x0")(0, s), kStops[s] == 0 ? 0.0 : 1.0);
    EXPECT_EQ(unit.sampleGradient[s][1], S);
    EXPECT_EQ(unit.sampleGradient[s][0], S * (S - 1) / 2 + S);  // sum_{k<S} (1 + k)
  }
}

TYPED_TEST(Gradient, ScheduleCountsRoundsCheckpointsAndVjps) {
  const Network one = Network::grid(1, 1);
  const auto n = static_cast<std::int64_t>(kStops.size());
  Grad<TypeParam> g(affineRecurrence(), one, n);
  g.parameter("a", {0.5}).parameter("b", {1.0}).loss(diff::Loss::Output);
  g.sensor("x0").fill(1.0);
  for (std::int64_t W : {1, 7, 16, 50, 64}) {
    for (diff::Tape tape : {diff::Tape::Carry, diff::Tape::Values}) {
      diff::GradientOptions o;
      o.window = W;
      o.tape = tape;
      o.compiledReverse = false;  // the interpreted schedule (TestCompiledReverse: the compiled)
      const auto r = g.run(kStops, o);
      const std::int64_t windows = (50 + W - 1) / W;
      EXPECT_EQ(r.schedule.recordedRounds, 50);
      EXPECT_EQ(r.schedule.checkpoints, windows);
      EXPECT_EQ(r.schedule.maxTapeRows, std::min<std::int64_t>(W, 50));
      // Values: each round once more, into the tape. Carry: each window's rounds but its last
      // for their carries, then every round for its values.
      EXPECT_EQ(r.schedule.recomputedRounds, tape == diff::Tape::Values ? 50 : 2 * 50 - windows);
      std::int64_t sampleRounds = 0;
      for (auto s : kStops) sampleRounds += s;
      EXPECT_EQ(r.schedule.vjps, sampleRounds);  // none for finished samples
    }
  }
}

TYPED_TEST(Gradient, BadInputIsRefusedByName) {
  const Network net = Network::grid(3, 3);
  EXPECT_EQ(errorOf([&] { Grad<TypeParam>(scaledDistance(), net, 0); }),
            "kfield::diff::Gradient: samples must be >= 1, got 0");
  Grad<TypeParam> g(scaledDistance(), net, 2);
  const std::string who = "kfield::diff::Gradient: ";
  EXPECT_EQ(errorOf([&] { g.sensor("x"); }),
            who + "program 'scaled_distance' reads no sensor named 'x'");
  EXPECT_EQ(errorOf([&] { g.differentiate("x"); }),
            who + "program 'scaled_distance' reads no sensor named 'x'");
  EXPECT_EQ(errorOf([&] { g.sensor("source").set(9, true); }),
            who + "sensor 'source': device 9 is not in [0, 9)");
  EXPECT_EQ(errorOf([&] { g.sensor("source").set(0, 2, true); }),
            who + "sensor 'source': sample 2 is not in [0, 2)");
  EXPECT_EQ(errorOf([&] { g.sensor("source").set(1, 0, 2.5); }),
            who + "sensor 'source' is boolean (0 or 1), got 2.5 at device 1");
  EXPECT_EQ(errorOf([&] { g.run(3); }),
            who + "program 'scaled_distance': parameter 'scale' is not set");
  EXPECT_EQ(errorOf([&] {
              g.parameter("scale", {1.0, 2.0});
            }),
            who + "parameter 'scale' has width 1, got 2 values");
  EXPECT_EQ(errorOf([&] { g.parameter("rate", {1.0}); }),
            who + "program 'scaled_distance' has no parameter named 'rate'");
  g.parameter("scale", {1.0});
  EXPECT_EQ(errorOf([&] { g.target(HostPlane("t", 9, 3)); }),
            who + "the target is 9 x 3, expected devices x samples = 9 x 2");
  EXPECT_EQ(errorOf([&] { g.run(std::vector<std::int64_t>{3}); }),
            who + "run: 1 stop rounds for 2 samples");
  EXPECT_EQ(errorOf([&] {
              g.run(std::vector<std::int64_t>{3, -1});
            }),
            who + "run: sample 1 stops at round -1 (must be >= 0)");
  diff::GradientOptions o;
  o.window = -1;
  EXPECT_EQ(errorOf([&] { g.run(3, o); }), who + "window must be >= 1 (0: the default), got -1");
  o = {};
  o.budgetBytes = -5;
  EXPECT_EQ(errorOf([&] { g.run(3, o); }), who + "budget must be >= 0 bytes (0: no limit), got -5");
  o.budgetBytes = 100;
  EXPECT_EQ(errorOf([&] { g.run(3, o); }),
            who + "a budget of 100 B holds no pass: one sample needs " +
                kfield::impl::bytesText(g.bytesPerSample(3)));
  o.budgetBytes = static_cast<std::int64_t>(g.bytesPerSample(3));
  o.leaf = 3;
  EXPECT_NE(errorOf([&] { g.run(3, o); }).find("power of two"), std::string::npos);
  EXPECT_EQ(g.run(3).gradient.size(), 1u);  // and after all that, it still runs
}

TYPED_TEST(Gradient, ScaledDistanceGradientIsTheSumOfDistances) {
  const Network net = Network::grid(12, 9);
  const auto hops = bfsHops(net, {40});
  double sum = 0.0;
  for (double h : hops) sum += h;
  Grad<TypeParam> g(scaledDistance(), net, 2);
  g.parameter("scale", {1.5}).loss(diff::Loss::Output);
  g.sensor("source").set(40, true);
  const auto r = g.run(40);
  EXPECT_EQ(r.gradient[0], 2 * sum);
  EXPECT_EQ(r.sampleLoss[0], 1.5 * sum);
}

struct Case {
  TracedProgram program;
  Network network;
};

// A budget of `samples` samples' bytes, for runs of up to `longest` rounds.
template <class Space>
std::int64_t budgetOf(const Case& c, std::int64_t samples, std::int64_t longest,
                      std::int64_t window) {
  return static_cast<std::int64_t>(
             Grad<Space>(c.program, c.network, 1).bytesPerSample(longest, window)) *
         samples;
}

template <class Space>
diff::GradientResult runCase(const Case& c, std::int64_t samples,
                             const std::vector<std::int64_t>& stops, const std::vector<double>& w,
                             diff::GradientOptions o = {}) {
  Grad<Space> g(c.program, c.network, samples);
  g.parameter("w", w);
  for (std::int64_t s = 0; s < samples; ++s) {
    for (std::int64_t d = 0; d < c.network.devices(); ++d) {
      g.sensor("x").set(d, s, std::sin(0.37 * double(d) + 1.3 * double(s)));
    }
  }
  HostPlane target("target", c.network.devices(), samples);
  for (std::int64_t d = 0; d < c.network.devices(); ++d) {
    for (std::int64_t s = 0; s < samples; ++s) target(d, s) = 0.1 * double((d + s) % 5);
  }
  g.target(target);
  return g.run(stops, o);
}

Case neuralCase() { return {neuralConsensus(), Network::randomGeometric(60, 0.25, 3)}; }

// Central differences, and a Taylor remainder that decays as the square of the step.
TYPED_TEST(Gradient, NonlinearProgramMatchesFiniteDifferences) {
  const Case c = neuralCase();
  const std::vector<std::int64_t> stops{9, 4, 12};
  const std::vector<double> w{0.3, -0.2, 0.4};
  const auto r = runCase<TypeParam>(c, 3, stops, w);
  for (std::size_t i = 0; i < w.size(); ++i) {
    const double h = 1e-5;
    auto plus = w, minus = w;
    plus[i] += h;
    minus[i] -= h;
    const double fd =
        (runCase<TypeParam>(c, 3, stops, plus).loss - runCase<TypeParam>(c, 3, stops, minus).loss) /
        (2 * h);
    EXPECT_NEAR(r.gradient[i], fd, 1e-7 * (1.0 + std::fabs(fd))) << "parameter " << i;
  }
  const std::vector<double> v{0.7, -0.4, 0.5};
  double slope = 0.0;
  for (std::size_t i = 0; i < v.size(); ++i) slope += r.gradient[i] * v[i];
  std::vector<double> remainders;
  for (double eps : {1e-2, 5e-3, 2.5e-3}) {
    auto moved = w;
    for (std::size_t i = 0; i < v.size(); ++i) moved[i] += eps * v[i];
    remainders.push_back(
        std::fabs(runCase<TypeParam>(c, 3, stops, moved).loss - r.loss - eps * slope));
  }
  EXPECT_NEAR(remainders[0] / remainders[1], 4.0, 0.4);
  EXPECT_NEAR(remainders[1] / remainders[2], 4.0, 0.4);
}

void expectSameBits(const diff::GradientResult& a, const diff::GradientResult& b,
                    const std::string& what) {
  EXPECT_EQ(bitsOf(a.loss), bitsOf(b.loss)) << what;
  for (std::size_t i = 0; i < a.gradient.size(); ++i) {
    EXPECT_EQ(bitsOf(a.gradient[i]), bitsOf(b.gradient[i])) << what << ", parameter " << i;
  }
  for (std::size_t s = 0; s < a.sampleGradient.size(); ++s) {
    for (std::size_t i = 0; i < a.sampleGradient[s].size(); ++i) {
      ASSERT_EQ(bitsOf(a.sampleGradient[s][i]), bitsOf(b.sampleGradient[s][i]))
          << what << ", sample " << s;
    }
  }
}

TYPED_TEST(Gradient, WindowedIsTheStoreEverythingTapeBitForBit) {
  const Case c = neuralCase();
  const std::int64_t W = 4;
  for (std::int64_t S : {1, 3, 4, 5, 8, 9}) {
    const std::vector<std::int64_t> stops{S, S > 1 ? S - 1 : 0, S, 1, 0};
    diff::GradientOptions all;
    all.window = S;  // one window: the whole run on the tape
    const auto full = runCase<TypeParam>(c, 5, stops, {0.3, -0.2, 0.4}, all);
    for (std::int64_t window : {std::int64_t(1), W, S + 3}) {
      for (diff::Tape tape : {diff::Tape::Carry, diff::Tape::Values}) {
        diff::GradientOptions o;
        o.window = window;
        o.tape = tape;
        expectSameBits(full, runCase<TypeParam>(c, 5, stops, {0.3, -0.2, 0.4}, o),
                       "S " + std::to_string(S) + ", window " + std::to_string(window) +
                           (tape == diff::Tape::Values ? ", values on the tape" : ""));
      }
    }
  }
}

TYPED_TEST(Gradient, ChunkedIsUnchunkedBitForBit) {
  const Case c = neuralCase();
  const std::vector<std::int64_t> stops{7, 3, 9, 9, 0, 5, 2, 8};
  const auto whole = runCase<TypeParam>(c, 8, stops, {0.3, -0.2, 0.4});
  EXPECT_EQ(whole.schedule.passes, 1);
  diff::GradientOptions o;
  o.window = 4;
  for (std::int64_t budgetSamples : {1, 2, 4}) {
    // The bytes of budgetSamples samples (a pass costs the same per sample).
    diff::GradientOptions chunked = o;
    chunked.budgetBytes = budgetOf<TypeParam>(c, budgetSamples, 9, 4) + 100;
    const auto r = runCase<TypeParam>(c, 8, stops, {0.3, -0.2, 0.4}, chunked);
    EXPECT_EQ(r.schedule.samplesPerPass, budgetSamples);
    EXPECT_EQ(r.schedule.passes, 8 / budgetSamples);
    expectSameBits(whole, r, "budget of " + std::to_string(budgetSamples) + " samples");
  }
}

#if KFIELD_ENABLE_HDF5
// Window checkpoints spilled to an HDF5 file: the same bits as in memory, always or when the
// budget says so (a budget just short of 4 samples in memory, so passes of 2, holds passes of
// 4 spilled); the file is gone afterwards.
TYPED_TEST(Gradient, SpilledCheckpointsGiveTheSameBits) {
  const Case c = neuralCase();
  const std::vector<std::int64_t> stops{7, 3, 9, 9, 0, 5, 2, 8};
  const auto whole = runCase<TypeParam>(c, 8, stops, {0.3, -0.2, 0.4});
  TempFolder dir;
  for (std::int64_t window : {1, 3, 4}) {
    diff::GradientOptions o;
    o.window = window;
    o.spill = io::spillStore(dir.path());
    o.spillAlways = true;
    const auto spilled = runCase<TypeParam>(c, 8, stops, {0.3, -0.2, 0.4}, o);
    EXPECT_GT(spilled.schedule.spilledBytes, 0);
    expectSameBits(whole, spilled, "spilled, window " + std::to_string(window));
  }
  diff::GradientOptions o;
  o.window = 3;
  o.spill = io::spillStore(dir.path());
  o.budgetBytes = budgetOf<TypeParam>(c, 4, 9, 3) - 1;
  diff::GradientOptions inMemory = o;
  inMemory.spill = nullptr;
  EXPECT_EQ(runCase<TypeParam>(c, 8, stops, {0.3, -0.2, 0.4}, inMemory).schedule.samplesPerPass, 2);
  const auto overBudget = runCase<TypeParam>(c, 8, stops, {0.3, -0.2, 0.4}, o);
  EXPECT_GT(overBudget.schedule.spilledBytes, 0);
  EXPECT_EQ(overBudget.schedule.samplesPerPass, 4);
  expectSameBits(whole, overBudget, "spilled because of the budget");
  o.budgetBytes = 0;  // no budget: nothing to spill for
  EXPECT_EQ(runCase<TypeParam>(c, 8, stops, {0.3, -0.2, 0.4}, o).schedule.spilledBytes, 0);
  EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << "a spill file was left behind";
}
#endif

// The same bits on every backend and thread count: a golden value, computed once.
TYPED_TEST(Gradient, BitsAreTheSameOnEveryBackend) {
  const Case c = neuralCase();
  const auto r = runCase<TypeParam>(c, 3, {9, 4, 12}, {0.3, -0.2, 0.4});
  std::uint64_t hash = bitsOf(r.loss);
  for (double x : r.gradient) hash = hash * 1099511628211ull ^ bitsOf(x);
  EXPECT_EQ(hash, 5419229546794154046ull) << std::hexfloat << r.loss << " " << r.gradient[0] << " "
                                          << r.gradient[1] << " " << r.gradient[2];
}

// A directed network: arcs with lengths, some devices heard by many, some by none.
Network arcs() {
  const std::string path = ::testing::TempDir() + "kfield_gradient_arcs.txt";
  {
    std::ofstream out(path);
    for (int d = 0; d < 12; ++d) {
      out << d << " " << (d * 5 + 1) % 12 << " " << 0.5 + 0.1 * d << "\n";
      if (d % 3 == 0) out << d << " " << (d + 2) % 12 << "\n";
      if (d % 4 == 1) out << (d + 6) % 12 << " " << d << " 2\n";
    }
  }
  return Network::fromEdgeList(path, true);
}

using Body = std::function<Field<double>(Program&, const Field<double>&, const Field<double>&)>;

// <J v, w> = <v, J^T w> for one operation: J^T w from the reverse (w seeds the output, the
// sensors x and y differentiated), J v by central differences along v.
template <class Space>
void dotProductTest(const std::string& name, const Body& body, const Network& net,
                    const std::vector<std::int64_t>& stops = {3, 2}) {
  const TracedProgram program = trace(
      [&](Program& p) {
        const Field<double> x = p.sense<double>("x"), y = p.sense<double>("y");
        return body(p, x, y) * p.sense<double>("w");
      },
      name);
  const std::int64_t D = net.devices(), B = 2;
  auto input = [&](int which, std::int64_t d, std::int64_t s) {
    return std::sin(1.7 * double(d) + 0.9 * double(s) + 2.3 * which) * (which == 2 ? 1.0 : 0.8);
  };
  auto run = [&](double h) {
    Grad<Space> g(program, net, B);
    g.loss(diff::Loss::Output).differentiate("x").differentiate("y");
    for (std::int64_t d = 0; d < D; ++d) {
      for (std::int64_t s = 0; s < B; ++s) {
        g.sensor("x").set(d, s, input(0, d, s) + h * input(3, d, s));
        g.sensor("y").set(d, s, input(1, d, s) + h * input(4, d, s));
        g.sensor("w").set(d, s, input(2, d, s));
      }
    }
    return g.run(stops);
  };
  const auto r = run(0.0);
  double dot = 0.0;
  for (std::int64_t d = 0; d < D; ++d) {
    for (std::int64_t s = 0; s < B; ++s) {
      dot += input(3, d, s) * r.sensorGradient.at("x")(d, s) +
             input(4, d, s) * r.sensorGradient.at("y")(d, s);
    }
  }
  const double h = 1e-6;
  const double fd = (run(h).loss - run(-h).loss) / (2 * h);
  EXPECT_NEAR(dot, fd, 1e-6 * (1.0 + std::fabs(fd))) << name;
  EXPECT_NE(dot, 0.0) << name << ": no gradient flowed";
}

TYPED_TEST(Gradient, EveryOperationsVjpPassesTheDotProductTest) {
  using F = Field<double>;
  const std::vector<std::pair<std::string, Body>> cases{
      {"neg", [](Program&, const F& x, const F&) { return -x; }},
      {"abs", [](Program&, const F& x, const F&) { return abs(x - 0.1); }},
      {"sqrt", [](Program&, const F& x, const F&) { return sqrt(x * x + 1.0); }},
      {"exp", [](Program&, const F& x, const F&) { return exp(x); }},
      {"log", [](Program&, const F& x, const F&) { return log(x * x + 0.5); }},
      {"tanh", [](Program&, const F& x, const F& y) { return tanh(x * y * 2.0); }},
      {"sigmoid", [](Program&, const F& x, const F&) { return sigmoid(x * 3.0); }},
      {"pow", [](Program&, const F& x, const F& y) { return pow(x * x + 0.5, y); }},
      {"pow.integer", [](Program&, const F& x, const F&) { return pow(x, 3.0); }},
      {"add.sub", [](Program&, const F& x, const F& y) { return (x + y) - y * 3.0; }},
      {"mul.div", [](Program&, const F& x, const F& y) { return x * y / (y * y + 1.0); }},
      {"min.max", [](Program&, const F& x, const F& y) { return min(x, y) + max(x * 2.0, y); }},
      {"mux", [](Program& p, const F& x, const F& y) { return p.mux(x < y, x * y, x + y); }},
      {"remember",
       [](Program& p, const F& x, const F& y) {
         return p.remember(x, [&](F r) { return r * 0.5 + y * tanh(r); });
       }},
      {"share.sum.local",
       [](Program& p, const F& x, const F& y) {
         return p.share(
             x, [&](const NbrField<double>& n) { return (n * y).sum() * 0.3 + n.self() * 0.5; });
       }},
      {"share.min.length",
       [](Program& p, const F& x, const F& y) {
         return p.share(x, [&](const NbrField<double>& n) {
           return min((n + p.edgeLength() * y).excludeSelf().min(), x + 3.0);
         });
       }},
      {"share.max",
       [](Program& p, const F& x, const F& y) {
         return p.share(x, [&](const NbrField<double>& n) { return max((n * y).max(), x - 3.0); });
       }},
      {"neighbors.div", [](Program& p, const F& x,
                           const F& y) { return (p.neighbors(x * y) / (y * y + 1.0)).sum(); }},
      {"neighbors.two.planes",
       [](Program& p, const F& x, const F& y) { return (p.neighbors(x) * p.neighbors(y)).sum(); }},
      {"neighbors.self",
       [](Program& p, const F& x, const F& y) { return p.neighbors(x).self() * y; }},
      {"neighbors.mux",
       [](Program& p, const F& x, const F& y) {
         return p.mux(p.neighbors(x) < y, p.neighbors(x) * y, 0.5).sum();
       }},
      {"neighbors.exp.sqrt.log",
       [](Program& p, const F& x, const F& y) {
         const auto n = p.neighbors(x * y);
         return (exp(n * 0.5) + sqrt(n * n + 1.0) + log(n * n + 0.5)).sum();
       }},
      {"neighbors.tanh.sigmoid.neg.abs",
       [](Program& p, const F& x, const F& y) {
         const auto n = p.neighbors(x);
         return (tanh(n * y) - sigmoid(-n) * abs(n - 0.1)).sum();
       }},
      {"neighbors.pow",
       [](Program& p, const F& x, const F& y) {
         const auto n = p.neighbors(x);
         return (pow(n * n + 0.5, y) + pow(n, 3.0) + pow(n * n + 1.0, p.neighbors(y))).sum();
       }},
      {"neighbors.floor.compare",
       [](Program& p, const F& x, const F& y) {
         const auto n = p.neighbors(x);
         return p.mux(n >= y && !(n > x * 2.0), n * floor(y * 3.0), n * y).sum();
       }},
      {"count",
       [](Program& p, const F& x, const F&) { return toDouble(p.neighbors(x).count()) * x; }},
      {"branch",
       [](Program& p, const F& x, const F& y) {
         return p.branch(
             x < 0.05, [&] { return p.neighbors(x * y).sum(); },
             [&] {
               return p.share(y, [&](const NbrField<double>& n) {
                 return (n - y).excludeSelf().sum() * 0.2 + y;
               });
             });
       }},
      {"branch.remember",
       [](Program& p, const F& x, const F& y) {
         return p.branch(
             x < 0.05, [&] { return p.remember(x, [&](F r) { return r * 0.5 + y * y; }); },
             [&] { return p.neighbors(y).min() * 2.0; });
       }},
  };
  const Network directed = arcs(), grid = Network::grid(4, 3, 8);
  for (const auto& [name, body] : cases) {
    dotProductTest<TypeParam>(name, body, directed);
    dotProductTest<TypeParam>(name + " (grid)", body, grid);
  }
}

// Exchanges and processes (symmetric networks only): what each device sent each neighbor
// (sends, receptions, own entries to neighbors not aligned, branches, the library's
// collection), and neighbor reads inside processes held in different slots.
TYPED_TEST(Gradient, ExchangeAndSpawnVjpsPassTheDotProductTest) {
  using F = Field<double>;
  using N = NbrField<double>;
  const std::vector<std::pair<std::string, Body>> cases{
      {"nbr.field",
       [](Program& p, const F& x, const F& y) {
         return (p.nbr(x, p.neighbors(x) * y + p.edgeLength()) * y).sum();
       }},
      {"exchange.sum",
       [](Program& p, const F& x, const F& y) {
         return p.exchange(x, [&](const N& n) { return n * y * 0.5 + p.neighbors(x * x); }).sum();
       }},
      {"exchange.min",
       [](Program& p, const F& x, const F& y) {
         const auto sent =
             p.exchange(x, [&](const N& n) { return min(n, p.neighbors(y)) + x * 0.25; });
         return sent.excludeSelf().min() + sent.self();
       }},
      {"exchange.branch",
       [](Program& p, const F& x, const F& y) {
         return p.branch(
             x < 0.05, [&] { return p.exchange(y, [&](const N& n) { return n * x + 1.0; }).sum(); },
             [&] { return p.nbr(x, p.neighbors(y) - y).max(); });
       }},
      {"collectWeighted",
       [](Program& p, const F& x, const F& y) {
         return lib::collectWeighted(p, abs(x) * 3.0, 1.5, y * y);
       }},
      // Processes launched by devices 0 (round 1) and 5 (round 2): their neighbor reads find
      // each neighbor's copy by key, and so do their adjoints.
      {"spawn", [](Program& p, const F& x, const F& y) { return launchedProcesses(p, x, y, 5); }},
      {"spawn.pairs",
       [](Program& p, const F& x, const F& y) { return pairKeyedProcesses(p, x, y, 5); }},
  };
  const Network grid = Network::grid(4, 3, 8), rgg = Network::randomGeometric(30, 1.6, 4);
  for (const auto& [name, body] : cases) {
    dotProductTest<TypeParam>(name + " (grid)", body, grid, {6, 4});
    dotProductTest<TypeParam>(name + " (rgg)", body, rgg, {6, 4});
  }
}

}  // namespace
}  // namespace kfield::test
