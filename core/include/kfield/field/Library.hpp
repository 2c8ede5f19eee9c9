// The coordination library: gradients (G), broadcast, collection (C), sparse choice (S),
// time (T), channel, gossip and consensus, as aggregate functions over a Program. Each one
// is an ordinary user-level aggregate function: read them as examples.
#ifndef KFIELD_FIELD_LIBRARY_HPP
#define KFIELD_FIELD_LIBRARY_HPP

#include "kfield/field/Program.hpp"
#include "kfield/impl/Errors.hpp"
#include "kfield/impl/KokkosCompat.hpp"

#include <string>

namespace kfield::lib {

constexpr double kInfinity = impl::math::infinity();

// G: hops to the nearest source (0 at sources, +inf where none is reachable). A device k
// hops away is exact from round k + 1.
inline Field<double> hopGradient(Program& p, const Field<bool>& source) {
  return p.aggregate("hopGradient", [&] {
    return p.share(kInfinity, [&](const NbrField<double>& d) {
      return p.mux(source, 0.0, d.excludeSelf().min() + 1.0);
    });
  });
}

// G: shortest-path distance to the nearest source along edge lengths.
inline Field<double> distanceGradient(Program& p, const Field<bool>& source) {
  return p.aggregate("distanceGradient", [&] {
    return p.share(kInfinity, [&](const NbrField<double>& d) {
      return p.mux(source, 0.0, (d + p.edgeLength()).excludeSelf().min());
    });
  });
}

// The distance gradient over edge lengths scaled by `scale` (a learnable parameter, say).
inline Field<double> distanceGradient(Program& p, const Field<bool>& source,
                                      const Field<double>& scale) {
  return p.aggregate("distanceGradient", [&] {
    return p.share(kInfinity, [&](const NbrField<double>& d) {
      return p.mux(source, 0.0, (d + p.edgeLength() * scale).excludeSelf().min());
    });
  });
}

// The value at the nearest source (by distance), carried down the gradient; where several
// neighbors are equally near, the smallest of their values. A device that no source reaches
// keeps `otherwise` (ScaFi's G keeps the local field there; FCPP's counts the device itself).
inline Field<double> broadcast(Program& p, const Field<bool>& source, const Field<double>& value,
                               const Field<double>& otherwise) {
  return p.aggregate("broadcast", [&] {
    const Field<double> d = distanceGradient(p, source);
    return p.share(kInfinity, [&](const NbrField<double>& carried) {
      const NbrField<double> through = p.neighbors(d) + p.edgeLength();
      const Field<double> best = through.excludeSelf().min();
      const Field<double> from = p.mux(through == best, carried, kInfinity).excludeSelf().min();
      return p.mux(source, value, p.mux(best < kInfinity, from, otherwise));
    });
  });
}
// Unreached devices keep their own value.
inline Field<double> broadcast(Program& p, const Field<bool>& source, const Field<double>& value) {
  return broadcast(p, source, value, value);
}

// G on (distance, value) pairs, as ScaFi's block: the distance to the nearest source and its
// value accumulated along the way (accumulate maps the neighbors' values to what they hand
// over, entry by entry). One share of pairs folded to their lexicographic minimum, so among
// equally near neighbors the smallest value wins. A device that no source reaches has
// (+inf, value).
template <class Accumulate>
Field<Tuple<double, double>> nearestSource(Program& p, const Field<bool>& source,
                                           const Field<double>& value, Accumulate&& accumulate) {
  return p.aggregate("nearestSource", [&] {
    const Field<Tuple<double, double>> unreached = p.tuple(p.constant(kInfinity), value);
    return p.share(unreached, [&](const NbrField<Tuple<double, double>>& n) {
      const NbrField<double> distance = get<0>(n) + p.edgeLength();
      const auto best = p.tuple(distance, accumulate(get<1>(n))).excludeSelf().min();
      const auto here = p.tuple(p.constant(0.0), value);
      return p.mux(source, here, p.mux(get<0>(best) < kInfinity, best, unreached));
    });
  });
}
inline Field<Tuple<double, double>> nearestSource(Program& p, const Field<bool>& source,
                                                  const Field<double>& value) {
  return nearestSource(p, source, value, [](const NbrField<double>& v) { return v; });
}
// Its value alone: the broadcast of one share (lib::broadcast shares distance and value apart).
inline Field<double> gradientCast(Program& p, const Field<bool>& source,
                                  const Field<double>& value) {
  return get<1>(nearestSource(p, source, value));
}

// The neighbor a device hands its collected value to: the one nearest the source by hops,
// the smallest id among equals; -1 at sources and where no source is reachable.
inline Field<double> collectionParent(Program& p, const Field<double>& hops) {
  const NbrField<double> theirs = p.neighbors(hops);
  const Field<double> best = theirs.excludeSelf().min();
  const Field<double> parent =
      p.mux(theirs == best, p.neighbors(toDouble(p.uid())), kInfinity).excludeSelf().min();
  return p.mux(hops == 0.0 || best == kInfinity, -1.0, parent);
}

// C, the generic block: a device combines value with what its children hand over (each child
// once per round, in CSR order) and hands the result to its parent; combine(child, collected)
// gets which neighbors are its children and the neighbors' collected values.
template <class Combine>
Field<double> collect(Program& p, const char* name, const Field<bool>& source, Combine&& combine) {
  return p.aggregate(name, [&] {
    const Field<double> parent = collectionParent(p, hopGradient(p, source));
    const NbrField<bool> child = p.neighbors(parent) == toDouble(p.uid());
    return p.share(0.0,
                   [&](const NbrField<double>& collected) { return combine(child, collected); });
  });
}

// C: the sum of value over each source's catchment, at the source (in its tree's order).
inline Field<double> collectSum(Program& p, const Field<bool>& source, const Field<double>& value) {
  return collect(p, "collectSum", source, [&](const auto& child, const auto& c) {
    return value + p.mux(child, c, 0.0).excludeSelf().sum();
  });
}
inline Field<double> collectMin(Program& p, const Field<bool>& source, const Field<double>& value) {
  return collect(p, "collectMin", source, [&](const auto& child, const auto& c) {
    return min(value, p.mux(child, c, kInfinity).excludeSelf().min());
  });
}
inline Field<double> collectMax(Program& p, const Field<bool>& source, const Field<double>& value) {
  return collect(p, "collectMax", source, [&](const auto& child, const auto& c) {
    return max(value, p.mux(child, c, -kInfinity).excludeSelf().max());
  });
}
inline Field<double> collectCount(Program& p, const Field<bool>& source) {
  return collectSum(p, source, p.constant(1.0));
}

// C, weighted multi-path (FCPP's wmp_collection, with sum and product): a device splits what
// it collected among the neighbors nearer the source, each in proportion to (radius - edge
// length) x (how much nearer it is), and sends each its part (nbr of a neighbor field); what
// a device collects is value plus the parts its neighbors sent it. Nothing is counted twice,
// so the source's result is the sum of value over the devices that reach it, once the flow
// settles. distance: to the source (a gradient); radius: the communication range.
inline Field<double> collectWeighted(Program& p, const Field<double>& distance, double radius,
                                     const Field<double>& value) {
  return p.aggregate("collectWeighted", [&] {
    const NbrField<double> theirs = p.nbr(distance, distance);
    const NbrField<double> nearer =
        p.mux(theirs < kInfinity && distance < kInfinity, distance - theirs, 0.0);
    const NbrField<double> weight = max(max(radius - p.edgeLength(), 0.0) * nearer, 0.0);
    const Field<double> total = weight.sum();
    const NbrField<double> part = p.nbr(0.0, weight / p.mux(total == 0.0, 1.0, total));
    return p.share(value, [&](const NbrField<double>& collected) {
      return value + (collected * part).excludeSelf().sum();
    });
  });
}

// C, multi-path (FCPP's mp_collection): a device collects value together with what its
// neighbors farther from the source sent it, and sends the neighbors nearer the source a part
// each. With a sum, the parts are equal (what it collected over how many are nearer; all of
// it where none is), so nothing is counted twice and the flow settles at the sum over the
// devices that reach each source; with min or max (idempotent) every part is the whole.
// Unlike the single path (collectSum), a device's value goes down every way the gradient
// descends at once, so one failing link does not cut it off. No lists or sets travel: one
// double per device per round. distance: to the source (a gradient).
//
// The generic block: combine(child, sent) gives what a device collects (child: which
// neighbors are farther from the source; sent: what each sent it last round), and
// divide(collected, nearer) what it sends each of the `nearer` neighbors nearer the source.
template <class Combine, class Divide>
Field<double> collectMultiPath(Program& p, const char* name, const Field<double>& distance,
                               Combine&& combine, Divide&& divide) {
  return p.aggregate(name, [&] {
    const NbrField<double> theirs = p.neighbors(distance);
    const Field<double> nearer = p.mux(theirs < distance, 1.0, 0.0).excludeSelf().sum();
    Field<double> collected = distance;  // set inside the share: what it collected this round
    p.share(0.0, [&](const NbrField<double>& sent) {
      collected = combine(theirs > distance, sent);
      return divide(collected, nearer);
    });
    return collected;
  });
}

inline Field<double> collectMultiPathSum(Program& p, const Field<double>& distance,
                                         const Field<double>& value) {
  return collectMultiPath(
      p, "collectMultiPathSum", distance,
      [&](const auto& child, const auto& sent) {
        return value + p.mux(child, sent, 0.0).excludeSelf().sum();
      },
      [&](const Field<double>& collected, const Field<double>& nearer) {
        return collected / max(nearer, p.constant(1.0));
      });
}
inline Field<double> collectMultiPathMin(Program& p, const Field<double>& distance,
                                         const Field<double>& value) {
  return collectMultiPath(
      p, "collectMultiPathMin", distance,
      [&](const auto& child, const auto& sent) {
        return min(value, p.mux(child, sent, kInfinity).excludeSelf().min());
      },
      [](const Field<double>& collected, const Field<double>&) { return collected; });
}
inline Field<double> collectMultiPathMax(Program& p, const Field<double>& distance,
                                         const Field<double>& value) {
  return collectMultiPath(
      p, "collectMultiPathMax", distance,
      [&](const auto& child, const auto& sent) {
        return max(value, p.mux(child, sent, -kInfinity).excludeSelf().max());
      },
      [](const Field<double>& collected, const Field<double>&) { return collected; });
}

// S: sparse choice. A device leads when its id is the smallest within `radius` hops, so
// leaders are more than `radius` hops apart (radius levels of neighbor minima, traced one by
// one: each settles one round after the one below). Returns the id of the nearest leader by
// distance (the smallest among equally near ones).
constexpr int kMaxElectionRadius = 64;
inline Field<double> election(Program& p, int radius) {
  if (radius < 0 || radius > kMaxElectionRadius) {
    impl::invalidArgument("kfield::lib::election",
                          "radius must be in [0, " + std::to_string(kMaxElectionRadius) +
                              "] (one traced level per hop), got " + std::to_string(radius));
  }
  return p.aggregate("election", [&] {
    const Field<double> id = toDouble(p.uid());
    Field<double> smallest = id;
    for (int k = 0; k < radius; ++k) smallest = min(smallest, p.neighbors(smallest).min());
    return broadcast(p, smallest == id, id);
  });
}

// T: a countdown from `duration` by `step` each round, held at 0.
inline Field<double> timer(Program& p, double duration, double step = 1.0) {
  return p.aggregate("timer", [&] {
    return p.remember(duration, [&](Field<double> t) { return max(t - step, p.constant(0.0)); });
  });
}

// T: value decaying by `factor` each round from its first.
inline Field<double> decay(Program& p, const Field<double>& value, double factor) {
  return p.aggregate(
      "decay", [&] { return p.remember(value, [&](Field<double> v) { return v * factor; }); });
}

// T in time: what is left of `duration` since the device's first round (firing), held at 0;
// it counts down by the time between rounds, so it runs on a device's own clock.
inline Field<double> countdown(Program& p, double duration) {
  return p.aggregate("countdown", [&] {
    return p.remember(duration,
                      [&](Field<double> t) { return max(t - p.deltaTime(), p.constant(0.0)); });
  });
}

// T in time: value from the device's first round, decaying as exp(-rate x the time since).
inline Field<double> decayInTime(Program& p, const Field<double>& value, double rate) {
  return p.aggregate("decayInTime", [&] {
    return p.remember(value, [&](Field<double> v) { return v * exp(p.deltaTime() * -rate); });
  });
}

// A clock the devices share (FCPP's shared_clock): each round a device takes its own clock,
// advanced by the time since its last round, or a neighbor's, advanced by how old the
// neighbor's message is, whichever is later. It starts at 0 at a device's first round; once
// the network is connected long enough, every device reads the time since the first device
// started. In synchronous rounds it is the round number.
inline Field<double> sharedClock(Program& p) {
  return p.aggregate("sharedClock", [&] {
    return p.share(0.0, [&](const NbrField<double>& c) {
      return max(c.self() + p.deltaTime(), (c + p.nbrLag()).excludeSelf().max());
    });
  });
}

// G for changing networks: the bounded-information-speed gradient (BIS, Audrito, Damiani and
// Viroli, 2018). A device keeps its distance estimate and the age of the information it rests
// on; a neighbor's candidate is (max(its distance + edge length, speed x its age + lag), its
// age + lag), and the device takes the lexicographically least (sources: (0, 0)). Information
// that has travelled for t counts as at least speed x t away, so where a source fails the
// estimates rise at least at `speed` instead of by one edge length per round. speed: at most
// the network's information speed (radius / period) for estimates that converge to the true
// distances; 0 gives distanceGradient's distances.
inline Field<double> bisGradient(Program& p, const Field<bool>& source, double speed) {
  return p.aggregate("bisGradient", [&] {
    const Field<Tuple<double, double>> none = p.tuple(p.constant(kInfinity), p.constant(0.0));
    const auto estimate = p.share(none, [&](const NbrField<Tuple<double, double>>& n) {
      const NbrField<double> age = get<1>(n) + p.nbrLag();
      const NbrField<double> distance = max(get<0>(n) + p.edgeLength(), age * speed);
      const auto best = p.tuple(distance, age).excludeSelf().min();
      const auto here = p.tuple(p.constant(0.0), p.constant(0.0));
      return p.mux(source, here, p.mux(get<0>(best) < kInfinity, best, none));
    });
    return get<0>(estimate);
  });
}

// Gossip: the largest (smallest) value anywhere in the device's connected part of the network.
inline Field<double> gossipMax(Program& p, const Field<double>& value) {
  return p.aggregate("gossipMax", [&] {
    return p.share(-kInfinity, [&](const NbrField<double>& n) { return max(value, n.max()); });
  });
}
inline Field<double> gossipMin(Program& p, const Field<double>& value) {
  return p.aggregate("gossipMin", [&] {
    return p.share(kInfinity, [&](const NbrField<double>& n) { return min(value, n.min()); });
  });
}

// Averaging consensus: x += rate * sum over neighbors of (theirs - mine), from value. With
// rate below 1 / (largest degree) every part of the network converges to its mean.
inline Field<double> consensus(Program& p, const Field<double>& value, double rate) {
  return p.aggregate("consensus", [&] {
    return p.share(value, [&](const NbrField<double>& x) {
      const Field<double> mine = x.self();
      return mine + (x - mine).excludeSelf().sum() * rate;
    });
  });
}

// Consensus with a rate that is a field (a learnable parameter, say).
inline Field<double> consensus(Program& p, const Field<double>& value, const Field<double>& rate) {
  return p.aggregate("consensus", [&] {
    return p.share(value, [&](const NbrField<double>& x) {
      const Field<double> mine = x.self();
      return mine + (x - mine).excludeSelf().sum() * rate;
    });
  });
}

// A channel from source to destination: the devices that reach both and whose distances to
// both add up to at most the source-destination distance plus width; empty where either is
// unreachable. Obstacles are left out of the network (a branch): gradients go round them.
inline Field<bool> channel(Program& p, const Field<bool>& source, const Field<bool>& destination,
                           const Field<bool>& obstacle, double width) {
  return p.aggregate("channel", [&] {
    return p.branch(
        obstacle, [&] { return p.constant(false); },
        [&] {
          const Field<double> fromSource = distanceGradient(p, source);
          const Field<double> toDestination = distanceGradient(p, destination);
          const Field<double> span = broadcast(p, source, toDestination);
          return fromSource < kInfinity && toDestination < kInfinity &&
                 fromSource + toDestination <= span + width;
        });
  });
}

// Processes: a hop gradient from every device where `source` holds, each its own process
// (keyed by the source's id) reaching the devices fewer than `range` hops away; at most
// `maxSources` per device. A source that appears launches its process; one that stops being a
// source stops anchoring it, its distances rise, and the process ends everywhere within
// about `range` rounds. The values: hops to each source.
inline Processes<double> sourceGradients(Program& p, const Field<bool>& source, double range,
                                         int maxSources) {
  return p.aggregate("sourceGradients", [&] {
    const Field<int> id = p.uid();
    return p.spawn<double>(p.mux(source, id, p.constant(-1)), maxSources,
                           [&](const Field<int>& key) {
                             const Field<double> hops = hopGradient(p, source && id == key);
                             return std::make_pair(hops, hops < range);
                           });
  });
}

// Processes: a gossip per source, over the devices fewer than `range` hops from it: each
// process's value is the largest `value` among the devices it holds (their part of the
// network), and it comes and goes with its source as in sourceGradients.
inline Processes<double> sourceGossip(Program& p, const Field<bool>& source,
                                      const Field<double>& value, double range, int maxSources) {
  return p.aggregate("sourceGossip", [&] {
    const Field<int> id = p.uid();
    return p.spawn<double>(
        p.mux(source, id, p.constant(-1)), maxSources, [&](const Field<int>& key) {
          const Field<bool> inside = hopGradient(p, source && id == key) < range;
          // The process's border (devices range hops away run it without keeping it) relays.
          return std::make_pair(gossipMax(p, p.mux(inside, value, -kInfinity)), inside);
        });
  });
}

}  // namespace kfield::lib

#endif
