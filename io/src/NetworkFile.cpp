#include "kfield/io/NetworkFile.hpp"

#include "Format.hpp"

#include <functional>
#include <optional>
#include <utility>
#include <vector>

namespace kfield::io {

namespace {

// A file's /network datasets, their types and shapes checked.
struct NetworkDatasets {
  impl::File file;
  impl::Group group;
  impl::Dataset offsets, neighbors;
  std::uint64_t devices = 0, entries = 0;
  std::string description;

  explicit NetworkDatasets(const std::string& path)
      : file(impl::File::open(path)),
        group(opened(file).group("network")),
        offsets(group.dataset("offsets")),
        neighbors(group.dataset("neighbors")) {
    if (offsets.dims().size() != 1) offsets.require(impl::Type::Int64, {offsets.elements()});
    offsets.require(impl::Type::Int64, offsets.dims());
    devices = offsets.dims()[0] == 0 ? 0 : offsets.dims()[0] - 1;
    if (neighbors.dims().size() != 1) neighbors.require(impl::Type::Int32, {neighbors.elements()});
    neighbors.require(impl::Type::Int32, neighbors.dims());
    entries = neighbors.dims()[0];
    description = "network of '" + path + "'";
    for (const std::string& a : group.attributeNames()) {
      if (a == "description") description = group.stringAttribute(a) + " from '" + path + "'";
    }
  }
  // The lengths (one per entry) and the positions (a row of x, y per device), where held.
  std::optional<impl::Dataset> lengths() const {
    if (!group.has("lengths")) return std::nullopt;
    impl::Dataset d = group.dataset("lengths");
    d.require(impl::Type::Float64, {entries});
    return d;
  }
  std::optional<impl::Dataset> positions() const {
    if (!group.has("positions")) return std::nullopt;
    impl::Dataset d = group.dataset("positions");
    d.require(impl::Type::Float64, {devices, 2});
    return d;
  }

 private:
  static const impl::File& opened(const impl::File& file) {
    impl::kindOf(file);  // a kfield file of a version this build reads
    if (!file.has("network")) file.fail("no /network group: the file holds no network");
    return file;
  }
};

}  // namespace

Network readNetwork(const std::string& path) {
  const NetworkDatasets d(path);
  std::vector<double> lengths, x, y;
  if (const auto held = d.lengths()) lengths = held->readAll<double>();
  if (const auto held = d.positions()) {
    const auto xy = held->readAll<double>();
    for (std::uint64_t i = 0; i < d.devices; ++i)
      x.push_back(xy[2 * i]), y.push_back(xy[2 * i + 1]);
  }
  return Network::fromCsr(d.offsets.readAll<std::int64_t>(), d.neighbors.readAll<std::int32_t>(),
                          std::move(lengths), std::move(x), std::move(y), d.description);
}

std::int64_t readNetworkDevices(const std::string& path) {
  return static_cast<std::int64_t>(NetworkDatasets(path).devices);
}

NetworkPart readNetworkPart(const std::string& path, IndexRange owned) {
  const NetworkDatasets d(path);
  const auto n = static_cast<std::int64_t>(d.devices);
  std::vector<std::int64_t> offsets{0};
  std::vector<std::int32_t> neighbors;
  std::vector<double> lengths;
  std::function<std::vector<std::pair<double, double>>(const std::vector<std::int64_t>&)>
      positionsOf;
  const std::optional<impl::Dataset> positions = d.positions();
  if (owned.begin >= 0 && owned.end <= n && owned.begin < owned.end) {
    const auto m = static_cast<std::uint64_t>(owned.size());
    d.offsets.requireFits(sizeof(std::int64_t), m + 1);
    offsets.resize(m + 1);
    d.offsets.read(offsets.data(), std::uint64_t(owned.begin), m + 1);
    const std::int64_t first = offsets[0], last = offsets[m];
    if (first < 0 || last < first || std::uint64_t(last) > d.entries) {
      d.group.fail("offsets: the rows of devices [" + std::to_string(owned.begin) + ", " +
                   std::to_string(owned.end) + ") run from entry " + std::to_string(first) +
                   " to " + std::to_string(last) + ", outside the " + std::to_string(d.entries) +
                   " entries");
    }
    for (std::int64_t& o : offsets) o -= first;  // rows that go backwards are refused by fromRows
    const auto count = std::uint64_t(last - first);
    d.neighbors.requireFits(sizeof(std::int32_t) + sizeof(double), count);
    neighbors.resize(count);
    d.neighbors.read(neighbors.data(), std::uint64_t(first), count);
    if (const auto held = d.lengths()) {
      lengths.resize(count);
      held->read(lengths.data(), std::uint64_t(first), count);
    }
    if (positions) {
      positionsOf =
          [&positions](const std::vector<std::int64_t>& ids) {  // runs of ids, a read each
            std::vector<std::pair<double, double>> at(ids.size());
            std::vector<double> xy;
            for (std::size_t i = 0, j = 0; i < ids.size(); i = j) {
              for (j = i + 1; j < ids.size() && ids[j] == ids[j - 1] + 1;) ++j;
              xy.resize(2 * (j - i));
              positions->read(xy.data(), std::uint64_t(ids[i]), std::uint64_t(j - i));
              for (std::size_t k = i; k < j; ++k) at[k] = {xy[2 * (k - i)], xy[2 * (k - i) + 1]};
            }
            return at;
          };
    }
  }
  return NetworkPart::fromRows(n, owned, offsets, neighbors, lengths, positionsOf, d.description);
}

}  // namespace kfield::io
