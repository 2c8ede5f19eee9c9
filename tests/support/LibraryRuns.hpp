// What the tests that run every library program share: inputs set the same way for every
// sensor and parameter, and outputs compared bit for bit.
#ifndef KFIELD_TEST_LIBRARYRUNS_HPP
#define KFIELD_TEST_LIBRARYRUNS_HPP

#include <gtest/gtest.h>
#include <kfield/Plane.hpp>
#include <kfield/field/TracedProgram.hpp>
#include <kfield/impl/Bits.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace kfield::test {

inline bool sameBits(double a, double b) {
  return kfield::impl::bitsOf(a) == kfield::impl::bitsOf(b);
}

// Every sensor and parameter of a program set, differently per device and sample.
template <class Sim>
void setInputs(Sim& sim, const TracedProgram& program, std::int64_t devices, std::int64_t samples) {
  for (const SensorInfo& sensor : program.sensors) {
    for (std::int64_t s = 0; s < samples; ++s) {
      for (std::int64_t d = 0; d < devices; ++d) {
        const std::int64_t v = (d * 7 + s * 3) % 11;
        const double x = sensor.type == SensorType::Bool  ? double(v == 0)
                         : sensor.type == SensorType::Int ? double(v)
                                                          : 0.25 * double(v) + 0.5;
        sim.sensor(sensor.name).set(d, s, x);
      }
    }
  }
  for (const ParameterInfo& parameter : program.parameters) {
    sim.parameter(parameter.name, std::vector<double>(std::size_t(parameter.width), 1.25));
  }
}

inline void expectSameBits(const HostPlane& a, const HostPlane& b, const std::string& what) {
  ASSERT_EQ(a.extent(0), b.extent(0)) << what;
  ASSERT_EQ(a.extent(1), b.extent(1)) << what;
  for (std::size_t r = 0; r < a.extent(0); ++r) {
    for (std::size_t s = 0; s < a.extent(1); ++s) {
      ASSERT_TRUE(sameBits(a(r, s), b(r, s)))
          << what << ": row " << r << ", sample " << s << ": " << a(r, s) << " vs " << b(r, s);
    }
  }
}

}  // namespace kfield::test

#endif
