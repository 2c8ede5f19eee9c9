#include "kfield/io/NetworkFile.hpp"

#include "Format.hpp"


namespace kfield::io {

Network readNetwork(const std::string& path) {
  const impl::File file = impl::File::open(path);
  impl::kindOf(file);  // a kfield file of a version this build reads
  if (!file.has("network")) file.fail("no /network group: the file holds no network");
  const impl::Group g = file.group("network");
  const impl::Dataset offsets = g.dataset("offsets");
  if (offsets.dims().size() != 1) offsets.require(impl::Type::Int64, {offsets.elements()});
  offsets.require(impl::Type::Int64, offsets.dims());
  const std::uint64_t n = offsets.dims()[0] == 0 ? 0 : offsets.dims()[0] - 1;
  const impl::Dataset neighbors = g.dataset("neighbors");
  if (neighbors.dims().size() != 1) neighbors.require(impl::Type::Int32, {neighbors.elements()});
  neighbors.require(impl::Type::Int32, neighbors.dims());
  const std::uint64_t e = neighbors.dims()[0];
  std::vector<double> lengths, x, y;
  if (g.has("lengths")) {
    const impl::Dataset d = g.dataset("lengths");
    d.require(impl::Type::Float64, {e});
    lengths = d.readAll<double>();
  }
  if (g.has("positions")) {
    const impl::Dataset d = g.dataset("positions");
    d.require(impl::Type::Float64, {n, 2});
    const auto xy = d.readAll<double>();
    for (std::uint64_t i = 0; i < n; ++i) x.push_back(xy[2 * i]), y.push_back(xy[2 * i + 1]);
  }
  std::string description = "network of '" + path + "'";
  for (const std::string& a : g.attributeNames()) {
    if (a == "description") description = g.stringAttribute(a) + " from '" + path + "'";
  }
  return Network::fromCsr(offsets.readAll<std::int64_t>(), neighbors.readAll<std::int32_t>(),
                          std::move(lengths), std::move(x), std::move(y), description);
}

}  // namespace kfield::io
