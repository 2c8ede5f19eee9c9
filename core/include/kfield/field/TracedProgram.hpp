// A traced aggregate program: its graph, the planes it reads and keeps, and the operations
// every round replays.
#ifndef KFIELD_FIELD_TRACEDPROGRAM_HPP
#define KFIELD_FIELD_TRACEDPROGRAM_HPP

#include "kfield/field/impl/Bytecode.hpp"
#include "kfield/graph/Description.hpp"

#include <string>
#include <vector>

namespace kfield {

enum class SensorType { Double, Int, Bool };

struct SensorInfo {
  std::string name;
  SensorType type;
};

// An export (neighbors call) or a state (remember call), by path. Keyed: inside a branch or
// an align block, so whether a device took part is recorded per round.
struct PlaneInfo {
  std::string path;
  bool keyed = false;
};

// A neighbour-field expression node, as traced (folds compile them into entry programs).
struct NbrExpression {
  impl::EntryCode code = impl::EntryCode::Constant;
  std::int32_t a = -1, b = -1, c = -1;  // child expressions
  std::int32_t plane = -1;      // Neighbour: export index
  impl::Operand local;          // Local: the device's own value; Constant: constant
};

struct TracedProgram {
  std::string name;
  graph::Description description;
  std::vector<SensorInfo> sensors;
  std::vector<PlaneInfo> exports;
  std::vector<PlaneInfo> states;
  std::vector<NbrExpression> expressions;
  impl::Operand output;
  SensorType outputType = SensorType::Double;

  // What rounds replay: operations over scratch slots (value ids mapped to reusable slots).
  std::vector<impl::Op> ops;
  std::vector<impl::EntryOp> entries;
  std::int32_t slots = 0;

  std::int32_t sensorIndex(const std::string& name) const;  // -1 if the program reads none
};

}  // namespace kfield

#endif
