// Text from a file or a command line as a message shows it.
#ifndef KFIELD_IMPL_PRINTABLE_HPP
#define KFIELD_IMPL_PRINTABLE_HPP

#include <cstddef>
#include <cstdio>
#include <string>

namespace kfield::impl {

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

}  // namespace kfield::impl

#endif
