// Tracing: phyelds' alignment rules, made synchronous (who hears whom across branch, mux and
// align), and the paths and errors of the trace itself.
#include "support/ErrorOf.hpp"
#include "support/TestSpaces.hpp"

#include <kfield/field/Library.hpp>
#include <kfield/sim/Simulation.hpp>

#include <algorithm>
#include <optional>
#include <vector>

namespace kfield::test {
namespace {

template <class Space>
class Alignment : public ::testing::Test {};
TYPED_TEST_SUITE(Alignment, Spaces, SpaceNames);

// A line of 6 devices, 0 - 1 - 2 - 3 - 4 - 5.
const Network& line() {
  static const Network net = Network::grid(6, 1);
  return net;
}

template <class Space>
std::vector<double> runLine(
    const TracedProgram& program, std::int64_t rounds,
    const std::vector<std::pair<std::string, std::vector<double>>>& sensors) {
  BasicSimulation<Space> sim(program, line(), 1);
  for (const auto& [name, values] : sensors) {
    for (int d = 0; d < 6; ++d) sim.sensor(name).set(d, values[d]);
  }
  sim.run(rounds);
  const auto out = sim.output();
  std::vector<double> result(6);
  for (int d = 0; d < 6; ++d) result[d] = out(d, 0);
  return result;
}

// FCPP's nbr: every entry is a value sent last round, the device's own too (init in its first
// round); neighbors gives the device's current value for itself. On the line, after R rounds
// of a round counter: output = 100 x (sum over the row) + own entry.
TYPED_TEST(Alignment, NbrSeesWhatWasSentLastRoundEvenForItself) {
  auto program = [](bool sent) {
    return trace([sent](Program& p) {
      const auto round = p.remember(0.0, [&](Field<double> r) { return r + 1.0; });
      const NbrField<double> n = sent ? p.nbr(-1.0, round) : p.neighbors(round);
      return n.sum() * 100.0 + n.self();
    });
  };
  for (const std::int64_t rounds : {1, 4}) {
    const auto fcpp = runLine<TypeParam>(program(true), rounds, {});
    const auto ours = runLine<TypeParam>(program(false), rounds, {});
    for (int d = 0; d < 6; ++d) {
      const double r = double(rounds), entries = (d == 0 || d == 5) ? 2.0 : 3.0;
      // Round 1: no neighbor has sent anything, so a device sees itself alone.
      EXPECT_EQ(fcpp[d], rounds == 1 ? -101.0 : entries * (r - 1.0) * 100.0 + (r - 1.0)) << d;
      EXPECT_EQ(ours[d], rounds == 1 ? 101.0 : ((entries - 1.0) * (r - 1.0) + r) * 100.0 + r) << d;
    }
  }
  EXPECT_EQ(
      trace([](Program& p) { return p.nbr(0.0, p.sense<double>("x")).min(); }).exports[0].path,
      "nbr@0");
}

// Robots only hear robots, sensors only sensors (the two sides of a branch never meet).
TYPED_TEST(Alignment, DevicesOnDifferentBranchesNeverHearEachOther) {
  auto program = trace([](Program& p) {
    return p.branch(
        p.sense<bool>("robot"), [&] { return p.neighbors(p.constant(1.0)).sum(); },
        [&] { return p.neighbors(p.constant(1.0)).sum(); });
  });
  const std::vector<double> robot{1, 1, 0, 1, 1, 0};
  EXPECT_EQ(runLine<TypeParam>(program, 2, {{"robot", robot}}),
            (std::vector<double>{2, 2, 1, 2, 2, 1}));
  auto together = trace([](Program& p) { return p.neighbors(p.constant(1.0)).sum(); });
  EXPECT_EQ(runLine<TypeParam>(together, 2, {}), (std::vector<double>{2, 3, 3, 3, 3, 2}));
}

// Only one side communicates, yet every device meets at the calls that follow.
TYPED_TEST(Alignment, OneSidedBranchKeepsEveryoneAlignedAfterwards) {
  for (bool useBranch : {false, true}) {
    auto program = trace([&](Program& p) {
      const auto source = p.sense<bool>("source");
      const auto estimate = toDouble(p.uid());
      const auto nearest = useBranch ? p.branch(
                                           source, [&] { return p.constant(0.0); },
                                           [&] { return p.neighbors(estimate).min(); })
                                     : p.mux(source, 0.0, p.neighbors(estimate).min());
      return p.neighbors(nearest).count();
    });
    EXPECT_EQ(runLine<TypeParam>(program, 2, {{"source", {0, 0, 1, 0, 0, 0}}}),
              (std::vector<double>{2, 3, 3, 3, 3, 2}))
        << (useBranch ? "branch" : "mux");
  }
}

// The state of a side not taken is dropped: a counter there starts again on every entry.
TYPED_TEST(Alignment, CounterInAlternatingBranchRestartsEveryTime) {
  auto program = trace([](Program& p) {
    const auto on = p.remember(false, [&](kfield::Field<bool> f) { return !f; });  // T F T F
    return p.branch(
        on, [&] { return p.remember(0.0, [&](kfield::Field<double> c) { return c + 1.0; }); },
        [&] { return p.constant(-1.0); });
  });
  auto outside = trace([](Program& p) {
    const auto on = p.remember(false, [&](kfield::Field<bool> f) { return !f; });
    const auto count = p.remember(0.0, [&](kfield::Field<double> c) { return c + 1.0; });
    return p.mux(on, count, -1.0);
  });
  const std::vector<double> expected[] = {{1}, {-1}, {1}, {-1}, {1}};
  const std::vector<double> counted[] = {{1}, {-1}, {3}, {-1}, {5}};
  for (std::int64_t r = 1; r <= 5; ++r) {
    EXPECT_EQ(runLine<TypeParam>(program, r, {})[0], expected[r - 1][0]) << "round " << r;
    EXPECT_EQ(runLine<TypeParam>(outside, r, {})[0], counted[r - 1][0]) << "round " << r;
  }
}

TYPED_TEST(Alignment, NestedBranchesSplitIntoTheirLeaves) {
  auto program = trace([](Program& p) {
    auto count = [&] { return p.neighbors(p.constant(1.0)).sum(); };
    return p.branch(
        p.sense<bool>("a"), [&] { return p.branch(p.sense<bool>("b"), count, count); }, count);
  });
  // leaves: a&b = {0,1}, a&!b = {2,3}, !a = {4,5}
  EXPECT_EQ(runLine<TypeParam>(program, 2, {{"a", {1, 1, 1, 1, 0, 0}}, {"b", {1, 1, 0, 0, 1, 1}}}),
            (std::vector<double>{2, 2, 2, 2, 2, 2}));
  EXPECT_EQ(runLine<TypeParam>(program, 2, {{"a", {1, 1, 1, 1, 0, 0}}, {"b", {1, 0, 1, 0, 1, 1}}}),
            (std::vector<double>{1, 1, 1, 1, 2, 2}));
}

TYPED_TEST(Alignment, AlignByTeamHearsOnlyTheTeam) {
  auto program = trace([](Program& p) {
    return p.align(p.sense<int>("team"), [&] { return p.neighbors(p.constant(1.0)).sum(); });
  });
  EXPECT_EQ(runLine<TypeParam>(program, 2, {{"team", {0, 0, 1, 0, 0, 1}}}),
            (std::vector<double>{2, 2, 1, 2, 2, 1}));
  EXPECT_EQ(runLine<TypeParam>(program, 2, {{"team", {7, 7, 7, 7, 7, 7}}}),
            (std::vector<double>{2, 3, 3, 3, 3, 2}));
}

TYPED_TEST(Alignment, StateInsideAlignRestartsWhenTheKeyChanges) {
  auto program = trace([](Program& p) {
    return p.align(p.sense<int>("team"), [&] {
      return p.remember(0.0, [&](kfield::Field<double> c) { return c + 1.0; });
    });
  });
  BasicSimulation<TypeParam> sim(program, line(), 1);
  sim.sensor("team").fill(1);
  sim.run(3);
  EXPECT_EQ(sim.output()(0, 0), 3.0);
  sim.sensor("team").set(0, 2);
  sim.run(2);
  EXPECT_EQ(sim.output()(0, 0), 2.0);  // restarted at the change
  EXPECT_EQ(sim.output()(1, 0), 5.0);  // kept its key
}

TEST(Trace, DuplicatePathsAndBadNamesAreRefused) {
  auto traceError = [](auto fn) { return errorOf([&] { trace(fn); }); };
  EXPECT_EQ(traceError([](Program& p) {
              p.pinned("beacon", [&] { return p.neighbors(p.constant(1.0)).sum(); });
              return p.pinned("beacon", [&] { return p.neighbors(p.constant(2.0)).sum(); });
            }),
            "kfield::trace: two call sites have the path 'beacon'");
  EXPECT_EQ(
      traceError([](Program& p) { return p.aggregate("a/b", [&] { return p.constant(1.0); }); }),
      "kfield::trace: an aggregate name must be non-empty, without '/' or '@': 'a/b'");
  EXPECT_EQ(traceError([](Program& p) {
              p.sense<int>("x");
              return p.sense<double>("x");
            }),
            "kfield::trace: sensor 'x' is read with two different types");
}

// A neighbor field belongs to the branch side or align block that read it: folded in another
// (it leaked out of a side, or came in from outside) it is refused when traced, naming both.
TEST(Trace, NeighborFieldsAreFoldedWhereTheyWereRead) {
  auto traceError = [](auto fn) { return errorOf([&] { trace(fn); }); };
  EXPECT_EQ(traceError([](Program& p) {
              const auto x = p.sense<double>("x");
              std::optional<NbrField<double>> leaked;
              p.branch(
                  x < 1.0,
                  [&] {
                    leaked = p.neighbors(x);
                    return x;
                  },
                  [&] { return x; });
              return leaked->min();
            }),
            "kfield::trace: the neighbor field of 'branch@0/align_left/neighbors@0' is folded "
            "outside the branch side or align block that read it (at the top level): fold it "
            "there and return the field");
  EXPECT_EQ(traceError([](Program& p) {
              const auto x = p.sense<double>("x");
              const auto outside = p.neighbors(x);
              return p.align(p.uid() % 2, [&] { return outside.max(); });
            }),
            "kfield::trace: the neighbor field of 'neighbors@0' is folded outside the branch "
            "side or align block that read it (at 'align@1'): fold it there and return the field");
  EXPECT_EQ(traceError([](Program& p) {  // a tuple's components, each checked
              const auto x = p.sense<double>("x");
              std::optional<NbrField<Tuple<double, double>>> leaked;
              p.branch(
                  x < 1.0, [&] { return x; },
                  [&] {
                    leaked = p.neighbors(p.tuple(x, x));
                    return x;
                  });
              return get<1>(leaked->min());
            }),
            "kfield::trace: the neighbor field of 'branch@0/align_right/neighbors@0/@0' is folded "
            "outside the branch side or align block that read it (at the top level): fold it "
            "there and return the field");
}

TEST(Trace, PathsFollowPhyeldsRules) {
  auto program = trace([](Program& p) {
    const auto a = p.neighbors(p.constant(1.0)).sum();
    const auto b = p.aggregate("gradient", [&] { return p.neighbors(a).min(); });
    return p.branch(
        p.sense<bool>("s"), [&] { return p.neighbors(b).max(); }, [&] { return b; });
  });
  std::vector<std::string> paths;
  for (const auto& e : program.exports) paths.push_back(e.path);
  EXPECT_EQ(paths, (std::vector<std::string>{"neighbors@0", "gradient@1/neighbors@0",
                                             "branch@2/align_left/neighbors@0"}));
  EXPECT_FALSE(program.exports[1].keyed);
  EXPECT_TRUE(program.exports[2].keyed);
  const std::string text = describe(program);
  EXPECT_NE(text.find("export  @ branch@2/align_left/neighbors@0"), std::string::npos) << text;
}

}  // namespace
}  // namespace kfield::test
