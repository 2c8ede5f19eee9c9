#include "ErrorOf.hpp"

#include <kfield/net/Network.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>

namespace kfield {
namespace {

// Rows sorted, self included, and i hears j exactly when j hears i, with the same length.
void expectWellFormed(const Network& net) {
  for (std::int64_t i = 0; i < net.devices(); ++i) {
    const auto row = net.neighborsOf(i);
    ASSERT_TRUE(std::is_sorted(row.begin(), row.end())) << "row " << i;
    ASSERT_EQ(std::adjacent_find(row.begin(), row.end()), row.end()) << "row " << i;
    ASSERT_TRUE(std::binary_search(row.begin(), row.end(), std::int32_t(i))) << "row " << i;
    for (std::int64_t k = net.offsets()[i]; k < net.offsets()[i + 1]; ++k) {
      const std::int32_t j = net.neighbors()[k];
      if (j == i) {
        ASSERT_EQ(net.lengths()[k], 0.0);
        continue;
      }
      const auto back = net.neighborsOf(j);
      const auto it = std::lower_bound(back.begin(), back.end(), std::int32_t(i));
      ASSERT_TRUE(it != back.end() && *it == i) << i << " hears " << j << " but not back";
      ASSERT_EQ(net.lengths()[net.offsets()[j] + (it - back.begin())], net.lengths()[k]);
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
  for (std::int64_t i = 0; i < net.devices(); ++i) {
    std::vector<std::int32_t> expected;
    for (std::int64_t j = 0; j < net.devices(); ++j) {
      const double dx = net.x()[j] - net.x()[i], dy = net.y()[j] - net.y()[i];
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

TEST_F(EdgeFile, BadLinesAreNamedByFileAndLine) {
  write("0 1\nzero one\n");
  EXPECT_EQ(errorOf(), "kfield::Network::fromEdgeList: " + path +
                           ":2: expected 'src dst [length]', got 'zero one'");
  write("0 1 fast\n");
  EXPECT_EQ(errorOf(),
            "kfield::Network::fromEdgeList: " + path + ":1: length 'fast' is not a number");
  write("0 1 -2\n");
  EXPECT_EQ(errorOf(), "kfield::Network::fromEdgeList: " + path +
                           ":1: length must be finite and >= 0, got -2");
  write("0 -1\n");
  EXPECT_EQ(errorOf(), "kfield::Network::fromEdgeList: " + path +
                           ":1: device ids must be in [0, 2147483647), got 0 -1");
  write("4 4\n");
  EXPECT_EQ(errorOf(),
            "kfield::Network::fromEdgeList: " + path + ":1: device 4 is joined to itself");
  write("0 1 1\n1 0 2\n");
  EXPECT_EQ(errorOf(), "kfield::Network::fromEdgeList: " + path +
                           ":2: edge 0 1 has length 2.000000, but line 1 gave 1.000000");
  write("0 1 1 9\n");
  EXPECT_EQ(errorOf(),
            "kfield::Network::fromEdgeList: " + path + ":1: unexpected '9' after the length");
  write("# nothing\n");
  EXPECT_EQ(errorOf(), "kfield::Network::fromEdgeList: '" + path + "' lists no edge");
  std::remove(path.c_str());
  EXPECT_EQ(errorOf(), "kfield::Network::fromEdgeList: cannot open '" + path + "'");
}

TEST(Network, SpecsBuildTheirNetworks) {
  EXPECT_EQ(Network::fromSpec("grid:4x3").devices(), 12);
  EXPECT_EQ(Network::fromSpec("grid:4x3:8").neighborsOf(5).size(), 9u);
  EXPECT_EQ(Network::fromSpec("rgg:100:2.5:7").neighbors(),
            Network::randomGeometric(100, 2.5, 7).neighbors());
  EXPECT_EQ(Network::fromSpec("rgg:100:2.5").neighbors(),
            Network::randomGeometric(100, 2.5, 1).neighbors());
}

TEST(Network, BadSpecsAreRefusedByName) {
  auto errorOf = [](const std::string& spec) {
    return test::errorOf([&] { Network::fromSpec(spec); });
  };
  const std::string usage = " (expected grid:WxH[:4|:8], rgg:N:RADIUS[:SEED] or edges:FILE)";
  EXPECT_EQ(errorOf("mesh:4"),
            "kfield::Network::fromSpec: network 'mesh:4' is not understood" + usage);
  EXPECT_EQ(errorOf("grid:4"),
            "kfield::Network::fromSpec: network 'grid:4': size must be WxH" + usage);
  EXPECT_EQ(errorOf("grid:4xq"),
            "kfield::Network::fromSpec: network 'grid:4xq': height 'q' is not a number");
  EXPECT_EQ(errorOf("grid:4x3:6"), "kfield::Network::grid: the neighborhood must be 4 or 8, got 6");
  EXPECT_EQ(errorOf("grid:0x3"), "kfield::Network::grid: width and height must be >= 1, got 0x3");
  EXPECT_EQ(errorOf("grid:100000x100000"),
            "kfield::Network::grid: 100000x100000 is more than 2147483647 devices");
  EXPECT_EQ(errorOf("rgg:10:-1"),
            "kfield::Network::fromPositions: the radius must be finite and > 0, got -1.000000");
  EXPECT_EQ(errorOf("rgg:2.5:1"),
            "kfield::Network::fromSpec: network 'rgg:2.5:1': device count '2.5' is not a whole "
            "number >= 0");
  EXPECT_EQ(
      errorOf("rgg:0:1"),
      "kfield::Network::randomGeometric: the number of devices must be in [1, 2147483647], got 0");
  EXPECT_EQ(errorOf(""), "kfield::Network::fromSpec: network '' is empty" + usage);
}

}  // namespace
}  // namespace kfield
