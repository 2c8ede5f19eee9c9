#include "kfield/net/DevicePartition.hpp"

#include "kfield/impl/Errors.hpp"
#include "kfield/learn/Partition.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>

namespace kfield {

namespace {
constexpr const char* kWho = "kfield::DevicePartition";
}

DevicePartition DevicePartition::blocks(std::int64_t devices, int parts) {
  if (parts < 1)
    impl::invalidArgument(kWho, "the number of parts must be >= 1, got " + std::to_string(parts));
  if (devices < 0)
    impl::invalidArgument(kWho,
                          "the number of devices must be >= 0, got " + std::to_string(devices));
  std::vector<std::int64_t> bounds(static_cast<std::size_t>(parts) + 1, 0);
  for (int r = 0; r < parts; ++r) bounds[r + 1] = bounds[r] + shareSize(devices, parts, r);
  return fromBounds(std::move(bounds), devices);
}

DevicePartition DevicePartition::fromBounds(std::vector<std::int64_t> bounds,
                                            std::int64_t devices) {
  if (bounds.size() < 2) impl::invalidArgument(kWho, "bounds need at least 2 values (one part)");
  if (bounds.front() != 0) {
    impl::invalidArgument(kWho, "bounds start at 0, got " + std::to_string(bounds.front()));
  }
  if (bounds.back() != devices) {
    impl::invalidArgument(kWho, "bounds end at the number of devices, " + std::to_string(devices) +
                                    ", got " + std::to_string(bounds.back()));
  }
  for (std::size_t r = 1; r < bounds.size(); ++r) {
    if (bounds[r] < bounds[r - 1]) {
      impl::invalidArgument(kWho, "bound " + std::to_string(bounds[r]) + " is below bound " +
                                      std::to_string(bounds[r - 1]));
    }
  }
  DevicePartition p;
  p.bounds_ = std::move(bounds);
  return p;
}

DevicePartition DevicePartition::fromSpec(const std::string& spec, std::int64_t devices,
                                          int parts) {
  const std::string prefix = "bounds:";
  try {
    if (spec == "blocks") return blocks(devices, parts);
    if (spec.compare(0, prefix.size(), prefix) != 0) {
      impl::invalidArgument(kWho, "give 'blocks' or 'bounds:B1,B2,...'");
    }
    std::vector<std::int64_t> bounds{0};
    const std::string list = spec.substr(prefix.size());
    std::size_t at = 0;
    while (at <= list.size() && !list.empty()) {
      const std::size_t comma = std::min(list.find(',', at), list.size());
      const std::string word = list.substr(at, comma - at);
      char* end = nullptr;
      errno = 0;
      const long long v = std::strtoll(word.c_str(), &end, 10);
      if (word.empty() || *end != '\0' || errno != 0 || word[0] == '+' || word[0] == ' ') {
        impl::invalidArgument(kWho, "'" + word + "' is not a whole number");
      }
      bounds.push_back(v);
      at = comma + 1;
    }
    if (static_cast<int>(bounds.size()) != parts) {
      impl::invalidArgument(kWho, std::to_string(bounds.size() - 1) + " inner bounds for " +
                                      std::to_string(parts) + " parts (give " +
                                      std::to_string(parts - 1) + ")");
    }
    bounds.push_back(devices);
    return fromBounds(std::move(bounds), devices);
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();  // "kfield::DevicePartition: ..."
    impl::invalidArgument(kWho, "partition '" + spec + "': " + what.substr(what.find(": ") + 2));
  }
}

IndexRange DevicePartition::part(int rank) const {
  if (rank < 0 || rank >= parts()) {
    impl::invalidArgument(
        kWho, "part " + std::to_string(rank) + " is not in [0, " + std::to_string(parts()) + ")");
  }
  return {bounds_[rank], bounds_[rank + 1]};
}

int DevicePartition::ownerOf(std::int64_t device) const {
  if (device < 0 || device >= devices()) {
    impl::invalidArgument(kWho, "device " + std::to_string(device) + " is not in [0, " +
                                    std::to_string(devices()) + ")");
  }
  // The last part that begins at or before the device: empty parts before it are skipped.
  const auto after = std::upper_bound(bounds_.begin(), bounds_.end(), device);
  return static_cast<int>(after - bounds_.begin()) - 1;
}

std::string DevicePartition::text() const {
  std::string out = std::to_string(parts()) + (parts() == 1 ? " part:" : " parts:");
  for (int r = 0; r < parts(); ++r) {
    out += " [" + std::to_string(bounds_[r]) + ", " + std::to_string(bounds_[r + 1]) + ")";
  }
  return out;
}

}  // namespace kfield
