// Writes the library's compiled rounds (kfield::libraryRoundsSource) and compiled reverse rounds
// (kfield::diff::libraryReversesSource) to the files named: the checked-in
// core/src/sim/compiled/LibraryRounds.cpp and core/src/diff/compiled/LibraryReverses.cpp when
// run by the build target kfield_regenerate_library_rounds.
#include "kfield/diff/CompiledReverse.hpp"
#include "kfield/sim/CompiledRound.hpp"

#include <Kokkos_Core.hpp>

#include <cstdio>
#include <fstream>
#include <string>

namespace {

bool writeWhole(const std::string& path, const std::string& source) {
  const std::string partial = path + ".partial";
  {
    std::ofstream out(partial, std::ios::binary);
    out << source;
    if (!out.flush()) {
      std::fprintf(stderr, "kfield: cannot write %s\n", partial.c_str());
      return false;
    }
  }
  if (std::rename(partial.c_str(), path.c_str()) != 0) {  // never half a file in the tree
    std::fprintf(stderr, "kfield: cannot move %s over %s\n", partial.c_str(), path.c_str());
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s ROUNDS.cpp REVERSES.cpp\n", argv[0]);
    return 2;
  }
  Kokkos::ScopeGuard kokkos(argc, argv);
  const bool ok = writeWhole(argv[1], kfield::libraryRoundsSource()) &&
                  writeWhole(argv[2], kfield::diff::libraryReversesSource());
  return ok ? 0 : 1;
}
