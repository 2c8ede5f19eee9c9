// A simulation on a Schedule (SimulationOptions::schedule): the steps of simultaneous firings
// over the clock (Asynchronous.hpp), the lockstep steps, and switching devices off and on.
// Definitions of BasicSimulation's members, reached through Simulation.hpp.
#ifndef KFIELD_SIM_IMPL_SIMULATIONASYNCHRONOUS_HPP
#define KFIELD_SIM_IMPL_SIMULATIONASYNCHRONOUS_HPP

#include "kfield/sim/Simulation.hpp"

namespace kfield {

template <class ExecSpace>
impl::Clock<ExecSpace> BasicSimulation<ExecSpace>::clock() const {
  impl::Clock<ExecSpace> c;
  c.schedule = *schedule_;
  c.states = planes_.states;
  c.row = static_cast<std::int64_t>(program_.states.size()) * devices_;
  c.devices = devices_;
  c.net = net_;
  return c;
}

template <class ExecSpace>
Kokkos::View<std::int64_t*, typename ExecSpace::memory_space>
BasicSimulation<ExecSpace>::sampleOfPosition() const {
  return impl::upload<Memory>(sampleAt_, "kfield::sim::sample_of");
}

// Steps of simultaneous firings (Asynchronous.hpp) until every live sample has run the firings
// before its horizon; the samples are in order, longest first.
template <class ExecSpace>
void BasicSimulation<ExecSpace>::runAsynchronous(const std::vector<std::int64_t>& roundsPerSample) {
  std::int64_t live = 0;
  while (live < samples_ && roundsPerSample[sampleAt_[live]] > 0) ++live;
  if (live == 0) return;
  Kokkos::View<double*, Kokkos::HostSpace> horizonHost("kfield::sim::horizon", live);
  for (std::int64_t p = 0; p < live; ++p) {
    const std::int64_t s = sampleAt_[p];
    horizonHost(p) = static_cast<double>(roundsDone_[s] + roundsPerSample[s]) * schedule_->period;
  }
  const auto horizon = Kokkos::create_mirror_view_and_copy(Memory(), horizonHost);
  const auto sampleOf = sampleOfPosition();
  // A lockstep schedule: once every device is on and has fired, every firing hears all its
  // neighbors (their messages are one period old, well within 2 periods), and stays so until
  // a device is switched; folds then need not read the clocks. Checked until it holds: for
  // this call over the live samples, and for later calls too once over all of them. With
  // devices off, every device on that has fired hears every neighbor on.
  const bool lockstep = schedule_->jitter == 0.0 && schedule_->retain >= 2.0 * schedule_->period;
  bool someOff = lockstep && onFired_, onHeard = someOff;
  everyoneHeard_ = lockstep && allHeard_;
  auto checkHeard = [&] {
    if (!lockstep || everyoneHeard_ || someOff) return;
    const auto [off, silent] = clock().unheard(space_, live);
    someOff = off > 0;
    everyoneHeard_ = off == 0 && silent == 0;
    onHeard = off > 0 && silent == 0;
    allHeard_ = everyoneHeard_ && live == samples_;
    onFired_ = onHeard && live == samples_;
  };
  checkHeard();
  // From the first step on, all hear all (no step has marked anything yet).
  if ((everyoneHeard_ || onHeard) && overflow_.extent(0) == 0) {
    everyoneHeard_ = !onHeard;
    runLockstep(live, horizonHost, onHeard);
    everyoneHeard_ = everyoneFires_ = false;
    for (std::int64_t p = 0; p < live; ++p)
      roundsDone_[sampleAt_[p]] += roundsPerSample[sampleAt_[p]];
    return;
  }
  // Jittered: level by level, unless two neighbors tie (then the steps go on from there).
  const bool levelsDone =
      useLevels_ && schedule_->jitter != 0.0 && !exchange_ && runLevels(live, horizonHost);
  for (; !levelsDone;) {
    const impl::Clock<ExecSpace> c = clock();
    checkHeard();
    // Lockstep: the mark moves the last step's firings on; the last mark, which finds none to
    // fire, moves the last ones.
    const std::int64_t marked = c.mark(space_, firing_, horizon, live, clockTied_);
    if (marked == 0) break;
    everyoneFires_ = everyoneHeard_ && marked == devices_ * live;
    round(live, false);
    if (schedule_->jitter != 0.0 || overflow_.extent(0) > 0) {  // a spawn's overflow throws
      clock().advance(space_, firing_, sampleOf, live);
    }
    if (overflow_.extent(0) > 0) checkOverflow(live);
  }
  everyoneHeard_ = everyoneFires_ = false;
  for (std::int64_t p = 0; p < live; ++p)
    roundsDone_[sampleAt_[p]] += roundsPerSample[sampleAt_[p]];
}

// Every device on has fired, no jitter: the devices of a sample all take their turns at
// count * period (Clock::mark's lockstep case), so its steps keep the count per sample and
// write the devices' clock rows once, after the last; no step marks or moves them. The
// samples are in order, longest first, and those that still fire are the first. With devices
// off (`someOff`), the devices on fire and those off take silent turns, the same in every
// step (RoundKernel::firesWhenOn); a device on hears a neighbor while it is on
// (RoundKernel::lag: its last firing, kept in its clock row, is NaN while it is off), and its
// clock rows, not moved on, still say that its neighbors on sent one period ago.
template <class ExecSpace>
void BasicSimulation<ExecSpace>::runLockstep(
    std::int64_t live, const Kokkos::View<const double*, Kokkos::HostSpace>& horizon,
    bool someOff) {
  const impl::Clock<ExecSpace> c = clock();
  const double period = schedule_->period;
  // Every device of a sample has passed as many firings as its first one.
  const auto counts = Kokkos::create_mirror_view_and_copy(
      Kokkos::HostSpace(), Kokkos::subview(planes_.states, static_cast<std::size_t>(c.row),
                                           std::make_pair(std::size_t(0), std::size_t(live))));
  std::vector<double> count(counts.data(), counts.data() + live);
  if (sampleClock_.extent(0) < static_cast<std::size_t>(2 * live)) {
    sampleClock_ = Kokkos::View<double*, Memory>("kfield::sim::sample_clock", 2 * live);
  }
  auto clockHost = Kokkos::create_mirror_view(sampleClock_);
  // Calls keyed only by the clock run unkeyed in these steps (RoundKernel::perDeviceOps), so
  // their keys are not written: every device has fired, so its state keys and the presence
  // rows it last wrote already hold key 1, and the rows the first step would write get it here.
  for (const impl::Op& op : program_.ops) {
    if (someOff) break;  // the calls run keyed, and write their keys
    const bool shares = op.code == impl::OpCode::Export || op.code == impl::OpCode::ShareRead;
    if (!shares || op.keyed != impl::kKeyedByClock) continue;
    const auto first = static_cast<std::size_t>(op.plane * devices_);
    Kokkos::deep_copy(
        space_,
        Kokkos::subview(planes_.presenceNow, std::make_pair(first, first + std::size_t(devices_)),
                        std::make_pair(std::size_t(0), std::size_t(live))),
        1.0);
  }
  for (;;) {
    std::int64_t firing = 0;
    while (firing < live && count[firing] * period < horizon(firing)) ++firing;
    if (firing == 0) break;
    for (std::int64_t p = 0; p < firing; ++p) {
      clockHost(p) = count[p] * period;                   // firingTime(count)
      clockHost(firing + p) = (count[p] - 1.0) * period;  // the last firing's
    }
    Kokkos::deep_copy(sampleClock_, clockHost);
    stepClock_ = Kokkos::subview(sampleClock_, std::make_pair(std::int64_t(0), 2 * firing));
    everyoneFires_ = !someOff;
    firesWhenOn_ = someOff;
    bool ends = false;  // the output only where a sample ends, as in synchronous rounds
    for (std::int64_t p = 0; p < firing; ++p)
      ends = ends || !((count[p] + 1.0) * period < horizon(p));
    round(firing, false, ends);
    for (std::int64_t p = 0; p < firing; ++p) count[p] += 1.0;
  }
  stepClock_ = Kokkos::View<const double*, Memory>();
  firesWhenOn_ = false;
  for (std::int64_t p = 0; p < live; ++p) clockHost(p) = count[p];
  Kokkos::deep_copy(sampleClock_, clockHost);
  c.passLockstep(space_, sampleClock_, live);
}

template <class ExecSpace>
void BasicSimulation<ExecSpace>::switchOn(std::int64_t device, std::int64_t sample, bool on) {
  requireSwitches("switchOn");
  if (switchSensor_ >= 0) {
    impl::invalidArgument(kWho, "switchOn: devices are switched by sensor '" +
                                    program_.sensors[static_cast<std::size_t>(switchSensor_)].name +
                                    "' (switchOffBy); set the sensor instead");
  }
  impl::requireIndex(kWho, "switchOn", "device", device, devices_);
  impl::requireIndex(kWho, "switchOn", "sample", sample, samples_);
  const impl::Clock<ExecSpace> c = clock();
  const auto p = static_cast<std::size_t>(positionOf_[sample]);
  const auto d = static_cast<std::size_t>(device);
  const auto cell = [&](std::int64_t block) {
    return Kokkos::subview(planes_.states, static_cast<std::size_t>(c.row + block * devices_) + d,
                           p);
  };
  auto isOn = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), cell(3));
  if ((isOn() != 0.0) == on) return;
  allHeard_ = onFired_ = false;
  Kokkos::deep_copy(cell(3), on ? 1.0 : 0.0);
  // Heard by no one, and its own kept values forgotten, until it fires again.
  if (!on) Kokkos::deep_copy(cell(2), std::numeric_limits<double>::quiet_NaN());
}

template <class ExecSpace>
void BasicSimulation<ExecSpace>::switchOffBy(const std::string& sensor) {
  requireSwitches("switchOffBy");
  const std::int32_t index = program_.sensorIndex(sensor);
  if (index < 0) {
    impl::invalidArgument(kWho, "switchOffBy: program '" + program_.name +
                                    "' reads no sensor named '" + sensor + "'");
  }
  if (program_.sensors[static_cast<std::size_t>(index)].type != SensorType::Bool) {
    impl::invalidArgument(kWho, "switchOffBy: sensor '" + sensor + "' of program '" +
                                    program_.name +
                                    "' is not boolean: a device is off while it reads true");
  }
  switchSensor_ = index;
  switchesStale_ = true;
  uploadSensors();
  followSwitchSensor();
}

template <class ExecSpace>
void BasicSimulation<ExecSpace>::followSwitchSensor() {
  if (switchSensor_ < 0 || !switchesStale_) return;
  switchesStale_ = false;
  const std::int64_t changed =
      clock().follow(space_, planes_.sensors, switchSensor_ * devices_, samples_);
  if (changed > 0) allHeard_ = onFired_ = false;
}

template <class ExecSpace>
HostPlane BasicSimulation<ExecSpace>::firings() const {
  HostPlane result("kfield::sim::firings", devices_, samples_);
  if (!schedule_) {
    for (std::int64_t d = 0; d < devices_; ++d) {
      for (std::int64_t s = 0; s < samples_; ++s) result(d, s) = double(roundsDone_[s]);
    }
    return result;
  }
  const auto rows = Kokkos::subview(
      planes_.states, std::make_pair(clock().row, clock().row + devices_), Kokkos::ALL());
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rows);
  for (std::int64_t d = 0; d < devices_; ++d) {
    for (std::int64_t p = 0; p < samples_; ++p) result(d, sampleAt_[p]) = host(d, p);
  }
  return result;
}

template <class ExecSpace>
HostPlane BasicSimulation<ExecSpace>::times() const {
  HostPlane result = firings();
  const Schedule lockstep;  // synchronous rounds: period 1, no jitter
  const Schedule& s = schedule_ ? *schedule_ : lockstep;
  for (std::int64_t d = 0; d < devices_; ++d) {
    for (std::int64_t p = 0; p < samples_; ++p) {
      const auto k = static_cast<std::int64_t>(result(d, p));
      result(d, p) = k == 0 ? std::numeric_limits<double>::quiet_NaN() : s.firingTime(k - 1, d, p);
    }
  }
  return result;
}

}  // namespace kfield

#endif
