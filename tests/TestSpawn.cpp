// Aggregate processes (spawn): they appear, spread one hop a round, run their own alignment
// whatever slot each device keeps them in, end by their rule, and respect the bound on live
// keys; against breadth-first hop counts, to the bit.
#include "support/ErrorOf.hpp"
#include "support/FieldReference.hpp"
#include "support/TestSpaces.hpp"

#include <kfield/field/Library.hpp>
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
        const Field<int> launch = p.mux(id == int(a) && round == 1, id,
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
      ASSERT_EQ(out(2 * n + d, 0), hasB ? hopsB[d] : -1.0)
          << "round " << rounds << ", device " << d;
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
                "': device " + std::to_string(device) +
                " would hold more than 1 live processes in round " +
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
  EXPECT_EQ(errorOf([&] { sim.run(4); }), "kfield::Simulation: program 'own-keys', spawn '" +
                                              program.spawns.at(0).path +
                                              "': device 0 would hold more than 1 live processes "
                                              "in round 2 of sample 0 (raise maxKeys)");
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
  const auto hops0 = bfsHops(net, {0}), hops59 = bfsHops(net, {59}),
             nearest = bfsHops(net, {0, 59});
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

// Keys that are pairs (launcher, start round): device a launches a process in rounds 1 and 4,
// device b in round 2. Each is a hop gradient from its launcher living `life` rounds from its
// start, so a's two processes run side by side with their own alignment. Output: (processes
// held, the hops of each process), -1 where not held.
constexpr int kLife = 8;
TracedProgram startedProcesses(std::int64_t a, std::int64_t b, int maxKeys) {
  return trace(
      [=](Program& p) {
        using Key = Tuple<int, int>;
        const Field<int> id = p.uid();
        const Field<int> round = p.remember(0, [](Field<int> r) { return r + 1; });
        const Field<bool> launches =
            (id == int(a) && (round == 1 || round == 4)) || (id == int(b) && round == 2);
        const Field<Key> launch =
            p.mux(launches, p.tuple(id, round), p.tuple(p.constant(-1), p.constant(-1)));
        const Processes<double, Key> ps =
            p.spawn<double>(launch, maxKeys, [&](const Field<Key>& key) {
              return std::make_pair(lib::hopGradient(p, id == get<0>(key)),
                                    round < get<1>(key) + kLife);
            });
        auto of = [&](std::int64_t launcher, int start) {
          return ps.valueOf(p.tuple(p.constant(int(launcher)), p.constant(start)), -1.0);
        };
        return p.tuple(toDouble(ps.count()), of(a, 1), of(a, 4), of(b, 2));
      },
      "started-processes");
}

TYPED_TEST(Spawn, PairKeysRunAProcessPerLauncherAndStart) {
  for (const auto& [net, a, b] :
       {std::make_tuple(Network::grid(9, 7), std::int64_t(0), std::int64_t(62)),
        std::make_tuple(Network::randomGeometric(300, 1.5, 6), std::int64_t(5),
                        std::int64_t(200))}) {
    const TracedProgram program = startedProcesses(a, b, 3);
    const std::int64_t n = net.devices();
    const std::vector<std::pair<std::vector<double>, int>> processes{
        {bfsHops(net, {a}), 1}, {bfsHops(net, {a}), 4}, {bfsHops(net, {b}), 2}};
    for (std::int64_t rounds : {1, 3, 5, 8, 9, 10, 12, 14}) {
      BasicSimulation<TypeParam> sim(program, net, 1);
      sim.run(rounds);
      const HostPlane out = sim.output();
      for (std::int64_t d = 0; d < n; ++d) {
        int held = 0;
        for (std::size_t q = 0; q < processes.size(); ++q) {
          const auto& [hops, start] = processes[q];
          const bool has = rounds < start + kLife && hops[d] <= double(rounds - start);
          held += int(has);
          ASSERT_EQ(out((std::int64_t(q) + 1) * n + d, 0), has ? hops[d] : -1.0)
              << net.description() << ", process " << q << ", round " << rounds << ", device " << d;
        }
        ASSERT_EQ(out(d, 0), double(held))
            << net.description() << ", round " << rounds << ", device " << d;
      }
    }
  }
}

// Pair keys take free slots in lexicographic order: on a line of three devices, the middle
// one is offered the keys of both ends in round 2. With two slots, the smaller key takes slot
// 0: the first parts decide, and the second parts when the first are equal. With one slot,
// it overflows.
TYPED_TEST(Spawn, PairKeysTakeFreeSlotsInLexicographicOrder) {
  const Network line = Network::grid(3, 1);
  struct Case {
    int left[2], right[2];  // the keys of devices 0 and 2; the second part is the launcher
  };
  for (const Case& c :
       {Case{{7, 0}, {7, 2}}, Case{{7, 2}, {7, 0}}, Case{{7, 0}, {6, 2}}, Case{{5, 2}, {6, 0}}}) {
    const std::string what = std::to_string(c.left[0]) + "," + std::to_string(c.left[1]) + " and " +
                             std::to_string(c.right[0]) + "," + std::to_string(c.right[1]);
    for (int maxKeys : {2, 1}) {
      const TracedProgram program = trace(
          [&](Program& p) {
            using Key = Tuple<int, int>;
            const Field<int> id = p.uid();
            const Field<int> round = p.remember(0, [](Field<int> r) { return r + 1; });
            auto key = [&](const int* k) { return p.tuple(p.constant(k[0]), p.constant(k[1])); };
            const int none[2] = {-1, -1};
            const Field<Key> launch = p.mux(round == 1 && id == 0, key(c.left),
                                            p.mux(round == 1 && id == 2, key(c.right), key(none)));
            const Processes<double, Key> ps =
                p.spawn<double>(launch, maxKeys, [&](const Field<Key>& k) {
                  return std::make_pair(lib::hopGradient(p, id == get<1>(k)), round < 50);
                });
            const Field<Key>& last = ps.keys.back();
            return p.tuple(toDouble(get<0>(ps.keys[0])), toDouble(get<1>(ps.keys[0])),
                           toDouble(get<0>(last)), toDouble(get<1>(last)));
          },
          "pairs");
      BasicSimulation<TypeParam> sim(program, line, 1);
      if (maxKeys == 1) {
        EXPECT_EQ(errorOf([&] { sim.run(3); }),
                  "kfield::Simulation: program 'pairs', spawn '" + program.spawns.at(0).path +
                      "': device 1 would hold more than 1 live processes in round 2 of sample 0 "
                      "(raise maxKeys)")
            << what;
        continue;
      }
      sim.run(2);
      const HostPlane out = sim.output();
      const bool leftFirst =
          std::make_pair(c.left[0], c.left[1]) < std::make_pair(c.right[0], c.right[1]);
      const int* first = leftFirst ? c.left : c.right;
      const int* second = leftFirst ? c.right : c.left;
      EXPECT_EQ(out(1, 0), first[0]) << what;
      EXPECT_EQ(out(3 + 1, 0), first[1]) << what;
      EXPECT_EQ(out(6 + 1, 0), second[0]) << what;
      EXPECT_EQ(out(9 + 1, 0), second[1]) << what;
      EXPECT_EQ(out(0, 0), c.left[0]) << what;  // the ends keep their own in slot 0
      EXPECT_EQ(out(6 + 0, 0), -1.0) << what;
      EXPECT_EQ(out(2, 0), c.right[0]) << what;
    }
  }
}

// Three-part keys: a process per (row, column, start) of its launcher. Its value packs a gossip
// of the largest start * 1000 + id among its devices (processes that differ in the last part
// only must not hear each other), what the device added up while it ran it (its state
// restarts per process) and its hops from the launcher.
TYPED_TEST(Spawn, ThreePartKeysAlignOnEveryPart) {
  const Network net = Network::grid(6, 5);
  const TracedProgram program = trace(
      [](Program& p) {
        using Key = Tuple<int, int, int>;
        const Field<int> id = p.uid();
        const Field<int> round = p.remember(0, [](Field<int> r) { return r + 1; });
        // Devices 7 and 22 launch in round 1; 7 again in round 2 (another process).
        const Field<bool> launches =
            ((id == 7 || id == 22) && round == 1) || (id == 7 && round == 2);
        const Field<Key> launch = p.mux(launches, p.tuple(id / 6, id % 6, round),
                                        p.tuple(p.constant(-1), p.constant(-1), p.constant(-1)));
        const Processes<double, Key> ps = p.spawn<double>(launch, 3, [&](const Field<Key>& k) {
          const Field<double> hops = lib::hopGradient(p, id == get<0>(k) * 6 + get<1>(k));
          const Field<double> sum =
              p.remember(0.0, [&](const Field<double>& acc) { return acc + toDouble(get<2>(k)); });
          const Field<double> largest = lib::gossipMax(p, toDouble(get<2>(k) * 1000 + id));
          return std::make_pair(largest * 10000.0 + sum * 100.0 + hops, round < 30);
        });
        return p.tuple(ps.valueOf(p.tuple(p.constant(1), p.constant(1), p.constant(1)), -1.0),
                       ps.valueOf(p.tuple(p.constant(1), p.constant(1), p.constant(2)), -1.0),
                       ps.valueOf(p.tuple(p.constant(3), p.constant(4), p.constant(1)), -1.0));
      },
      "triples");
  BasicSimulation<TypeParam> sim(program, net, 1);
  const std::int64_t rounds = 20, n = net.devices();
  sim.run(rounds);
  const HostPlane out = sim.output();
  const auto hops7 = bfsHops(net, {7}), hops22 = bfsHops(net, {22});
  // A device joins process (r, c, start) in round start + hops and has added `start` each round
  // it ran it since: rounds - start - hops + 1 times. Device 29 joins by round 9, and its id
  // reaches every device 9 hops later.
  auto expected = [&](const std::vector<double>& hops, std::int64_t d, int start) {
    const double ran = double(rounds - start) - hops[d] + 1.0;
    return double(start * 1000 + 29) * 10000.0 + 100.0 * double(start) * ran + hops[d];
  };
  for (std::int64_t d = 0; d < n; ++d) {
    EXPECT_EQ(out(d, 0), expected(hops7, d, 1)) << "device " << d;
    EXPECT_EQ(out(n + d, 0), expected(hops7, d, 2)) << "device " << d;
    EXPECT_EQ(out(2 * n + d, 0), expected(hops22, d, 1)) << "device " << d;
  }
}

TYPED_TEST(Spawn, BadSpawnsAreRefusedWhenTraced) {
  EXPECT_EQ(errorOf([] {
              trace([](Program& p) {
                return p
                    .spawn<double>(p.uid(), 4,
                                   [&](const Field<int>&) {
                                     return std::make_pair(p.constant(1.0), p.constant(true));
                                   })
                    .sum();
              });
            }),
            "kfield::trace: spawn 'spawn@0': the process never ends (keep is the constant true): "
            "give it an end rule, such as keeping it while a timer runs");
  EXPECT_EQ(errorOf([] {
              trace([](Program& p) {
                return p
                    .spawn<double>(p.uid(), 65,
                                   [&](const Field<int>& key) {
                                     return std::make_pair(p.constant(1.0), key < 3);
                                   })
                    .sum();
              });
            }),
            "kfield::trace: spawn 'spawn@0': maxKeys must be in [1, 64], got 65");
  EXPECT_EQ(errorOf([] {
              trace([](Program& p) {
                return p
                    .spawn<double>(p.uid(), 2,
                                   [&](const Field<int>& key) {
                                     const auto inner =
                                         p.spawn<double>(key, 2, [&](const Field<int>& k) {
                                           return std::make_pair(p.constant(1.0), k < 3);
                                         });
                                     return std::make_pair(inner.sum(), key < 3);
                                   })
                    .sum();
              });
            }),
            "kfield::trace: a spawn inside a spawn's process is not supported (at "
            "'spawn@0/branch@0/align_left/align@0')");
  EXPECT_EQ(errorOf([] {
              trace([](Program& p) {
                return p
                    .spawn<double>(p.uid(), 2,
                                   [&](const Field<int>& key) {
                                     return std::make_pair(
                                         p.nbr(0.0, p.neighbors(p.constant(1.0))).sum(), key < 3);
                                   })
                    .sum();
              });
            }),
            "kfield::trace: spawn 'spawn@0': an exchange inside a process is not supported "
            "('spawn@0/branch@0/align_left/align@0/nbr@1')");
  int calls = 0;  // a process that traces differently on its second slot
  EXPECT_EQ(errorOf([&] {
              trace([&](Program& p) {
                return p
                    .spawn<double>(p.uid(), 2,
                                   [&](const Field<int>& key) {
                                     const Field<double> v =
                                         ++calls == 2 ? p.neighbors(p.constant(1.0)).sum()
                                                      : p.constant(1.0);
                                     return std::make_pair(v, key < 3);
                                   })
                    .sum();
              });
            }),
            "kfield::trace: spawn 'spawn@0': the process traced 1 neighbor calls for slot 1 and 0 "
            "for slot 0: it must trace the same for every key");
}

}  // namespace
}  // namespace kfield::test
