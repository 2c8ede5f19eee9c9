// Networks read from text edge lists.
#include "BuildRows.hpp"

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

namespace kfield {

namespace {

[[noreturn]] void fail(const std::string& what) {
  impl::invalidArgument("kfield::Network::fromEdgeList", what);
}

}  // namespace

Network Network::fromEdgeList(const std::string& path) {
  std::ifstream in(path);
  if (!in) fail("cannot open '" + path + "'");
  struct Edge {
    std::int64_t a, b;
    double length;
    std::int64_t line;
  };
  std::vector<Edge> edges;
  std::int64_t maxId = -1;
  std::string text;
  for (std::int64_t line = 1; std::getline(in, text); ++line) {
    const std::string where = path + ":" + std::to_string(line) + ": ";
    const auto hash = text.find('#');
    if (hash != std::string::npos) text.erase(hash);
    std::istringstream fields(text);
    std::string first;
    if (!(fields >> first)) continue;  // blank or comment
    fields.clear();
    fields.seekg(0);
    std::int64_t a, b;
    if (!(fields >> a >> b)) fail(where + "expected 'src dst [length]', got '" + text + "'");
    double length = 1.0;
    std::string rest;
    if (fields >> rest) {
      std::size_t used = 0;
      try {
        length = std::stod(rest, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != rest.size()) fail(where + "length '" + rest + "' is not a number");
      if (fields >> rest) fail(where + "unexpected '" + rest + "' after the length");
    }
    if (a < 0 || b < 0 || a >= kMaxDevices || b >= kMaxDevices) {
      fail(where + "device ids must be in [0, " + std::to_string(kMaxDevices) + "), got " +
           std::to_string(a) + " " + std::to_string(b));
    }
    if (!(length >= 0.0) || !std::isfinite(length)) {
      fail(where + "length must be finite and >= 0, got " + rest);
    }
    if (a == b) fail(where + "device " + std::to_string(a) + " is joined to itself");
    maxId = std::max({maxId, a, b});
    edges.push_back({std::min(a, b), std::max(a, b), length, line});
  }
  if (maxId < 0) fail("'" + path + "' lists no edge");
  std::sort(edges.begin(), edges.end(), [](const Edge& p, const Edge& q) {
    return p.a != q.a ? p.a < q.a : p.b != q.b ? p.b < q.b : p.line < q.line;
  });
  // Both directions of each distinct edge, grouped by source: degree count, then fill.
  std::vector<std::int64_t> degree(maxId + 2, 0);
  std::vector<Edge> distinct;
  for (const Edge& e : edges) {
    if (!distinct.empty() && distinct.back().a == e.a && distinct.back().b == e.b) {
      if (distinct.back().length != e.length) {
        fail(path + ":" + std::to_string(e.line) + ": edge " + std::to_string(e.a) + " " +
             std::to_string(e.b) + " has length " + std::to_string(e.length) + ", but line " +
             std::to_string(distinct.back().line) + " gave " +
             std::to_string(distinct.back().length));
      }
      continue;
    }
    distinct.push_back(e);
    ++degree[e.a + 1];
    ++degree[e.b + 1];
  }
  for (std::size_t i = 1; i < degree.size(); ++i) degree[i] += degree[i - 1];
  std::vector<std::pair<std::int32_t, double>> adjacency(degree.back());
  {
    std::vector<std::int64_t> fill(degree.begin(), degree.end() - 1);
    for (const Edge& e : distinct) {
      adjacency[fill[e.a]++] = {static_cast<std::int32_t>(e.b), e.length};
      adjacency[fill[e.b]++] = {static_cast<std::int32_t>(e.a), e.length};
    }
  }
  return build(
      maxId + 1,
      [&](std::int64_t i, Row& row) {
        row.assign(adjacency.begin() + degree[i], adjacency.begin() + degree[i + 1]);
      },
      "edge list '" + path + "' (" + std::to_string(maxId + 1) + " devices, " +
          std::to_string(distinct.size()) + " edges)");
}

}  // namespace kfield
