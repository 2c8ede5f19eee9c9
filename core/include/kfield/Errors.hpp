// How kfield refuses: bad input throws std::invalid_argument and other failures
// std::runtime_error, each reading "kfield::Thing: what", naming the function or class that
// refused and the value it refused.
#ifndef KFIELD_ERRORS_HPP
#define KFIELD_ERRORS_HPP

#include <exception>
#include <string>

namespace kfield {

// The "what" of a kfield message, without the "kfield::Thing: " that names who refused: for a
// caller that puts the user's own words in front instead.
inline std::string reason(const std::string& message) {
  if (message.rfind("kfield::", 0) != 0) return message;
  const auto colon = message.find(": ");
  return colon == std::string::npos ? message : message.substr(colon + 2);
}
inline std::string reason(const std::exception& e) { return reason(std::string(e.what())); }

}  // namespace kfield

#endif
