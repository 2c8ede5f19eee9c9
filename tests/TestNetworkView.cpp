// A network copied to an execution space's memory holds the host's CSR exactly.
#include "support/TestSpaces.hpp"

#include <kfield/net/Network.hpp>
#include <kfield/net/NetworkView.hpp>

#include <type_traits>
#include <vector>

namespace kfield::test {
namespace {

template <class Space>
class NetworkView : public ::testing::Test {};
TYPED_TEST_SUITE(NetworkView, Spaces, SpaceNames);

TYPED_TEST(NetworkView, HoldsTheHostCsrExactly) {
  const Network net = Network::randomGeometric(500, 1.5, 9);
  const auto view = net.on<typename TypeParam::memory_space>();
  EXPECT_EQ(toHost(view.offsets), net.offsets());
  EXPECT_EQ(toHost(view.neighbors), net.neighbors());
  const auto lengths = toHost(view.lengths), expected = net.lengths();
  ASSERT_EQ(lengths.size(), expected.size());
  for (std::size_t k = 0; k < lengths.size(); ++k) {
    EXPECT_EQ(bitsOf(lengths[k]), bitsOf(expected[k])) << "entry " << k;
  }
}

// Lengths only when asked for; on the host the CSR is the network's own arrays, no copy.
TYPED_TEST(NetworkView, LengthsOnlyWhenAskedAndNoHostCopy) {
  const Network net = Network::grid(30, 20);
  const auto view = net.on<typename TypeParam::memory_space>(false);
  EXPECT_EQ(view.lengths.extent(0), 0u);
  EXPECT_EQ(toHost(view.neighbors), net.neighbors());
  if (std::is_same<typename TypeParam::memory_space, Kokkos::HostSpace>::value) {
    EXPECT_EQ(view.offsets.data(), net.offsets().data());
    EXPECT_EQ(view.neighbors.data(), net.neighbors().data());
  }
}

}  // namespace
}  // namespace kfield::test
