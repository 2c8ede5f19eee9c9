// The coordination library: gradients (G), broadcast, collection (C), sparse choice (S),
// time (T), channel, gossip and consensus, as aggregate functions over a Program.
#ifndef KFIELD_FIELD_LIBRARY_HPP
#define KFIELD_FIELD_LIBRARY_HPP

#include "kfield/field/Program.hpp"
#include "kfield/impl/KokkosCompat.hpp"

namespace kfield::lib {

constexpr double kInfinity = math::infinity();

// Hops to the nearest source (0 at sources, +inf where no source is reachable). A device k
// hops away is exact from round k + 1.
inline Field<double> hopGradient(Program& p, const Field<bool>& source) {
  return p.aggregate("hopGradient", [&] {
    return p.share(kInfinity, [&](const NbrField<double>& d) {
      return p.mux(source, 0.0, d.excludeSelf().min() + 1.0);
    });
  });
}

// Shortest-path distance to the nearest source along edge lengths.
inline Field<double> distanceGradient(Program& p, const Field<bool>& source) {
  return p.aggregate("distanceGradient", [&] {
    return p.share(kInfinity, [&](const NbrField<double>& d) {
      return p.mux(source, 0.0, (d + p.edgeLength()).excludeSelf().min());
    });
  });
}

}  // namespace kfield::lib

#endif
