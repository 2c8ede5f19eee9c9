// How kfield refuses: bad input throws std::invalid_argument and other failures
// std::runtime_error, each reading "kfield::Thing: what", naming the function or class that
// refused and the value it refused; a user's own text in a message is quoted printable.
#ifndef KFIELD_ERRORS_HPP
#define KFIELD_ERRORS_HPP

#include <cstddef>
#include <cstdio>
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

// Bytes outside printable ASCII as \xNN, and at most `limit` bytes of it (then "..."), so a
// binary file cannot write control codes to the terminal or a megabyte line into one message.
inline std::string printable(const std::string& text, std::size_t limit = 80) {
  std::string out;
  for (std::size_t i = 0; i < text.size() && i < limit; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f && c != '\\') {
      out += static_cast<char>(c);
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    }
  }
  if (text.size() > limit) out += "...";
  return out;
}

}  // namespace kfield

#endif
