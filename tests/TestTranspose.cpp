#include "support/ErrorOf.hpp"

#include <gtest/gtest.h>
#include <kfield/diff/Transpose.hpp>

namespace kfield::test {
namespace {

using diff::kLive;
using diff::kSeed;
using diff::kZero;

graph::Node node(const std::string& kind, std::vector<std::string> reads,
                 std::vector<std::string> writes) {
  return graph::Node{kind, "", std::move(reads), std::move(writes), false};
}

std::vector<diff::NodeVjp> vjpsOf(const graph::Description& g) {
  std::vector<diff::NodeVjp> v;
  for (const auto& n : g.nodes) v.push_back({n.reads, n.writes});
  return v;
}

// y = f(x); z = g(x, y); out = h(y, z): x read twice, y read twice.
TEST(Transpose, JoinsSumInReverseNodeOrderWithTheSeedFirst) {
  graph::Description g;
  g.nodes = {node("f", {"x"}, {"y"}), node("g", {"x", "y"}, {"z"}), node("h", {"y", "z"}, {"out"}),
             node("k", {"out"}, {"y"})};  // overwrites y after it is read
  const auto plan = diff::transpose(g, vjpsOf(g), {"out", "y"});
  // Reverse: k; out's join (the seed, then k's read); h; g; y's join; f; x's join.
  ASSERT_EQ(plan.forward, (std::vector<diff::gidx>{3, -1, 2, 1, -1, 0, -1}));
  EXPECT_EQ(plan.seedOf[0], (std::vector<diff::gidx>{kSeed}));  // k writes y last: seeded
  ASSERT_EQ(plan.joins.size(), 3u);
  EXPECT_EQ(plan.joins[0].plane, "out");
  EXPECT_EQ(plan.joins[0].target, 1);
  EXPECT_EQ(plan.joins[0].sources, (std::vector<diff::gidx>{kSeed, 0}));
  EXPECT_EQ(plan.seedOf[2], (std::vector<diff::gidx>{1}));  // h consumes out's join
  EXPECT_EQ(plan.seedOf[3], (std::vector<diff::gidx>{2}));  // g: z's only reader is h
  EXPECT_EQ(plan.joins[1].plane, "y");                      // not seeded: k wrote it later
  EXPECT_EQ(plan.joins[1].sources, (std::vector<diff::gidx>{2, 3}));  // h's first, then g's
  EXPECT_EQ(plan.seedOf[5], (std::vector<diff::gidx>{4}));            // f consumes y's join
  EXPECT_EQ(plan.joins[2].plane, "x");
  EXPECT_EQ(plan.joins[2].sources, (std::vector<diff::gidx>{3, 5}));
  ASSERT_EQ(plan.gradients.size(), 1u);
  EXPECT_EQ(plan.gradients[0], (std::pair<std::string, diff::gidx>{"x", 6}));
  // y is read by g and h and overwritten by k: one snapshot before k serves both.
  ASSERT_EQ(plan.snapshots.size(), 1u);
  EXPECT_EQ(plan.snapshots[0].plane, "y");
  EXPECT_EQ(plan.snapshots[0].node, 3);
  EXPECT_EQ(plan.readOf[2], (std::vector<diff::gidx>{0, kLive}));  // h: y from the snapshot
  EXPECT_EQ(plan.readOf[3], (std::vector<diff::gidx>{kLive, 0}));  // g: x live, y snapshot
  EXPECT_EQ(plan.reversed.nodes[1].kind, "sum");
  EXPECT_TRUE(plan.seedOf[1].empty());
}

TEST(Transpose, SeedsOnlyTheLastWriterAndInputsWithoutReadersGetZero) {
  graph::Description g;
  g.nodes = {node("a", {"u"}, {"s"}), node("b", {"s"}, {"s"}), node("c", {"v"}, {"t"})};
  const auto plan = diff::transpose(g, vjpsOf(g), {"s"});
  EXPECT_EQ(plan.forward, (std::vector<diff::gidx>{2, 1, 0}));
  EXPECT_EQ(plan.seedOf[0], (std::vector<diff::gidx>{kZero}));  // t is not seeded
  EXPECT_EQ(plan.seedOf[1], (std::vector<diff::gidx>{kSeed}));  // b: the last writer of s
  EXPECT_EQ(plan.seedOf[2], (std::vector<diff::gidx>{1}));      // a: b's in-place adjoint
  EXPECT_EQ(plan.snapshots.size(), 1u);                         // b reads s in place
  EXPECT_EQ(plan.snapshots[0].node, 1);
  ASSERT_EQ(plan.gradients.size(), 2u);
  EXPECT_EQ(plan.gradients[0], (std::pair<std::string, diff::gidx>{"u", 2}));
  EXPECT_EQ(plan.gradients[1], (std::pair<std::string, diff::gidx>{"v", 0}));
}

TEST(Transpose, RefusesOpaqueNodesSecondOrderAndMissingEntries) {
  graph::Description g;
  g.nodes = {node("add", {"x"}, {"y"}), node("sort", {"y"}, {"z"})};
  g.nodes[1].opaque = true;
  g.nodes[1].path = "ranking@0";
  EXPECT_EQ(errorOf([&] { diff::transpose(g, vjpsOf(g), {"z"}); }),
            "kfield::diff::transpose: node 1 'sort' at path 'ranking@0' is opaque: it has no "
            "vector-Jacobian product");
  g.nodes[1].opaque = false;
  auto short_ = vjpsOf(g);
  short_.pop_back();
  EXPECT_EQ(
      errorOf([&] { diff::transpose(g, short_, {"z"}); }),
      "kfield::diff::transpose: node 1 'sort' at path 'ranking@0' has no vjp entry (1 entries "
      "for 2 nodes)");
  const auto plan = diff::transpose(g, vjpsOf(g), {"z"});
  EXPECT_NE(errorOf([&] {
              diff::transpose(plan.reversed, vjpsOf(plan.reversed), {});
            }).find("the graph is already a reverse (second order is not supported)"),
            std::string::npos);
}

}  // namespace
}  // namespace kfield::test
