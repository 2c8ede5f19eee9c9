// How devices move in a moving simulation, and how often their neighborhoods are rebuilt.
// Every model is a pure function of (seed, device, step) and of the program's output: the same
// positions, and so the same networks, on every backend and thread count.
#ifndef KFIELD_SIM_MOTION_HPP
#define KFIELD_SIM_MOTION_HPP

#include "kfield/impl/Errors.hpp"

#include <cmath>
#include <cstdint>
#include <string>

namespace kfield {

struct Motion {
  enum class Model : std::int32_t {
    // Each device keeps a direction drawn once (uniform on the circle), at `speed`, and
    // bounces off the area's sides.
    Straight,
    // Random waypoint: each device walks at `speed` towards a point drawn uniformly in the
    // area; one that reaches it stays there for the rest of the step and draws the next.
    Waypoint,
    // The program's output is the velocity: components 0 and 1 (x and y, distance per unit of
    // time), bouncing off the area's sides. One sample only: the samples of a simulation share
    // one network.
    Velocity,
  };
  Model model = Model::Waypoint;
  double speed = 1.0;   // distance per unit of time (Straight, Waypoint); finite, >= 0
  double radius = 1.0;  // devices at most this far apart hear each other; finite, > 0
  // Neighborhoods are rebuilt every `rebuildEvery` rounds (on a Schedule: periods); between
  // rebuilds devices move but keep their neighbors.
  std::int64_t rebuildEvery = 1;
  std::uint64_t seed = 0;
  // The area devices move in, [xmin, xmax] x [ymin, ymax]; when xmin > xmax (the default), the
  // bounding box of the starting positions.
  double xmin = 0.0, ymin = 0.0, xmax = -1.0, ymax = -1.0;

  bool hasArea() const { return xmin <= xmax; }

  // Throws std::invalid_argument, naming the value, for a motion that is not one.
  void check(const std::string& who) const {
    if (!(speed >= 0.0) || !std::isfinite(speed)) {
      impl::invalidArgument(
          who, "motion: speed must be a finite number >= 0, got " + impl::numberText(speed));
    }
    if (!(radius > 0.0) || !std::isfinite(radius)) {
      impl::invalidArgument(
          who, "motion: radius must be a finite number > 0, got " + impl::numberText(radius));
    }
    if (rebuildEvery < 1) {
      impl::invalidArgument(who, "motion: neighborhoods must be rebuilt every K >= 1 rounds, got " +
                                     std::to_string(rebuildEvery));
    }
    if (hasArea() && !(std::isfinite(xmin) && std::isfinite(xmax) && std::isfinite(ymin) &&
                       std::isfinite(ymax) && ymin <= ymax)) {
      impl::invalidArgument(who, "motion: the area [" + impl::numberText(xmin) + ", " +
                                     impl::numberText(xmax) + "] x [" + impl::numberText(ymin) +
                                     ", " + impl::numberText(ymax) + "] is not a finite rectangle");
    }
  }

  static const char* modelName(Model m) {
    return m == Model::Straight ? "straight" : m == Model::Waypoint ? "waypoint" : "velocity";
  }

  std::string text() const {
    return std::string(modelName(model)) +
           (model == Model::Velocity ? "" : ", speed " + impl::numberText(speed)) + ", radius " +
           impl::numberText(radius) + ", rebuilt every " + std::to_string(rebuildEvery) +
           ", seed " + std::to_string(seed);
  }
  bool operator==(const Motion& o) const {
    return model == o.model && speed == o.speed && radius == o.radius &&
           rebuildEvery == o.rebuildEvery && seed == o.seed && xmin == o.xmin && ymin == o.ymin &&
           xmax == o.xmax && ymax == o.ymax;
  }
  bool operator!=(const Motion& o) const { return !(*this == o); }
};

}  // namespace kfield

#endif
