// Writes the compiled reverse rounds of support/ReverseTestPrograms.hpp to the file named: run
// by the build before the space tests compile it in (the way a user compiles their programs').
#include "support/ReverseTestPrograms.hpp"

#include <kfield/diff/CompiledReverse.hpp>

#include <Kokkos_Core.hpp>

#include <cstdio>
#include <fstream>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUT.cpp\n", argv[0]);
    return 2;
  }
  Kokkos::ScopeGuard kokkos(argc, argv);
  std::ofstream out(argv[1], std::ios::binary);
  out << kfield::diff::compiledReversesSource(kfield::test::reverseTestPrograms(),
                                              "kfield::test::testCompiledReverses");
  return out.flush() ? 0 : 1;
}
