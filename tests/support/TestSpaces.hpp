// Typed tests run over the space of this binary's category, named after it in test names.
#ifndef KFIELD_TEST_TESTSPACES_HPP
#define KFIELD_TEST_TESTSPACES_HPP

#include <gtest/gtest.h>
#include <TestCategory.hpp>
#include <kfield/Plane.hpp>
#include <kfield/impl/Bits.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace kfield::test {

using Spaces = ::testing::Types<TestSpace>;

struct SpaceNames {
  template <class Space>
  static std::string GetName(int) {
    return Space::name();
  }
};

// The 64 bits of a double: tests compare these, never a tolerance.
using impl::bitsOf;

// A rank-1 View's elements, copied to a host vector.
template <class View>
std::vector<typename View::non_const_value_type> toHost(const View& v) {
  static_assert(View::rank == 1, "toHost takes a rank-1 View");
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  return std::vector<typename View::non_const_value_type>(h.data(), h.data() + h.extent(0));
}

// One sample of a devices x samples plane (a simulation's output), device by device.
inline std::vector<double> sampleOf(const HostPlane& plane, std::int64_t sample = 0) {
  std::vector<double> out(plane.extent(0));
  for (std::size_t d = 0; d < out.size(); ++d) out[d] = plane(d, sample);
  return out;
}

}  // namespace kfield::test

#endif
