// What a simulation carries from round to round (SimulationCarry.hpp), read out and restored,
// and its output: planes in sample order. Definitions of BasicSimulation's members, reached
// through Simulation.hpp.
#ifndef KFIELD_SIM_IMPL_SIMULATIONCARRYING_HPP
#define KFIELD_SIM_IMPL_SIMULATIONCARRYING_HPP

#include "kfield/sim/Simulation.hpp"

namespace kfield {

template <class ExecSpace>
SimulationCarry BasicSimulation<ExecSpace>::carry() const {
  // `swappedFrom`: the plane that holds a column whose sample's exports were swapped away.
  auto inSampleOrder = [&](const Plane<Memory>& plane, const char* label,
                           const Plane<Memory>* swappedFrom = nullptr) {
    auto positioned = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), plane);
    decltype(positioned) other;
    if (swappedFrom) other = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), *swappedFrom);
    HostPlane result(std::string(label), plane.extent(0), plane.extent(1));
    for (std::size_t r = 0; r < plane.extent(0); ++r) {
      for (std::int64_t p = 0; p < samples_; ++p) {
        const bool swapped = swappedFrom && exportsSwapped_[sampleAt_[p]];
        result(r, sampleAt_[p]) = swapped ? other(r, p) : positioned(r, p);
      }
    }
    return result;
  };
  SimulationCarry c;
  c.rounds = roundsDone_;
  c.states = inSampleOrder(planes_.states, "kfield::carry::states");
  c.stateKeys = inSampleOrder(planes_.stateKeys, "kfield::carry::state_keys");
  c.exports = inSampleOrder(planes_.exportsPrev, "kfield::carry::exports", &planes_.exportsNow);
  c.presence = inSampleOrder(planes_.presencePrev, "kfield::carry::presence", &planes_.presenceNow);
  c.output = inSampleOrder(planes_.output, "kfield::carry::output");
  c.schedule = schedule_;
  if (mobility_) {
    c.motion = mobility_->motion();
    c.motionState = mobility_->state();
  }
  return c;
}

template <class ExecSpace>
void BasicSimulation<ExecSpace>::restore(const SimulationCarry& c) {
  allHeard_ = onFired_ = false;         // the carry's clocks may have devices off or not yet fired
  switchesStale_ = switchSensor_ >= 0;  // the carry's switches, until the next run
  auto check = [&](const HostPlane& from, const Plane<Memory>& to, const char* what) {
    if (from.extent(0) != to.extent(0) || from.extent(1) != to.extent(1)) {
      impl::invalidArgument(kWho, std::string("restore: the carry's ") + what + " are " +
                                      std::to_string(from.extent(0)) + " x " +
                                      std::to_string(from.extent(1)) + ", this simulation's " +
                                      std::to_string(to.extent(0)) + " x " +
                                      std::to_string(to.extent(1)));
    }
  };
  auto clockText = [](const std::optional<Schedule>& s) {
    return s ? "on a schedule of " + s->text() : std::string("of synchronous rounds");
  };
  if (c.schedule != schedule_) {
    impl::invalidArgument(kWho, "restore: the carry is of a run " + clockText(c.schedule) +
                                    ", this simulation's is " + clockText(schedule_));
  }
  if (c.motion != motion()) {
    auto motionText = [](const std::optional<Motion>& m) {
      return m ? "of devices moving (" + m->text() + ")" : std::string("on a still network");
    };
    impl::invalidArgument(kWho, "restore: the carry is of a run " + motionText(c.motion) +
                                    ", this simulation's is " + motionText(motion()));
  }
  if (mobility_) {  // its neighborhoods first: the exports' edge rows are theirs
    mobility_->restore(c.motionState);
    net_ = mobility_->view();
    const std::size_t rows =
        static_cast<std::size_t>(planes_.edgeRow) +
        static_cast<std::size_t>(program_.edgePlanes) * net_.neighbors.extent(0);
    if (planes_.exportsPrev.extent(0) != rows && c.exports.extent(0) == rows) {
      planes_.exportsPrev = Plane<Memory>(planes_.exportsPrev.label(), rows, samples_);
      planes_.exportsNow = Plane<Memory>(planes_.exportsNow.label(), rows, samples_);
    }
  }
  check(c.states, planes_.states, "states");
  check(c.stateKeys, planes_.stateKeys, "state keys");
  check(c.exports, planes_.exportsPrev, "exports");
  check(c.presence, planes_.presencePrev, "presence keys");
  check(c.output, planes_.output, "output");
  if (static_cast<std::int64_t>(c.rounds.size()) != samples_) {
    impl::invalidArgument(kWho, "restore: the carry has round counts for " +
                                    std::to_string(c.rounds.size()) + " samples, not " +
                                    std::to_string(samples_));
  }
  for (std::int64_t r : c.rounds) checkRounds(r);
  std::vector<std::int64_t> identity(static_cast<std::size_t>(samples_));
  std::iota(identity.begin(), identity.end(), 0);
  uploadSensors();
  reorder(identity);  // positions are samples again
  Kokkos::deep_copy(planes_.states, c.states);
  Kokkos::deep_copy(planes_.stateKeys, c.stateKeys);
  Kokkos::deep_copy(planes_.exportsPrev, c.exports);
  Kokkos::deep_copy(planes_.presencePrev, c.presence);
  Kokkos::deep_copy(planes_.output, c.output);
  roundsDone_ = c.rounds;
  exportsSwapped_.assign(samples_, 0);
}

template <class ExecSpace>
HostPlane BasicSimulation<ExecSpace>::output() const {
  auto positioned = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), planes_.output);
  const auto rows = static_cast<std::int64_t>(positioned.extent(0));
  HostPlane result("kfield::sim::output_host", rows, samples_);
  for (std::int64_t d = 0; d < rows; ++d) {
    for (std::int64_t p = 0; p < samples_; ++p) result(d, sampleAt_[p]) = positioned(d, p);
  }
  return result;
}

}  // namespace kfield

#endif
