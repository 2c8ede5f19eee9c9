// A network named by a spec string, as `kfield run --network` takes it, parsed once so that its
// network can be built whole or, for generated networks, one rank's part at a time.
#ifndef KFIELD_NET_NETWORKSPEC_HPP
#define KFIELD_NET_NETWORKSPEC_HPP

#include "kfield/IndexRange.hpp"
#include "kfield/net/Network.hpp"
#include "kfield/net/NetworkPart.hpp"

#include <cstdint>
#include <string>

namespace kfield {

// "grid:WxH[:4|:8]", "rgg:N:RADIUS[:SEED][:hilbert]", "edges:FILE" or "arcs:FILE" (directed).
// Every error names the spec: "kfield::Network::fromSpec: network 'rgg:10:-1': the radius must be
// finite and > 0, got -1".
class NetworkSpec {
 public:
  explicit NetworkSpec(std::string spec);  // checks the words; sizes are checked when used

  // Grids and rggs: generated, so their device count is known and their parts built alone.
  bool generated() const { return kind_ == Kind::Grid || kind_ == Kind::RandomGeometric; }
  // The device count of a generated network, without building it.
  std::int64_t devices() const;
  Network build() const;
  // Devices [owned.begin, owned.end) of a generated network, built without the whole (a file's
  // network is read whole and cut).
  NetworkPart part(IndexRange owned) const;
  const std::string& text() const { return text_; }

 private:
  enum class Kind { Grid, RandomGeometric, Edges, Arcs };
  Kind kind_ = Kind::Grid;
  std::string text_, path_;
  std::int64_t width_ = 0, height_ = 0, count_ = 0;
  int neighborhood_ = 4;
  double radius_ = 0;
  std::uint64_t seed_ = 1;
  DeviceOrder order_ = DeviceOrder::Drawn;
};

}  // namespace kfield

#endif
