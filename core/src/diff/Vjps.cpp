#include "kfield/diff/Gradient.hpp"

namespace kfield::diff {

// Every operation of the engine has a vjp (a zero one for comparisons, logic, uid and
// contexts): it reads the node's inputs and takes the adjoints of what the node writes.
std::vector<NodeVjp> vjpsOf(const TracedProgram& program) {
  std::vector<NodeVjp> vjps;
  vjps.reserve(program.description.nodes.size());
  for (const graph::Node& node : program.description.nodes)
    vjps.push_back({node.reads, node.writes});
  return vjps;
}

}  // namespace kfield::diff
