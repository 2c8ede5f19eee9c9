// Numbers on the command line read exactly: a whole number is decimal digits (a '-' first where
// the option may be negative) that fit the option's type, a real number is all number. CLI11
// alone reads "" as 0, "010" as octal, clamps what overflows and wraps "-1" into an unsigned.
#ifndef KFIELD_APPS_EXACTNUMBERS_HPP
#define KFIELD_APPS_EXACTNUMBERS_HPP

#include <CLI/CLI.hpp>

namespace kfield::cli {

// Checks every numeric option of `app` and of its subcommands, as they are when called.
void requireExactNumbers(CLI::App& app);

}  // namespace kfield::cli

#endif
