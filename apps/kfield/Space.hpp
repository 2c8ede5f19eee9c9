// The execution spaces a command can run on: those the Kokkos it was built against enables,
// by lower-case name (`--space serial|openmp|cuda`).
#ifndef KFIELD_APPS_SPACE_HPP
#define KFIELD_APPS_SPACE_HPP

#include "Command.hpp"

#include <Kokkos_Core.hpp>

#include <string>
#include <vector>

namespace kfield::cli {

inline std::vector<std::string> spaceNames() {
  std::vector<std::string> names;
#ifdef KOKKOS_ENABLE_SERIAL
  names.push_back("serial");
#endif
#ifdef KOKKOS_ENABLE_OPENMP
  names.push_back("openmp");
#endif
#ifdef KOKKOS_ENABLE_CUDA
  names.push_back("cuda");
#endif
  return names;
}

// The default space's name: what a command runs on without --space.
inline std::string defaultSpaceName() {
  std::string name = Kokkos::DefaultExecutionSpace::name();
  for (char& c : name) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return name;
}

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
  throw UserError("--space '" + name + "' is not built into this kfield (it has: " +
                  spaceList() + ")");
}

// f(space) on the space named `name` ("" for the default); a name not compiled in is a user
// error that lists those that are.
template <class F>
int onSpace(const std::string& name, F&& f) {
  const std::string chosen = name.empty() ? defaultSpaceName() : name;
#ifdef KOKKOS_ENABLE_SERIAL
  if (chosen == "serial") return f(Kokkos::Serial());
#endif
#ifdef KOKKOS_ENABLE_OPENMP
  if (chosen == "openmp") return f(Kokkos::OpenMP());
#endif
#ifdef KOKKOS_ENABLE_CUDA
  if (chosen == "cuda") return f(Kokkos::Cuda());
#endif
  requireSpace(chosen);
  throw UserError("kfield runs on " + spaceList() + ", not on Kokkos' default space '" + chosen +
                  "'");
}

}  // namespace kfield::cli

#endif
