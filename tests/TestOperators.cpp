// Operators on fields and neighbor fields compute, device by device, what the same C++ does
// on the host, to the bit.
#include "support/ErrorOf.hpp"
#include "support/TestSpaces.hpp"

#include <kfield/field/Operators.hpp>
#include <kfield/impl/PortableMath.hpp>
#include <kfield/sim/Simulation.hpp>

#include <cmath>
#include <cstdlib>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace kfield::test {
namespace {

template <class Space>
class Operators : public ::testing::Test {};
TYPED_TEST_SUITE(Operators, Spaces, SpaceNames);

constexpr std::int64_t kDevices = 40, kSamples = 3;

double uniform(int which, std::int64_t d, std::int64_t s) {
  std::mt19937_64 rng(static_cast<std::uint64_t>(which * 100000 + d * 10 + s));
  return std::uniform_real_distribution<double>(-3.0, 3.0)(rng);
}

// x (which 0) and y (which 1) per (device, sample): mixed signs, zeros of both signs, ties.
double sensorValue(int which, std::int64_t d, std::int64_t s) {
  switch ((d * 7 + s * 3 + which * 5) % 8) {
    case 0: return 0.0;
    case 1: return -0.0;
    case 2: return uniform(0, d, s);  // y equals x where both land here
    default: return uniform(which, d, s);
  }
}

template <class Space>
std::vector<double> run(const TracedProgram& program, std::int64_t rounds = 1) {
  const Network net = Network::grid(kDevices, 1);
  BasicSimulation<Space> sim(program, net, kSamples);
  for (std::int64_t d = 0; d < kDevices; ++d) {
    for (std::int64_t s = 0; s < kSamples; ++s) {
      sim.sensor("x").set(d, s, sensorValue(0, d, s));
      sim.sensor("y").set(d, s, sensorValue(1, d, s));
    }
  }
  sim.run(rounds);
  const auto out = sim.output();
  std::vector<double> result;
  for (std::int64_t d = 0; d < kDevices; ++d) {
    for (std::int64_t s = 0; s < kSamples; ++s) result.push_back(out(d, s));
  }
  return result;
}

struct Case {
  std::string name;
  std::function<Field<double>(const Field<double>&, const Field<double>&)> field;
  std::function<double(double, double)> host;
};

// check(got, expected, device, sample) for every device and sample of the case's program,
// against its host function of the same sensor values.
template <class Space, class Check>
void forEachResult(const Case& c, const Check& check) {
  const auto program = trace([&](Program& p) {
    const auto x = p.sense<double>("x");
    return c.field(x, p.sense<double>("y"));
  });
  const auto got = run<Space>(program);
  for (std::int64_t d = 0; d < kDevices; ++d) {
    for (std::int64_t s = 0; s < kSamples; ++s) {
      check(got[static_cast<std::size_t>(d * kSamples + s)],
            c.host(sensorValue(0, d, s), sensorValue(1, d, s)), d, s);
    }
  }
}

TYPED_TEST(Operators, LocalOperatorsMatchTheHost) {
  const std::vector<Case> cases{
      {"x + y", [](auto x, auto y) { return x + y; }, [](double x, double y) { return x + y; }},
      {"x - 2", [](auto x, auto) { return x - 2.0; }, [](double x, double) { return x - 2.0; }},
      {"3 * x / (y + 10)", [](auto x, auto y) { return 3.0 * x / (y + 10.0); },
       [](double x, double y) { return 3.0 * x / (y + 10.0); }},
      {"-x", [](auto x, auto) { return -x; }, [](double x, double) { return -x; }},
      {"min", [](auto x, auto y) { return min(x, y); },
       [](double x, double y) { return y < x ? y : x; }},
      {"max", [](auto x, auto y) { return max(x, y); },
       [](double x, double y) { return x < y ? y : x; }},
      {"abs, sqrt", [](auto x, auto) { return sqrt(abs(x)); },
       [](double x, double) { return std::sqrt(std::fabs(x)); }},
      {"comparisons",
       [](auto x, auto y) {
         return toDouble(x < y) + 2.0 * toDouble(x <= y) + 4.0 * toDouble(x > y) +
                8.0 * toDouble(x >= y) + 16.0 * toDouble(x == y) + 32.0 * toDouble(x != y);
       },
       [](double x, double y) {
         return double(x < y) + 2.0 * (x <= y) + 4.0 * (x > y) + 8.0 * (x >= y) + 16.0 * (x == y) +
                32.0 * (x != y);
       }},
      {"logic and mux",
       [](auto x, auto y) {
         Program& p = x.program();
         return p.mux((x < 0.0 && y > 0.0) || !(x < 1.0), x, y);
       },
       [](double x, double y) { return ((x < 0.0 && y > 0.0) || !(x < 1.0)) ? x : y; }},
  };
  for (const Case& c : cases) {
    forEachResult<TypeParam>(c, [&](double value, double expected, std::int64_t d, std::int64_t s) {
      ASSERT_EQ(bitsOf(value), bitsOf(expected)) << c.name << ", device " << d << ", sample " << s;
    });
  }
}

// Integer operators against a reference written from their definition in 128-bit integers:
// every pair of a set of operands with both signs, zero, the ends of the exact range and
// shift counts inside and outside [0, 63]; NaN wherever the definition says so.
double integerReference(const std::string& op, std::int64_t a, std::int64_t b) {
  using Wide = __int128;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Wide limit = Wide(1) << 53;
  auto fit = [&](Wide r) { return r >= -limit && r <= limit ? double(std::int64_t(r)) : nan; };
  if (op == "/") return b == 0 ? nan : fit(Wide(a) / b);
  if (op == "%") return b == 0 ? nan : fit(Wide(a) % b);
  if (op == "&") return fit(Wide(a & b));
  if (op == "|") return fit(Wide(a | b));
  if (op == "^") return fit(Wide(a ^ b));
  if (b < 0 || b > 63) return nan;
  const Wide scale = Wide(1) << b;
  if (op == "<<") return fit(Wide(a) * scale);
  // >>: the floor of a / 2^b
  return fit(a >= 0 ? Wide(a) / scale : -((-Wide(a) + scale - 1) / scale));
}

// What does not compile: a field of int with a floating-point constant, and neighbor fields
// of int divided (their entries would divide as reals).
template <class A, class B, class = void>
struct Divides : std::false_type {};
template <class A, class B>
struct Divides<A, B, std::void_t<decltype(std::declval<A>() / std::declval<B>())>>
    : std::true_type {};
static_assert(Divides<Field<int>, int>::value && Divides<int, Field<int>>::value);
static_assert(!Divides<Field<int>, double>::value && !Divides<double, Field<int>>::value);
static_assert(Divides<Field<double>, double>::value && Divides<NbrField<double>, double>::value);
static_assert(!Divides<NbrField<int>, NbrField<int>>::value);

TYPED_TEST(Operators, IntegerOperatorsAreExactOrNaN) {
  const std::int64_t e53 = std::int64_t(1) << 53;
  const std::vector<std::int64_t> values{0,
                                         1,
                                         -1,
                                         2,
                                         3,
                                         -3,
                                         7,
                                         -8,
                                         12345,
                                         -12345,
                                         52,
                                         53,
                                         63,
                                         64,
                                         std::int64_t(1) << 40,
                                         -(std::int64_t(1) << 52),
                                         e53 - 1,
                                         e53,
                                         -e53};
  const std::int64_t n = static_cast<std::int64_t>(values.size());
  const Network net = Network::grid(n, 1);
  using Op = std::function<Field<int>(const Field<int>&, const Field<int>&)>;
  const std::vector<std::pair<std::string, Op>> ops{
      {"/", [](auto x, auto y) { return x / y; }},  {"%", [](auto x, auto y) { return x % y; }},
      {"&", [](auto x, auto y) { return x & y; }},  {"|", [](auto x, auto y) { return x | y; }},
      {"^", [](auto x, auto y) { return x ^ y; }},  {"<<", [](auto x, auto y) { return x << y; }},
      {">>", [](auto x, auto y) { return x >> y; }}};
  for (const auto& named : ops) {
    const std::string& name = named.first;
    const Op& f = named.second;  // not a structured binding: lambdas capture it (C++17)
    const auto program =
        trace([&](Program& p) { return toDouble(f(p.sense<int>("x"), p.sense<int>("y"))); });
    BasicSimulation<TypeParam> sim(program, net, n);
    for (std::int64_t d = 0; d < n; ++d) {
      for (std::int64_t s = 0; s < n; ++s) {
        sim.sensor("x").set(d, s, double(values[d]));
        sim.sensor("y").set(d, s, double(values[s]));
      }
    }
    sim.run(1);
    const auto out = sim.output();
    for (std::int64_t d = 0; d < n; ++d) {
      for (std::int64_t s = 0; s < n; ++s) {
        const double expected = integerReference(name, values[d], values[s]), got = out(d, s);
        if (std::isnan(expected)) {
          ASSERT_TRUE(std::isnan(got))
              << values[d] << " " << name << " " << values[s] << " = " << got;
        } else {
          ASSERT_EQ(bitsOf(got), bitsOf(expected)) << values[d] << " " << name << " " << values[s];
        }
      }
    }
  }
  // ~x, constants on either side, and a NaN carried on: (x / 0) & 1.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<
      std::pair<std::function<Field<int>(const Field<int>&)>, std::function<double(std::int64_t)>>>
      unary{{[](auto x) { return ~x; },
             [&](std::int64_t a) { return std::abs(-a - 1) <= e53 ? double(-a - 1) : nan; }},
            {[](auto x) { return 17 % (x + 20) - (x / 4) * 3; },
             [&](std::int64_t a) {
               if (a + 20 > e53) return nan;  // x + 20 leaves the exact range
               const std::int64_t r = 17 % (a + 20) - (a / 4) * 3;
               return std::abs(r) <= e53 ? double(r) : nan;
             }},
            {[](auto x) { return (x / 0) & 1; }, [&](std::int64_t) { return nan; }}};
  for (std::size_t c = 0; c < unary.size(); ++c) {
    const auto program =
        trace([&](Program& p) { return toDouble(unary[c].first(p.sense<int>("x"))); });
    BasicSimulation<TypeParam> sim(program, net, 1);
    for (std::int64_t d = 0; d < n; ++d) sim.sensor("x").set(d, double(values[d]));
    sim.run(1);
    const auto out = sim.output();
    for (std::int64_t d = 0; d < n; ++d) {
      const double expected = unary[c].second(values[d]);
      if (std::isnan(expected)) {
        ASSERT_TRUE(std::isnan(out(d, 0))) << "case " << c << ", x = " << values[d];
      } else {
        ASSERT_EQ(bitsOf(out(d, 0)), bitsOf(expected)) << "case " << c << ", x = " << values[d];
      }
    }
  }
  // An int sensor holds integers: anything else is refused by name.
  const auto program = trace([](Program& p) { return toDouble(p.sense<int>("x") % 3); });
  BasicSimulation<TypeParam> sim(program, net, 1);
  EXPECT_EQ(
      errorOf([&] { sim.sensor("x").set(4, 2.5); }),
      "kfield::Simulation: sensor 'x' is an integer (exact in [-2^53, 2^53]), got 2.5 at device 4");
}

// kfield's own exp, log, tanh, sigmoid and pow (impl/PortableMath.hpp: one code for the host
// and every device, so the same bits everywhere) stay within a few units in the last place of
// the host library's; integer powers are exact repeated squaring; special values as IEEE's.
TYPED_TEST(Operators, SmoothFunctionsAreWithinUnitsInTheLastPlace) {
  namespace pm = impl::portable;
  const std::vector<Case> cases{
      {"exp", [](auto x, auto) { return exp(x * 60.0); },
       [](double x, double) { return std::exp(x * 60.0); }},
      {"log", [](auto x, auto) { return log(abs(x) * 1e5); },
       [](double x, double) { return std::log(std::fabs(x) * 1e5); }},
      {"tanh", [](auto x, auto) { return tanh(x * 3.0); },
       [](double x, double) { return std::tanh(x * 3.0); }},
      {"sigmoid", [](auto x, auto) { return sigmoid(x * 4.0); },
       [](double x, double) { return 1.0 / (1.0 + std::exp(-x * 4.0)); }},
      {"pow", [](auto x, auto y) { return pow(abs(x) + 0.25, y * 5.0); },
       [](double x, double y) { return std::pow(std::fabs(x) + 0.25, y * 5.0); }},
  };
  for (const Case& c : cases) {
    // exp(b log a): the error grows with |b log a| (at most about 18 here)
    const double ulps = c.name == "pow" ? 2e-14 : 4e-16;
    forEachResult<TypeParam>(c, [&](double value, double expected, std::int64_t d, std::int64_t) {
      if (!std::isfinite(expected)) {  // log(0), overflow: the same infinity (or NaN)
        ASSERT_TRUE(value == expected || (std::isnan(value) && std::isnan(expected))) << c.name;
        return;
      }
      ASSERT_NEAR(value, expected, ulps * std::fabs(expected) + 1e-300)
          << c.name << ", device " << d;
    });
  }
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(pm::exp(0.0), 1.0);
  EXPECT_EQ(pm::exp(-inf), 0.0);
  EXPECT_EQ(pm::exp(710.0), inf);
  EXPECT_EQ(pm::exp(-746.0), 0.0);
  EXPECT_GT(pm::exp(-740.0), 0.0);  // subnormal
  EXPECT_EQ(pm::log(1.0), 0.0);
  EXPECT_EQ(pm::log(0.0), -inf);
  EXPECT_TRUE(std::isnan(pm::log(-1.0)));
  EXPECT_NEAR(pm::log(4.9e-324), std::log(4.9e-324), 1e-12);
  EXPECT_EQ(pm::tanh(30.0), 1.0);
  EXPECT_EQ(pm::tanh(-1e-20), -1e-20);
  EXPECT_EQ(pm::pow(1.1, 3.0), 1.1 * (1.1 * 1.1));
  EXPECT_EQ(pm::pow(-2.0, 3.0), -8.0);
  EXPECT_EQ(pm::pow(2.0, -2.0), 0.25);
  EXPECT_TRUE(std::isnan(pm::pow(-2.0, 0.5)));
  EXPECT_EQ(pm::pow(0.0, 0.5), 0.0);
  EXPECT_EQ(pm::pow(0.0, -0.5), inf);
  EXPECT_EQ(pm::pow(-2.0, 2001.0), -inf);
  EXPECT_NEAR(pm::pow(-1.0001, 2001.0), std::pow(-1.0001, 2001.0), 1e-12);
}

// The pointwise functions, comparisons and logic entry by entry, folded in CSR order: the
// bits of the same functions on the host (kfield's own exp, log, tanh, sigmoid, pow).
TYPED_TEST(Operators, NeighborFieldFunctionsMatchTheHost) {
  namespace pm = impl::portable;
  const auto program = trace([](Program& p) {
    const auto x = p.sense<double>("x");
    const auto y = p.sense<double>("y");
    const auto n = p.neighbors(x);
    // Three folds, each a program of its own.
    const auto smooth = (exp(n * 0.5) + sqrt(abs(n)) + log(abs(n) + 1.0)).sum() +
                        (tanh(-n) + sigmoid(n * 2.0)).sum() +
                        (pow(abs(n) + 0.5, y) + pow(abs(n), 2.0)).sum();
    const auto rounded = (floor(n * 3.0) - ceil(n)).sum();
    const auto chosen = p.mux(((n <= y) && !(n > x)) || (n != 0.0 && n >= 1.0), n, 2.0).min();
    const auto flags = (n == y || n < p.neighbors(y)).any();
    return smooth + rounded * 10.0 + chosen * 100.0 + toDouble(flags) * 1000.0;
  });
  const auto got = run<TypeParam>(program, 2);
  for (std::int64_t d = 0; d < kDevices; ++d) {
    for (std::int64_t s = 0; s < kSamples; ++s) {
      const double x = sensorValue(0, d, s), y = sensorValue(1, d, s);
      double smooth1 = 0.0, smooth2 = 0.0, smooth3 = 0.0, rounded = 0.0;
      double chosen = std::numeric_limits<double>::infinity();
      bool flags = false;
      for (std::int64_t j = d - 1; j <= d + 1; ++j) {
        if (j < 0 || j >= kDevices) continue;
        const double v = sensorValue(0, j, s), w = sensorValue(1, j, s);
        smooth1 =
            smooth1 + (pm::exp(v * 0.5) + std::sqrt(std::fabs(v)) + pm::log(std::fabs(v) + 1.0));
        smooth2 = smooth2 + (pm::tanh(-v) + pm::sigmoid(v * 2.0));
        smooth3 = smooth3 + (pm::pow(std::fabs(v) + 0.5, y) + pm::pow(std::fabs(v), 2.0));
        rounded = rounded + (std::floor(v * 3.0) - std::ceil(v));
        const double entry = ((v <= y && !(v > x)) || (v != 0.0 && v >= 1.0)) ? v : 2.0;
        chosen = entry < chosen ? entry : chosen;
        flags = flags || v == y || v < w;
      }
      const double smooth = smooth1 + smooth2 + smooth3;
      const double expected =
          smooth + rounded * 10.0 + chosen * 100.0 + (flags ? 1.0 : 0.0) * 1000.0;
      ASSERT_EQ(bitsOf(got[static_cast<std::size_t>(d * kSamples + s)]), bitsOf(expected))
          << "device " << d << ", sample " << s;
    }
  }
}

// Entry by entry across the neighborhood, folded in CSR order (a line: left, self, right).
TYPED_TEST(Operators, NeighborFieldOperatorsMatchTheHost) {
  const auto program = trace([](Program& p) {
    const auto x = p.sense<double>("x");
    const auto y = p.sense<double>("y");
    const auto n = p.neighbors(x);
    const auto sum = ((n - y) * 2.0 / (n + 10.0)).sum();
    const auto closer = p.mux(n < y, n, 0.0).excludeSelf().max();
    const auto same = p.mux(n == x, n + 1.0, 0.0).sum();
    return sum + toDouble(n.count()) + closer + same;
  });
  const auto got = run<TypeParam>(program, 2);  // round 2: the neighbors' round-1 exports
  for (std::int64_t d = 0; d < kDevices; ++d) {
    for (std::int64_t s = 0; s < kSamples; ++s) {
      const double x = sensorValue(0, d, s), y = sensorValue(1, d, s);
      double sum = 0.0, count = 0.0, same = 0.0;
      double closer = -std::numeric_limits<double>::infinity();
      for (std::int64_t j = d - 1; j <= d + 1; ++j) {
        if (j < 0 || j >= kDevices) continue;
        const double v = sensorValue(0, j, s);
        sum = sum + (v - y) * 2.0 / (v + 10.0);
        count += 1.0;
        same = same + (v == x ? v + 1.0 : 0.0);
        if (j != d) {
          const double entry = v < y ? v : 0.0;
          closer = closer < entry ? entry : closer;
        }
      }
      ASSERT_EQ(bitsOf(got[static_cast<std::size_t>(d * kSamples + s)]),
                bitsOf(sum + count + closer + same))
          << "device " << d << ", sample " << s;
    }
  }
}

// Sums of values whose magnitudes differ by up to 2^60 depend on the order they are added in:
// the engine's must be CSR order, at one sample (the scalar path) and at several.
template <class Space>
void expectSumsInCsrOrder(std::int64_t samples) {
  const Network net = Network::randomGeometric(300, 2.2, 5);
  auto value = [](std::int64_t d, std::int64_t s) {
    const double u = uniform(3, d, s);
    return std::ldexp(u, int(uniform(4, d, s) * 10.0));
  };
  const auto program = trace([](Program& p) {
    const auto n = p.neighbors(p.sense<double>("v"));
    return n.sum() * 3.0 + (n + p.edgeLength()).sum();  // a plain fold and an entry program
  });
  BasicSimulation<Space> sim(program, net, samples);
  for (std::int64_t d = 0; d < net.devices(); ++d) {
    for (std::int64_t s = 0; s < samples; ++s) sim.sensor("v").set(d, s, value(d, s));
  }
  sim.run(2);  // round 2 folds the neighbors' round-1 exports
  const auto out = sim.output();
  std::int64_t orderMatters = 0;
  const auto lengths = net.lengths();
  for (std::int64_t d = 0; d < net.devices(); ++d) {
    const auto row = net.neighborsOf(d);
    for (std::int64_t s = 0; s < samples; ++s) {
      auto fold = [&](auto begin, auto end) {
        double plain = 0.0, entries = 0.0;
        for (auto it = begin; it != end; ++it) {
          const std::int64_t j = *it;
          const std::int64_t k = net.offsets()[d] + (&*it - row.data());
          plain = plain + value(j, s);
          entries = entries + (value(j, s) + lengths[k]);
        }
        return plain * 3.0 + entries;
      };
      const double csr = fold(row.begin(), row.end());
      ASSERT_EQ(bitsOf(out(d, s)), bitsOf(csr)) << "device " << d << ", sample " << s;
      orderMatters += bitsOf(fold(row.rbegin(), row.rend())) != bitsOf(csr);
    }
  }
  EXPECT_GT(orderMatters, net.devices() * samples / 4);  // the reverse order would fail above
}

TYPED_TEST(Operators, SumsFoldInCsrOrder) {
  expectSumsInCsrOrder<TypeParam>(1);
  expectSumsInCsrOrder<TypeParam>(3);
}

// Devices 0-3 on a line, 4-5 a pair, 6 alone: its folds that leave it out are empty.
Network partedLine() {
  return Network::fromPositions({0, 1, 2, 3, 50, 51, 100}, {0, 0, 0, 0, 0, 0, 0}, 1.0);
}

template <class Space>
std::vector<double> booleanFolds() {
  const Network net = partedLine();
  const auto program = trace([](Program& p) {
    const auto b = p.neighbors(p.sense<bool>("b")).excludeSelf();
    const Field<bool> any = b.any(), all = b.all();
    // 1 any, 2 all, 4 !any, 8 any && all, 16 any || all, in one number.
    auto bit = [&](const Field<bool>& c, double v) { return p.mux(c, p.constant(v), 0.0); };
    return bit(any, 1) + bit(all, 2) + bit(!any, 4) + bit(any && all, 8) + bit(any || all, 16);
  });
  BasicSimulation<Space> sim(program, net, 1);
  for (std::int64_t d : {1, 2, 4, 5}) sim.sensor("b").set(d, true);
  sim.run(2);
  return sampleOf(sim.output());
}

TYPED_TEST(Operators, BooleanFoldsAreFalseOrTrueWhenEmpty) {
  // b: 0 1 1 0 | 1 1 | 0. Device 0 hears 1 (all), 3 hears 2 (all), 1 hears 0 and 2 (some).
  const std::vector<double> expected{
      1 + 2 + 8 + 16, 1 + 16,         1 + 16,    1 + 2 + 8 + 16,
      1 + 2 + 8 + 16, 1 + 2 + 8 + 16, 2 + 4 + 16};  // alone: any false, all true
  EXPECT_EQ(booleanFolds<TypeParam>(), expected);
}

}  // namespace
}  // namespace kfield::test
