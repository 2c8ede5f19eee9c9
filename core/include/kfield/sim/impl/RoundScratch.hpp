// Where a round keeps its values. A tile's values live in team scratch while they fit the
// backend's limit (a GPU's shared memory is ~40 KiB a block), the tile shrinking to fit; when
// one device's live samples do not fit, each team works in a slice of a spill buffer in the
// space's memory instead, as many teams as run at once, each walking several tiles. Neither
// choice changes a bit: every value is computed by the same operations in the same order.
#ifndef KFIELD_SIM_IMPL_ROUNDSCRATCH_HPP
#define KFIELD_SIM_IMPL_ROUNDSCRATCH_HPP

#include "kfield/impl/Sizes.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>

namespace kfield::impl {

struct RoundScratch {
  std::int64_t tileDevices = 1;  // devices per tile
  std::int64_t tiles = 0;
  std::uint64_t teamBytes = 0;  // one tile's values
  bool spill = false;           // values in a spill buffer, not in team scratch
  std::int64_t teams = 0;       // teams launched; a spill buffer holds teams x teamBytes
};

// How many tiles each team that runs at once should have at least, so that threads that
// finish early find work: tiles shrink to it, down to the least tile the backend asks for.
constexpr std::int64_t kTilesPerTeam = 8;

// slots value slots x tileDevices x live samples, 8 bytes each; tileElements device-samples a
// tile, or fewer, down to leastTileElements, to give each team kTilesPerTeam tiles; `limit`:
// the most team scratch a team may ask for; `concurrentTeams`: how many teams the space runs
// at once.
inline RoundScratch planRoundScratch(int slots, std::int64_t live, std::int64_t devices,
                                     std::int64_t tileElements, std::int64_t leastTileElements,
                                     std::uint64_t limit, std::int64_t concurrentTeams) {
  const auto bytesOf = [&](std::int64_t tileDevices) {
    return product({std::uint64_t(std::max(slots, 1)), std::uint64_t(tileDevices),
                    std::uint64_t(live), sizeof(double)});
  };
  const auto devicesFor = [&](std::int64_t elements) {
    return std::max<std::int64_t>(1, elements / std::max<std::int64_t>(live, 1));
  };
  RoundScratch plan;
  plan.tileDevices = devicesFor(tileElements);
  const std::int64_t tilesWanted = kTilesPerTeam * std::max<std::int64_t>(concurrentTeams, 1);
  const std::int64_t balanced =
      (std::max<std::int64_t>(devices, 1) + tilesWanted - 1) / tilesWanted;
  plan.tileDevices = std::min(plan.tileDevices, std::max(balanced, devicesFor(leastTileElements)));
  const std::uint64_t perDevice = bytesOf(1);
  if (bytesOf(plan.tileDevices) > limit && perDevice <= limit) {
    plan.tileDevices = static_cast<std::int64_t>(limit / perDevice);
  }
  plan.tileDevices = std::min(plan.tileDevices, std::max<std::int64_t>(devices, 1));
  plan.teamBytes = bytesOf(plan.tileDevices);
  plan.tiles = (devices + plan.tileDevices - 1) / plan.tileDevices;
  plan.spill = plan.teamBytes > limit;
  plan.teams =
      plan.spill ? std::max<std::int64_t>(1, std::min(plan.tiles, concurrentTeams)) : plan.tiles;
  return plan;
}

// The most team scratch a round asks for: the backend's own limit, or a lower cap that tests
// set to run the smaller tiles and the spill on any backend (0: no cap).
inline std::uint64_t& roundScratchCap() {
  static std::uint64_t cap = 0;
  return cap;
}

inline std::uint64_t roundScratchLimit(std::uint64_t backendLimit) {
  const std::uint64_t cap = roundScratchCap();
  return cap != 0 && cap < backendLimit ? cap : backendLimit;
}

}  // namespace kfield::impl

#endif
