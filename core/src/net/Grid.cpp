// Square grids with 4 or 8 neighbors.
#include "BuildRows.hpp"

#include <cmath>
#include <string>

namespace kfield {

Network Network::grid(std::int64_t width, std::int64_t height, int neighborhood) {
  if (width < 1 || height < 1) {
    impl::invalidArgument("kfield::Network::grid", "width and height must be >= 1, got " +
                                                       std::to_string(width) + "x" +
                                                       std::to_string(height));
  }
  if (neighborhood != 4 && neighborhood != 8) {
    impl::invalidArgument("kfield::Network::grid",
                          "the neighborhood must be 4 or 8, got " + std::to_string(neighborhood));
  }
  if (width > kMaxDevices / height) {
    impl::invalidArgument("kfield::Network::grid", std::to_string(width) + "x" +
                                                       std::to_string(height) + " is more than " +
                                                       std::to_string(kMaxDevices) + " devices");
  }
  const double diagonal = std::sqrt(2.0);
  Network net = build(
      width * height,
      [&](std::int64_t i, Row& row) {
        const std::int64_t x = i % width, y = i / width;
        for (std::int64_t dy = -1; dy <= 1; ++dy) {
          for (std::int64_t dx = -1; dx <= 1; ++dx) {
            if ((dx == 0 && dy == 0) || (neighborhood == 4 && dx != 0 && dy != 0)) continue;
            const std::int64_t nx = x + dx, ny = y + dy;
            if (nx < 0 || nx >= width || ny < 0 || ny >= height) continue;
            row.emplace_back(static_cast<std::int32_t>(ny * width + nx),
                             dx != 0 && dy != 0 ? diagonal : 1.0);
          }
        }
      },
      "grid " + std::to_string(width) + "x" + std::to_string(height) + ", " +
          std::to_string(neighborhood) + " neighbors");
  net.x_.resize(width * height);
  net.y_.resize(width * height);
  for (std::int64_t i = 0; i < width * height; ++i) {
    net.x_[i] = double(i % width);
    net.y_[i] = double(i / width);
  }
  return net;
}

}  // namespace kfield
