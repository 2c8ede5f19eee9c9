#include "support/FieldReference.hpp"

#include <kfield/net/ShortestPaths.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>

namespace kfield::test {
namespace {

TEST(ShortestPaths, AreDijkstrasDistancesBitForBit) {
  const Network net = Network::randomGeometric(400, 1.6, 9);
  for (const std::vector<std::int64_t>& sources : {std::vector<std::int64_t>{0}, {17, 230, 399}}) {
    const ShortestPaths p = shortestPaths(net, sources);
    EXPECT_EQ(p.distance, dijkstra(net, sources));
    for (std::int64_t d = 0; d < net.devices(); ++d) {
      EXPECT_EQ(p.edges[std::size_t(d)] < 0, std::isinf(p.distance[std::size_t(d)])) << d;
      // No path has fewer edges than the breadth-first hops.
      if (p.edges[std::size_t(d)] >= 0) {
        EXPECT_GE(double(p.edges[std::size_t(d)]), bfsHops(net, sources)[std::size_t(d)]);
      }
    }
  }
}

// On a line every shortest path is the only path: its edges are the hops, its settling the
// farthest hop plus one.
TEST(ShortestPaths, CountTheEdgesOfTheirPaths) {
  const Network line = Network::grid(7, 1);
  const ShortestPaths p = shortestPaths(line, {2});
  EXPECT_EQ(p.edges, (std::vector<std::int64_t>{2, 1, 0, 1, 2, 3, 4}));
  EXPECT_EQ(p.roundsToSettle(), 5);
  EXPECT_EQ(p.distance[6], 4.0);
}

TEST(ShortestPaths, ComponentsAreNumberedByTheirLeastDevice) {
  // Two grids side by side, too far apart to hear each other, and a lone device between.
  std::vector<double> x{0, 1, 0, 1, 10, 20, 21}, y{0, 0, 1, 1, 0, 0, 0};
  const Network net = Network::fromPositions(x, y, 1.1);
  std::int64_t count = 0;
  EXPECT_EQ(components(net, &count), (std::vector<std::int64_t>{0, 0, 0, 0, 1, 2, 2}));
  EXPECT_EQ(count, 3);
  const ShortestPaths p = shortestPaths(net, {5});
  EXPECT_TRUE(std::isinf(p.distance[0]));
  EXPECT_EQ(p.edges[0], -1);
  EXPECT_EQ(p.roundsToSettle(), 2);
}

// An obstacle cuts a line in two: nothing passes it, and the far side is another component.
TEST(ShortestPaths, GoRoundBlockedDevicesOrNotAtAll) {
  const Network line = Network::grid(7, 1);
  const std::vector<char> blocked{0, 0, 0, 1, 0, 0, 0};
  const ShortestPaths p = shortestPaths(line, {1}, blocked);
  EXPECT_EQ(p.edges, (std::vector<std::int64_t>{1, 0, 1, -1, -1, -1, -1}));
  EXPECT_TRUE(std::isinf(p.distance[3]) && std::isinf(p.distance[4]));
  std::int64_t count = 0;
  EXPECT_EQ(components(line, &count, blocked), (std::vector<std::int64_t>{0, 0, 0, -1, 1, 1, 1}));
  EXPECT_EQ(count, 2);
  // On a grid the path goes round: (0,1) blocked, (0,0) to (0,2) takes 4 edges.
  const Network grid = Network::grid(3, 3);
  std::vector<char> wall(9, 0);
  wall[3] = 1;
  EXPECT_EQ(shortestPaths(grid, {0}, wall).edges[6], 4);
  EXPECT_EQ(shortestPaths(grid, {0}, wall).distance[6], 4.0);
}

TEST(ShortestPaths, RefuseASourceOutsideTheNetwork) {
  const Network net = Network::grid(3, 3);
  try {
    shortestPaths(net, {9});
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("9"), std::string::npos) << e.what();
  }
  std::vector<char> blocked(9, 0);
  blocked[4] = 1;
  EXPECT_THROW(shortestPaths(net, {4}, blocked), std::invalid_argument);  // a blocked source
  EXPECT_THROW(shortestPaths(net, {0}, std::vector<char>(8, 0)), std::invalid_argument);
  EXPECT_THROW(components(net, nullptr, std::vector<char>(10, 0)), std::invalid_argument);
}

}  // namespace
}  // namespace kfield::test
