// A program graph: nodes in execution order, each reading and writing named planes, and the
// dependencies those reads and writes imply. Shared by the field engine and the reversal.
#ifndef KFIELD_GRAPH_DESCRIPTION_HPP
#define KFIELD_GRAPH_DESCRIPTION_HPP

#include <cstdint>
#include <string>
#include <vector>

namespace kfield::graph {

struct Node {
  std::string kind;                // "add", "fold.min", "remember.read", ...
  std::string path;                // alignment path of the call that made it; "" if none
  std::vector<std::string> reads;  // plane keys, in operand order
  std::vector<std::string> writes;
  bool opaque = false;  // no vector-Jacobian product exists for this kind
};

enum class EdgeKind { ReadAfterWrite, WriteAfterRead, WriteAfterWrite };

struct Edge {
  std::int64_t from;  // the earlier node
  std::int64_t to;    // the later node, which must run after it
  std::string plane;
  EdgeKind kind;
};

struct Description {
  std::vector<Node> nodes;

  // Dependencies between nodes through the planes they share, each once, in node order.
  std::vector<Edge> edges() const;
};

// Nodes one per line: index, kind, path, reads -> writes.
std::string describe(const Description& description);

}  // namespace kfield::graph

#endif
