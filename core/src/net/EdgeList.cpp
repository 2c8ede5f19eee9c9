// Networks read from text edge lists.
#include "BuildRows.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

namespace kfield {

namespace {

[[noreturn]] void fail(const std::string& what) {
  impl::invalidArgument("kfield::Network::fromEdgeList", what);
}

// A device id: a whole number in [0, kMaxDevices), digits only.
std::int64_t deviceId(const std::string& word, const std::string& where) {
  const bool digits = !word.empty() && word.size() <= 10 &&
                      std::all_of(word.begin(), word.end(), [](char c) { return c >= '0' && c <= '9'; });
  const std::int64_t id = digits ? std::stoll(word) : -1;
  if (id < 0 || id >= kMaxDevices) {
    fail(where + "device id '" + word + "' is not a whole number in [0, " +
         std::to_string(kMaxDevices) + ")");
  }
  return id;
}

// An edge length: a finite decimal number >= 0 ("2", "0.25", "1e-3"; not "0x1p3" or "inf").
double edgeLength(const std::string& word, const std::string& where) {
  const bool decimal = std::all_of(word.begin(), word.end(), [](char c) {
    return (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-';
  });
  std::size_t used = 0;
  double length = -1.0;
  if (decimal) {
    try {
      length = std::stod(word, &used);
    } catch (const std::exception&) {
      used = 0;
    }
  }
  if (!decimal || used != word.size() || !(length >= 0.0) || !std::isfinite(length)) {
    fail(where + "length '" + word + "' is not a finite decimal number >= 0");
  }
  return length;
}

}  // namespace

Network Network::fromEdgeList(const std::string& path, bool directed) {
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
    std::vector<std::string> words;
    for (std::string word; fields >> word;) words.push_back(word);
    if (words.empty()) continue;  // blank or comment
    if (words.size() < 2 || words.size() > 3) {
      fail(where + "expected 'src dst [length]', got '" + text + "'");
    }
    const std::int64_t a = deviceId(words[0], where), b = deviceId(words[1], where);
    const double length = words.size() == 3 ? edgeLength(words[2], where) : 1.0;
    if (a == b) fail(where + "device " + std::to_string(a) + " is joined to itself");
    maxId = std::max({maxId, a, b});
    if (directed) {
      edges.push_back({a, b, length, line});
    } else {
      edges.push_back({std::min(a, b), std::max(a, b), length, line});
    }
  }
  if (maxId < 0) fail("'" + path + "' lists no edge");
  // Every device up to the largest id has a row: refuse ids that make that too large.
  checkNetworkBytes("kfield::Network::fromEdgeList",
                    "'" + path + "' (device ids up to " + std::to_string(maxId) + ")",
                    networkBytes(std::uint64_t(maxId) + 1, 2 * edges.size() + std::uint64_t(maxId) + 1,
                                 sizeof(std::int64_t), sizeof(double)));
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
             std::to_string(e.b) + " has length " + impl::numberText(e.length) + ", but line " +
             std::to_string(distinct.back().line) + " gave " +
             impl::numberText(distinct.back().length));
      }
      continue;
    }
    distinct.push_back(e);
    if (!directed) ++degree[e.a + 1];
    ++degree[e.b + 1];
  }
  for (std::size_t i = 1; i < degree.size(); ++i) degree[i] += degree[i - 1];
  std::vector<std::pair<std::int32_t, double>> adjacency(degree.back());
  {
    std::vector<std::int64_t> fill(degree.begin(), degree.end() - 1);
    for (const Edge& e : distinct) {
      if (!directed) adjacency[fill[e.a]++] = {static_cast<std::int32_t>(e.b), e.length};
      adjacency[fill[e.b]++] = {static_cast<std::int32_t>(e.a), e.length};
    }
  }
  return build(
      maxId + 1, maxId + 1 + (directed ? 1 : 2) * static_cast<std::int64_t>(distinct.size()), true,
      [&](std::int64_t i, Row& row) {
        row.assign(adjacency.begin() + degree[i], adjacency.begin() + degree[i + 1]);
      },
      "edge list '" + path + "' (" + std::to_string(maxId + 1) + " devices, " +
          std::to_string(distinct.size()) + (directed ? " arcs)" : " edges)"));
}

}  // namespace kfield
