#include "kfield/field/TracedProgram.hpp"

#include <sstream>

namespace kfield {

std::int32_t TracedProgram::sensorIndex(const std::string& name) const {
  for (std::size_t i = 0; i < sensors.size(); ++i) {
    if (sensors[i].name == name) return static_cast<std::int32_t>(i);
  }
  return -1;
}

std::int32_t TracedProgram::parameterIndex(const std::string& name) const {
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    if (parameters[i].name == name) return static_cast<std::int32_t>(i);
  }
  return -1;
}

std::int32_t TracedProgram::parameterWidth() const {
  return parameters.empty() ? 0 : parameters.back().offset + parameters.back().width;
}

std::string outputPlane(std::int32_t c, std::int32_t width) {
  return width == 1 ? std::string("output") : "output/@" + std::to_string(c);
}

std::vector<std::string> outputPlanes(const TracedProgram& program) {
  std::vector<std::string> planes;
  for (std::int32_t c = 0; c < program.outputWidth; ++c)
    planes.push_back(outputPlane(c, program.outputWidth));
  return planes;
}

std::string describe(const TracedProgram& p) {
  std::ostringstream out;
  out << p.name << ": " << p.description.nodes.size() << " nodes, " << p.exports.size()
      << " exports, " << p.states.size() << " states, " << p.sensors.size() << " sensors, "
      << p.parameterWidth() << " parameters, " << p.slots << " scratch slots\n";
  out << graph::describe(p.description);
  return out.str();
}

}  // namespace kfield
