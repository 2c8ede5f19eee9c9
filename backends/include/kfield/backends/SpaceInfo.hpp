// What each enabled execution space offers in this process.
#ifndef KFIELD_BACKENDS_SPACEINFO_HPP
#define KFIELD_BACKENDS_SPACEINFO_HPP

#include "kfield/backends/ExecutionSpaces.hpp"

#include <string>
#include <vector>

namespace kfield {

struct SpaceInfo {
  std::string name;     // "Serial", "OpenMP", "Cuda"
  int concurrency = 0;  // threads (host) or resident threads (device)
  bool isDefault = false;
};

// Needs an initialised Kokkos (kfield::Runtime).
inline std::vector<SpaceInfo> enabledSpaces() {
  std::vector<SpaceInfo> spaces;
  forEachEnabledSpace([&](auto tag) {
    using Space = typename decltype(tag)::type;
    spaces.push_back({Space::name(), static_cast<int>(Space().concurrency()),
                      std::is_same<Space, Kokkos::DefaultExecutionSpace>::value});
  });
  return spaces;
}

}  // namespace kfield

#endif
