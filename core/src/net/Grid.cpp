// Square grids with 4 or 8 neighbors.
#include "BuildRows.hpp"

#include <string>

namespace kfield {

std::int64_t checkGridShape(const char* who, std::int64_t width, std::int64_t height,
                            int neighborhood) {
  const std::string size = std::to_string(width) + "x" + std::to_string(height);
  if (width < 1 || height < 1) {
    impl::invalidArgument(who, "width and height must be >= 1, got " + size);
  }
  if (neighborhood != 4 && neighborhood != 8) {
    impl::invalidArgument(who,
                          "the neighborhood must be 4 or 8, got " + std::to_string(neighborhood));
  }
  if (width > kMaxDevices / height) {
    impl::invalidArgument(who, size + " is more than " + std::to_string(kMaxDevices) + " devices");
  }
  return width * height;
}

std::int64_t gridEntries(std::int64_t width, std::int64_t height, int neighborhood) {
  // Self, then each edge twice: across, down, and (8 neighbors) both diagonals.
  std::int64_t edges = (width - 1) * height + width * (height - 1);
  if (neighborhood == 8) edges += 2 * (width - 1) * (height - 1);
  return width * height + 2 * edges;
}

std::string gridDescription(std::int64_t width, std::int64_t height, int neighborhood) {
  return "grid " + std::to_string(width) + "x" + std::to_string(height) + ", " +
         std::to_string(neighborhood) + " neighbors";
}

Network Network::grid(std::int64_t width, std::int64_t height, int neighborhood) {
  const char* who = "kfield::Network::grid";
  const std::string size = std::to_string(width) + "x" + std::to_string(height);
  const std::int64_t n = checkGridShape(who, width, height, neighborhood);
  const std::int64_t entries = gridEntries(width, height, neighborhood);
  checkNetworkBytes(who, "a " + size + " grid",
                    networkBytes(std::uint64_t(n), std::uint64_t(entries), 0, 0));
  Network net = build(
      n, entries, false,
      [&](std::int64_t i, Row& row) {
        const std::int64_t x = i % width, y = i / width;
        for (std::int64_t dy = -1; dy <= 1; ++dy) {
          for (std::int64_t dx = -1; dx <= 1; ++dx) {
            if ((dx == 0 && dy == 0) || (neighborhood == 4 && dx != 0 && dy != 0)) continue;
            const std::int64_t nx = x + dx, ny = y + dy;
            if (nx < 0 || nx >= width || ny < 0 || ny >= height) continue;
            row.emplace_back(static_cast<std::int32_t>(ny * width + nx), 0.0);
          }
        }
      },
      gridDescription(width, height, neighborhood));
  net.data_->gridWidth = width;
  return net;
}

}  // namespace kfield
