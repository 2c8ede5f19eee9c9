#include "kfield/net/Network.hpp"

#include "kfield/impl/Errors.hpp"

#include <string>

namespace kfield {

std::vector<std::int32_t> Network::neighborsOf(std::int64_t i) const {
  if (i < 0 || i >= devices()) {
    impl::invalidArgument(
        "kfield::Network::neighborsOf",
        "device " + std::to_string(i) + " is not in [0, " + std::to_string(devices()) + ")");
  }
  return {neighbors_.begin() + offsets_[i], neighbors_.begin() + offsets_[i + 1]};
}

}  // namespace kfield
