// Aggregate processes (spawn): they appear, spread one hop a round, run their own alignment
// whatever slot each device keeps them in, end by their rule, and respect the bound on live
// keys; against breadth-first hop counts, to the bit.
#include "ErrorOf.hpp"
#include "FieldReference.hpp"
#include "TestSpaces.hpp"

#include <kfield/field/Library.hpp>
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
class Spawn : public ::testing::Test {};
TYPED_TEST_SUITE(Spawn, Spaces, SpaceNames);

constexpr double kInf = std::numeric_limits<double>::infinity();

// Device a launches process a in round 1, device b process b in round `laterB`; each process
// is a hop gradient from its launcher and lives until round `end` (the same round for every
// device: a round counter kept from the start). Output: (processes held, hops to a, hops to b),
// -1 where a process is not held.
TracedProgram twoSources(std::int64_t a, std::int64_t b, int laterB, int end, int maxKeys) {
  return trace(
      [=](Program& p) {
        const Field<int> id = p.uid();
        const Field<int> round = p.remember(0, [](Field<int> r) { return r + 1; });
        const Field<int> launch =
            p.mux(id == int(a) && round == 1, id,
                  p.mux(id == int(b) && round == laterB, id, p.constant(-1)));
        const Processes<double> ps = p.spawn<double>(launch, maxKeys, [&](const Field<int>& key) {
          return std::make_pair(lib::hopGradient(p, id == key), round < end);
        });
        return p.tuple(toDouble(ps.count()), ps.valueOf(p.constant(int(a)), -1.0),
                       ps.valueOf(p.constant(int(b)), -1.0));
      },
      "two-sources");
}

template <class Space>
HostPlane runTwoSources(const TracedProgram& program, const Network& net, std::int64_t rounds) {
  BasicSimulation<Space> sim(program, net, 1);
  sim.run(rounds);
  return sim.output();
}

// A process launched in round r0 holds, after round R, the devices fewer than R - r0 + 1 hops
// away, each with its exact hop count; in round `end` every device drops it, and it is gone.
template <class Space>
void expectSpread(const Network& net, std::int64_t a, std::int64_t b, int maxKeys) {
  const int laterB = 3, end = 12;
  const TracedProgram program = twoSources(a, b, laterB, end, maxKeys);
  const auto hopsA = bfsHops(net, {a}), hopsB = bfsHops(net, {b});
  const std::int64_t n = net.devices();
  for (std::int64_t rounds : {1, 2, 4, 7, 11, 12, 13}) {
    const HostPlane out = runTwoSources<Space>(program, net, rounds);
    for (std::int64_t d = 0; d < n; ++d) {
      const bool hasA = rounds < end && hopsA[d] <= double(rounds - 1);
      const bool hasB = rounds < end && hopsB[d] <= double(rounds - laterB);
      ASSERT_EQ(out(d, 0), double(int(hasA) + int(hasB))) << "round " << rounds << ", device " << d;
      ASSERT_EQ(out(n + d, 0), hasA ? hopsA[d] : -1.0) << "round " << rounds << ", device " << d;
      ASSERT_EQ(out(2 * n + d, 0), hasB ? hopsB[d] : -1.0) << "round " << rounds << ", device " << d;
    }
  }
}

TYPED_TEST(Spawn, ProcessesSpreadAHopARoundAndEndByTheirRule) {
  // Devices near b take b's key before a's: the two processes sit in different slots on
  // neighboring devices, and still hear each other.
  expectSpread<TypeParam>(Network::grid(9, 7), 0, 62, 2);
  expectSpread<TypeParam>(Network::randomGeometric(300, 1.5, 6), 5, 200, 3);
}

// With room for one process only, the first round in which a device would hold two is an
// error naming the spawn, the device, the round and the sample.
TYPED_TEST(Spawn, MoreLiveKeysThanTheBoundIsAnError) {
  const Network net = Network::grid(9, 7);
  const std::int64_t a = 0, b = 62;
  const TracedProgram program = twoSources(a, b, 3, 100, 1);
  const auto hopsA = bfsHops(net, {a}), hopsB = bfsHops(net, {b});
  double first = kInf;
  std::int64_t device = -1;
  for (std::int64_t d = 0; d < net.devices(); ++d) {
    const double round = std::max(hopsA[d] + 1.0, hopsB[d] + 3.0);
    if (round < first) first = round, device = d;
  }
  BasicSimulation<TypeParam> sim(program, net, 1);
  EXPECT_EQ(errorOf([&] { sim.run(20); }),
            "kfield::Simulation: program 'two-sources', spawn '" + program.spawns.at(0).path +
                "': device " + std::to_string(device) + " would hold more than 1 live processes in round " +
                std::to_string(std::int64_t(first)) + " of sample 0 (raise maxKeys)");
  EXPECT_EQ(sim.rounds()[0], std::int64_t(first));  // the round ran, keeping the smaller key
}

// The bound holds when every slot is taken too: each device keeps its own process in its one
// slot, and its neighbors' arrive in round 2.
TYPED_TEST(Spawn, AFullDeviceThatIsOfferedNewKeysOverflows) {
  const Network net = Network::grid(4, 3);
  const TracedProgram program = trace(
      [](Program& p) {
        const Field<int> id = p.uid();
        const Field<int> round = p.remember(0, [](Field<int> r) { return r + 1; });
        const Field<int> launch = p.mux(round == 1, id, p.constant(-1));
        return toDouble(p.spawn<double>(launch, 1, [&](const Field<int>& key) {
          return std::make_pair(lib::hopGradient(p, id == key), round < 5);
        }).count());
      },
      "own-keys");
  BasicSimulation<TypeParam> sim(program, net, 1);
  EXPECT_EQ(errorOf([&] { sim.run(4); }),
            "kfield::Simulation: program 'own-keys', spawn '" + program.spawns.at(0).path +
                "': device 0 would hold more than 1 live processes in round 2 of sample 0 (raise maxKeys)");
}

// A source that appears starts its gradient; one that stops being a source lets it die out.
TYPED_TEST(Spawn, SourceGradientsComeAndGoWithTheirSources) {
  const Network net = Network::grid(12, 5);
  const auto program = trace([](Program& p) {
    const Processes<double> ps = lib::sourceGradients(p, p.sense<bool>("source"), 6.0, 4);
    return p.tuple(toDouble(ps.count()), ps.min());
  });
  BasicSimulation<TypeParam> sim(program, net, 1);
  sim.sensor("source").set(0, 0, 1.0);
  sim.sensor("source").set(59, 0, 1.0);
  sim.run(30);
  const auto hops0 = bfsHops(net, {0}), hops59 = bfsHops(net, {59}), nearest = bfsHops(net, {0, 59});
  HostPlane out = sim.output();
  for (std::int64_t d = 0; d < 60; ++d) {
    const double count = double(int(hops0[d] < 6.0) + int(hops59[d] < 6.0));
    EXPECT_EQ(out(d, 0), count) << "device " << d;
    EXPECT_EQ(out(60 + d, 0), nearest[d] < 6.0 ? nearest[d] : kInf) << "device " << d;
  }
  sim.sensor("source").set(59, 0, 0.0);  // 59 stops: its process dies out
  sim.run(40);
  out = sim.output();
  for (std::int64_t d = 0; d < 60; ++d) {
    EXPECT_EQ(out(d, 0), double(int(hops0[d] < 6.0))) << "device " << d;
    EXPECT_EQ(out(60 + d, 0), hops0[d] < 6.0 ? hops0[d] : kInf) << "device " << d;
  }
}

// A gossip per process: each source's process holds the largest value among the devices it
// reaches (fewer than 4 hops from it), and only those.
TYPED_TEST(Spawn, EachProcessGossipsOverItsOwnDevices) {
  const Network net = Network::randomGeometric(200, 1.4, 9);
  const std::vector<std::int64_t> sources{3, 101, 190};
  const auto program = trace([](Program& p) {
    const Processes<double> ps =
        lib::sourceGossip(p, p.sense<bool>("source"), p.sense<double>("value"), 4.0, 3);
    return p.tuple(ps.valueOf(p.constant(3), -1.0), ps.valueOf(p.constant(101), -1.0),
                   ps.valueOf(p.constant(190), -1.0));
  });
  BasicSimulation<TypeParam> sim(program, net, 1);
  std::vector<double> value(static_cast<std::size_t>(net.devices()));
  for (std::int64_t d = 0; d < net.devices(); ++d) {
    value[d] = std::sin(1.3 * double(d)) * 10.0;
    sim.sensor("value").set(d, 0, value[d]);
  }
  for (std::int64_t s : sources) sim.sensor("source").set(s, 0, 1.0);
  sim.run(40);
  const HostPlane out = sim.output();
  const std::int64_t n = net.devices();
  for (std::size_t c = 0; c < sources.size(); ++c) {
    const auto hops = bfsHops(net, {sources[c]});
    double largest = -kInf;
    for (std::int64_t d = 0; d < n; ++d) {
      if (hops[d] < 4.0) largest = std::max(largest, value[d]);
    }
    for (std::int64_t d = 0; d < n; ++d) {
      EXPECT_EQ(out(std::int64_t(c) * n + d, 0), hops[d] < 4.0 ? largest : -1.0)
          << "source " << sources[c] << ", device " << d;
    }
  }
}

TYPED_TEST(Spawn, BadSpawnsAreRefusedWhenTraced) {
  EXPECT_EQ(errorOf([] {
              trace([](Program& p) {
                return p.spawn<double>(p.uid(), 4, [&](const Field<int>&) {
                  return std::make_pair(p.constant(1.0), p.constant(true));
                }).sum();
              });
            }),
            "kfield::trace: spawn 'spawn@0': the process never ends (keep is the constant true): "
            "give it an end rule, such as keeping it while a timer runs");
  EXPECT_EQ(errorOf([] {
              trace([](Program& p) {
                return p.spawn<double>(p.uid(), 65, [&](const Field<int>& key) {
                  return std::make_pair(p.constant(1.0), key < 3);
                }).sum();
              });
            }),
            "kfield::trace: spawn 'spawn@0': maxKeys must be in [1, 64], got 65");
  EXPECT_EQ(errorOf([] {
              trace([](Program& p) {
                return p.spawn<double>(p.uid(), 2, [&](const Field<int>& key) {
                  const auto inner = p.spawn<double>(key, 2, [&](const Field<int>& k) {
                    return std::make_pair(p.constant(1.0), k < 3);
                  });
                  return std::make_pair(inner.sum(), key < 3);
                }).sum();
              });
            }),
            "kfield::trace: a spawn inside a spawn's process is not supported (at "
            "'spawn@0/branch@0/align_left/align@0')");
  EXPECT_EQ(errorOf([] {
              trace([](Program& p) {
                return p.spawn<double>(p.uid(), 2, [&](const Field<int>& key) {
                  return std::make_pair(p.nbr(0.0, p.neighbors(p.constant(1.0))).sum(), key < 3);
                }).sum();
              });
            }),
            "kfield::trace: spawn 'spawn@0': an exchange inside a process is not supported "
            "('spawn@0/branch@0/align_left/align@0/nbr@1')");
  int calls = 0;  // a process that traces differently on its second slot
  EXPECT_EQ(errorOf([&] {
              trace([&](Program& p) {
                return p.spawn<double>(p.uid(), 2, [&](const Field<int>& key) {
                  const Field<double> v = ++calls == 2 ? p.neighbors(p.constant(1.0)).sum() : p.constant(1.0);
                  return std::make_pair(v, key < 3);
                }).sum();
              });
            }),
            "kfield::trace: spawn 'spawn@0': the process traced 1 neighbor calls for slot 1 and 0 "
            "for slot 0: it must trace the same for every key");
}

}  // namespace
}  // namespace kfield::test
