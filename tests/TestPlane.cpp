// Plane updates: reordering sample columns, and prefix updates of the live samples.
#include "support/ErrorOf.hpp"
#include "support/SumReference.hpp"
#include "support/TestSpaces.hpp"

#include <kfield/Plane.hpp>

#include <vector>

namespace kfield::test {
namespace {

template <class Space>
class Plane : public ::testing::Test {};
TYPED_TEST_SUITE(Plane, Spaces, SpaceNames);

template <class Space>
std::vector<double> planeToHost(const kfield::Plane<typename Space::memory_space>& p) {
  std::vector<double> out(p.span());
  Kokkos::deep_copy(
      Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
          out.data(), p.extent(0), p.extent(1)),
      p);
  return out;
}

TYPED_TEST(Plane, GatherSamplesMovesWholeColumns) {
  using Memory = typename TypeParam::memory_space;
  kfield::Plane<Memory> plane("plane", 3, 4);
  auto h = Kokkos::create_mirror_view(plane);
  for (int r = 0; r < 3; ++r) {
    for (int s = 0; s < 4; ++s) h(r, s) = 10.0 * r + s;
  }
  Kokkos::deep_copy(plane, h);
  Kokkos::View<std::int64_t*, Kokkos::HostSpace> fromHost("from", 4);
  const std::int64_t order[4] = {2, 0, 3, 1};
  for (int s = 0; s < 4; ++s) fromHost(s) = order[s];
  const auto from = Kokkos::create_mirror_view_and_copy(Memory(), fromHost);
  const auto moved = gatherSamples(TypeParam(), plane, from);
  std::vector<double> expected;
  for (int r = 0; r < 3; ++r) {
    for (int s = 0; s < 4; ++s) expected.push_back(10.0 * r + double(order[s]));
  }
  EXPECT_EQ(planeToHost<TypeParam>(moved), expected);
  EXPECT_EQ(moved.label(), plane.label());
}

TYPED_TEST(Plane, PrefixUpdatesTouchOnlyTheLivePrefixOfEveryRow) {
  using DevicePlane = kfield::Plane<typename TypeParam::memory_space>;
  DevicePlane acc("acc", 3, 5), g("g", 3, 5);
  Kokkos::deep_copy(acc, 1.0);
  Kokkos::deep_copy(g, 0.5);
  accumulatePrefix(TypeParam(), acc, g, 3);
  accumulatePrefix(TypeParam(), acc, g, 1);
  const std::vector<double> row{2.0, 1.5, 1.5, 1.0, 1.0};
  std::vector<double> expected;
  for (int r = 0; r < 3; ++r) expected.insert(expected.end(), row.begin(), row.end());
  EXPECT_EQ(planeToHost<TypeParam>(acc), expected);

  fillPrefix(TypeParam(), acc, 7.0, 2);
  for (int r = 0; r < 3; ++r) expected[r * 5] = expected[r * 5 + 1] = 7.0;
  EXPECT_EQ(planeToHost<TypeParam>(acc), expected);

  using View = Kokkos::View<double*, typename TypeParam::memory_space>;
  View v = onSpace<TypeParam>({1, 2, 3}), w = onSpace<TypeParam>({10, 10, 10});
  accumulatePrefix(TypeParam(), v, w, 2);
  fillPrefix(TypeParam(), w, -1.0, 1);
  EXPECT_EQ(toHost(v), (std::vector<double>{11, 12, 3}));
  EXPECT_EQ(toHost(w), (std::vector<double>{-1, 10, 10}));
}

TYPED_TEST(Plane, PrefixUpdatesRefuseBadCounts) {
  using DevicePlane = kfield::Plane<typename TypeParam::memory_space>;
  DevicePlane acc("acc", 3, 5), g("g", 3, 5), tall("tall", 4, 5);
  EXPECT_EQ(errorOf([&] { accumulatePrefix(TypeParam(), acc, g, 6); }),
            "kfield::accumulatePrefix: count must be in [0, 5] (the samples of acc), got 6");
  EXPECT_EQ(errorOf([&] { fillPrefix(TypeParam(), acc, 1.0, -1); }),
            "kfield::fillPrefix: count must be in [0, 5] (the samples of plane), got -1");
  EXPECT_EQ(errorOf([&] { accumulatePrefix(TypeParam(), acc, tall, 2); }),
            "kfield::accumulatePrefix: acc has 3 rows, g has 4");
  EXPECT_EQ(errorOf([&] { accumulatePrefix(TypeParam(), acc, acc, 2); }),
            "kfield::accumulatePrefix: g overlaps acc");
}

}  // namespace
}  // namespace kfield::test
