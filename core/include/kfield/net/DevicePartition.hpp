// How a network's devices are split among the ranks of a distributed simulation: contiguous
// runs of ids, rank r owning [bounds[r], bounds[r + 1]). A rank may own none.
#ifndef KFIELD_NET_DEVICEPARTITION_HPP
#define KFIELD_NET_DEVICEPARTITION_HPP

#include "kfield/IndexRange.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace kfield {

class DevicePartition {
 public:
  // `parts` runs whose sizes differ by at most one, larger first.
  static DevicePartition blocks(std::int64_t devices, int parts);
  // Rank r owns [bounds[r], bounds[r + 1]): bounds start at 0, never decrease and end at
  // `devices`. Throws std::invalid_argument naming the first bound that breaks this.
  static DevicePartition fromBounds(std::vector<std::int64_t> bounds, std::int64_t devices);
  // As `kfield run --partition` takes it: "blocks", or "bounds:B1,...,B(parts-1)" (the inner
  // bounds). Errors name the spec: "partition 'bounds:9,3': bound 3 is below bound 9".
  static DevicePartition fromSpec(const std::string& spec, std::int64_t devices, int parts);

  int parts() const { return static_cast<int>(bounds_.size()) - 1; }
  std::int64_t devices() const { return bounds_.back(); }
  IndexRange part(int rank) const;
  int ownerOf(std::int64_t device) const;
  const std::vector<std::int64_t>& bounds() const { return bounds_; }
  // "blocks of 0..10, 10..25" style text for reports: "2 parts: [0, 10) [10, 25)".
  std::string text() const;

 private:
  std::vector<std::int64_t> bounds_{0, 0};
};

}  // namespace kfield

#endif
