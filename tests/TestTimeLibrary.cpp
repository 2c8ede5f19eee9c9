// The library's blocks in time (Library.hpp): countdown and decay on each device's clock, the
// shared clock, and the BIS gradient, in synchronous rounds (closed forms, a host reference of
// every round, bit for bit) and on schedules (the time the schedule says).
#include "support/FieldReference.hpp"
#include "support/LibraryRuns.hpp"
#include "support/TestSpaces.hpp"

#include <kfield/field/Library.hpp>
#include <kfield/impl/Bits.hpp>
#include <kfield/sim/Simulation.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace kfield::test {
namespace {

template <class Space>
class TimeLibrary : public ::testing::Test {};
TYPED_TEST_SUITE(TimeLibrary, Spaces, SpaceNames);

constexpr double kInf = std::numeric_limits<double>::infinity();

TracedProgram clocks() {
  return trace([](Program& p) {
    const auto v = p.sense<double>("v");
    return p.tuple(lib::countdown(p, 5.0), lib::decayInTime(p, v, 0.25), lib::sharedClock(p),
                   p.time());
  });
}

TYPED_TEST(TimeLibrary, InRoundsCountdownDecayAndTheSharedClockFollowTheRounds) {
  const Network net = Network::grid(6, 4);
  const std::int64_t n = net.devices();
  BasicSimulation<TypeParam> sim(clocks(), net, 2);
  for (std::int64_t d = 0; d < n; ++d) {
    for (std::int64_t s = 0; s < 2; ++s) sim.sensor("v").set(d, s, double(d + s + 1));
  }
  for (int r = 0; r < 9; ++r) {
    sim.run(1);
    const HostPlane out = sim.output();
    for (std::int64_t d = 0; d < n; ++d) {
      for (std::int64_t s = 0; s < 2; ++s) {
        EXPECT_EQ(out(d, s), std::max(5.0 - r, 0.0)) << d << ", round " << r;
        const double decayed = double(d + s + 1) * std::exp(-0.25 * r);
        EXPECT_NEAR(out(n + d, s), decayed, 1e-14 * decayed) << d << ", round " << r;
        EXPECT_EQ(out(2 * n + d, s), double(r)) << d << ", round " << r;
      }
    }
  }
}

// On a schedule: the countdown is what is left of 5 since the device's first firing, and the
// shared clock lies between the device's own time since its first firing and the time since
// the first firing of all; once news has crossed the network, it is the latter.
TYPED_TEST(TimeLibrary, OnASchedulesTheyReadTheDevicesClocks) {
  const Network net = Network::grid(7, 5);
  const std::int64_t n = net.devices(), samples = 2;
  const Schedule schedule{0.5, 0.4, 13};
  BasicSimulation<TypeParam> sim(clocks(), net, samples, schedule);
  sim.sensor("v").fill(3.0);
  for (int chunk = 0; chunk < 8; ++chunk) {
    sim.run(chunk == 0 ? 1 : 5);
    const HostPlane out = sim.output(), fired = sim.firings();
    for (std::int64_t s = 0; s < samples; ++s) {
      double start = kInf;
      for (std::int64_t d = 0; d < n; ++d) start = std::min(start, schedule.firingTime(0, d, s));
      for (std::int64_t d = 0; d < n; ++d) {
        const auto k = static_cast<std::int64_t>(fired(d, s));
        if (k == 0) continue;
        const double first = schedule.firingTime(0, d, s), last = schedule.firingTime(k - 1, d, s);
        EXPECT_EQ(out(3 * n + d, s), last);
        EXPECT_NEAR(out(d, s), std::max(5.0 - (last - first), 0.0), 1e-12) << d;
        const double clock = out(2 * n + d, s);
        EXPECT_GE(clock, last - first - 1e-12) << d;
        EXPECT_LE(clock, last - start + 1e-12) << d;
        if (chunk >= 4) {
          EXPECT_NEAR(clock, last - start, 1e-12) << d << ", sample " << s;
        }
      }
    }
  }
}

// The BIS gradient, every round against a host reference of its rule, bit for bit.
std::vector<std::pair<double, double>> bisRound(const Network& net, const std::vector<char>& source,
                                                const std::vector<std::pair<double, double>>& was,
                                                double speed, bool first) {
  const std::vector<double> lengths = net.lengths();
  std::vector<std::pair<double, double>> now(was.size());
  for (std::int64_t d = 0; d < net.devices(); ++d) {
    std::pair<double, double> best{kInf, kInf};
    for (std::int64_t k = net.offsets()[d]; k < net.offsets()[d + 1]; ++k) {
      const std::int32_t j = net.neighbors()[k];
      if (j == d || first) continue;  // in the first round nothing is heard
      const double age = was[j].second + 1.0;
      const std::pair<double, double> c{std::max(was[j].first + lengths[k], age * speed), age};
      if (c < best) best = c;
    }
    now[d] = source[d]           ? std::make_pair(0.0, 0.0)
             : best.first < kInf ? best
                                 : std::make_pair(kInf, 0.0);
  }
  return now;
}

TYPED_TEST(TimeLibrary, TheBisGradientFollowsItsRuleEveryRound) {
  const Network net = Network::randomGeometric(300, 1.5, 4);
  const std::int64_t n = net.devices();
  for (const double speed : {0.0, 0.7, 1.5}) {
    const auto program =
        trace([speed](Program& p) { return lib::bisGradient(p, p.sense<bool>("source"), speed); });
    BasicSimulation<TypeParam> sim(program, net, 1);
    std::vector<char> source(n, 0);
    source[0] = source[n - 1] = 1;
    for (std::int64_t d = 0; d < n; ++d) sim.sensor("source").set(d, source[d] != 0);
    std::vector<std::pair<double, double>> host(n, {kInf, 0.0});
    for (int r = 0; r < 40; ++r) {
      if (r == 20) {  // a source fails
        source[0] = 0;
        sim.sensor("source").set(0, false);
      }
      host = bisRound(net, source, host, speed, r == 0);
      sim.run(1);
      const HostPlane out = sim.output();
      for (std::int64_t d = 0; d < n; ++d) {
        ASSERT_TRUE(sameBits(out(d, 0), host[d].first))
            << "speed " << speed << ", round " << r << ", device " << d << ": " << out(d, 0)
            << " vs " << host[d].first;
      }
    }
  }
}

// At speed 0 it is distanceGradient; after a source fails it settles in far fewer rounds than
// distanceGradient, whose estimates rise by about two short edges a round (the rising value
// problem), where BIS's rise at `speed`.
TYPED_TEST(TimeLibrary, TheBisGradientHealsFasterThanTheDistanceGradient) {
  const Network net = Network::randomGeometric(600, 1.5, 9);
  const std::int64_t n = net.devices();
  const auto bis =
      trace([](Program& p) { return lib::bisGradient(p, p.sense<bool>("source"), 1.5); });
  const auto slow =
      trace([](Program& p) { return lib::bisGradient(p, p.sense<bool>("source"), 0.0); });
  const auto plain =
      trace([](Program& p) { return lib::distanceGradient(p, p.sense<bool>("source")); });
  auto healing = [&](const TracedProgram& program, HostPlane* settled) {
    BasicSimulation<TypeParam> sim(program, net, 1);
    sim.sensor("source").set(0, true);
    sim.sensor("source").set(n - 1, true);
    sim.runUntilStable(5000);
    sim.sensor("source").set(0, false);
    const std::int64_t rounds = sim.runUntilStable(100000)[0];
    if (settled) *settled = sim.output();
    return rounds;
  };
  HostPlane a, b;
  healing(slow, &a);
  healing(plain, &b);
  for (std::int64_t d = 0; d < n; ++d) ASSERT_TRUE(sameBits(a(d, 0), b(d, 0))) << d;
  const std::vector<double> truth = dijkstra(net, {n - 1});
  for (std::int64_t d = 0; d < n; ++d) ASSERT_EQ(b(d, 0), truth[d]) << d;
  const std::int64_t bisRounds = healing(bis, nullptr), plainRounds = healing(plain, nullptr);
  EXPECT_LT(bisRounds * 3, plainRounds) << bisRounds << " vs " << plainRounds;
}

}  // namespace
}  // namespace kfield::test
