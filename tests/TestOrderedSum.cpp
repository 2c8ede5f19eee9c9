#include "support/ErrorOf.hpp"
#include "support/SumReference.hpp"
#include "support/TestSpaces.hpp"

#include <kfield/sum/OrderedSum.hpp>

#include <vector>

namespace kfield::test {
namespace {

template <class Space>
class OrderedSum : public ::testing::Test {};
TYPED_TEST_SUITE(OrderedSum, Spaces, SpaceNames);

TYPED_TEST(OrderedSum, AddsInExactlyTheListsOrder) {
  using View = Kokkos::View<double*, typename TypeParam::memory_space>;
  for (int sources : {1, 2, 3, 8, 9, 17, 20}) {
    const std::int64_t n = 10007;
    std::vector<std::vector<double>> host;
    std::vector<SourceView<View>> src;
    for (int j = 0; j < sources; ++j) {
      host.push_back(adversarial(n, 100 * sources + j));
      src.push_back(onSpace<TypeParam>(host.back()));
    }
    View dst("dst", n);
    orderedSum(TypeParam(), dst, src, n);
    const auto got = toHost(dst);
    for (std::int64_t i = 0; i < n; ++i) {
      double expected = host[0][i];
      for (int j = 1; j < sources; ++j) expected = expected + host[j][i];
      ASSERT_EQ(bitsOf(got[i]), bitsOf(expected)) << sources << " sources, element " << i;
    }
  }
}

// (1e16 + 1) + 1 and 1e16 + (1 + 1) differ: the order of the list is the order of the sum.
TYPED_TEST(OrderedSum, TheOrderOfTheListMatters) {
  using View = Kokkos::View<double*, typename TypeParam::memory_space>;
  View a = onSpace<TypeParam>({1e16}), b = onSpace<TypeParam>({1.0}), c = onSpace<TypeParam>({1.0});
  View dst("dst", 1);
  orderedSum(TypeParam(), dst, {a, b, c}, 1);
  EXPECT_EQ(toHost(dst)[0], 1e16);
  orderedSum(TypeParam(), dst, {b, c, a}, 1);
  EXPECT_EQ(toHost(dst)[0], 1e16 + 2.0);
}

TYPED_TEST(OrderedSum, DstMayBeTheFirstSource) {
  using View = Kokkos::View<double*, typename TypeParam::memory_space>;
  const auto x = adversarial(1000, 1), y = adversarial(1000, 2), z = adversarial(1000, 3);
  View acc = onSpace<TypeParam>(x);
  std::vector<SourceView<View>> src{acc};
  for (int j = 0; j < 10; ++j) src.push_back(onSpace<TypeParam>(j % 2 ? y : z));
  orderedSum(TypeParam(), acc, src, 1000);
  const auto got = toHost(acc);
  for (int i = 0; i < 1000; ++i) {
    double expected = x[i];
    for (int j = 0; j < 10; ++j) expected = expected + (j % 2 ? y[i] : z[i]);
    ASSERT_EQ(bitsOf(got[i]), bitsOf(expected)) << i;
  }
  orderedSum(TypeParam(), acc, {acc}, 1000);  // a sum of one: unchanged
  EXPECT_EQ(toHost(acc), got);
}

TYPED_TEST(OrderedSum, OnlyThePrefixOfNElementsIsWritten) {
  using View = Kokkos::View<double*, typename TypeParam::memory_space>;
  View a = onSpace<TypeParam>({1, 2, 3, 4}), b = onSpace<TypeParam>({10, 20, 30, 40});
  View dst = onSpace<TypeParam>({-1, -1, -1, -1});
  orderedSum(TypeParam(), dst, {a, b}, 2);
  EXPECT_EQ(toHost(dst), (std::vector<double>{11, 22, -1, -1}));
  orderedSum(TypeParam(), dst, {a, b}, 0);
  EXPECT_EQ(toHost(dst), (std::vector<double>{11, 22, -1, -1}));
}

TYPED_TEST(OrderedSum, BadInputIsRefusedByName) {
  using View = Kokkos::View<double*, typename TypeParam::memory_space>;
  View a("a", 10), b("b", 10), shortOne("short", 5), dst("dst", 10);
  EXPECT_EQ(errorOf([&] {
              orderedSum(TypeParam(), dst, {a, shortOne}, 10);
            }),
            "kfield::orderedSum: src[1] has 5 elements, fewer than n = 10");
  EXPECT_EQ(errorOf([&] {
              orderedSum(TypeParam(), dst, {a, b}, -1);
            }),
            "kfield::orderedSum: n must be >= 0, got -1");
  EXPECT_EQ(errorOf([&] { orderedSum(TypeParam(), dst, {}, 10); }),
            "kfield::orderedSum: needs at least one source");
  EXPECT_EQ(errorOf([&] {
              orderedSum(TypeParam(), dst, {a, dst}, 10);
            }),
            "kfield::orderedSum: src[1] overlaps dst; only src[0] may alias dst, and only as the "
            "same view");
  auto shifted = Kokkos::subview(dst, std::pair<int, int>(1, 10));
  EXPECT_EQ(errorOf([&] {
              orderedSum(TypeParam(), shifted, {dst, a}, 9);
            }),
            "kfield::orderedSum: src[0] overlaps dst; only src[0] may alias dst, and only as the "
            "same view");
  EXPECT_EQ(errorOf([&] {
              orderedSum(TypeParam(), shortOne, {a, b}, 10);
            }),
            "kfield::orderedSum: dst has 5 elements, fewer than n = 10");
}

}  // namespace
}  // namespace kfield::test
