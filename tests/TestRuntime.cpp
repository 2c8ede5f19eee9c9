#include "support/TestSpaces.hpp"

#include <kfield/backends/SpaceInfo.hpp>

#include <cstdlib>
#include <string>
#include <type_traits>

namespace kfield::test {
namespace {

template <class Space>
class Runtime : public ::testing::Test {};
TYPED_TEST_SUITE(Runtime, Spaces, SpaceNames);

TYPED_TEST(Runtime, KokkosIsInitialised) { EXPECT_TRUE(Kokkos::is_initialized()); }

TYPED_TEST(Runtime, SpaceIsListedAsEnabled) {
  bool listed = false;
  for (const SpaceInfo& s : enabledSpaces()) listed = listed || s.name == TypeParam::name();
  EXPECT_TRUE(listed) << TypeParam::name();
}

// ctest runs the OpenMP binary at 1 and 2 threads: the thread count must really be in force.
TYPED_TEST(Runtime, ConcurrencyIsTheRequestedThreadCount) {
  const int concurrency = TypeParam().concurrency();
  if (std::is_same<TypeParam, Kokkos::Serial>::value) {
    EXPECT_EQ(concurrency, 1);
  } else if (const char* expected = std::getenv("KFIELD_TEST_THREADS")) {
    EXPECT_EQ(concurrency, std::stoi(expected));
  } else {
    EXPECT_GE(concurrency, 1);
  }
}

}  // namespace
}  // namespace kfield::test
