// A network copied to an execution space's memory holds the host's CSR exactly.
#include "TestSpaces.hpp"

#include <kfield/net/Network.hpp>
#include <kfield/net/NetworkView.hpp>

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
  const auto lengths = toHost(view.lengths);
  ASSERT_EQ(lengths.size(), net.lengths().size());
  for (std::size_t k = 0; k < lengths.size(); ++k) {
    EXPECT_EQ(bitsOf(lengths[k]), bitsOf(net.lengths()[k])) << "entry " << k;
  }
}

}  // namespace
}  // namespace kfield::test
