// A sensor of a program being set, for every sample or for one, on what runs the program (a
// Simulation, a Gradient): Target::setSensor(index, device, sample, value) checks and stores.
#ifndef KFIELD_SIM_IMPL_SENSORHANDLE_HPP
#define KFIELD_SIM_IMPL_SENSORHANDLE_HPP

#include <cstdint>
#include <string>
#include <utility>

namespace kfield::impl {

template <class Target>
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
    target_->setSensor(index_, device, sample, static_cast<double>(value));
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

}  // namespace kfield::impl

#endif
