// Per-neighbor messages: nbr of a neighbor field and exchange, against host loops that follow
// the rules message by message, to the bit; the weighted multi-path collection built on them.
#include "support/ErrorOf.hpp"
#include "support/FieldReference.hpp"
#include "support/TestSpaces.hpp"

#include <kfield/diff/Gradient.hpp>
#include <kfield/field/Library.hpp>
#include <kfield/sim/Simulation.hpp>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

namespace kfield::test {
namespace {

template <class Space>
class Exchange : public ::testing::Test {};
TYPED_TEST_SUITE(Exchange, Spaces, SpaceNames);

constexpr double kInf = std::numeric_limits<double>::infinity();

template <class Space>
HostPlane runOn(const TracedProgram& program, const Network& net, std::int64_t rounds,
                const std::vector<std::pair<std::string, std::vector<double>>>& sensors = {}) {
  BasicSimulation<Space> sim(program, net, 1);
  for (const auto& [name, values] : sensors) {
    for (std::int64_t d = 0; d < net.devices(); ++d) sim.sensor(name).set(d, 0, values[d]);
  }
  sim.run(rounds);
  return sim.output();
}

// The entry of j's row that holds d.
std::int64_t entryOf(const Network& net, std::int64_t j, std::int64_t d) {
  for (std::int64_t k = net.offsets()[j]; k < net.offsets()[j + 1]; ++k) {
    if (net.neighbors()[k] == d) return k;
  }
  return -1;
}

// nbr(-1, 1000 uid + neighbors(uid)): each device sends neighbor j the number 1000 d + j.
// Round 1: nothing came (the own entry is init); round 2: every neighbor sent its own entry
// (nobody was aligned in round 1); from round 3 on, what each addressed to this device.
TYPED_TEST(Exchange, NbrOfANeighborFieldReceivesWhatEachNeighborSentIt) {
  const auto program = trace([](Program& p) {
    const Field<double> id = toDouble(p.uid());
    return p.nbr(-1.0, id * 1000.0 + p.neighbors(id)).sum();
  });
  EXPECT_EQ(program.edgePlanes, 1);
  for (const Network& net : {Network::grid(6, 5, 8), Network::randomGeometric(300, 1.4, 5)}) {
    for (std::int64_t rounds : {1, 2, 3, 6}) {
      const HostPlane out = runOn<TypeParam>(program, net, rounds);
      for (std::int64_t d = 0; d < net.devices(); ++d) {
        double expected = 0.0;
        for (std::int64_t j : net.neighborsOf(d)) {
          if (rounds == 1) {
            expected += j == d ? -1.0 : 0.0;
          } else {
            expected += rounds == 2 || j == d ? 1001.0 * double(j) : 1000.0 * double(j) + double(d);
          }
        }
        ASSERT_EQ(out(d, 0), expected)
            << net.description() << ", round " << rounds << ", device " << d;
      }
    }
  }
}

// exchange(0, n -> n + neighbors(uid)): the message on each edge goes back and forth, each
// device adding the id of the device it sends to. A host loop keeps every message.
TYPED_TEST(Exchange, ExchangeAnswersEachNeighborWithWhatItSent) {
  const auto program = trace([](Program& p) {
    const Field<double> id = toDouble(p.uid());
    return p.exchange(0.0, [&](const NbrField<double>& n) { return n + p.neighbors(id); }).sum();
  });
  const Network net = Network::randomGeometric(250, 1.5, 2);
  const auto& offsets = net.offsets();
  const auto& neighbors = net.neighbors();
  std::vector<double> sent(neighbors.size(), 0.0), ownSent(net.devices(), 0.0);
  for (std::int64_t r = 1; r <= 7; ++r) {
    std::vector<double> next(sent.size()), ownNext(ownSent.size()), result(net.devices());
    for (std::int64_t d = 0; d < net.devices(); ++d) {
      const double own = (r == 1 ? 0.0 : ownSent[d]) + double(d);
      ownNext[d] = own;
      double sum = 0.0;
      for (std::int64_t k = offsets[d]; k < offsets[d + 1]; ++k) {
        const std::int64_t j = neighbors[k];
        const double v = j == d || r == 1 ? own : sent[entryOf(net, j, d)] + double(j);
        next[k] = v;
        if (j == d || r > 1) sum += v;  // the fold sees the aligned entries
      }
      result[d] = sum;
    }
    sent.swap(next), ownSent.swap(ownNext);
    const HostPlane out = runOn<TypeParam>(program, net, r);
    for (std::int64_t d = 0; d < net.devices(); ++d) {
      ASSERT_EQ(bitsOf(out(d, 0)), bitsOf(result[d])) << "round " << r << ", device " << d;
    }
  }
}

// Inside a branch a device hears only its side; a device that changes side starts from init,
// and a neighbor that was not aligned with it sent it its own entry.
TYPED_TEST(Exchange, ExchangesAlignWithinBranchSides) {
  const auto program = trace([](Program& p) {
    const Field<double> id = toDouble(p.uid());
    auto received = [&](double init) { return p.nbr(init, id * 1000.0 + p.neighbors(id)).sum(); };
    return p.branch(
        p.sense<bool>("left"), [&] { return received(-1.0); },
        [&] { return received(-2.0) * 10.0; });
  });
  const Network line = Network::grid(8, 1);
  BasicSimulation<TypeParam> sim(program, line, 1);
  for (std::int64_t d = 0; d < 8; ++d) sim.sensor("left").set(d, 0, d < 4 ? 1.0 : 0.0);
  sim.run(3);
  HostPlane out = sim.output();
  EXPECT_EQ(out(3, 0), 2003.0 + 3003.0);           // 4 is on the other side
  EXPECT_EQ(out(4, 0), (4004.0 + 5004.0) * 10.0);  // and 3 too, for 4
  EXPECT_EQ(out(0, 0), 0.0 + 1000.0);
  sim.sensor("left").set(3, 0, 0.0);  // 3 moves to the right side
  sim.run(1);
  out = sim.output();
  EXPECT_EQ(out(3, 0), (-2.0 + 4004.0) * 10.0);    // init, and 4's own entry (3 was not aligned)
  EXPECT_EQ(out(2, 0), 1002.0 + 2002.0 + 3002.0);  // sent last round, from 2's side
  EXPECT_EQ(out(4, 0), (4004.0 + 5004.0) * 10.0);  // 3 sent nothing on this side last round
  sim.run(1);
  out = sim.output();
  EXPECT_EQ(out(3, 0), (3003.0 + 4004.0) * 10.0);  // 4 had not heard 3: its own entry again
  EXPECT_EQ(out(2, 0), 1002.0 + 2002.0);           // 3 has left 2's side
  EXPECT_EQ(out(4, 0), (3004.0 + 4004.0 + 5004.0) * 10.0);  // 3 had heard 4: addressed to 4
}

// What the next round reads of the exchanges (edge planes included) is carried: 3 + 4 rounds
// through a restore are 7 rounds.
TYPED_TEST(Exchange, ExchangesCarryAcrossARestore) {
  const auto program = trace([](Program& p) {
    const Field<double> id = toDouble(p.uid());
    return p.exchange(0.5, [&](const NbrField<double>& n) { return n * 0.5 + p.neighbors(id); })
        .sum();
  });
  const Network net = Network::grid(9, 7);
  BasicSimulation<TypeParam> straight(program, net, 2);
  straight.run(7);
  BasicSimulation<TypeParam> first(program, net, 2), second(program, net, 2);
  first.run(3);
  second.restore(first.carry());
  second.run(4);
  const HostPlane a = straight.output(), b = second.output();
  for (std::int64_t d = 0; d < net.devices(); ++d) {
    for (std::int64_t s = 0; s < 2; ++s)
      ASSERT_EQ(bitsOf(a(d, s)), bitsOf(b(d, s))) << "device " << d;
  }
  // Two exports (the exchange's own entries, neighbors), then the exchange's edge plane.
  EXPECT_EQ(first.carry().exports.extent(0), std::size_t(2 * net.devices() + net.entries()));
}

// The weighted multi-path collection, replayed by a host loop with the same operations in the
// same order: the same bits; and once the flow settles the source holds the sum of the values.
std::vector<double> collectWeightedRef(const Network& net, const std::vector<double>& dist,
                                       const std::vector<double>& value, double radius,
                                       std::int64_t rounds) {
  const auto& offsets = net.offsets();
  const auto& neighbors = net.neighbors();
  const auto lengths = net.lengths();
  const auto D = net.devices();
  std::vector<double> collected(D), part(neighbors.size());
  for (std::int64_t r = 1; r <= rounds; ++r) {
    const bool fresh = r == 1;
    std::vector<double> nextCollected(D), nextPart(part.size());
    for (std::int64_t d = 0; d < D; ++d) {
      std::vector<double> weight;
      double total = 0.0;
      for (std::int64_t k = offsets[d]; k < offsets[d + 1]; ++k) {
        const std::int64_t j = neighbors[k];
        const double theirs = j == d ? dist[d] : dist[j];
        const double nearer = theirs < kInf && dist[d] < kInf ? dist[d] - theirs : 0.0;
        double reach = radius - lengths[k];
        reach = reach < 0.0 ? 0.0 : reach;
        const double w = reach * nearer < 0.0 ? 0.0 : reach * nearer;
        weight.push_back(w);
        if (j == d || !fresh) total = total + w;
      }
      const double factor = total == 0.0 ? 1.0 : total;
      double own = 0.0, acc = 0.0;
      for (std::int64_t k = offsets[d]; k < offsets[d + 1]; ++k) {
        if (neighbors[k] == d) own = weight[k - offsets[d]] / factor;
      }
      for (std::int64_t k = offsets[d]; k < offsets[d + 1]; ++k) {
        const std::int64_t j = neighbors[k];
        nextPart[k] = j != d && !fresh ? weight[k - offsets[d]] / factor : own;
        if (j != d && !fresh) acc = acc + collected[j] * part[entryOf(net, j, d)];
      }
      nextCollected[d] = value[d] + acc;
    }
    collected.swap(nextCollected), part.swap(nextPart);
  }
  return collected;
}

template <class Space>
void expectCollectWeighted(const Network& net, std::int64_t source, double radius) {
  const auto program = trace([&](Program& p) {
    return lib::collectWeighted(p, p.sense<double>("distance"), radius, p.sense<double>("value"));
  });
  EXPECT_EQ(program.edgePlanes, 1);
  const std::vector<double> dist = dijkstra(net, {source});
  std::vector<double> value(net.devices());
  double reachable = 0.0;
  for (std::int64_t d = 0; d < net.devices(); ++d) {
    value[d] = 1.0 + std::sin(0.37 * double(d)) * 0.5;
    if (dist[d] < kInf) reachable += value[d];
  }
  for (std::int64_t rounds : {1, 2, 5, 60}) {
    const HostPlane out =
        runOn<Space>(program, net, rounds, {{"distance", dist}, {"value", value}});
    const auto expected = collectWeightedRef(net, dist, value, radius, rounds);
    for (std::int64_t d = 0; d < net.devices(); ++d) {
      ASSERT_EQ(bitsOf(out(d, 0)), bitsOf(expected[d]))
          << net.description() << ", round " << rounds << ", device " << d;
    }
    if (rounds == 60) {
      EXPECT_NEAR(out(source, 0), reachable, 1e-9 * reachable);
    }
  }
}

TYPED_TEST(Exchange, CollectWeightedMatchesAHostLoopAndConservesTheSum) {
  expectCollectWeighted<TypeParam>(Network::grid(12, 9, 8), 40, 1.5);
  expectCollectWeighted<TypeParam>(Network::randomGeometric(400, 1.6, 3), 17, 1.6);
}

// Many samples: the entry programs run each entry's samples at once (in runs of at most 64:
// 70 samples give a run of 64 and one of 6), after a first round that takes them pair by pair;
// every sample still gets the host loop's bits for its own source and values. A fold that
// reads the device's own export (not a slot) goes with it.
TYPED_TEST(Exchange, ManySamplesEachGetTheirOwnBits) {
  const Network net = Network::randomGeometric(300, 1.6, 4);
  const double radius = 1.6;
  const auto program = trace([&](Program& p) {
    const Field<double> distance = p.sense<double>("distance");
    const Field<double> collected =
        lib::collectWeighted(p, distance, radius, p.sense<double>("value"));
    const Field<double> seen = (p.neighbors(collected) * p.edgeLength()).sum();
    return p.tuple(collected, seen);
  });
  constexpr std::int64_t kSamples = 70;
  std::vector<std::vector<double>> dist(kSamples), value(kSamples);
  for (std::int64_t rounds : {1, 4}) {
    BasicSimulation<TypeParam> sim(program, net, kSamples);
    for (std::int64_t s = 0; s < kSamples; ++s) {
      dist[s] = dijkstra(net, {(s * 37) % net.devices()});
      value[s].resize(net.devices());
      for (std::int64_t d = 0; d < net.devices(); ++d) {
        value[s][d] = 1.0 + std::sin(0.37 * double(d) + 0.1 * double(s)) * 0.5;
        sim.sensor("distance").set(d, s, dist[s][d]);
        sim.sensor("value").set(d, s, value[s][d]);
      }
    }
    sim.run(rounds);
    const HostPlane out = sim.output();
    for (std::int64_t s = 0; s < kSamples; ++s) {
      const auto expected = collectWeightedRef(net, dist[s], value[s], radius, rounds);
      // The second component: last round's collected values, the own one this round's.
      const auto before = rounds > 1
                              ? collectWeightedRef(net, dist[s], value[s], radius, rounds - 1)
                              : std::vector<double>(net.devices(), 0.0);
      const auto lengths = net.lengths();
      for (std::int64_t d = 0; d < net.devices(); ++d) {
        ASSERT_EQ(bitsOf(out(d, s)), bitsOf(expected[d]))
            << "round " << rounds << ", sample " << s << ", device " << d;
        double seen = 0.0;
        for (std::int64_t k = net.offsets()[d]; k < net.offsets()[d + 1]; ++k) {
          const std::int64_t j = net.neighbors()[k];
          if (j != d && rounds == 1) continue;  // in the first round a device hears only itself
          seen = seen + (j == d ? expected[d] : before[j]) * lengths[k];
        }
        ASSERT_EQ(bitsOf(out(net.devices() + d, s)), bitsOf(seen))
            << "round " << rounds << ", sample " << s << ", device " << d;
      }
    }
  }
}

// collect-weighted sends each neighbor its weight over the weights' sum: the send's entry
// program starts with the whole of the fold's, so the fold keeps each weight for it
// (CompileTrace: shareEntryPrograms). The tests above check the bits, one sample (pairs in
// blocks) and 70 (rows), in first rounds (nothing kept: a fresh sample hears only itself) and
// after. A fold that skips the device's own entry is not paired: the send needs that entry too.
TEST(ExchangeCompile, ASendRepeatingAFoldsEntryProgramStartsFromItsValues) {
  auto pairs = [](bool excludeSelf) {
    const auto program = trace([&](Program& p) {
      const Field<double> distance = p.sense<double>("distance");
      const NbrField<double> weight =
          max((1.5 - p.edgeLength()) * (distance - p.nbr(distance, distance)), 0.0);
      const Field<double> total = excludeSelf ? weight.excludeSelf().sum() : weight.sum();
      return p.nbr(0.0, weight / total).sum();
    });
    std::vector<std::pair<std::int32_t, std::int32_t>> shared;  // (fold's count, send's start)
    for (const auto& fold : program.ops) {
      if (fold.keepEdge < 0) continue;
      for (const auto& send : program.ops) {
        if (send.code == impl::OpCode::ExchangeSend && send.edge == fold.keepEdge) {
          shared.emplace_back(fold.entryCount, send.sharedEntries);
        }
      }
    }
    return shared;
  };
  const auto shared = pairs(false);
  ASSERT_EQ(shared.size(), 1u);
  EXPECT_GE(shared[0].first, 4);
  EXPECT_EQ(shared[0].first, shared[0].second);
  EXPECT_TRUE(pairs(true).empty());
}

// Two unconditional exports of one value hold the same value every round (collect-weighted
// reads the distance its gradient shares again with nbr): they share a plane (CompileTrace:
// aliasSameExports). The same program exporting x * 1.0 (the same bits, another value) keeps
// both planes; both give the same bits from the first round on, whose nbr reads its own init.
// A conditional export (a branch side) keeps its plane.
TYPED_TEST(Exchange, ExportsOfOneValueShareAPlane) {
  auto build = [](bool sameValue, bool branch) {
    return trace([=](Program& p) {
      const Field<double> distance = lib::distanceGradient(p, p.sense<bool>("source"));
      const Field<double> copy = sameValue ? distance : distance * 1.0;
      auto weighted = [&] {
        const NbrField<double> theirs = p.nbr(copy, copy);
        return (max(2.0 - p.edgeLength(), 0.0) * (distance - theirs)).sum() +
               p.neighbors(copy).min();
      };
      if (!branch) return weighted();
      return p.branch(distance < 3.0, weighted, [&] { return distance; });
    });
  };
  const TracedProgram aliased = build(true, false), apart = build(false, false);
  ASSERT_EQ(aliased.exports.size(), 1u);  // the share's plane; nbr's and neighbors' read it
  ASSERT_EQ(apart.exports.size(), 2u);    // the share's, and one for x * 1.0 (nbr's and neighbors')
  std::string planes;
  for (const auto& node : aliased.description.nodes) {
    for (const auto& key : node.reads) planes += key.rfind("export:", 0) == 0 ? key + " " : "";
  }
  EXPECT_EQ(planes.find("nbr"), std::string::npos) << planes;
  EXPECT_EQ(build(true, true).exports.size(), 3u);

  const Network net = Network::randomGeometric(200, 1.7, 5);
  std::vector<double> source(std::size_t(net.devices()), 0.0);
  source[7] = source[150] = 1.0;
  for (const std::int64_t rounds : {1, 2, 5, 20}) {
    const HostPlane a = runOn<TypeParam>(aliased, net, rounds, {{"source", source}});
    const HostPlane b = runOn<TypeParam>(apart, net, rounds, {{"source", source}});
    for (std::int64_t d = 0; d < net.devices(); ++d) {
      ASSERT_EQ(bitsOf(a(d, 0)), bitsOf(b(d, 0))) << "round " << rounds << ", device " << d;
    }
  }
}

// A tuple is exchanged whole: a plane per component, each with its own messages.
TYPED_TEST(Exchange, TuplesAreExchangedComponentByComponent) {
  const auto program = trace([](Program& p) {
    const Field<double> id = toDouble(p.uid());
    const auto sent = p.exchange(p.tuple(p.constant(0.0), p.constant(1.0)), [&](const auto& n) {
      return p.tuple(get<0>(n) + p.neighbors(id), get<1>(n) * 2.0);
    });
    return p.tuple(get<0>(sent).sum(), get<1>(sent).max());
  });
  EXPECT_EQ(program.edgePlanes, 2);
  const Network net = Network::grid(5, 4);
  const HostPlane out = runOn<TypeParam>(program, net, 4);
  const HostPlane plain = runOn<TypeParam>(
      trace([](Program& p) {
        const Field<double> id = toDouble(p.uid());
        return p.exchange(0.0, [&](const NbrField<double>& n) { return n + p.neighbors(id); })
            .sum();
      }),
      net, 4);
  for (std::int64_t d = 0; d < net.devices(); ++d) {
    EXPECT_EQ(bitsOf(out(d, 0)), bitsOf(plain(d, 0))) << "device " << d;
    EXPECT_EQ(out(net.devices() + d, 0), 16.0) << "device " << d;  // 1 doubled in each of 4 rounds
  }
}

// The reverse of an exchange recomputed window by window, or with every value on the tape,
// gives the bits of one window over the whole run.
TYPED_TEST(Exchange, GradientsAreTheSameBitsInEveryWindowAndTape) {
  const auto program = trace([](Program& p) {
    const Field<double> x = p.sense<double>("x"), rate = p.parameter("rate");
    const auto sent = p.exchange(
        x, [&](const NbrField<double>& n) { return n * rate + p.neighbors(x * x) * 0.1; });
    return lib::collectWeighted(p, abs(x) * 4.0, 1.5, sent.sum() * rate);
  });
  const Network net = Network::grid(7, 6, 8);
  const std::vector<std::int64_t> stops{9, 4, 12, 0, 7};
  auto gradient = [&](std::int64_t window, diff::Tape tape) {
    diff::BasicGradient<TypeParam> g(program, net, 5);
    g.parameter("rate", {0.45});
    g.loss(diff::Loss::Output);
    for (std::int64_t d = 0; d < net.devices(); ++d) {
      for (std::int64_t s = 0; s < 5; ++s)
        g.sensor("x").set(d, s, std::sin(0.7 * double(d) + double(s)));
    }
    diff::GradientOptions o;
    o.window = window;
    o.tape = tape;
    return g.run(stops, o);
  };
  const auto full = gradient(12, diff::Tape::Carry);
  for (std::int64_t window : {1, 3, 5}) {
    for (diff::Tape tape : {diff::Tape::Carry, diff::Tape::Values}) {
      const auto r = gradient(window, tape);
      EXPECT_EQ(bitsOf(r.loss), bitsOf(full.loss));
      for (std::size_t s = 0; s < stops.size(); ++s) {
        EXPECT_EQ(bitsOf(r.sampleGradient[s][0]), bitsOf(full.sampleGradient[s][0]))
            << "window " << window << ", sample " << s;
      }
    }
  }
  EXPECT_NE(full.sampleGradient[2][0], 0.0);
}

TYPED_TEST(Exchange, ADirectedNetworkIsRefusedByName) {
  const std::string path = ::testing::TempDir() + "/kfield_exchange_arcs.txt";
  std::ofstream(path) << "0 1\n1 2\n2 1\n";
  const Network arcs = Network::fromEdgeList(path, true);
  const auto program =
      trace([](Program& p) { return p.nbr(0.0, p.neighbors(p.constant(1.0))).sum(); }, "relay");
  EXPECT_EQ(errorOf([&] { BasicSimulation<TypeParam> sim(program, arcs, 1); }),
            "kfield::Simulation: program 'relay' exchanges values with its neighbors, which needs "
            "a symmetric network; network 'edge list '" +
                path +
                "' (3 devices, 3 arcs)': device 1 "
                "hears device 0, but 0 does not hear 1");
}

}  // namespace
}  // namespace kfield::test
