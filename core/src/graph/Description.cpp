#include "kfield/graph/Description.hpp"

#include <algorithm>
#include <map>
#include <sstream>

namespace kfield::graph {

std::vector<Edge> Description::edges() const {
  std::vector<Edge> out;
  std::map<std::string, std::int64_t> lastWriter;
  std::map<std::string, std::vector<std::int64_t>> readersSinceWrite;
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(nodes.size()); ++i) {
    const auto& reads = nodes[i].reads;
    for (auto at = reads.begin(); at != reads.end(); ++at) {
      const std::string& plane = *at;
      if (std::find(reads.begin(), at, plane) != at) continue;  // read twice (x + x): one edge
      const auto w = lastWriter.find(plane);
      if (w != lastWriter.end()) out.push_back({w->second, i, plane, EdgeKind::ReadAfterWrite});
      readersSinceWrite[plane].push_back(i);
    }
    for (const auto& plane : nodes[i].writes) {
      for (std::int64_t r : readersSinceWrite[plane]) {
        if (r != i) out.push_back({r, i, plane, EdgeKind::WriteAfterRead});
      }
      const auto w = lastWriter.find(plane);
      if (w != lastWriter.end() && readersSinceWrite[plane].empty()) {
        out.push_back({w->second, i, plane, EdgeKind::WriteAfterWrite});
      }
      readersSinceWrite[plane].clear();
      lastWriter[plane] = i;
    }
  }
  return out;
}

std::string describe(const Description& d) {
  std::ostringstream out;
  for (std::size_t i = 0; i < d.nodes.size(); ++i) {
    const Node& n = d.nodes[i];
    out << i << "  " << n.kind;
    if (!n.path.empty()) out << "  @ " << n.path;
    out << "  (";
    for (std::size_t k = 0; k < n.reads.size(); ++k) out << (k ? ", " : "") << n.reads[k];
    out << ") -> (";
    for (std::size_t k = 0; k < n.writes.size(); ++k) out << (k ? ", " : "") << n.writes[k];
    out << ")" << (n.opaque ? "  opaque" : "") << "\n";
  }
  return out.str();
}

}  // namespace kfield::graph
