// A traced aggregate program: what it reads (sensors), keeps (states) and shows its neighbors
// (exports), the graph of what runs each round, and the operations every round replays.
#ifndef KFIELD_FIELD_TRACEDPROGRAM_HPP
#define KFIELD_FIELD_TRACEDPROGRAM_HPP

#include "kfield/field/impl/Bytecode.hpp"
#include "kfield/graph/Description.hpp"

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace kfield {

enum class SensorType { Double, Int, Bool };

// The SensorType of a field of T (fields hold double, int or bool).
template <class T>
constexpr SensorType sensorTypeOf() {
  static_assert(
      std::is_same<T, double>::value || std::is_same<T, int>::value || std::is_same<T, bool>::value,
      "fields hold double, int or bool");
  return std::is_same<T, double>::value ? SensorType::Double
         : std::is_same<T, int>::value  ? SensorType::Int
                                        : SensorType::Bool;
}

struct SensorInfo {
  std::string name;
  SensorType type;
};

// An export (neighbors, share, nbr or exchange call) or a state (remember call), by path. Keyed:
// inside a branch or an align block, so whether a device took part is recorded per round.
struct PlaneInfo {
  std::string path;
  bool keyed = false;
  std::int32_t edge = -1;  // an exchange's: its edge plane (a value per network entry)
};

// A learnable vector of `width` values every device reads every round (the same on all
// devices), at [offset, offset + width) of the program's parameter vector.
struct ParameterInfo {
  std::string name;
  std::int32_t width = 1;
  std::int32_t offset = 0;
};

// A spawn call: at most maxKeys live processes per device.
struct SpawnInfo {
  std::string path;
  std::int32_t maxKeys = 0;
};

struct TracedProgram {
  std::string name;
  graph::Description description;  // the operations that run, in order, with their planes
  std::vector<SensorInfo> sensors;
  std::vector<PlaneInfo> exports;
  std::vector<PlaneInfo> states;
  std::vector<ParameterInfo> parameters;
  std::int32_t outputWidth = 1;  // a tuple result: one output plane per component
  // Exchanges' edge planes: what each device sent each neighbor, a row per network entry
  // (after the export rows, in the same planes).
  std::int32_t edgePlanes = 0;
  std::vector<SpawnInfo> spawns;

  // What rounds replay: operations over scratch slots (value ids mapped to reusable slots).
  std::vector<impl::Op> ops;
  std::vector<impl::EntryOp> entries;
  std::int32_t slots = 0;

  // The same operations with a slot of its own for every value (none reused): what the
  // reversal's tape keeps of a round, since the vector-Jacobian products read the values.
  std::vector<impl::Op> valueOps;
  std::vector<impl::EntryOp> valueEntries;
  std::int32_t valueSlots = 0;

  std::int32_t sensorIndex(const std::string& name) const;     // -1 if the program reads none
  std::int32_t parameterIndex(const std::string& name) const;  // -1 if it has none of that name
  std::int32_t parameterWidth() const;                         // all parameters' values together
};

// The graph's name of output component c of a program with `width` of them: "output" for a
// single value, "output/@c" for a tuple's components.
std::string outputPlane(std::int32_t c, std::int32_t width);
std::vector<std::string> outputPlanes(const TracedProgram& program);

// The traced graph with its paths, planes and node kinds.
std::string describe(const TracedProgram& program);

}  // namespace kfield

#endif
