// Networks given as their arrays, checked.
#include "BuildRows.hpp"

#include <cmath>

namespace kfield {

namespace {
[[noreturn]] void fail(const std::string& what) {
  impl::invalidArgument("kfield::Network::fromCsr", what);
}
}  // namespace

void checkRows(const char* who, std::int64_t n, std::int64_t first,
               const std::vector<std::int64_t>& offsets, const std::vector<std::int32_t>& neighbors,
               const std::vector<double>& lengths) {
  const auto fail = [who](const std::string& what) { impl::invalidArgument(who, what); };
  if (offsets.empty() || offsets[0] != 0) fail("offsets must start with 0");
  const auto entries = static_cast<std::int64_t>(neighbors.size());
  if (offsets.back() != entries) {
    fail("offsets end at " + std::to_string(offsets.back()) + " but there are " +
         std::to_string(entries) + " entries");
  }
  if (!lengths.empty() && static_cast<std::int64_t>(lengths.size()) != entries) {
    fail(std::to_string(lengths.size()) + " lengths for " + std::to_string(entries) + " entries");
  }
  for (std::size_t r = 0; r + 1 < offsets.size(); ++r) {
    const std::int64_t i = first + std::int64_t(r), begin = offsets[r], end = offsets[r + 1];
    const std::string row = "row " + std::to_string(i) + ": ";
    if (end < begin || end > entries) fail(row + "offsets go backwards or past the entries");
    bool self = false;
    for (std::int64_t e = begin; e < end; ++e) {
      const std::int32_t j = neighbors[std::size_t(e)];
      if (j < 0 || j >= n) fail(row + "neighbor " + std::to_string(j) + " is not a device");
      if (e > begin && j <= neighbors[std::size_t(e) - 1])
        fail(row + "ids are not strictly increasing");
      self = self || j == i;
      if (!lengths.empty()) {
        const double l = lengths[std::size_t(e)];
        if (!(l >= 0.0) || !std::isfinite(l) || (j == i && l != 0.0)) {
          fail(row + "length " + impl::numberText(l) + " (lengths are finite, >= 0, 0 for itself)");
        }
      }
    }
    if (!self) fail(row + "the device itself is not in its row");
  }
}

Network Network::fromCsr(std::vector<std::int64_t> offsets, std::vector<std::int32_t> neighbors,
                         std::vector<double> lengths, std::vector<double> x, std::vector<double> y,
                         std::string description) {
  if (offsets.empty() || offsets[0] != 0) fail("offsets must start with 0");
  const auto n = static_cast<std::int64_t>(offsets.size()) - 1;
  checkDevices("kfield::Network::fromCsr", n);
  if (x.size() != y.size() || (!x.empty() && static_cast<std::int64_t>(x.size()) != n)) {
    fail(std::to_string(x.size()) + " x and " + std::to_string(y.size()) + " y positions for " +
         std::to_string(n) + " devices");
  }
  checkRows("kfield::Network::fromCsr", n, 0, offsets, neighbors, lengths);
  for (std::int64_t i = 0; i < n && !x.empty(); ++i) {
    if (!(std::isfinite(x[std::size_t(i)]) && std::isfinite(y[std::size_t(i)]))) {
      fail("row " + std::to_string(i) + ": its position is not finite");
    }
  }
  Network net;
  Arrays& a = *net.data_;
  a.offsets = std::move(offsets);
  a.neighbors = std::move(neighbors);
  a.lengths = std::move(lengths);
  a.x = std::move(x);
  a.y = std::move(y);
  a.description = std::move(description);
  return net;
}

}  // namespace kfield
