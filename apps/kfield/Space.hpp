// The execution spaces a command can run on: those the Kokkos it was built against enables,
// by lower-case name (`--space serial|openmp|cuda`).
#ifndef KFIELD_APPS_SPACE_HPP
#define KFIELD_APPS_SPACE_HPP

#include "Command.hpp"

#include <kfield/backends/ExecutionSpaces.hpp>

#include <Kokkos_Core.hpp>

#include <string>
#include <vector>

namespace kfield::cli {

// A backend's name as --space spells it: Kokkos' in lower case.
inline std::string spaceName(std::string kokkosName) {
  for (char& c : kokkosName) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return kokkosName;
}

// The backends' own list (backends/ExecutionSpaces.hpp), in its order.
inline std::vector<std::string> spaceNames() {
  std::vector<std::string> names;
  for (const std::string& n : enabledBackendNames()) names.push_back(spaceName(n));
  return names;
}

// The default space's name: what a command runs on without --space.
inline std::string defaultSpaceName() { return spaceName(Kokkos::DefaultExecutionSpace::name()); }

inline std::string spaceList() {
  std::string names;
  for (const std::string& n : spaceNames()) names += (names.empty() ? "" : ", ") + n;
  return names;
}

// Refuses a space name this build lacks ("" is the default space), listing those it has.
inline void requireSpace(const std::string& name) {
  if (name.empty()) return;
  for (const std::string& n : spaceNames()) {
    if (n == name) return;
  }
  throw UserError("--space '" + name + "' is not built into this kfield (it has: " + spaceList() +
                  ")");
}

// f(space) on the space named `name` ("" for the default); a name not compiled in is a user
// error that lists those that are.
template <class F>
int onSpace(const std::string& name, F&& f) {
  const std::string chosen = name.empty() ? defaultSpaceName() : name;
  bool ran = false;
  int result = 0;
  forEachEnabledSpace([&](auto tag) {
    using Space = typename decltype(tag)::type;
    if (ran || spaceName(Space::name()) != chosen) return;
    ran = true;
    result = f(Space());
  });
  if (ran) return result;
  requireSpace(chosen);
  throw UserError("kfield runs on " + spaceList() + ", not on Kokkos' default space '" + chosen +
                  "'");
}

}  // namespace kfield::cli

#endif
