// Networks read from text edge lists.
#include "BuildRows.hpp"
#include "PartFromRows.hpp"

#include "kfield/impl/Printable.hpp"
#include "kfield/net/NetworkPart.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace kfield {

namespace {

[[noreturn]] void fail(const std::string& what) {
  impl::invalidArgument("kfield::Network::fromEdgeList", what);
}

// A device id: a whole number in [0, kMaxDevices), digits only.
std::int64_t deviceId(const std::string& word, const std::string& where) {
  const bool digits =
      !word.empty() && word.size() <= 10 &&
      std::all_of(word.begin(), word.end(), [](char c) { return c >= '0' && c <= '9'; });
  const std::int64_t id = digits ? std::stoll(word) : -1;
  if (id < 0 || id >= kMaxDevices) {
    fail(where + "device id '" + impl::printable(word) + "' is not a whole number in [0, " +
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
    fail(where + "length '" + impl::printable(word) + "' is not a finite decimal number >= 0");
  }
  return length;
}

// Longer lines are refused: an edge line is two ids and a length.
constexpr std::size_t kMaxLineBytes = 4096;

// f(a, b, length, line) for every edge line of the file (a, b: as written), each line checked.
// Only a regular file is read (a FIFO or a device could block or never end), line by line.
template <class F>
void forEachEdgeLine(const std::string& path, F&& f) {
  const std::string shown = "'" + impl::printable(path, 4096) + "'";
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    fail("cannot open " + shown + " (" + std::strerror(errno) + ")");
  if (S_ISDIR(st.st_mode)) fail(shown + " is a folder, not an edge list");
  if (!S_ISREG(st.st_mode))
    fail(shown + " is not a regular file (a device, a FIFO or a socket), not an edge list");
  std::ifstream in(path, std::ios::binary);
  if (!in) fail("cannot open " + shown);
  std::string text;
  std::vector<char> buffer(kMaxLineBytes + 1);
  bool any = false;
  for (std::int64_t line = 1;; ++line) {
    in.getline(buffer.data(), std::streamsize(buffer.size()));
    const auto got = static_cast<std::size_t>(in.gcount());
    if (in.fail() && !in.eof() && got + 1 >= buffer.size()) {
      fail(impl::printable(path, 4096) + ":" + std::to_string(line) + ": a line longer than " +
           std::to_string(kMaxLineBytes) + " bytes: not an edge list");
    }
    if (got == 0 && in.eof()) break;
    if (in.bad()) fail("cannot read " + shown);
    text.assign(buffer.data(), got > 0 && !in.eof() ? got - 1 : got);  // gcount counts the newline
    if (!text.empty() && text.back() == '\r') text.pop_back();
    const std::string where = impl::printable(path, 4096) + ":" + std::to_string(line) + ": ";
    const auto hash = text.find('#');
    if (hash != std::string::npos) text.erase(hash);
    std::istringstream fields(text);
    std::vector<std::string> words;
    for (std::string word; fields >> word;) words.push_back(word);
    if (!words.empty()) {  // else blank or comment
      if (words.size() < 2 || words.size() > 3) {
        fail(where + "expected 'src dst [length]', got '" + impl::printable(text) + "'");
      }
      const std::int64_t a = deviceId(words[0], where), b = deviceId(words[1], where);
      const double length = words.size() == 3 ? edgeLength(words[2], where) : 1.0;
      if (a == b) fail(where + "device " + std::to_string(a) + " is joined to itself");
      any = true;
      f(a, b, length, line);
    }
    if (in.eof()) break;
    in.clear();
  }
  if (!any) fail(shown + " lists no edge");
}

struct Edge {  // undirected: a < b; directed: the arc a -> b (b hears a)
  std::int64_t a, b;
  double length;
  std::int64_t line;
};

// Before the list of edges read so far doubles: refuses a file whose edges would not fit in
// memory (twice: the list and its distinct edges) before they are read.
void growEdges(std::vector<Edge>& edges, const char* who, const std::string& path) {
  if (edges.size() < edges.capacity()) return;
  const std::uint64_t next = std::max<std::uint64_t>(1024, 2 * edges.size());
  checkNetworkBytes(who,
                    "the edges of '" + impl::printable(path, 4096) + "' (" +
                        std::to_string(edges.size()) + " read so far)",
                    impl::product({next, 2 * sizeof(Edge)}));
  edges.reserve(next);
}

// The distinct edges of `edges` (sorted by (a, b), then line), refusing repeats that disagree.
std::vector<Edge> distinctEdges(std::vector<Edge> edges, const std::string& path) {
  std::sort(edges.begin(), edges.end(), [](const Edge& p, const Edge& q) {
    return p.a != q.a ? p.a < q.a : p.b != q.b ? p.b < q.b : p.line < q.line;
  });
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
  }
  return distinct;
}

// Rows [first, first + count) of the network of `distinct`: for each, its (neighbor, length)
// entries besides itself, in `adjacency` from `start[row - first]`.
void adjacencyOf(const std::vector<Edge>& distinct, bool directed, std::int64_t first,
                 std::int64_t count, std::vector<std::int64_t>& start,
                 std::vector<std::pair<std::int32_t, double>>& adjacency) {
  start.assign(std::size_t(count) + 1, 0);
  const auto mine = [&](std::int64_t d) { return d >= first && d < first + count; };
  for (const Edge& e : distinct) {
    if (!directed && mine(e.a)) ++start[e.a - first + 1];
    if (mine(e.b)) ++start[e.b - first + 1];
  }
  for (std::size_t i = 1; i < start.size(); ++i) start[i] += start[i - 1];
  adjacency.resize(std::size_t(start.back()));
  std::vector<std::int64_t> fill(start.begin(), start.end() - 1);
  for (const Edge& e : distinct) {
    if (!directed && mine(e.a))
      adjacency[fill[e.a - first]++] = {static_cast<std::int32_t>(e.b), e.length};
    if (mine(e.b)) adjacency[fill[e.b - first]++] = {static_cast<std::int32_t>(e.a), e.length};
  }
}

}  // namespace

std::string edgeListDescription(const std::string& path, std::int64_t devices, std::int64_t edges,
                                bool directed) {
  return "edge list '" + path + "' (" + std::to_string(devices) + " devices" +
         (edges < 0 ? std::string()
                    : ", " + std::to_string(edges) + (directed ? " arcs" : " edges")) +
         ")";
}

std::int64_t edgeListDevices(const std::string& path) {
  std::int64_t maxId = -1;
  forEachEdgeLine(path, [&](std::int64_t a, std::int64_t b, double, std::int64_t) {
    maxId = std::max({maxId, a, b});
  });
  return maxId + 1;
}

Network Network::fromEdgeList(const std::string& path, bool directed) {
  std::vector<Edge> edges;
  std::int64_t maxId = -1;
  forEachEdgeLine(path, [&](std::int64_t a, std::int64_t b, double length, std::int64_t line) {
    maxId = std::max({maxId, a, b});
    growEdges(edges, "kfield::Network::fromEdgeList", path);
    edges.push_back(directed ? Edge{a, b, length, line}
                             : Edge{std::min(a, b), std::max(a, b), length, line});
  });
  // Every device up to the largest id has a row: refuse ids that make that too large.
  checkNetworkBytes(
      "kfield::Network::fromEdgeList",
      "'" + path + "' (device ids up to " + std::to_string(maxId) + ")",
      networkBytes(std::uint64_t(maxId) + 1, 2 * edges.size() + std::uint64_t(maxId) + 1,
                   sizeof(std::int64_t), sizeof(double)));
  const std::vector<Edge> distinct = distinctEdges(std::move(edges), path);
  std::vector<std::int64_t> start;
  std::vector<std::pair<std::int32_t, double>> adjacency;
  adjacencyOf(distinct, directed, 0, maxId + 1, start, adjacency);
  return build(
      maxId + 1, maxId + 1 + (directed ? 1 : 2) * static_cast<std::int64_t>(distinct.size()), true,
      [&](std::int64_t i, Row& row) {
        row.assign(adjacency.begin() + start[i], adjacency.begin() + start[i + 1]);
      },
      edgeListDescription(path, maxId + 1, std::int64_t(distinct.size()), directed));
}

NetworkPart NetworkPart::fromEdgeList(const std::string& path, bool directed, IndexRange owned) {
  const char* who = "kfield::NetworkPart::fromEdgeList";
  std::vector<Edge> edges;  // those of the owned rows
  std::int64_t maxId = -1;
  const auto mine = [&](std::int64_t d) { return d >= owned.begin && d < owned.end; };
  forEachEdgeLine(path, [&](std::int64_t a, std::int64_t b, double length, std::int64_t line) {
    maxId = std::max({maxId, a, b});
    if (directed ? mine(b) : mine(a) || mine(b)) {
      growEdges(edges, who, path);
      edges.push_back(directed ? Edge{a, b, length, line}
                               : Edge{std::min(a, b), std::max(a, b), length, line});
    }
  });
  const std::int64_t n = maxId + 1;
  const std::string name = edgeListDescription(path, n, -1, directed);
  checkDevices(who, n);
  if (owned.begin >= 0 && owned.end <= n && owned.begin <= owned.end) {
    checkNetworkBytes(
        who,
        "devices [" + std::to_string(owned.begin) + ", " + std::to_string(owned.end) + ") of " +
            name,
        networkBytes(std::uint64_t(owned.size()), 2 * edges.size() + std::uint64_t(owned.size()),
                     sizeof(std::int64_t), sizeof(double)));
  }
  const std::vector<Edge> distinct = distinctEdges(std::move(edges), path);
  std::vector<std::int64_t> start;
  std::vector<std::pair<std::int32_t, double>> adjacency;
  if (owned.begin >= 0 && owned.end <= n && owned.begin <= owned.end) {
    adjacencyOf(distinct, directed, owned.begin, owned.size(), start, adjacency);
  }
  std::vector<std::pair<std::int32_t, double>> row;
  return partFromRows(
      who, n, owned, PartPlaces::Lengths,
      [&](std::int64_t d, const auto& f) {  // ascending neighbors, the device itself included
        row.assign(adjacency.begin() + start[d - owned.begin],
                   adjacency.begin() + start[d - owned.begin + 1]);
        row.emplace_back(static_cast<std::int32_t>(d), 0.0);
        std::sort(row.begin(), row.end());
        for (const auto& [j, length] : row) f(j, length);
      },
      [](std::int64_t) { return std::make_pair(0.0, 0.0); }, name);
}

}  // namespace kfield
