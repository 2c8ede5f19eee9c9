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

  // The device count (a file is read through for it, every line checked).
  std::int64_t devices() const;
  Network build() const;
  // Devices [owned.begin, owned.end), built (grids, rggs) or read (edge lists) without the whole.
  NetworkPart part(IndexRange owned) const;
  // Edge lists: a part does not know the whole's edge count (the parts' owned rows' edges summed).
  bool edgeList() const { return kind_ == Kind::Edges || kind_ == Kind::Arcs; }
  bool directed() const { return kind_ == Kind::Arcs; }
  // The whole network's description, given its edge count (Network::fromEdgeList's words).
  std::string edgeListDescription(std::int64_t devices, std::int64_t edges) const;
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
