// One way to refuse (kfield/Errors.hpp): every message reads "kfield::Thing: what".
#ifndef KFIELD_IMPL_ERRORS_HPP
#define KFIELD_IMPL_ERRORS_HPP

#include "kfield/Errors.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace kfield::impl {

// Bad input from the caller.
[[noreturn]] inline void invalidArgument(const std::string& who, const std::string& what) {
  throw std::invalid_argument(who + ": " + what);
}

// A failure that is not the caller's input: a library call, a broken invariant between ranks.
[[noreturn]] inline void runtimeError(const std::string& who, const std::string& what) {
  throw std::runtime_error(who + ": " + what);
}

// A number as a message shows it: the fewest digits that read back as the same double.
inline std::string numberText(double value) {
  char text[32];
  if (value > -1e15 && value < 1e15 && value == std::floor(value)) {
    std::snprintf(text, sizeof text, "%.0f", value);  // whole numbers in full: 1000, not 1e+03
    return text;
  }
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, value);
    if (std::strtod(text, nullptr) == value) break;
  }
  return text;
}

}  // namespace kfield::impl

#endif
