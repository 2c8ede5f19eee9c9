// Typed tests run over the space of this binary's category, named after it in test names.
#ifndef KFIELD_TEST_TESTSPACES_HPP
#define KFIELD_TEST_TESTSPACES_HPP

#include <TestCategory.hpp>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>

namespace kfield::test {

using Spaces = ::testing::Types<TestSpace>;

struct SpaceNames {
  template <class Space>
  static std::string GetName(int) {
    return Space::name();
  }
};

// The 64 bits of a double: tests compare these, never a tolerance.
inline std::uint64_t bitsOf(double x) {
  std::uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}

}  // namespace kfield::test

#endif
