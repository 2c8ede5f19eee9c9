// What every network builder shares: rows filled one device at a time, sorted, with the self
// entry put in its place; and the limit on the device count (ids are 32-bit).
#ifndef KFIELD_SRC_NET_BUILDROWS_HPP
#define KFIELD_SRC_NET_BUILDROWS_HPP

#include "kfield/impl/Errors.hpp"
#include "kfield/net/Network.hpp"

#include <algorithm>
#include <limits>
#include <string>

namespace kfield {

constexpr std::int64_t kMaxDevices = std::numeric_limits<std::int32_t>::max();

inline void checkDevices(const char* who, std::int64_t n) {
  if (n < 1 || n > kMaxDevices) {
    impl::invalidArgument(who, "the number of devices must be in [1, " +
                                   std::to_string(kMaxDevices) + "], got " + std::to_string(n));
  }
}

template <class FillRow>
Network Network::build(std::int64_t devices, FillRow&& fillRow, std::string description) {
  Network net;
  net.offsets_.reserve(devices + 1);
  Row row;
  for (std::int64_t i = 0; i < devices; ++i) {
    row.clear();
    fillRow(i, row);
    row.emplace_back(static_cast<std::int32_t>(i), 0.0);
    std::sort(row.begin(), row.end());
    for (const auto& [j, length] : row) {
      net.neighbors_.push_back(j);
      net.lengths_.push_back(length);
    }
    net.offsets_.push_back(static_cast<std::int64_t>(net.neighbors_.size()));
  }
  net.description_ = std::move(description);
  return net;
}

}  // namespace kfield

#endif
