// The message of the std::invalid_argument that f() throws, or "no error": bad-input tests
// compare it whole.
#ifndef KFIELD_TEST_ERROROF_HPP
#define KFIELD_TEST_ERROROF_HPP

#include <stdexcept>
#include <string>

namespace kfield::test {

template <class F>
std::string errorOf(F&& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace kfield::test

#endif
