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

template <class View>
std::vector<typename View::non_const_value_type> toHost(const View& v) {
  std::vector<typename View::non_const_value_type> out(v.extent(0));
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  for (std::size_t j = 0; j < out.size(); ++j) out[j] = h(j);
  return out;
}

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
