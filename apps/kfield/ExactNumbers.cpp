#include "ExactNumbers.hpp"

#include <kfield/Errors.hpp>

#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace kfield::cli {
namespace {

std::string wholeNumber(const std::string& text, bool isUnsigned) {
  const std::string shown = "'" + kfield::printable(text) + "'";
  if (text.empty()) return "is empty: give a whole number";
  const char* first = text.data();
  const char* last = first + text.size();
  std::from_chars_result parsed{};
  if (isUnsigned) {
    if (text[0] == '-') return "must be >= 0, got " + shown;
    std::uint64_t value = 0;
    parsed = std::from_chars(first, last, value);
  } else {
    std::int64_t value = 0;
    parsed = std::from_chars(first, last, value);
  }
  if (parsed.ec == std::errc::result_out_of_range) return "is out of range: " + shown;
  if (parsed.ec != std::errc() || parsed.ptr != last) return "is not a whole number: " + shown;
  if (text.size() > 1 && text[text[0] == '-' ? 1 : 0] == '0') {
    return "has a leading zero (decimal digits only): " + shown;
  }
  return {};
}

std::string realNumber(const std::string& text) {
  if (text.empty()) return "is empty: give a number";
  char* end = nullptr;
  (void)std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size())
    return "is not a number: '" + kfield::printable(text) + "'";
  return {};
}

void checkNumbers(CLI::App& app) {
  for (CLI::Option* option : app.get_options()) {
    const std::string type = option->get_type_name();
    if (type == "INT" || type == "UINT") {
      const bool isUnsigned = type == "UINT";
      option->check(CLI::Validator(
          [isUnsigned](std::string& text) { return wholeNumber(text, isUnsigned); }, "", "exact"));
    } else if (type == "FLOAT") {
      option->check(
          CLI::Validator([](std::string& text) { return realNumber(text); }, "", "exact"));
    }
  }
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) checkNumbers(*sub);
}

}  // namespace

void requireExactNumbers(CLI::App& app) { checkNumbers(app); }

}  // namespace kfield::cli
