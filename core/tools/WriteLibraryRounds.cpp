// Writes the library's compiled rounds (kfield::libraryRoundsSource) to the file named, the
// checked-in core/src/sim/compiled/LibraryRounds.cpp when run by the build target
// kfield_regenerate_library_rounds.
#include "kfield/sim/CompiledRound.hpp"

#include <Kokkos_Core.hpp>

#include <cstdio>
#include <fstream>
#include <string>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUT.cpp\n", argv[0]);
    return 2;
  }
  Kokkos::ScopeGuard kokkos(argc, argv);
  const std::string source = kfield::libraryRoundsSource();
  const std::string path = argv[1];
  const std::string partial = path + ".partial";
  {
    std::ofstream out(partial, std::ios::binary);
    out << source;
    if (!out.flush()) {
      std::fprintf(stderr, "kfield: cannot write %s\n", partial.c_str());
      return 1;
    }
  }
  if (std::rename(partial.c_str(), path.c_str()) != 0) {  // never half a file in the tree
    std::fprintf(stderr, "kfield: cannot move %s over %s\n", partial.c_str(), path.c_str());
    return 1;
  }
  return 0;
}
