#include "kfield/net/Network.hpp"

#include "kfield/impl/Errors.hpp"
#include "kfield/impl/Sizes.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace kfield {

std::vector<double> Network::lengths() const {
  const Arrays& a = *data_;
  if (a.gridWidth == 0 && a.x.empty()) return a.lengths;  // given (edge lists)
  // The same expressions the builders once stored: the bits do not depend on where they run.
  const double diagonal = std::sqrt(2.0);
  std::vector<double> out(a.neighbors.size());
  for (std::int64_t i = 0; i < devices(); ++i) {
    for (std::int64_t k = a.offsets[i]; k < a.offsets[i + 1]; ++k) {
      const std::int64_t j = a.neighbors[k];
      if (j == i) {
        out[k] = 0.0;
      } else if (a.gridWidth > 0) {
        const bool across =
            j % a.gridWidth != i % a.gridWidth && j / a.gridWidth != i / a.gridWidth;
        out[k] = across ? diagonal : 1.0;
      } else {
        const double dx = a.x[j] - a.x[i], dy = a.y[j] - a.y[i];
        out[k] = std::sqrt(dx * dx + dy * dy);
      }
    }
  }
  return out;
}

std::vector<double> Network::x() const {
  if (data_->gridWidth == 0) return data_->x;
  std::vector<double> out(static_cast<std::size_t>(devices()));
  for (std::int64_t i = 0; i < devices(); ++i) out[i] = double(i % data_->gridWidth);
  return out;
}

std::vector<double> Network::y() const {
  if (data_->gridWidth == 0) return data_->y;
  std::vector<double> out(static_cast<std::size_t>(devices()));
  for (std::int64_t i = 0; i < devices(); ++i) out[i] = double(i / data_->gridWidth);
  return out;
}

std::uint64_t Network::bytes() const {
  const Arrays& a = *data_;
  return impl::total({a.offsets.capacity() * sizeof(std::int64_t),
                      a.neighbors.capacity() * sizeof(std::int32_t),
                      (a.lengths.capacity() + a.x.capacity() + a.y.capacity()) * sizeof(double)});
}

std::vector<std::int64_t> Network::reverseEntries() const {
  const auto& offsets = data_->offsets;
  const auto& neighbors = data_->neighbors;
  std::vector<std::int64_t> reverse(neighbors.size());
  for (std::int64_t d = 0; d < devices(); ++d) {
    for (std::int64_t k = offsets[d]; k < offsets[d + 1]; ++k) {
      const std::int64_t j = neighbors[k];
      const auto first = neighbors.begin() + offsets[j], last = neighbors.begin() + offsets[j + 1];
      const auto at = std::lower_bound(first, last, static_cast<std::int32_t>(d));  // rows sorted
      if (at == last || *at != d) {
        impl::invalidArgument("kfield::Network",
                              "network '" + description() + "': device " + std::to_string(d) +
                                  " hears device " + std::to_string(j) + ", but " +
                                  std::to_string(j) + " does not hear " + std::to_string(d));
      }
      reverse[k] = at - neighbors.begin();
    }
  }
  return reverse;
}

std::vector<std::int32_t> Network::neighborsOf(std::int64_t i) const {
  if (i < 0 || i >= devices()) {
    impl::invalidArgument(
        "kfield::Network::neighborsOf",
        "device " + std::to_string(i) + " is not in [0, " + std::to_string(devices()) + ")");
  }
  const auto& n = data_->neighbors;
  return {n.begin() + data_->offsets[i], n.begin() + data_->offsets[i + 1]};
}

}  // namespace kfield
