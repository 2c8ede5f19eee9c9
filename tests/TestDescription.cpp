// Program graphs: the dependencies that reads and writes of shared planes imply.
#include <kfield/graph/Description.hpp>

#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

namespace kfield::test {
namespace {

using graph::Description;
using graph::Edge;
using graph::EdgeKind;

std::vector<std::tuple<std::int64_t, std::int64_t, std::string, EdgeKind>> listed(
    const std::vector<Edge>& edges) {
  std::vector<std::tuple<std::int64_t, std::int64_t, std::string, EdgeKind>> out;
  for (const Edge& e : edges) out.emplace_back(e.from, e.to, e.plane, e.kind);
  return out;
}

TEST(Description, EdgesFollowReadsAndWritesOfEachPlane) {
  Description d;
  d.nodes = {{"sense", "", {"sensor:s"}, {"v0"}, false},                    // 0
             {"remember.read", "r@0", {"state:r@0", "v0"}, {"v1"}, false},  // 1
             {"add", "", {"v1", "v0"}, {"v2"}, false},                      // 2
             {"remember.write", "r@0", {"v2"}, {"state:r@0"}, false},       // 3
             {"export", "n@1", {"v2"}, {"export:n@1"}, false},              // 4
             {"export", "n@1", {"v1"}, {"export:n@1"}, true}};              // 5: rewrites unread
  const auto edges = listed(d.edges());
  using T = std::tuple<std::int64_t, std::int64_t, std::string, EdgeKind>;
  const std::vector<T> expected{
      {0, 1, "v0", EdgeKind::ReadAfterWrite},
      {1, 2, "v1", EdgeKind::ReadAfterWrite},
      {0, 2, "v0", EdgeKind::ReadAfterWrite},
      {2, 3, "v2", EdgeKind::ReadAfterWrite},
      {1, 3, "state:r@0", EdgeKind::WriteAfterRead},
      {2, 4, "v2", EdgeKind::ReadAfterWrite},
      {1, 5, "v1", EdgeKind::ReadAfterWrite},
      {4, 5, "export:n@1", EdgeKind::WriteAfterWrite},
  };
  EXPECT_EQ(edges, expected);
}

TEST(Description, EachEdgeOnceAndNoneToItself) {
  Description d;
  d.nodes = {{"a", "", {}, {"x"}, false},
             {"b", "", {"x", "x"}, {"x"}, false},  // reads its own plane, then overwrites it
             {"c", "", {"x"}, {}, false}};
  const auto edges = listed(d.edges());
  using T = std::tuple<std::int64_t, std::int64_t, std::string, EdgeKind>;
  EXPECT_EQ(edges, (std::vector<T>{{0, 1, "x", EdgeKind::ReadAfterWrite},
                                   {1, 2, "x", EdgeKind::ReadAfterWrite}}));
}

TEST(Description, DescribeListsNodesWithPathsAndPlanes) {
  Description d;
  d.nodes = {{"sense", "", {"sensor:s"}, {"v0"}, false},
             {"fold.min", "g@0/n@1", {"export:g@0/n@1", "network:neighbors"}, {"v1"}, true}};
  EXPECT_EQ(describe(d),
            "0  sense  (sensor:s) -> (v0)\n"
            "1  fold.min  @ g@0/n@1  (export:g@0/n@1, network:neighbors) -> (v1)  opaque\n");
}

}  // namespace
}  // namespace kfield::test
