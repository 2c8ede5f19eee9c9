// When each device fires in an asynchronous simulation: firing k of device d in sample s is at
// k * period + jitter * u(seed, d, s, k), u uniform in [0, 1) from the counter-based generator,
// so the schedule is a pure function, the same on every backend and thread count.
#ifndef KFIELD_SIM_SCHEDULE_HPP
#define KFIELD_SIM_SCHEDULE_HPP

#include "kfield/Random.hpp"
#include "kfield/impl/Errors.hpp"

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

namespace kfield {

struct Schedule {
  double period = 1.0;  // > 0
  double jitter = 0.0;  // in [0, period]: firings of a device never overtake each other
  std::uint64_t seed = 0;
  // A message older than this (the hearer's time minus the sender's last firing) is no longer
  // heard: a neighbor that has stopped firing drops out of folds. > 0; infinite by default.
  double retain = std::numeric_limits<double>::infinity();
  // Sample s of the simulation draws its schedule as sample firstSample + s: a batch split
  // into several simulations (chunks) keeps each sample's schedule, and so its bits.
  std::uint64_t firstSample = 0;

  // Throws std::invalid_argument, naming the value, for a schedule that is not one.
  void check(const std::string& who) const {
    if (!(period > 0.0) || !std::isfinite(period)) {
      impl::invalidArgument(
          who, "schedule: period must be a finite number > 0, got " + impl::numberText(period));
    }
    if (!(jitter >= 0.0) || !(jitter <= period)) {
      impl::invalidArgument(who, "schedule: jitter must be in [0, period] = [0, " +
                                     impl::numberText(period) + "], got " +
                                     impl::numberText(jitter));
    }
    if (!(retain > 0.0)) {
      impl::invalidArgument(who, "schedule: retain must be > 0, got " + impl::numberText(retain));
    }
  }

  std::string text() const {
    return "period " + impl::numberText(period) + ", jitter " + impl::numberText(jitter) +
           ", seed " + std::to_string(seed) +
           (retain < std::numeric_limits<double>::infinity()
                ? ", retain " + impl::numberText(retain)
                : "") +
           (firstSample != 0 ? ", first sample " + std::to_string(firstSample) : "");
  }
  bool operator==(const Schedule& o) const {
    return period == o.period && jitter == o.jitter && seed == o.seed && retain == o.retain &&
           firstSample == o.firstSample;
  }
  bool operator!=(const Schedule& o) const { return !(*this == o); }

  // The time of firing k (k >= 0) of device d in sample s. Strictly increasing in k, since
  // firing k lies in [k * period, k * period + jitter) and jitter <= period.
  KOKKOS_INLINE_FUNCTION double firingTime(std::int64_t k, std::int64_t d, std::int64_t s) const {
    const double at = double(k) * period;
    if (jitter == 0.0) return at;
    const std::uint64_t stream =
        mix64(mix64(seed, std::uint64_t(d)), std::uint64_t(s) + firstSample);
    return at + jitter * uniform01(stream, std::uint64_t(k));
  }
};

}  // namespace kfield

#endif
