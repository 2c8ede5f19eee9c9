// Asynchronous devices (Simulation on a Schedule): firings follow the schedule, run in the
// global order of their times (against an event-by-event host replay, to the bit), the
// synchronous schedule gives the bits of synchronous rounds for every library program, and
// the clock reads what the schedule says.
#include "support/ErrorOf.hpp"
#include "support/FieldReference.hpp"
#include "support/LibraryRuns.hpp"
#include "support/TestSpaces.hpp"

#include <kfield/field/Library.hpp>
#include <kfield/field/Programs.hpp>
#include <kfield/impl/Bits.hpp>
#include <kfield/sim/Simulation.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace kfield::test {
namespace {

template <class Space>
class Scheduled : public ::testing::Test {};
TYPED_TEST_SUITE(Scheduled, Spaces, SpaceNames);

constexpr double kInf = std::numeric_limits<double>::infinity();

template <class Space>
HostPlane synchronousOutput(const TracedProgram& program, const Network& net, std::int64_t samples,
                            const std::vector<std::vector<std::int64_t>>& runs,
                            const Schedule* schedule) {
  auto go = [&](auto& sim) {
    setInputs(sim, program, net.devices(), samples);
    for (const auto& r : runs) sim.run(r);
    return sim.output();
  };
  if (schedule) {
    BasicSimulation<Space> sim(program, net, samples, *schedule);
    return go(sim);
  }
  BasicSimulation<Space> sim(program, net, samples);
  return go(sim);
}

// Period 1, no jitter: every device fires at 0, 1, 2, ... together, as synchronous rounds.
TYPED_TEST(Scheduled, OnePeriodWithoutJitterGivesTheBitsOfSynchronousRounds) {
  const Schedule lockstep{1.0, 0.0, 9};
  for (const Network& net : {Network::grid(7, 6), Network::randomGeometric(150, 1.6, 4)}) {
    for (const lib::LibraryProgram& entry : lib::programs()) {
      const TracedProgram program = entry.build(net, {});
      // The third and fourth runs start with every device heard (lockstep steps keep the
      // clock per sample), with samples of different lengths.
      const std::vector<std::vector<std::int64_t>> runs = {
          {3, 5, 0}, {4, 1, 6}, {2, 5, 3}, {1, 0, 2}};
      expectSameBits(synchronousOutput<TypeParam>(program, net, 3, runs, nullptr),
                     synchronousOutput<TypeParam>(program, net, 3, runs, &lockstep), entry.name);
    }
  }
}

// The time of firing k of each device, and which firings come before a horizon.
std::int64_t firingsBefore(const Schedule& schedule, std::int64_t d, std::int64_t s,
                           double horizon) {
  std::int64_t k = 0;
  while (schedule.firingTime(k, d, s) < horizon) ++k;
  return k;
}

TYPED_TEST(Scheduled, DevicesFireAsTheScheduleSays) {
  const Network net = Network::randomGeometric(200, 1.5, 2);
  const Schedule schedule{0.5, 0.4, 17};
  const TracedProgram program =
      trace([](Program& p) { return lib::hopGradient(p, p.sense<bool>("source")); }, "hops");
  BasicSimulation<TypeParam> sim(program, net, 2, schedule);
  sim.sensor("source").set(0, true);
  sim.run(std::vector<std::int64_t>{7, 3});
  const HostPlane fired = sim.firings();
  for (std::int64_t s = 0; s < 2; ++s) {
    const double horizon = (s == 0 ? 7 : 3) * schedule.period;
    for (std::int64_t d = 0; d < net.devices(); ++d) {
      ASSERT_EQ(fired(d, s), double(firingsBefore(schedule, d, s, horizon))) << d << ", " << s;
    }
  }
  EXPECT_EQ(sim.rounds(), (std::vector<std::int64_t>{7, 3}));
}

// An event-by-event replay on the host: firings in time order (equal times together), each
// hearing the neighbors that have fired (since they were last switched on) no longer than
// `retain` ago, and reading the messages they sent before it. Device `off` is switched off at
// time offAt and on again at onAt: silent in between, a new device after. The program: a hop
// gradient, a count of the device's firings (a state), its clock, the number of neighbors it
// hears and the oldest message among them.
struct Replay {
  std::vector<double> hops, count, time, delta, heard, oldest;
};

TracedProgram clockProgram() {
  return trace(
      [](Program& p) {
        const Field<double> hops = lib::hopGradient(p, p.sense<bool>("source"));
        const Field<double> count = p.remember(0.0, [](const Field<double>& c) { return c + 1.0; });
        const Field<double> heard = p.neighbors(p.constant(1.0)).excludeSelf().sum();
        const Field<double> oldest = p.nbrLag().excludeSelf().max();
        return p.tuple(hops, count, p.time(), p.deltaTime(), heard, oldest);
      },
      "clock");
}

struct Switch {
  std::int64_t device = -1;
  double offAt = kInf, onAt = kInf;
};

Replay replay(const Network& net, const Schedule& schedule, std::int64_t sample,
              std::int64_t source, double horizon, const Switch& sw) {
  const std::int64_t n = net.devices();
  std::vector<std::tuple<double, std::int64_t>> events;  // time, device
  for (std::int64_t d = 0; d < n; ++d) {
    for (std::int64_t k = 0; schedule.firingTime(k, d, sample) < horizon; ++k) {
      events.emplace_back(schedule.firingTime(k, d, sample), d);
    }
  }
  std::sort(events.begin(), events.end());
  Replay r;
  for (auto* v : {&r.hops, &r.count, &r.time, &r.delta, &r.heard, &r.oldest}) v->assign(n, 0.0);
  const double none = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> sent(n, kInf), last(n, none);
  const auto& offsets = net.offsets();
  const auto& neighbors = net.neighbors();
  bool switchedOff = false;
  for (std::size_t i = 0; i < events.size();) {
    const double t = std::get<0>(events[i]);
    if (!switchedOff && t >= sw.offAt) last[sw.device] = none, switchedOff = true;
    std::size_t end = i;
    while (end < events.size() && std::get<0>(events[end]) == t) ++end;
    std::vector<std::int64_t> fired;
    std::vector<double> value;
    for (std::size_t e = i; e < end; ++e) {
      const std::int64_t d = std::get<1>(events[e]);
      if (d == sw.device && t >= sw.offAt && t < sw.onAt) continue;  // silent
      double best = kInf, heard = 0.0, oldest = -kInf;
      for (std::int64_t x = offsets[d]; x < offsets[d + 1]; ++x) {
        const std::int64_t j = neighbors[x];
        const double age = t - last[j];
        if (j == d || !(age <= schedule.retain)) continue;  // NaN: not fired
        best = std::min(best, sent[j] + 1.0);
        heard += 1.0;
        oldest = std::max(oldest, age);
      }
      fired.push_back(d);
      value.push_back(d == source ? 0.0 : best);
      const bool first = std::isnan(last[d]);
      r.count[d] = first ? 1.0 : r.count[d] + 1.0;
      r.delta[d] = first ? 0.0 : t - last[d];
      r.time[d] = t;
      r.heard[d] = heard;
      r.oldest[d] = oldest;
    }
    for (std::size_t f = 0; f < fired.size(); ++f) {
      sent[fired[f]] = r.hops[fired[f]] = value[f];
      last[fired[f]] = t;
    }
    i = end;
  }
  return r;
}

// `periods` periods in three runs, device sw.device switched off after the first and on after
// the second (sw's times are those run boundaries, or infinite); the first run in two when
// `split` (the second of them, on a lockstep schedule, with every device heard).
// With one sample or several (whose devices fire in different steps).
template <class Space>
void expectReplay(const Network& net, const Schedule& schedule, std::int64_t periods,
                  Switch sw = {}, std::int64_t samples = 3, bool split = false) {
  const std::int64_t n = net.devices();
  const TracedProgram program = clockProgram();
  BasicSimulation<Space> sim(program, net, samples, schedule);
  for (std::int64_t s = 0; s < samples; ++s) sim.sensor("source").set(s * 11, s, true);
  const std::int64_t a = periods / 3, b = 2 * periods / 3;
  if (split) sim.run(a / 2);
  sim.run(split ? a - a / 2 : a);
  if (sw.device >= 0) sim.switchOn(sw.device, false), sw.offAt = double(a) * schedule.period;
  sim.run(b - a);
  if (sw.device >= 0) sim.switchOn(sw.device, true), sw.onAt = double(b) * schedule.period;
  sim.run(periods - b);
  const HostPlane out = sim.output();
  for (std::int64_t s = 0; s < samples; ++s) {
    const Replay r = replay(net, schedule, s, s * 11, double(periods) * schedule.period, sw);
    const std::vector<double>* expected[] = {&r.hops,  &r.count, &r.time,
                                             &r.delta, &r.heard, &r.oldest};
    for (std::int64_t c = 0; c < 6; ++c) {
      for (std::int64_t d = 0; d < n; ++d) {
        ASSERT_TRUE(sameBits(out(c * n + d, s), (*expected[c])[d]))
            << "component " << c << ", device " << d << ", sample " << s << ": "
            << out(c * n + d, s) << " vs " << (*expected[c])[d];
      }
    }
  }
}

TYPED_TEST(Scheduled, FiringsRunInTheOrderOfTheirTimes) {
  for (std::int64_t samples : {3, 1}) {
    expectReplay<TypeParam>(Network::grid(12, 9), Schedule{1.0, 0.9, 5}, 9, {}, samples);
    expectReplay<TypeParam>(Network::randomGeometric(250, 1.6, 8), Schedule{2.0, 2.0, 6}, 12, {},
                            samples);
    // Jitter small against the period: a wave crosses many hops in one period.
    expectReplay<TypeParam>(Network::grid(10, 10), Schedule{1.0, 0.05, 1}, 4, {}, samples);
    // Lockstep: from the second run on, every device has fired and hears all its neighbors.
    expectReplay<TypeParam>(Network::grid(12, 9), Schedule{1.0, 0.0, 5}, 9, {}, samples);
  }
}

// Messages older than the retention are not heard: with ages spread over (0, 1.9), some are.
TYPED_TEST(Scheduled, MessagesOlderThanTheRetentionAreNotHeard) {
  for (std::int64_t samples : {3, 1}) {
    expectReplay<TypeParam>(Network::grid(12, 9), Schedule{1.0, 0.9, 5, 1.2}, 9, {}, samples);
    expectReplay<TypeParam>(Network::randomGeometric(250, 1.6, 8), Schedule{1.0, 1.0, 2, 0.7}, 9,
                            {}, samples);
  }
}

// A device switched off is silent and unheard; switched on, it starts again as a new device.
TYPED_TEST(Scheduled, SwitchedOffDevicesAreSilentAndReturnAsNewOnes) {
  for (std::int64_t samples : {3, 1}) {
    Switch sw;
    sw.device = samples == 1 ? 1 : 23;  // a neighbor of the last sample's source (0 or 22)
    expectReplay<TypeParam>(Network::grid(12, 9), Schedule{1.0, 0.9, 5}, 12, sw, samples);
    sw.device = samples == 1 ? 0 : 11;  // the source of the last sample
    expectReplay<TypeParam>(Network::randomGeometric(250, 1.6, 8), Schedule{1.0, 0.6, 2, 1.5}, 9,
                            sw, samples);
    // Lockstep: every device has fired before the switch, and its neighbors must stop hearing
    // it all the same; split, the run before the switch keeps the clock per sample.
    sw.device = samples == 1 ? 1 : 23;
    for (bool split : {false, true}) {
      expectReplay<TypeParam>(Network::grid(12, 9), Schedule{1.0, 0.0, 5}, 12, sw, samples, split);
    }
  }
}

// Self-healing: when one of two sources fails, the hop gradient rises to the other's hops.
// Jittered, and lockstep (whose runs, with the source off, take the steps of every device on).
TYPED_TEST(Scheduled, HopGradientsHealWhenASourceFails) {
  const Network net = Network::grid(15, 11);
  const std::int64_t a = 3, b = net.devices() - 1;
  const TracedProgram program =
      trace([](Program& p) { return lib::hopGradient(p, p.sense<bool>("source")); }, "hops");
  for (const double jitter : {0.7, 0.0}) {
    BasicSimulation<TypeParam> sim(program, net, 1, Schedule{1.0, jitter, 3});
    sim.sensor("source").set(a, true).set(b, true);
    sim.run(40);
    EXPECT_EQ(sampleOf(sim.output()), bfsHops(net, {a, b})) << "jitter " << jitter;
    sim.switchOn(a, false);
    for (int k = 0; k < 6; ++k) sim.run(10);
    std::vector<double> out = sampleOf(sim.output()), expected = bfsHops(net, {b});
    out.erase(out.begin() + a), expected.erase(expected.begin() + a);  // a keeps its last value
    EXPECT_EQ(out, expected) << "jitter " << jitter;
  }
}

// On a lockstep schedule with devices off, the runs where every device on has fired take
// the steps of every device on (runLockstep); with retain below two periods they take the
// general steps, which must give the same bits: outputs, clocks and states.
TYPED_TEST(Scheduled, LockstepRunsWithDevicesOffKeepTheGeneralStepsBits) {
  const Network net = Network::randomGeometric(400, 1.5, 4);
  const TracedProgram program = clockProgram();
  const Schedule fast{1.0, 0.0, 2}, general{1.0, 0.0, 2, 1.5};
  BasicSimulation<TypeParam> a(program, net, 3, fast), b(program, net, 3, general);
  for (auto* sim : {&a, &b}) {
    for (std::int64_t s = 0; s < 3; ++s) sim->sensor("source").set(s * 7, s, true);
    sim->run(3);
    for (std::int64_t d = 0; d < 400; d += 9) sim->switchOn(d, d % 3, false);  // sources too
    sim->run(std::vector<std::int64_t>{5, 2, 4});
    sim->run(4);
    sim->switchOn(9, 0, true);  // back as a new device: one run of general steps
    sim->run(std::vector<std::int64_t>{1, 3, 3});
    sim->run(6);
  }
  expectSameBits(a.output(), b.output(), "outputs");
  const SimulationCarry ca = a.carry(), cb = b.carry();
  expectSameBits(ca.states, cb.states, "states and clocks");
  expectSameBits(ca.exports, cb.exports, "exports");
}

// switchOffBy: a boolean sensor switches devices as switchOn does, to the bit (outputs, clocks,
// carries), many at once, in some samples and not others, from before the first firing (a
// device that arrives late) and on a lockstep schedule whose devices all hear each other.
TYPED_TEST(Scheduled, ASensorSwitchesDevicesAsSwitchOnDoes) {
  const Network net = Network::randomGeometric(300, 1.6, 3);
  const std::int64_t n = net.devices(), samples = 3;
  const TracedProgram program = trace(
      [](Program& p) {
        return lib::hopGradient(p, p.sense<bool>("source") && !p.sense<bool>("failed"));
      },
      "failing-hops");
  // Phase k switches device d of sample s off when off(k, d, s).
  auto off = [](int k, std::int64_t d, std::int64_t s) {
    if (k == 0) return s == 1 && d % 9 == 4;
    if (k == 1) return (d + s) % 5 == 1 || d == 0;
    return d % 4 == s;
  };
  const std::vector<std::vector<std::int64_t>> runs = {{3, 4, 2}, {5, 5, 5}, {2, 6, 4}};
  for (const Schedule& schedule : {Schedule{1.0, 0.6, 9}, Schedule{1.0, 0.0, 9}}) {
    BasicSimulation<TypeParam> bySensor(program, net, samples, schedule),
        bySwitch(program, net, samples, schedule);
    for (auto* sim : {&bySensor, &bySwitch}) {
      for (std::int64_t s = 0; s < samples; ++s)
        sim->sensor("source").set(0, s, true).set(n - 1 - s, s, true);
    }
    bySensor.switchOffBy("failed");
    SimulationCarry afterPhase1;  // switched as in phase 1
    for (int k = 0; k < 3; ++k) {
      for (std::int64_t d = 0; d < n; ++d) {
        for (std::int64_t s = 0; s < samples; ++s) {
          bySensor.sensor("failed").set(d, s, off(k, d, s));
          bySwitch.switchOn(d, s, !off(k, d, s));
        }
      }
      bySensor.run(runs[std::size_t(k)]);
      bySwitch.run(runs[std::size_t(k)]);
      if (k == 1) afterPhase1 = bySwitch.carry();
      const std::string what =
          "phase " + std::to_string(k) + ", jitter " + std::to_string(schedule.jitter);
      expectSameBits(bySensor.output(), bySwitch.output(), what);
      expectSameBits(bySensor.firings(), bySwitch.firings(), what);
      expectSameBits(bySensor.times(), bySwitch.times(), what);
      expectSameBits(bySensor.carry().states, bySwitch.carry().states, what);
    }
    // A carry restored under a sensor: the next run switches its devices as the sensor says.
    // (The sensor is followed before the restore, so only the restore leaves it to follow.)
    BasicSimulation<TypeParam> restored(program, net, samples, schedule);
    for (std::int64_t d = 0; d < n; ++d) {
      for (std::int64_t s = 0; s < samples; ++s) {
        restored.sensor("source").set(d, s, d == 0 || d == n - 1 - s);
        restored.sensor("failed").set(d, s, off(2, d, s));
      }
    }
    restored.switchOffBy("failed");
    restored.restore(afterPhase1);
    restored.run(runs[2]);
    expectSameBits(restored.output(), bySensor.output(), "restored");
    expectSameBits(restored.carry().states, bySensor.carry().states, "restored");
    // The gradient heals around the failed devices: a device on that still reaches a source
    // settles at its hops over the devices on (one cut off from every source counts up).
    bySensor.run(60);
    for (std::int64_t s = 0; s < samples; ++s) {
      const std::vector<double> hops = sampleOf(bySensor.output(), s);
      std::vector<char> failed(static_cast<std::size_t>(n));
      for (std::int64_t d = 0; d < n; ++d) failed[std::size_t(d)] = off(2, d, s);
      const std::vector<double> expected = bfsHops(net, {0, n - 1 - s}, failed);
      std::int64_t reached = 0;
      for (std::int64_t d = 0; d < n; ++d) {
        if (failed[std::size_t(d)] || !std::isfinite(expected[std::size_t(d)])) continue;
        EXPECT_EQ(hops[std::size_t(d)], expected[std::size_t(d)]) << d << ", sample " << s;
        ++reached;
      }
      EXPECT_GT(reached, n / 2) << "sample " << s;
    }
  }
}

// Firings at the same time read each other's earlier messages, even when one of them must wait
// for an earlier neighbor: on the path 0 - 1 - 2 with next firings at 0.5, 0.5 and 0.25, device
// 0 may not fire before 1 does, although its only neighbor is no earlier than itself.
TYPED_TEST(Scheduled, DevicesFiringAtTheSameTimeFireTogether) {
  const Network path = Network::grid(3, 1);
  const TracedProgram program =
      trace([](Program& p) { return p.neighbors(p.constant(1.0)).excludeSelf().sum(); }, "heard");
  const Schedule schedule{1.0, 0.5, 4};
  // With two samples (the second on the path read backwards) the clock is marked a sample
  // row at a time.
  for (const std::int64_t samples : {1, 2}) {
    BasicSimulation<TypeParam> sim(program, path, samples, schedule);
    SimulationCarry carry = sim.carry();
    ASSERT_EQ(carry.states.extent(0), 12u);  // the clock's rows: firings, next, last, on
    const double next[3] = {0.5, 0.5, 0.25};
    for (std::int64_t d = 0; d < 3; ++d) {
      carry.states(3 + d, 0) = next[d];
      if (samples == 2) carry.states(3 + d, 1) = next[2 - d];
    }
    sim.restore(carry);
    sim.run(1);
    EXPECT_EQ(sampleOf(sim.output()), (std::vector<double>{0.0, 1.0, 0.0}));
    EXPECT_EQ(sampleOf(sim.firings()), (std::vector<double>{1.0, 1.0, 1.0}));
    if (samples == 2) {
      EXPECT_EQ(sampleOf(sim.output(), 1), (std::vector<double>{0.0, 1.0, 0.0}));
    }
  }
}

// A tie met after other steps: on the path 0 - 1 - 2 - 3 with first firings at 0.5, 0.5, 0.2
// and 0.1, devices 3 then 2 fire alone; then 1 may fire, tied with 0: both fire, at 0.5, and
// neither hears the other.
TYPED_TEST(Scheduled, DevicesTiedAfterOtherStepsFireTogether) {
  const Network path = Network::grid(4, 1);
  const TracedProgram program =
      trace([](Program& p) { return p.neighbors(p.constant(1.0)).excludeSelf().sum(); }, "heard");
  for (const std::int64_t samples : {1, 2}) {  // the second sample on the path read backwards
    BasicSimulation<TypeParam> sim(program, path, samples, Schedule{1.0, 0.5, 4});
    SimulationCarry carry = sim.carry();
    const double next[4] = {0.5, 0.5, 0.2, 0.1};
    for (std::int64_t d = 0; d < 4; ++d) {
      carry.states(4 + d, 0) = next[d];
      if (samples == 2) carry.states(4 + d, 1) = next[3 - d];
    }
    sim.restore(carry);
    sim.run(1);
    EXPECT_EQ(sampleOf(sim.output()), (std::vector<double>{0.0, 1.0, 1.0, 0.0}));
    EXPECT_EQ(sampleOf(sim.firings()), (std::vector<double>{1.0, 1.0, 1.0, 1.0}));
    if (samples == 2) {
      EXPECT_EQ(sampleOf(sim.output(), 1), (std::vector<double>{0.0, 1.0, 1.0, 0.0}));
    }
  }
}

TYPED_TEST(Scheduled, HopGradientsConvergeToBreadthFirstHops) {
  for (const Network& net : {Network::grid(15, 11), Network::randomGeometric(400, 1.5, 12)}) {
    const TracedProgram program =
        trace([](Program& p) { return lib::hopGradient(p, p.sense<bool>("source")); }, "hops");
    BasicSimulation<TypeParam> sim(program, net, 1, Schedule{1.0, 0.7, 3});
    sim.sensor("source").set(3, true);
    sim.sensor("source").set(net.devices() - 1, true);
    sim.run(60);
    EXPECT_EQ(sampleOf(sim.output()), bfsHops(net, {3, net.devices() - 1}));
  }
}

// Jittered, and lockstep (where the restored simulation's steps, every device heard from the
// first, keep the clock per sample, and the whole's do not).
TYPED_TEST(Scheduled, RestoringTheCarryContinuesBitForBit) {
  const Network net = Network::randomGeometric(200, 1.6, 5);
  for (const Schedule& schedule : {Schedule{1.0, 0.8, 21}, Schedule{1.0, 0.0, 21}}) {
    for (const char* name : {"collect-sum", "collect-weighted", "election"}) {
      const TracedProgram program = lib::findProgram(name)->build(net, {});
      BasicSimulation<TypeParam> whole(program, net, 2, schedule), first(program, net, 2, schedule),
          second(program, net, 2, schedule);
      for (auto* sim : {&whole, &first, &second}) setInputs(*sim, program, net.devices(), 2);
      whole.run(std::vector<std::int64_t>{9, 6});
      first.run(std::vector<std::int64_t>{4, 2});
      second.restore(first.carry());
      second.run(std::vector<std::int64_t>{5, 4});
      expectSameBits(whole.output(), second.output(), name);
      expectSameBits(whole.firings(), second.firings(), name);
      expectSameBits(whole.times(), second.times(), name);
    }
  }
}

// A lockstep carry with a device off, restored into a simulation whose devices all hear each
// other: the restored one stops hearing the device, as the carry's simulation did.
TYPED_TEST(Scheduled, RestoringALockstepCarryWithADeviceOff) {
  const Network net = Network::grid(9, 7);
  const Schedule schedule{1.0, 0.0, 3};
  const TracedProgram program = clockProgram();
  BasicSimulation<TypeParam> from(program, net, 1, schedule), into(program, net, 1, schedule);
  for (auto* sim : {&from, &into}) sim->sensor("source").set(0, 0, true);
  from.run(2);
  from.switchOn(10, false);
  from.run(1);
  into.run(3);
  into.restore(from.carry());
  from.run(4);
  into.run(4);
  expectSameBits(from.output(), into.output(), "lockstep carry");
  const std::int64_t n = net.devices();
  EXPECT_EQ(into.output()(4 * n + 11, 0), 3.0);  // device 11 hears 2, 12 and 20, not 10
}

// A spawn's bound on a schedule: the error names the firing's time, and the step is complete
// (the clocks moved on), as a synchronous round is.
TYPED_TEST(Scheduled, ASpawnOverflowNamesTheFiringsTime) {
  const Network net = Network::grid(4, 3);
  const TracedProgram program = trace(
      [](Program& p) {
        const Field<int> id = p.uid();
        const Field<int> launch = p.mux(p.time() == 0.0, id, p.constant(-1));
        return toDouble(p.spawn<double>(launch, 1, [&](const Field<int>& key) {
                           return std::make_pair(lib::hopGradient(p, id == key), p.time() < 5.0);
                         }).count());
      },
      "own-keys");
  BasicSimulation<TypeParam> sim(program, net, 1, Schedule{1.0, 0.0, 0});
  EXPECT_EQ(errorOf([&] { sim.run(4); }), "kfield::Simulation: program 'own-keys', spawn '" +
                                              program.spawns.at(0).path +
                                              "': device 0 would hold more than 1 live processes "
                                              "at time 1 of sample 0 (raise maxKeys)");
  EXPECT_EQ(sampleOf(sim.firings()), std::vector<double>(12, 2.0));  // times 0 and 1 ran
}

// A batch split into simulations keeps every sample's schedule: firstSample says which.
TYPED_TEST(Scheduled, ABatchSplitIntoSimulationsKeepsItsBits) {
  const Network net = Network::randomGeometric(200, 1.6, 5);
  const TracedProgram program = clockProgram();
  const Schedule schedule{1.0, 0.8, 12};
  BasicSimulation<TypeParam> whole(program, net, 4, schedule);
  for (std::int64_t s = 0; s < 4; ++s) whole.sensor("source").set(s * 11, s, true);
  whole.run(5);
  const HostPlane all = whole.output();
  for (std::int64_t first : {0, 2}) {
    Schedule part = schedule;
    part.firstSample = std::uint64_t(first);
    BasicSimulation<TypeParam> half(program, net, 2, part);
    for (std::int64_t s = 0; s < 2; ++s) half.sensor("source").set((first + s) * 11, s, true);
    half.run(5);
    const HostPlane out = half.output();
    for (std::size_t r = 0; r < out.extent(0); ++r) {
      for (std::int64_t s = 0; s < 2; ++s) {
        ASSERT_TRUE(sameBits(out(r, s), all(r, first + s)))
            << "row " << r << ", sample " << first + s;
      }
    }
  }
}

TYPED_TEST(Scheduled, BadSchedulesAreRefused) {
  const Network net = Network::grid(3, 3);
  const TracedProgram program =
      trace([](Program& p) { return lib::hopGradient(p, p.sense<bool>("source")); }, "hops");
  auto make = [&](Schedule s) {
    return errorOf([&] { BasicSimulation<TypeParam> sim(program, net, 1, s); });
  };
  EXPECT_EQ(make(Schedule{0.0, 0.0, 0}),
            "kfield::Simulation: schedule: period must be a finite number > 0, got 0");
  EXPECT_EQ(make(Schedule{kInf, 0.0, 0}),
            "kfield::Simulation: schedule: period must be a finite number > 0, got inf");
  EXPECT_EQ(make(Schedule{1.0, 1.5, 0}),
            "kfield::Simulation: schedule: jitter must be in [0, period] = [0, 1], got 1.5");
  EXPECT_EQ(make(Schedule{1.0, -0.25, 0}),
            "kfield::Simulation: schedule: jitter must be in [0, period] = [0, 1], got -0.25");
  EXPECT_EQ(make(Schedule{1.0, 0.5, 0, 0.0}),
            "kfield::Simulation: schedule: retain must be > 0, got 0");
  BasicSimulation<TypeParam> sim(program, net, 1, Schedule{1.0, 0.5, 0});
  EXPECT_EQ(errorOf([&] { sim.switchOn(9, false); }),
            "kfield::Simulation: switchOn: device 9 is not in [0, 9)");
  BasicSimulation<TypeParam> synchronous(program, net, 1);
  EXPECT_EQ(errorOf([&] { synchronous.switchOn(0, false); }),
            "kfield::Simulation: switchOn: switching devices off and on needs a Schedule "
            "(asynchronous devices); this simulation runs synchronous rounds");
  EXPECT_EQ(errorOf([&] { synchronous.switchOffBy("source"); }),
            "kfield::Simulation: switchOffBy: switching devices off and on needs a Schedule "
            "(asynchronous devices); this simulation runs synchronous rounds");
  EXPECT_EQ(errorOf([&] { sim.switchOffBy("failed"); }),
            "kfield::Simulation: switchOffBy: program 'hops' reads no sensor named 'failed'");
  const TracedProgram weighted = trace(
      [](Program& p) {
        return lib::hopGradient(p, p.sense<bool>("source")) * p.sense<double>("weight");
      },
      "weighted-hops");
  BasicSimulation<TypeParam> byWeight(weighted, net, 1, Schedule{1.0, 0.5, 0});
  EXPECT_EQ(errorOf([&] { byWeight.switchOffBy("weight"); }),
            "kfield::Simulation: switchOffBy: sensor 'weight' of program 'weighted-hops' is not "
            "boolean: a device is off while it reads true");
  byWeight.switchOffBy("source");
  EXPECT_EQ(errorOf([&] { byWeight.switchOn(0, false); }),
            "kfield::Simulation: switchOn: devices are switched by sensor 'source' (switchOffBy); "
            "set the sensor instead");
  EXPECT_EQ(errorOf([&] { sim.runUntilStable(10); }),
            "kfield::Simulation: runUntilStable needs synchronous rounds: on a Schedule no round "
            "is one where every device has fired; use run");
}

// Synchronous rounds: the clock reads the round, 0, 1, 2, ...
TYPED_TEST(Scheduled, SynchronousRoundsReadTheRoundAsTheirTime) {
  const Network net = Network::grid(4, 4);
  const TracedProgram program = trace(
      [](Program& p) { return p.tuple(p.time(), p.deltaTime(), p.nbrLag().excludeSelf().max()); },
      "clock");
  BasicSimulation<TypeParam> sim(program, net, 2);
  sim.run(std::vector<std::int64_t>{1, 4});
  const HostPlane out = sim.output();
  for (std::int64_t d = 0; d < 16; ++d) {
    EXPECT_EQ(out(d, 0), 0.0);
    EXPECT_EQ(out(16 + d, 0), 0.0);
    EXPECT_EQ(out(d, 1), 3.0);
    EXPECT_EQ(out(16 + d, 1), 1.0);
    EXPECT_EQ(out(32 + d, 0), -kInf);  // the first round hears no one
    EXPECT_EQ(out(32 + d, 1), 1.0);
  }
}

// times(): each device's clock is the time its program read in its latest firing; a device
// switched off has a clock that runs on (its output stays), and before its first firing none.
TYPED_TEST(Scheduled, TimesAreWhatTheLatestFiringRead) {
  const Network net = Network::randomGeometric(150, 1.5, 5);
  const Schedule schedule{0.5, 0.35, 23};
  const TracedProgram program = trace([](Program& p) { return p.time(); }, "clock");
  BasicSimulation<TypeParam> sim(program, net, 3, schedule);
  sim.run(std::vector<std::int64_t>{0, 1, 6});
  sim.switchOn(7, 2, false);
  sim.run(std::vector<std::int64_t>{0, 0, 3});
  const HostPlane times = sim.times(), out = sim.output(), fired = sim.firings();
  for (std::int64_t d = 0; d < net.devices(); ++d) {
    EXPECT_TRUE(std::isnan(times(d, 0))) << d;  // sample 0 ran nothing
    for (std::int64_t s = 1; s < 3; ++s) {
      const auto k = static_cast<std::int64_t>(fired(d, s));
      ASSERT_GE(k, 1) << d << ", " << s;
      EXPECT_EQ(impl::bitsOf(times(d, s)), impl::bitsOf(schedule.firingTime(k - 1, d, s))) << d;
      if (d != 7 || s != 2) {
        EXPECT_EQ(impl::bitsOf(times(d, s)), impl::bitsOf(out(d, s))) << d << ", " << s;
      }
    }
  }
  EXPECT_GT(times(7, 2), out(7, 2));  // switched off after 6 periods: its output is older
  EXPECT_GE(out(7, 2), 2.5);
  EXPECT_LT(out(7, 2), 3.0);
}

TYPED_TEST(Scheduled, SynchronousTimesAreTheLastRound) {
  const TracedProgram program = trace([](Program& p) { return p.time(); }, "clock");
  BasicSimulation<TypeParam> sim(program, Network::grid(3, 3), 2);
  EXPECT_TRUE(std::isnan(sim.times()(0, 0)));
  sim.run(std::vector<std::int64_t>{2, 5});
  const HostPlane times = sim.times(), out = sim.output();
  for (std::int64_t d = 0; d < 9; ++d) {
    EXPECT_EQ(times(d, 0), 1.0);
    EXPECT_EQ(times(d, 1), 4.0);
    EXPECT_EQ(out(d, 1), 4.0);
  }
}

}  // namespace
}  // namespace kfield::test
