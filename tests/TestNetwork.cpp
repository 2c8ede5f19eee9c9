#include "support/ErrorOf.hpp"

#include <kfield/net/Network.hpp>
#include <kfield/net/NetworkPart.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>

namespace kfield {
namespace {

// Rows sorted, self included, and i hears j exactly when j hears i, with the same length.
void expectWellFormed(const Network& net) {
  const auto lengths = net.lengths();
  ASSERT_EQ(static_cast<std::int64_t>(lengths.size()), net.entries());
  for (std::int64_t i = 0; i < net.devices(); ++i) {
    const auto row = net.neighborsOf(i);
    ASSERT_TRUE(std::is_sorted(row.begin(), row.end())) << "row " << i;
    ASSERT_EQ(std::adjacent_find(row.begin(), row.end()), row.end()) << "row " << i;
    ASSERT_TRUE(std::binary_search(row.begin(), row.end(), std::int32_t(i))) << "row " << i;
    for (std::int64_t k = net.offsets()[i]; k < net.offsets()[i + 1]; ++k) {
      const std::int32_t j = net.neighbors()[k];
      if (j == i) {
        ASSERT_EQ(lengths[k], 0.0);
        continue;
      }
      const auto back = net.neighborsOf(j);
      const auto it = std::lower_bound(back.begin(), back.end(), std::int32_t(i));
      ASSERT_TRUE(it != back.end() && *it == i) << i << " hears " << j << " but not back";
      ASSERT_EQ(lengths[net.offsets()[j] + (it - back.begin())], lengths[k]);
    }
  }
}

TEST(Network, GridOfFourNeighbors) {
  const Network net = Network::grid(3, 2);  // 0 1 2 / 3 4 5
  EXPECT_EQ(net.devices(), 6);
  EXPECT_EQ(net.neighborsOf(0), (std::vector<std::int32_t>{0, 1, 3}));
  EXPECT_EQ(net.neighborsOf(4), (std::vector<std::int32_t>{1, 3, 4, 5}));
  EXPECT_EQ(net.neighborsOf(5), (std::vector<std::int32_t>{2, 4, 5}));
  EXPECT_EQ(net.entries(), 6 + 2 * 7);  // self entries plus both directions of 7 edges
  expectWellFormed(net);
  EXPECT_EQ(net.x()[4], 1.0);
  EXPECT_EQ(net.y()[4], 1.0);
}

TEST(Network, GridOfEightNeighborsHasDiagonalLengths) {
  const Network net = Network::grid(3, 3, 8);
  EXPECT_EQ(net.neighborsOf(4), (std::vector<std::int32_t>{0, 1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(net.lengths()[net.offsets()[4]], std::sqrt(2.0));  // to 0
  EXPECT_EQ(net.lengths()[net.offsets()[4] + 1], 1.0);         // to 1
  EXPECT_EQ(net.neighborsOf(0), (std::vector<std::int32_t>{0, 1, 3, 4}));
  expectWellFormed(net);
}

TEST(Network, RandomGeometricMatchesAllPairsBruteForce) {
  const Network net = Network::randomGeometric(3000, 1.7, 9);
  ASSERT_TRUE(net.hasPositions());
  const double r2 = 1.7 * 1.7;
  const auto x = net.x(), y = net.y();
  for (std::int64_t i = 0; i < net.devices(); ++i) {
    std::vector<std::int32_t> expected;
    for (std::int64_t j = 0; j < net.devices(); ++j) {
      const double dx = x[j] - x[i], dy = y[j] - y[i];
      if (dx * dx + dy * dy <= r2) expected.push_back(std::int32_t(j));
    }
    ASSERT_EQ(net.neighborsOf(i), expected) << "device " << i;
  }
  expectWellFormed(net);
}

TEST(Network, RandomGeometricIsTheSameGraphForTheSameSeed) {
  const Network a = Network::randomGeometric(5000, 1.5, 3),
                b = Network::randomGeometric(5000, 1.5, 3);
  const Network c = Network::randomGeometric(5000, 1.5, 4);
  EXPECT_EQ(a.neighbors(), b.neighbors());
  EXPECT_EQ(a.lengths(), b.lengths());
  EXPECT_NE(a.neighbors(), c.neighbors());
  // one device per unit area: about pi r^2 neighbors besides itself
  const double mean = double(a.entries() - a.devices()) / double(a.devices());
  EXPECT_NEAR(mean, M_PI * 1.5 * 1.5, 1.0);
}

// Numbered along a Hilbert curve: the same points and edges, renumbered, and consecutive ids
// are near each other (so a run of ids is a region of the plane).
TEST(Network, HilbertOrderRenumbersTheSameGraphAlongTheCurve) {
  const Network drawn = Network::randomGeometric(3000, 1.5, 3);
  const Network curve = Network::randomGeometric(3000, 1.5, 3, DeviceOrder::Hilbert);
  EXPECT_EQ(curve.description(), drawn.description() + ", numbered along a Hilbert curve");
  EXPECT_EQ(Network::fromSpec("rgg:3000:1.5:3:hilbert").neighbors(), curve.neighbors());
  EXPECT_EQ(Network::fromSpec("rgg:3000:1.5:hilbert").neighbors(),
            Network::randomGeometric(3000, 1.5, 1, DeviceOrder::Hilbert).neighbors());
  ASSERT_EQ(curve.devices(), drawn.devices());
  ASSERT_EQ(curve.entries(), drawn.entries());
  const std::vector<double> dx = drawn.x(), dy = drawn.y(), cx = curve.x(), cy = curve.y();
  std::map<std::pair<double, double>, std::int32_t> drawnAt;
  for (std::size_t i = 0; i < dx.size(); ++i) drawnAt[{dx[i], dy[i]}] = std::int32_t(i);
  ASSERT_EQ(drawnAt.size(), dx.size());
  std::vector<std::int32_t> was(cx.size());
  for (std::size_t i = 0; i < cx.size(); ++i) {
    const auto at = drawnAt.find({cx[i], cy[i]});
    ASSERT_NE(at, drawnAt.end()) << "device " << i << " is no drawn point";
    was[i] = at->second;
  }
  double step = 0, drawnStep = 0;
  for (std::int64_t i = 0; i < curve.devices(); ++i) {
    std::vector<std::int32_t> mapped;
    for (std::int32_t j : curve.neighborsOf(i)) mapped.push_back(was[j]);
    std::sort(mapped.begin(), mapped.end());
    ASSERT_EQ(mapped, drawn.neighborsOf(was[i])) << "device " << i;
    if (i > 0) {
      step += std::hypot(cx[i] - cx[i - 1], cy[i] - cy[i - 1]);
      drawnStep += std::hypot(dx[i] - dx[i - 1], dy[i] - dy[i - 1]);
    }
  }
  const double n = double(curve.devices() - 1);
  EXPECT_LT(step / n, 1.5) << "mean distance between consecutive ids";  // drawn order: ~0.52 side
  EXPECT_GT(drawnStep / n, 15.0);
}

// A part of an rgg built from its points alone is the part cut from the whole graph, in either
// numbering: where stretches of the curve hold many points or few, radii from none to all.
TEST(Network, RandomGeometricPartsAreCutsOfTheWholeGraph) {
  struct Case {
    std::int64_t n;
    double radius;
    std::uint64_t seed;
  };
  for (const Case& c : {Case{1, 1.0, 1}, Case{700, 1.5, 1}, Case{5000, 1.2, 7}, Case{200, 30.0, 2},
                        Case{300, 1e-3, 3}, Case{300000, 1.1, 5}}) {
    for (DeviceOrder order : {DeviceOrder::Drawn, DeviceOrder::Hilbert}) {
      const Network whole = Network::randomGeometric(c.n, c.radius, c.seed, order);
      std::vector<IndexRange> runs{{0, c.n}, {0, 0}, {c.n, c.n}, {0, 1}, {c.n - 1, c.n}};
      for (std::int64_t parts : {2, 3, 7}) {
        for (std::int64_t p = 0; p < parts && c.n < 300000; ++p)
          runs.push_back({c.n * p / parts, c.n * (p + 1) / parts});
      }
      if (c.n == 300000) runs.push_back({123457, 181000});
      for (const IndexRange& run : runs) {
        const std::string what = whole.description() + ", devices [" + std::to_string(run.begin) +
                                 ", " + std::to_string(run.end) + ")";
        const NetworkPart built = NetworkPart::randomGeometric(c.n, c.radius, c.seed, order, run);
        const NetworkPart cut = NetworkPart::of(whole, run);
        EXPECT_EQ(built.ids, cut.ids) << what;
        EXPECT_EQ(built.owned.begin, cut.owned.begin) << what;
        EXPECT_EQ(built.owned.end, cut.owned.end) << what;
        EXPECT_EQ(built.ownedIds.begin, run.begin) << what;
        EXPECT_EQ(built.ownedIds.end, run.end) << what;
        EXPECT_EQ(built.devices, c.n) << what;
        EXPECT_EQ(built.network.offsets(), cut.network.offsets()) << what;
        EXPECT_EQ(built.network.neighbors(), cut.network.neighbors()) << what;
        EXPECT_EQ(built.network.x(), cut.network.x()) << what;  // doubles compared exactly
        EXPECT_EQ(built.network.y(), cut.network.y()) << what;
        EXPECT_EQ(built.network.lengths(), cut.network.lengths()) << what;
        EXPECT_EQ(built.network.description(), cut.network.description()) << what;
      }
    }
  }
  EXPECT_EQ(test::errorOf([] {
              NetworkPart::randomGeometric(10, -1.0, 1, DeviceOrder::Drawn, {0, 5});
            }),
            "kfield::NetworkPart::randomGeometric: the radius must be finite and > 0, got -1");
  EXPECT_EQ(test::errorOf([] {
              NetworkPart::randomGeometric(0, 1.0, 1, DeviceOrder::Drawn, {0, 0});
            }),
            "kfield::NetworkPart::randomGeometric: the number of devices must be in [1, "
            "2147483647], got 0");
  EXPECT_EQ(
      test::errorOf([] {
        NetworkPart::randomGeometric(10, 1.0, 1, DeviceOrder::Hilbert, {4, 11});
      }),
      "kfield::NetworkPart::randomGeometric: devices [4, 11) are not a run of the 10 devices of "
      "network "
      "'random geometric graph of 10 devices, radius 1, seed 1, numbered along a Hilbert curve'");
  const std::string tooBig = test::errorOf([] {
    NetworkPart::randomGeometric(2000000000, 1.0, 1, DeviceOrder::Drawn, {0, 1000000000});
  });
  EXPECT_EQ(
      tooBig.rfind(
          "kfield::NetworkPart::randomGeometric: devices [0, 1000000000) of a random geometric "
          "graph "
          "of 2000000000 devices, radius 1, seed 1 needs 37.3 GiB, but this machine's memory is ",
          0),
      0u)
      << tooBig;
}

class EdgeFile : public ::testing::Test {
 protected:
  std::string path = ::testing::TempDir() + "kfield_edges.txt";
  void write(const std::string& text) { std::ofstream(path) << text; }
  void TearDown() override { std::remove(path.c_str()); }
  std::string errorOf() {
    return test::errorOf([&] { Network::fromEdgeList(path); });
  }
};

TEST_F(EdgeFile, ReadsEdgesLengthsAndComments) {
  write("# a triangle and a tail\n0 1 2.5\n1 2\n\n2 0 # back\n3 2 0.25\n1 0 2.5\n");
  const Network net = Network::fromEdgeList(path);
  EXPECT_EQ(net.devices(), 4);
  EXPECT_EQ(net.neighborsOf(2), (std::vector<std::int32_t>{0, 1, 2, 3}));
  EXPECT_EQ(net.lengths()[net.offsets()[0] + 1], 2.5);   // 0 -> 1
  EXPECT_EQ(net.lengths()[net.offsets()[2] + 3], 0.25);  // 2 -> 3
  EXPECT_EQ(net.lengths()[net.offsets()[2] + 1], 1.0);   // 2 -> 1, no length given
  expectWellFormed(net);
}

// An arc `src dst`: dst hears src, not the other way round.
TEST_F(EdgeFile, DirectedListsGiveEachArcToItsHead) {
  write("0 1 2.5\n1 2\n2 1 3\n3 0\n0 1 2.5\n");
  const Network net = Network::fromEdgeList(path, true);
  EXPECT_EQ(net.devices(), 4);
  EXPECT_EQ(net.neighborsOf(0), (std::vector<std::int32_t>{0, 3}));
  EXPECT_EQ(net.neighborsOf(1), (std::vector<std::int32_t>{0, 1, 2}));
  EXPECT_EQ(net.neighborsOf(2), (std::vector<std::int32_t>{1, 2}));
  EXPECT_EQ(net.neighborsOf(3), (std::vector<std::int32_t>{3}));
  EXPECT_EQ(net.lengths()[net.offsets()[1]], 2.5);      // 1 hears 0
  EXPECT_EQ(net.lengths()[net.offsets()[1] + 2], 3.0);  // 1 hears 2
  EXPECT_EQ(net.lengths()[net.offsets()[2]], 1.0);      // 2 hears 1
  EXPECT_EQ(Network::fromSpec("arcs:" + path).entries(), net.entries());
}

TEST_F(EdgeFile, BadLinesAreNamedByFileAndLine) {
  auto expectLine = [&](const std::string& text, const std::string& what) {
    write(text);
    EXPECT_EQ(errorOf(), "kfield::Network::fromEdgeList: " + path + ":" + what) << text;
  };
  expectLine("0 1\nzero one\n", "2: device id 'zero' is not a whole number in [0, 2147483647)");
  expectLine("0 1 2 3\n", "1: expected 'src dst [length]', got '0 1 2 3'");
  expectLine("7\n", "1: expected 'src dst [length]', got '7'");
  expectLine("1 2.5\n", "1: device id '2.5' is not a whole number in [0, 2147483647)");
  expectLine("0 -1\n", "1: device id '-1' is not a whole number in [0, 2147483647)");
  expectLine("0 2147483647\n",
             "1: device id '2147483647' is not a whole number in [0, 2147483647)");
  expectLine("0 99999999999999999999\n",
             "1: device id '99999999999999999999' is not a whole number in [0, 2147483647)");
  expectLine("0 1 fast\n", "1: length 'fast' is not a finite decimal number >= 0");
  expectLine("0 1 -2\n", "1: length '-2' is not a finite decimal number >= 0");
  expectLine("0 1 0x1p3\n", "1: length '0x1p3' is not a finite decimal number >= 0");
  expectLine("0 1 inf\n", "1: length 'inf' is not a finite decimal number >= 0");
  expectLine("0 1 1e999\n", "1: length '1e999' is not a finite decimal number >= 0");
  expectLine("0 1 2.5.1\n", "1: length '2.5.1' is not a finite decimal number >= 0");
  write("4 4\n");
  EXPECT_EQ(errorOf(),
            "kfield::Network::fromEdgeList: " + path + ":1: device 4 is joined to itself");
  write("0 1 1\n1 0 2.5\n");
  EXPECT_EQ(errorOf(), "kfield::Network::fromEdgeList: " + path +
                           ":2: edge 0 1 has length 2.5, but line 1 gave 1");
  write("# nothing\n");
  EXPECT_EQ(errorOf(), "kfield::Network::fromEdgeList: '" + path + "' lists no edge");
  std::remove(path.c_str());
  EXPECT_EQ(errorOf(), "kfield::Network::fromEdgeList: cannot open '" + path +
                           "' (No such file or directory)");
  write(std::string("0 1\n") + std::string(5000, '1') +
        "\n");  // a line that never ends is not read whole
  EXPECT_EQ(errorOf(), "kfield::Network::fromEdgeList: " + path +
                           ":2: a line longer than 4096 bytes: not an edge list");
  write("0 1\n2 \x1b[2J\n");  // raw bytes are quoted, never written to a terminal
  EXPECT_EQ(errorOf(), "kfield::Network::fromEdgeList: " + path +
                           ":2: device id '\\x1b[2J' is not a whole number in [0, 2147483647)");
}

// A part read from an edge list alone is the part cut from the whole list's network: edges and
// arcs, lengths given and not, repeats, comments, a device that hears no one.
TEST_F(EdgeFile, PartsReadAloneAreCutsOfTheWholeList) {
  std::string text = "# a list\n";
  for (int i = 0; i < 60; ++i) {  // an edge's length follows from its ends: repeats agree
    const int j = (i * 7 + 3) % 61, k = (i * 13 + 5) % 61;
    if (i != j)
      text += std::to_string(i) + " " + std::to_string(j) + " " +
              std::to_string(0.5 + (i + j) % 5) + "\n";
    if (i != k)
      text += std::to_string(k) + " " + std::to_string(i) + " " +
              std::to_string(0.5 + (i + k) % 5) + "\n";
  }
  text += "# unit lengths\n3 10\n10 3\n70 2\n";  // a repeat (both ways), the largest id
  write(text);
  for (bool directed : {false, true}) {
    const Network whole = Network::fromEdgeList(path, directed);
    const std::int64_t n = whole.devices();
    ASSERT_EQ(n, 71);
    std::vector<IndexRange> runs{{0, n}, {0, 0}, {n, n}, {0, 1}, {n - 1, n}, {64, 70}};
    for (std::int64_t parts : {2, 3, 5}) {
      for (std::int64_t p = 0; p < parts; ++p) runs.push_back({n * p / parts, n * (p + 1) / parts});
    }
    for (const IndexRange& run : runs) {
      const std::string what = whole.description() + ", devices [" + std::to_string(run.begin) +
                               ", " + std::to_string(run.end) + ")";
      const NetworkPart read = NetworkPart::fromEdgeList(path, directed, run);
      const NetworkPart cut = NetworkPart::of(whole, run);
      EXPECT_EQ(read.ids, cut.ids) << what;
      EXPECT_EQ(read.owned.begin, cut.owned.begin) << what;
      EXPECT_EQ(read.owned.end, cut.owned.end) << what;
      EXPECT_EQ(read.devices, n) << what;
      EXPECT_EQ(read.network.offsets(), cut.network.offsets()) << what;
      EXPECT_EQ(read.network.neighbors(), cut.network.neighbors()) << what;
      EXPECT_EQ(read.network.lengths(), cut.network.lengths()) << what;
      EXPECT_EQ(read.name, "edge list '" + path + "' (71 devices)") << what;
    }
  }
  // A repeat that disagrees is refused by a part that keeps it; a bad line by every part.
  write("0 1 1\n2 3 1\n3 2 4\nseven 1\n");
  EXPECT_EQ(test::errorOf([&] {
              NetworkPart::fromEdgeList(path, false, {0, 2});
            }),
            "kfield::Network::fromEdgeList: " + path +
                ":4: device id 'seven' is not a whole number in [0, 2147483647)");
  write("0 1 1\n2 3 1\n3 2 4\n");
  EXPECT_EQ(
      test::errorOf([&] {
        NetworkPart::fromEdgeList(path, false, {2, 4});
      }),
      "kfield::Network::fromEdgeList: " + path + ":3: edge 2 3 has length 4, but line 2 gave 1");
  EXPECT_EQ(NetworkPart::fromEdgeList(path, false, {0, 2}).network.neighbors(),
            (std::vector<std::int32_t>{0, 1, 0, 1}));
  write("0 1 1\n2 3 1\n");
  EXPECT_EQ(
      test::errorOf([&] {
        NetworkPart::fromEdgeList(path, false, {0, 5});
      }),
      "kfield::NetworkPart::fromEdgeList: devices [0, 5) are not a run of the 4 devices of network "
      "'edge list '" +
          path + "' (4 devices)'");
}

TEST(Network, SpecsBuildTheirNetworks) {
  EXPECT_EQ(Network::fromSpec("grid:4x3").devices(), 12);
  EXPECT_EQ(Network::fromSpec("grid:4x3:8").neighborsOf(5).size(), 9u);
  EXPECT_EQ(Network::fromSpec("rgg:100:2.5:7").neighbors(),
            Network::randomGeometric(100, 2.5, 7).neighbors());
  EXPECT_EQ(Network::fromSpec("rgg:100:2.5").neighbors(),
            Network::randomGeometric(100, 2.5, 1).neighbors());
  // Radii far below the spacing: at most about one cell per device, however small.
  for (const char* spec : {"rgg:1000:0.003", "rgg:1000:1e-7", "rgg:1000:1e-300"}) {
    EXPECT_EQ(Network::fromSpec(spec).entries(), 1000) << spec;  // each device alone
  }
}

TEST(Network, BadSpecsAreRefusedByName) {
  auto errorOf = [](const std::string& spec) {
    return test::errorOf([&] { Network::fromSpec(spec); });
  };
  const std::string usage =
      " (expected grid:WxH[:4|:8], rgg:N:RADIUS[:SEED][:hilbert], edges:FILE or arcs:FILE)";
  auto expectSpec = [&](const std::string& spec, const std::string& what) {
    EXPECT_EQ(errorOf(spec), "kfield::Network::fromSpec: network '" + spec + "': " + what);
  };
  expectSpec("mesh:4", "not understood" + usage);
  expectSpec("grid:4", "size must be WxH" + usage);
  expectSpec("grid:4xq", "height 'q' is not a number");
  expectSpec("grid:4x3:6", "the neighborhood must be 4 or 8, got 6");
  expectSpec("grid:0x3", "width and height must be >= 1, got 0x3");
  expectSpec("grid:100000x100000", "100000x100000 is more than 2147483647 devices");
  expectSpec("rgg:10:-1", "the radius must be finite and > 0, got -1");
  expectSpec("rgg:2.5:1", "device count '2.5' is not a whole number >= 0");
  expectSpec("rgg:0:1", "the number of devices must be in [1, 2147483647], got 0");
  expectSpec("rgg:10:1:2:3", "not understood" + usage);
  expectSpec("rgg:10:1:2:hilbert:x", "not understood" + usage);
  expectSpec("", "empty" + usage);
  // Edges that would not fit in any machine's memory: counted, named, nothing allocated.
  const std::string huge = errorOf("rgg:10000000:1000");
  EXPECT_EQ(
      huge.rfind("kfield::Network::fromSpec: network 'rgg:10000000:1000': radius 1000 (about ", 0),
      0u)
      << huge;
  EXPECT_NE(huge.find("e+13 edges among 10000000 devices) needs "), std::string::npos) << huge;
  EXPECT_NE(huge.find(" TiB, but this machine's memory is "), std::string::npos) << huge;
}

// A network given as its arrays: a grid's own arrays give it back; broken arrays are named.
TEST(Network, FromCsrTakesAGridsArraysAndRefusesBrokenOnes) {
  const Network g = Network::grid(5, 3);
  const Network back =
      Network::fromCsr(g.offsets(), g.neighbors(), g.lengths(), g.x(), g.y(), "back");
  EXPECT_EQ(back.offsets(), g.offsets());
  EXPECT_EQ(back.neighbors(), g.neighbors());
  EXPECT_EQ(back.lengths(), g.lengths());
  EXPECT_EQ(back.x(), g.x());
  EXPECT_EQ(back.description(), "back");
  auto refusal = [](std::vector<std::int64_t> o, std::vector<std::int32_t> n,
                    std::vector<double> l = {}) {
    return test::errorOf([&] { Network::fromCsr(o, n, l, {}, {}, "x"); });
  };
  const std::string who = "kfield::Network::fromCsr: ";
  EXPECT_EQ(refusal({1, 2}, {0}), who + "offsets must start with 0");
  EXPECT_EQ(refusal({0, 1, 3}, {0, 1}), who + "offsets end at 3 but there are 2 entries");
  EXPECT_EQ(refusal({0, 2, 3}, {1, 0, 1}), who + "row 0: ids are not strictly increasing");
  EXPECT_EQ(refusal({0, 1, 2}, {1, 0}), who + "row 0: the device itself is not in its row");
  EXPECT_EQ(refusal({0, 1, 2}, {0, 5}), who + "row 1: neighbor 5 is not a device");
  EXPECT_EQ(refusal({0, 2, 4}, {0, 1, 0, 1}, {0.0, -1.0, 1.0, 0.0}),
            who + "row 0: length -1 (lengths are finite, >= 0, 0 for itself)");
  EXPECT_EQ(refusal({0, 2, 4}, {0, 1, 0, 1}, {0.0}), who + "1 lengths for 4 entries");
}

}  // namespace
}  // namespace kfield
