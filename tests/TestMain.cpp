// One Kokkos (and MPI) for the whole test binary, started through kfield::Runtime.
#include <kfield/rt/Runtime.hpp>

#include <gtest/gtest.h>

int main(int argc, char* argv[]) {
  ::testing::InitGoogleTest(&argc, argv);
  kfield::Runtime runtime(argc, argv);
  return RUN_ALL_TESTS();
}
