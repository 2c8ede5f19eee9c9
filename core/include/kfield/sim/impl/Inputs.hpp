// What a program reads, as a user sets it on what runs the program (a Simulation, a Gradient):
// sensors per device and sample, parameters by name. Checked here once for both.
#ifndef KFIELD_SIM_IMPL_INPUTS_HPP
#define KFIELD_SIM_IMPL_INPUTS_HPP

#include "kfield/field/TracedProgram.hpp"
#include "kfield/impl/Errors.hpp"
#include "kfield/impl/IntegerMath.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace kfield::impl {

// Refuses an index outside [0, n): "<what>: <noun> <i> is not in [0, <n>)".
inline void requireIndex(const char* who, const std::string& what, const char* noun, std::int64_t i,
                         std::int64_t n) {
  if (i < 0 || i >= n) {
    invalidArgument(who, what + ": " + noun + " " + std::to_string(i) + " is not in [0, " +
                             std::to_string(n) + ")");
  }
}

// A sensor's value as a user sets it: a boolean sensor takes 0 or 1 only.
inline double sensorValue(const char* who, const SensorInfo& sensor, std::int64_t device,
                          double v) {
  if (sensor.type == SensorType::Bool && v != 0.0 && v != 1.0) {
    invalidArgument(who, "sensor '" + sensor.name + "' is boolean (0 or 1), got " + numberText(v) +
                             " at device " + std::to_string(device));
  }
  if (sensor.type == SensorType::Int && !integer::isExact(v)) {
    invalidArgument(who, "sensor '" + sensor.name +
                             "' is an integer (exact in [-2^53, 2^53]), got " + numberText(v) +
                             " at device " + std::to_string(device));
  }
  return v;
}

// A sensor being set, for every sample or for one: Target::setSensor(index, device, sample,
// value) checks and stores; or, given an `Access`, Access::setSensor(target, index, ...).
template <class Target, class Access = void>
class SensorHandle {
 public:
  SensorHandle(Target* target, std::int32_t index) : target_(target), index_(index) {}

  template <class T>
  SensorHandle& set(std::int64_t device, T value) {
    for (std::int64_t s = 0; s < target_->samples(); ++s) set(device, s, value);
    return *this;
  }
  template <class T>
  SensorHandle& set(std::int64_t device, std::int64_t sample, T value) {
    if constexpr (std::is_void_v<Access>) {
      target_->setSensor(index_, device, sample, static_cast<double>(value));
    } else {
      Access::setSensor(*target_, index_, device, sample, static_cast<double>(value));
    }
    return *this;
  }
  template <class T>
  SensorHandle& fill(T value) {
    for (std::int64_t d = 0; d < target_->devices(); ++d) set(d, value);
    return *this;
  }

 private:
  Target* target_;
  std::int32_t index_;
};

// A program's parameter vector as set by name; a run needs every parameter set.
class ParameterValues {
 public:
  ParameterValues() = default;
  explicit ParameterValues(const TracedProgram& program)
      : values_(static_cast<std::size_t>(program.parameterWidth()), 0.0),
        set_(program.parameters.size(), 0) {}

  void set(const char* who, const TracedProgram& program, const std::string& name,
           const std::vector<double>& values) {
    const std::int32_t index = program.parameterIndex(name);
    if (index < 0) {
      invalidArgument(who, "program '" + program.name + "' has no parameter named '" + name + "'");
    }
    const ParameterInfo& info = program.parameters[static_cast<std::size_t>(index)];
    if (static_cast<std::int64_t>(values.size()) != info.width) {
      invalidArgument(who, "parameter '" + name + "' has width " + std::to_string(info.width) +
                               ", got " + std::to_string(values.size()) + " values");
    }
    std::copy(values.begin(), values.end(), values_.begin() + info.offset);
    set_[static_cast<std::size_t>(index)] = 1;
  }
  void requireAll(const char* who, const TracedProgram& program) const {
    for (std::size_t i = 0; i < set_.size(); ++i) {
      if (!set_[i]) {
        invalidArgument(who, "program '" + program.name + "': parameter '" +
                                 program.parameters[i].name + "' is not set");
      }
    }
  }
  const std::vector<double>& values() const { return values_; }

 private:
  std::vector<double> values_;
  std::vector<char> set_;
};

}  // namespace kfield::impl

#endif
