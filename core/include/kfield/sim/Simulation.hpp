// Running a traced program over a network, for a batch of independent samples at once:
// planes of devices x samples (samples last), synchronous rounds, per-sample stopping.
#ifndef KFIELD_SIM_SIMULATION_HPP
#define KFIELD_SIM_SIMULATION_HPP

#include "kfield/IndexRange.hpp"
#include "kfield/Plane.hpp"
#include "kfield/backends/MemoryLimit.hpp"
#include "kfield/backends/Tuning.hpp"
#include "kfield/field/TracedProgram.hpp"
#include "kfield/impl/Columns.hpp"
#include "kfield/impl/Errors.hpp"
#include "kfield/impl/Sizes.hpp"
#include "kfield/impl/Upload.hpp"
#include "kfield/net/Network.hpp"
#include "kfield/sim/CompiledRound.hpp"
#include "kfield/sim/Motion.hpp"
#include "kfield/sim/Schedule.hpp"
#include "kfield/sim/SimulationCarry.hpp"
#include "kfield/sim/impl/Asynchronous.hpp"
#include "kfield/sim/impl/Inputs.hpp"
#include "kfield/sim/impl/Mobility.hpp"
#include "kfield/sim/impl/PlaneExchange.hpp"
#include "kfield/sim/impl/RoundKernel.hpp"
#include "kfield/sim/impl/RoundPlanes.hpp"
#include "kfield/sim/impl/RoundScratch.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace kfield {

namespace diff::impl {
template <class ExecSpace>
struct Pass;
}
template <class ExecSpace>
class BasicDistributedSimulation;

template <class ExecSpace = Kokkos::DefaultExecutionSpace>
class BasicSimulation {
 public:
  using Memory = typename ExecSpace::memory_space;

  BasicSimulation(TracedProgram program, const Network& network, std::int64_t samples = 1,
                  ExecSpace space = ExecSpace())
      : BasicSimulation(std::move(program), network, samples, std::nullopt, std::nullopt, space) {}

  // Asynchronous devices: each fires on its own clock (Schedule.hpp), in the global order of
  // firing times; a device that does not fire keeps its state and exports, and a neighbor is
  // heard once it has fired. run(R) advances every sample by R periods: it runs the firings
  // before time (rounds so far + R) x period. Schedule{1, 0} fires as synchronous rounds do,
  // with their bits.
  BasicSimulation(TracedProgram program, const Network& network, std::int64_t samples,
                  const Schedule& schedule, ExecSpace space = ExecSpace())
      : BasicSimulation(std::move(program), network, samples, std::optional<Schedule>(schedule),
                        std::nullopt, space) {}

  // Moving devices (Motion.hpp): the network gives the devices and where they start; before
  // the first round, and after every motion.rebuildEvery rounds (periods on a Schedule), each
  // device's neighbors are the devices within motion.radius of it (a neighbor that left range
  // is not heard from that round on). Devices move after every round (period) by its length
  // in time (1; a Schedule's period). The samples share the network: every run runs them all
  // the same rounds.
  BasicSimulation(TracedProgram program, const Network& network, std::int64_t samples,
                  const Motion& motion, ExecSpace space = ExecSpace())
      : BasicSimulation(std::move(program), network, samples, std::nullopt,
                        std::optional<Motion>(motion), space) {}
  BasicSimulation(TracedProgram program, const Network& network, std::int64_t samples,
                  const Schedule& schedule, const Motion& motion, ExecSpace space = ExecSpace())
      : BasicSimulation(std::move(program), network, samples, std::optional<Schedule>(schedule),
                        std::optional<Motion>(motion), space) {}

  // A sensor the program reads, settable per device for every sample or for one sample.
  using Sensor = impl::SensorHandle<BasicSimulation>;

  // Throws std::invalid_argument when the program reads no sensor of that name.
  Sensor sensor(const std::string& name) {
    const std::int32_t index = program_.sensorIndex(name);
    if (index < 0) {
      impl::invalidArgument(kWho,
                            "program '" + program_.name + "' reads no sensor named '" + name + "'");
    }
    return Sensor(this, index);
  }

  // Sets a parameter's values, as many as its width. Every parameter is set before a run.
  BasicSimulation& parameter(const std::string& name, const std::vector<double>& values);

  // Whether rounds may run the program's compiled round (CompiledRound.hpp) where it does what
  // the round kernel does: on by default. Either way, the same bits.
  void useCompiledRounds(bool on) { useCompiled_ = on; }
  // The program has a compiled round this backend can run (host backends only).
  bool hasCompiledRound() const { return compiled_ != nullptr; }

  // `rounds` more rounds for every sample.
  void run(std::int64_t rounds) {
    checkRounds(rounds);
    run(std::vector<std::int64_t>(samples_, rounds));
  }

  // roundsPerSample[s] more rounds for sample s: samples that stop early cost nothing after.
  void run(const std::vector<std::int64_t>& roundsPerSample);

  // Rounds until a round changes nothing a sample keeps (its output, states and exports),
  // at most maxRounds more; returns the rounds each sample ran in this call. Synchronous
  // simulations only.
  std::vector<std::int64_t> runUntilStable(std::int64_t maxRounds);

  // The program's output, devices x samples, in sample order; of a tuple-valued program,
  // (width x devices) x samples: component c of device d in row c * devices + d.
  HostPlane output() const;

  std::int64_t devices() const { return devices_; }
  std::int64_t samples() const { return samples_; }
  // Rounds each sample has run since the simulation began (on a Schedule: periods).
  std::vector<std::int64_t> rounds() const { return roundsDone_; }
  // How many times each device has fired, devices x samples: synchronous, the rounds; on a
  // Schedule, the firing slots it has passed (a switched-off device's silent ones included).
  HostPlane firings() const;
  // Each device's clock, devices x samples: the time of its latest firing slot (a switched-off
  // device's clock runs on), NaN before its first; synchronous rounds run at 0, 1, 2, ...
  HostPlane times() const;

  // On a Schedule: switches a device off or on, in one sample or in all. A device switched off
  // runs nothing (its firings are silent: its state, exports and output stay as they were),
  // and its neighbors stop hearing it at once. Switched on again, it starts as a new device at
  // its next scheduled firing: its states and shared values from their initial values, and
  // heard by its neighbors once it has fired.
  void switchOn(std::int64_t device, std::int64_t sample, bool on);
  void switchOn(std::int64_t device, bool on) {
    for (std::int64_t s = 0; s < samples_; ++s) switchOn(device, s, on);
  }
  // On a Schedule: devices switched by a boolean sensor of the program, from now on in place
  // of switchOn: a device is off while its sensor reads 1 (true), and on while 0, as switchOn
  // switches it. Sensors change only between run calls, so the sensor is read when this is
  // called and at the start of every run: any number of devices switch in one pass on the
  // device. Throws std::invalid_argument for a sensor the program does not read as a boolean.
  void switchOffBy(const std::string& sensor);
  const std::optional<Schedule>& schedule() const { return schedule_; }
  const TracedProgram& program() const { return program_; }

  // A moving simulation's motion (with its area filled in); empty for a still network.
  std::optional<Motion> motion() const {
    return mobility_ ? std::optional<Motion>(mobility_->motion()) : std::nullopt;
  }
  // The neighborhoods the next round runs on: a moving simulation's as last rebuilt (with the
  // positions they were built from), a still one's network.
  Network network() const { return mobility_ ? mobility_->network() : network_; }
  // Where each device is now: x then y, devices values each (a still network's positions).
  std::pair<std::vector<double>, std::vector<double>> positions() const {
    if (mobility_) return {mobility_->row(0), mobility_->row(1)};
    return {network_.x(), network_.y()};
  }

  // What the next round reads of the rounds before (SimulationCarry.hpp), and its restoration:
  // restore(carry()) into a simulation of the same program, network and samples, with the
  // same sensors and parameters set, continues bit for bit. Throws std::invalid_argument when
  // a plane's shape is not this simulation's.
  SimulationCarry carry() const;
  void restore(const SimulationCarry& carry);

 private:
  static constexpr const char* kWho = "kfield::Simulation";
  BasicSimulation(TracedProgram program, const Network& network, std::int64_t samples,
                  std::optional<Schedule> schedule, std::optional<Motion> motion, ExecSpace space);
  friend class impl::SensorHandle<BasicSimulation>;
  void setSensor(std::int32_t index, std::int64_t device, std::int64_t sample, double value) {
    const SensorInfo& sensor = program_.sensors[static_cast<std::size_t>(index)];
    impl::requireIndex(kWho, "sensor '" + sensor.name + "'", "device", device, devices_);
    impl::requireIndex(kWho, "sensor '" + sensor.name + "'", "sample", sample, samples_);
    sensorAt(index, device, sample) = impl::sensorValue(kWho, sensor, device, value);
    if (index == switchSensor_) switchesStale_ = true;
  }
  // Network::reverseEntries, refused as a program that exchanges sees it.
  static std::vector<std::int64_t> reverseEntries(const TracedProgram& program, const Network& network) {
    try {
      return network.reverseEntries();
    } catch (const std::invalid_argument& e) {
      const std::string what = e.what();  // "kfield::Network: network '...': ..."
      impl::invalidArgument(kWho, "program '" + program.name +
                                      "' exchanges values with its neighbors, which needs a "
                                      "symmetric network; " + what.substr(what.find(": ") + 2));
    }
  }
  static void checkRounds(std::int64_t rounds) {
    if (rounds < 0)
      impl::invalidArgument(kWho, "rounds must be >= 0, got " + std::to_string(rounds));
  }
  // Planes the host reads and writes in place: no host copy of the sensors.
  static constexpr bool kHostPlanes = std::is_same<Memory, Kokkos::HostSpace>::value;
  double& sensorAt(std::int32_t index, std::int64_t device, std::int64_t sample) {
    const auto row = static_cast<std::size_t>(index * devices_ + device);
    if constexpr (kHostPlanes) {
      return planes_.sensors(row, static_cast<std::size_t>(positionOf_[sample]));
    } else {
      sensorsDirty_ = true;
      return sensorHost_(row, static_cast<std::size_t>(sample));
    }
  }
  void checkSizes(const typename impl::RoundPlanes<Memory>::Rows& rows) const;
  void uploadSensors();
  void reorder(const std::vector<std::int64_t>& sampleAt);  // new position -> sample
  // One round over the live samples; with a tape (slot x device x live values), every value
  // of the round is kept there.
  void round(std::int64_t live, bool trackChanges, bool writeOutput = true,
             const Kokkos::View<double*, Memory>& tape = {});
  // The compiled round of devices [devices.begin, devices.end), in chunks across the space.
  void runCompiled(IndexRange devices, std::int64_t live, bool writeOutput);
  static constexpr bool kCompiledRounds = kHostPlanes && !RoundTuning<ExecSpace>::kTeamLanes;
  CompiledRound compiled_ = nullptr;
  std::vector<double> compiledConstants_;
  bool useCompiled_ = true;
  // A buffer of at least plan.teams x plan.teamBytes for a round whose values spill.
  Kokkos::View<double*, Memory> spillBuffer(const impl::RoundScratch& plan);
  template <class>
  friend struct diff::impl::Pass;  // the reversal runs rounds on a tape and restores the carry
  // One part of a distributed network: rounds compute the devices `active_` (the part's own),
  // and `exchange_` brings the ghosts' exports in before each and makes the parts agree.
  template <class>
  friend class BasicDistributedSimulation;
  IndexRange active_;
  std::shared_ptr<impl::PlaneExchange<Memory>> exchange_;
  // What a halo moves of this simulation's planes.
  impl::HaloLayout haloLayout() const {
    return {static_cast<std::int64_t>(program_.exports.size()), program_.edgePlanes, planes_.edgeRow,
            planes_.presencePrev.extent(0) > 0};
  }

  TracedProgram program_;
  ExecSpace space_;
  std::int64_t devices_, samples_;
  Network network_;  // shared with the caller's: on the host, net_ views its arrays
  NetworkView<Memory> net_;
  Kokkos::View<impl::Op*, Memory> ops_;
  Kokkos::View<impl::EntryOp*, Memory> entries_;
  Kokkos::View<impl::Op*, Memory> tapeOps_;  // one slot per value (TracedProgram::valueOps)
  Kokkos::View<impl::EntryOp*, Memory> tapeEntries_;
  Kokkos::View<double*, Memory> parameters_;
  Kokkos::View<double*, Memory> spill_;  // kept between rounds; grows, never shrinks
  impl::ParameterValues parameterValues_;  // host copy, checked by name
  impl::RoundPlanes<Memory> planes_;
  HostPlane sensorHost_;  // sample order; only when the planes are not on the host
  bool sensorsDirty_ = true;
  Kokkos::View<int*, Memory> changed_, fresh_;
  Kokkos::View<std::int64_t*, Memory> overflow_;  // spawns x sample positions (RoundKernel)
  void checkOverflow(std::int64_t live) const;
  // Under a Schedule: the clock (Asynchronous.hpp) over the current planes, the devices that
  // fire in a step, and the sample at each position.
  std::optional<Schedule> schedule_;
  impl::Clock<ExecSpace> clock() const;
  typename impl::Clock<ExecSpace>::Firing firing_;
  Kokkos::View<int, Memory> clockTied_;
  Kokkos::View<std::int64_t*, Memory> sampleOfPosition() const;
  void runAsynchronous(const std::vector<std::int64_t>& roundsPerSample);
  bool everyoneHeard_ = false;  // this step, on a lockstep schedule (runAsynchronous)
  bool everyoneFires_ = false;  // and every device of the live samples fires in it
  bool firesWhenOn_ = false;    // or every device on fires in it (runLockstep, devices off)
  // Lockstep steps where every device on fires, their clock per sample
  // (RoundKernel::sampleClock); `someOff`: some devices are switched off.
  void runLockstep(std::int64_t live, const Kokkos::View<const double*, Kokkos::HostSpace>& horizon,
                   bool someOff);
  Kokkos::View<double*, Memory> sampleClock_;
  Kokkos::View<const double*, Memory> stepClock_;  // this step's, when not empty
  // Every device of every sample is on and has fired (allHeard_), or every device on has
  // fired and some are off (onFired_): on a lockstep schedule it stays so from call to call,
  // until a device is switched or a carry restored.
  bool allHeard_ = false, onFired_ = false;
  std::int32_t switchSensor_ = -1;  // switchOffBy's sensor; -1: switchOn's
  // The switches may differ from the sensor: it was set, or a carry restored, since they
  // last followed it (a run call then makes them follow it, in one pass).
  bool switchesStale_ = false;
  void followSwitchSensor();
  // Refuses switching devices (`what`: the call) without a Schedule.
  void requireSwitches(const char* what) const {
    if (schedule_) return;
    impl::invalidArgument(kWho, std::string(what) +
                                    ": switching devices off and on needs a Schedule (asynchronous "
                                    "devices); this simulation runs synchronous rounds");
  }
  // A moving simulation's devices and neighborhoods; after each round (period), moves them and,
  // when due, rebuilds the neighborhoods and moves exchanges' edge planes onto them.
  std::optional<impl::Mobility<ExecSpace>> mobility_;
  void moveDevices(std::int64_t live);
  void rebuildNetwork();
  Kokkos::View<double*, Memory> roundOf_;  // synchronous: rounds run, per sample position
  std::vector<std::int64_t> sampleAt_;    // position -> sample
  std::vector<std::int64_t> positionOf_;  // sample -> position
  std::vector<std::int64_t> roundsDone_;  // per sample
  // Per sample: rounds ran without it an odd number of times since its own last round, so its
  // last exports (and presence keys) sit in the "now" planes, not the "previous" ones. A round
  // swaps the two for every column; a sample that runs again first gets its column back.
  std::vector<char> exportsSwapped_;
};

using Simulation = BasicSimulation<>;

template <class ExecSpace>
BasicSimulation<ExecSpace>::BasicSimulation(TracedProgram program, const Network& network,
                                            std::int64_t samples, std::optional<Schedule> schedule,
                                            std::optional<Motion> motion, ExecSpace space)
    : program_(std::move(program)),
      space_(space),
      devices_(network.devices()),
      samples_(samples),
      network_(network) {
  active_ = {0, devices_};
  if (samples < 1) {
    impl::invalidArgument(kWho, "samples must be >= 1, got " + std::to_string(samples));
  }
  if (schedule) {
    schedule->check(kWho);
    program_ = impl::keyedByClock(std::move(program_));
    schedule_ = schedule;
  }
  const bool readsLengths =
      std::any_of(program_.entries.begin(), program_.entries.end(),
                  [](const impl::EntryOp& e) { return e.code == impl::EntryCode::EdgeLength; });
  if (readsLengths && !motion && !network.hasLengths()) {
    impl::invalidArgument(kWho, "program '" + program_.name + "' reads edge lengths, but network '" +
                                    network.description() + "' has none (neither lengths nor positions)");
  }
  if (motion) {
    motion->check(kWho);
    if (motion->model == Motion::Model::Velocity && (samples != 1 || program_.outputWidth < 2)) {
      impl::invalidArgument(kWho, "motion: the velocity model moves each device by the program's "
                                  "output (x, y): it needs one sample and an output of width >= 2; "
                                  "program '" + program_.name + "' has width " +
                                  std::to_string(program_.outputWidth) + ", with " +
                                  std::to_string(samples) + " samples");
    }
    mobility_.emplace(*motion, network, readsLengths, program_.edgePlanes > 0, space_, kWho);
  }
  const std::int64_t entries = mobility_ ? mobility_->entries() : network_.entries();
  auto anyKeyed = [](const std::vector<PlaneInfo>& planes) {
    return std::any_of(planes.begin(), planes.end(), [](const PlaneInfo& p) { return p.keyed; });
  };
  const auto rows = impl::RoundPlanes<Memory>::rows(
      static_cast<std::size_t>(devices_), static_cast<std::size_t>(entries),
      program_.sensors.size(), program_.exports.size(),
      static_cast<std::size_t>(program_.edgePlanes), anyKeyed(program_.exports),
      program_.states.size() + (schedule_ ? impl::Clock<ExecSpace>::kRows : 0),
      anyKeyed(program_.states),
      static_cast<std::size_t>(program_.outputWidth));
  checkSizes(rows);
  if (mobility_) {
    net_ = mobility_->view();
  } else {
    net_ = network_.on<Memory>(readsLengths);
  }
  if (program_.edgePlanes > 0 && !mobility_) {  // what a neighbor sent a device is at its entry for the device
    net_.reverse = impl::upload<Memory>(reverseEntries(program_, network_), "kfield::network::reverse");
  }
  if constexpr (kCompiledRounds) {
    compiled_ = findCompiledRound(program_);
    if (compiled_) compiledConstants_ = compiledRoundConstants(program_);
  }
  ops_ = impl::upload<Memory>(program_.ops, "kfield::sim::ops");
  entries_ = impl::upload<Memory>(program_.entries, "kfield::sim::entries");
  tapeOps_ = impl::upload<Memory>(program_.valueOps, "kfield::sim::tape_ops");
  tapeEntries_ = impl::upload<Memory>(program_.valueEntries, "kfield::sim::tape_entries");
  planes_ = impl::RoundPlanes<Memory>(rows, static_cast<std::size_t>(samples_));
  parameters_ = Kokkos::View<double*, Memory>("kfield::sim::parameters",
                                              static_cast<std::size_t>(program_.parameterWidth()));
  parameterValues_ = impl::ParameterValues(program_);
  if constexpr (!kHostPlanes) {
    sensorHost_ = HostPlane("kfield::sim::sensors_host", rows.sensors, samples_);
  }
  changed_ = Kokkos::View<int*, Memory>("kfield::sim::changed", samples_);
  roundOf_ = Kokkos::View<double*, Memory>("kfield::sim::round_of", samples_);
  fresh_ = Kokkos::View<int*, Memory>("kfield::sim::fresh", samples_);
  if (!program_.spawns.empty()) {
    overflow_ = Kokkos::View<std::int64_t*, Memory>(
        "kfield::sim::spawn_overflow", program_.spawns.size() * static_cast<std::size_t>(samples_));
  }
  sampleAt_.resize(samples_);
  std::iota(sampleAt_.begin(), sampleAt_.end(), 0);
  positionOf_ = sampleAt_;
  roundsDone_.assign(samples_, 0);
  exportsSwapped_.assign(samples_, 0);
  if (schedule_) {
    firing_ = typename impl::Clock<ExecSpace>::Firing("kfield::sim::firing", devices_, samples_);
    clockTied_ = Kokkos::View<int, Memory>("kfield::sim::clock_tied");
    clock().start(space_, sampleOfPosition(), samples_);
  }
}

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

// Refuses, before anything is allocated, planes that do not fit where they would live.
template <class ExecSpace>
void BasicSimulation<ExecSpace>::checkSizes(const typename impl::RoundPlanes<Memory>::Rows& rows) const {
  const auto samples = static_cast<std::uint64_t>(samples_);
  const std::uint64_t bytes = sizeof(double);
  const std::uint64_t planes = impl::product({rows.total(), samples, bytes});
  // Off the host, the network's copy lives beside the planes, and the host keeps the sensors.
  // A moving network's own arrays are checked where they are built (Mobility.hpp).
  const auto entries = static_cast<std::uint64_t>(network_.entries());
  const std::uint64_t network = kHostPlanes || mobility_ ? 0 : impl::product({entries, 12});
  // Exchanges' reverse-entry index (one int64 per network entry), and on a Schedule which
  // devices fire in a step (a byte per device and sample): beside the planes on every backend.
  const std::uint64_t reverse = program_.edgePlanes > 0 && !mobility_ ? impl::product({entries, 8}) : 0;
  const std::uint64_t firing =
      schedule_ ? impl::product({static_cast<std::uint64_t>(devices_), samples}) : 0;
  const std::uint64_t hostSensors =
      kHostPlanes ? 0 : impl::product({static_cast<std::uint64_t>(rows.sensors), samples, bytes});
  const std::string what = std::to_string(devices_) + " devices x " + std::to_string(samples_) +
                           " sample" + (samples_ == 1 ? "" : "s") + " of program '" +
                           program_.name + "'";
  const MemoryLimit limit = memoryLimit<Memory>();
  impl::requireMemory(kWho, what, impl::total({planes, network, reverse, firing}), limit.bytes,
                      limit.where);
  impl::requireMemory(kWho, what + " (the sensors' host copy)", hostSensors, hostMemoryBytes(),
                      "this machine's memory");
}

template <class ExecSpace>
void BasicSimulation<ExecSpace>::uploadSensors() {
  if constexpr (kHostPlanes) {
    return;  // set() writes the planes themselves
  } else {
    if (!sensorsDirty_) return;
    HostPlane ordered("kfield::sim::sensors_ordered", sensorHost_.extent(0), samples_);
    for (std::size_t r = 0; r < sensorHost_.extent(0); ++r) {
      for (std::int64_t p = 0; p < samples_; ++p) ordered(r, p) = sensorHost_(r, sampleAt_[p]);
    }
    Kokkos::deep_copy(planes_.sensors, ordered);
    sensorsDirty_ = false;
  }
}

template <class ExecSpace>
void BasicSimulation<ExecSpace>::reorder(const std::vector<std::int64_t>& sampleAt) {
  if (sampleAt == sampleAt_) return;
  std::vector<std::int64_t> positionOf(samples_);
  for (std::int64_t p = 0; p < samples_; ++p) positionOf[sampleAt_[p]] = p;
  Kokkos::View<std::int64_t*, Kokkos::HostSpace> fromHost("from", samples_);
  for (std::int64_t p = 0; p < samples_; ++p) fromHost(p) = positionOf[sampleAt[p]];
  auto from = Kokkos::create_mirror_view_and_copy(Memory(), fromHost);
  planes_.forEach([&](Plane<Memory>& p) {
    if (p.extent(0) > 0) p = gatherSamples(space_, p, from);
  });
  sampleAt_ = sampleAt;
  for (std::int64_t p = 0; p < samples_; ++p) positionOf_[sampleAt_[p]] = p;
}

template <class ExecSpace>
BasicSimulation<ExecSpace>& BasicSimulation<ExecSpace>::parameter(const std::string& name,
                                                                  const std::vector<double>& values) {
  parameterValues_.set(kWho, program_, name, values);
  const std::vector<double>& all = parameterValues_.values();
  Kokkos::deep_copy(parameters_, Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                                     all.data(), all.size()));
  return *this;
}

template <class ExecSpace>
Kokkos::View<double*, typename ExecSpace::memory_space> BasicSimulation<ExecSpace>::spillBuffer(
    const impl::RoundScratch& plan) {
  const std::uint64_t bytes = impl::product({std::uint64_t(plan.teams), plan.teamBytes});
  if (bytes / sizeof(double) > spill_.extent(0)) {
    const MemoryLimit limit = memoryLimit<Memory>();
    impl::requireMemory(kWho,
                        "a round of program '" + program_.name + "' (" +
                            std::to_string(plan.teams) + " teams x " +
                            impl::bytesText(plan.teamBytes) + " of values)",
                        bytes, limit.bytes, limit.where);
    spill_ = Kokkos::View<double*, Memory>();  // freed before its successor is allocated
    spill_ = Kokkos::View<double*, Memory>(Kokkos::view_alloc(Kokkos::WithoutInitializing,
                                                              "kfield::sim::spill"),
                                           static_cast<std::size_t>(bytes / sizeof(double)));
  }
  return spill_;
}

template <class ExecSpace>
void BasicSimulation<ExecSpace>::round(std::int64_t live, bool trackChanges, bool writeOutput,
                                       const Kokkos::View<double*, Memory>& tape) {
  impl::RoundKernel<ExecSpace> k;
  k.ops = tape.extent(0) > 0 ? tapeOps_ : ops_;
  k.entries = tape.extent(0) > 0 ? tapeEntries_ : entries_;
  k.tape = tape;
  k.parameters = parameters_;
  k.net = net_;
  k.planes = planes_;
  if (trackChanges) k.changed = changed_;
  k.writeOutput = writeOutput || trackChanges;
  k.devices = devices_;
  k.live = live;
  k.slots = tape.extent(0) > 0 ? program_.valueSlots : program_.slots;
  k.opCount = static_cast<int>(program_.ops.size());
  for (std::int64_t p = 0; p < live; ++p) {  // a sample's last exports back into "previous"
    char& swapped = exportsSwapped_[sampleAt_[p]];
    if (!swapped) continue;
    auto back = [&](const Plane<Memory>& prev, const Plane<Memory>& now) {
      impl::copyColumns(space_, prev.data() + p, samples_, now.data() + p, samples_,
                        static_cast<std::int64_t>(prev.extent(0)), 1);
    };
    back(planes_.exportsPrev, planes_.exportsNow);
    back(planes_.presencePrev, planes_.presenceNow);
    swapped = 0;
  }
  auto freshHost = Kokkos::create_mirror_view(fresh_);
  auto roundOfHost = Kokkos::create_mirror_view(roundOf_);
  k.anyFresh = false;
  for (std::int64_t p = 0; p < samples_; ++p) {
    // On a Schedule, keys say who has fired: no sample is fresh as a whole.
    freshHost(p) = !schedule_ && roundsDone_[sampleAt_[p]] == 0;
    roundOfHost(p) = static_cast<double>(roundsDone_[sampleAt_[p]]);
    k.anyFresh = k.anyFresh || (p < live && freshHost(p) != 0);
  }
  Kokkos::deep_copy(fresh_, freshHost);
  Kokkos::deep_copy(roundOf_, roundOfHost);
  k.fresh = fresh_;
  k.roundOf = roundOf_;
  if (schedule_) {
    k.clockRow = static_cast<std::int64_t>(program_.states.size()) * devices_;
    k.firing = firing_;
    k.retain = schedule_->retain;
    k.everyoneHeard = everyoneHeard_;
    k.everyoneFires = everyoneFires_;
    k.firesWhenOn = firesWhenOn_;
    k.sampleClock = stepClock_;
  }
  if (overflow_.extent(0) > 0) {
    Kokkos::deep_copy(space_, overflow_, std::numeric_limits<std::int64_t>::max());
    k.overflow = overflow_;
  }
  using Tuning = RoundTuning<ExecSpace>;
  const std::int64_t teamSize = Tuning::teamSize();
  // The compiled round does what the kernel does where every device has run before, keeps its
  // values nowhere else and nothing is tracked.
  const bool compiled = compiled_ && useCompiled_ && tape.extent(0) == 0 && !trackChanges &&
                        !schedule_ && !k.anyFresh && overflow_.extent(0) == 0;
  auto launch = [&](IndexRange devices) {  // the round of these devices
    if (devices.size() <= 0) return;
    if (compiled) return runCompiled(devices, live, k.writeOutput);
    k.firstDevice = devices.begin;
    k.endDevice = devices.end;
    const impl::RoundScratch plan = impl::planRoundScratch(
        k.slots, live, devices.size(), Tuning::kTileElements, Tuning::kLeastTileElements,
        tape.extent(0) > 0 ? impl::kSaturated : impl::roundScratchLimit(Tuning::scratchLimit()),
        std::max<std::int64_t>(1, static_cast<std::int64_t>(space_.concurrency()) / teamSize));
    k.tileDevices = plan.tileDevices;
    k.tiles = plan.tiles;
    k.spill = plan.spill ? spillBuffer(plan) : Kokkos::View<double*, Memory>();
    Kokkos::TeamPolicy<ExecSpace> policy(space_, plan.teams, teamSize);
    Kokkos::parallel_for("kfield::sim::round",
                         policy.set_scratch_size(0, Kokkos::PerTeam(k.scratchBytes())), k);
  };
  if (!exchange_) {
    launch(active_);
  } else {  // the devices that hear no ghost compute while the halo travels
    exchange_->start(planes_, live);
    const IndexRange inner = exchange_->interior();
    launch(inner);
    exchange_->finish(planes_, live);
    launch({active_.begin, inner.begin});
    launch({inner.end, active_.end});
  }
  planes_.endRound();
  for (std::int64_t p = 0; !schedule_ && p < live; ++p) ++roundsDone_[sampleAt_[p]];
  for (std::int64_t p = live; p < samples_; ++p) exportsSwapped_[sampleAt_[p]] ^= 1;
  if (overflow_.extent(0) > 0 && !schedule_) checkOverflow(live);  // on a Schedule: after the clocks
}

template <class ExecSpace>
void BasicSimulation<ExecSpace>::runCompiled(IndexRange devices, std::int64_t live,
                                             bool writeOutput) {
  if constexpr (kCompiledRounds) {
    auto stride = [](const Plane<Memory>& p) { return static_cast<std::int64_t>(p.stride(0)); };
    auto orNull = [](const auto& view) { return view.extent(0) > 0 ? view.data() : nullptr; };
    CompiledRoundArgs a;
    a.sensors = planes_.sensors.data();
    a.sensorStride = stride(planes_.sensors);
    a.states = planes_.states.data();
    a.stateStride = stride(planes_.states);
    a.exportsPrev = planes_.exportsPrev.data();
    a.exportsNow = planes_.exportsNow.data();
    a.exportStride = stride(planes_.exportsNow);
    a.edgeRow = planes_.edgeRow;
    a.output = planes_.output.data();
    a.outputStride = stride(planes_.output);
    a.writeOutput = writeOutput;
    a.parameters = orNull(parameters_);
    a.constants = compiledConstants_.data();
    a.offsets = net_.offsets.data();
    a.neighbors = net_.neighbors.data();
    a.lengths = orNull(net_.lengths);
    a.reverse = orNull(net_.reverse);
    a.ids = orNull(net_.ids);
    a.devices = devices_;
    a.entries = static_cast<std::int64_t>(net_.neighbors.extent(0));
    a.live = live;
    const CompiledRound run = compiled_;
    constexpr std::int64_t kChunk = 256;  // devices a thread takes at once
    const std::int64_t begin = devices.begin, end = devices.end;
    Kokkos::parallel_for(
        "kfield::sim::compiled_round",
        Kokkos::RangePolicy<ExecSpace>(space_, 0, (devices.size() + kChunk - 1) / kChunk),
        [=](std::int64_t chunk) {
          const std::int64_t first = begin + chunk * kChunk;
          run(a, first, std::min(end, first + kChunk));
        });
  } else {
    (void)devices, (void)live, (void)writeOutput;
  }
}

// A spawn whose devices would hold more processes than its bound: the round kept the smallest
// keys; the error names the spawn, the first device, the sample and the round.
template <class ExecSpace>
void BasicSimulation<ExecSpace>::checkOverflow(std::int64_t live) const {
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), overflow_);
  std::vector<std::int64_t> first(host.extent(0));
  for (std::size_t i = 0; i < first.size(); ++i) {
    first[i] = host(i) == std::numeric_limits<std::int64_t>::max() ? -1 : host(i);
  }
  if (exchange_) exchange_->combineFirst(first);  // global ids, agreed by every part
  for (std::size_t i = 0; i < program_.spawns.size(); ++i) {
    for (std::int64_t p = 0; p < live; ++p) {
      const std::int64_t d = first[i * static_cast<std::size_t>(samples_) + static_cast<std::size_t>(p)];
      if (d < 0) continue;
      const SpawnInfo& spawn = program_.spawns[i];
      const std::int64_t sample = sampleAt_[p];
      std::string when = "in round " + std::to_string(roundsDone_[sample]);
      if (schedule_) {  // checked once the step's clocks have moved on: its firing is the last
        const auto at = Kokkos::subview(planes_.states, static_cast<std::size_t>(clock().row + 2 * devices_ + d),
                                        static_cast<std::size_t>(p));
        when = "at time " + impl::numberText(Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), at)());
      }
      impl::invalidArgument(kWho, "program '" + program_.name + "', spawn '" + spawn.path +
                                      "': device " + std::to_string(d) + " would hold more than " +
                                      std::to_string(spawn.maxKeys) + " live processes " + when +
                                      " of sample " + std::to_string(sample) + " (raise maxKeys)");
    }
  }
}

template <class ExecSpace>
void BasicSimulation<ExecSpace>::run(const std::vector<std::int64_t>& roundsPerSample) {
  if (static_cast<std::int64_t>(roundsPerSample.size()) != samples_) {
    impl::invalidArgument(kWho, "run: " + std::to_string(roundsPerSample.size()) +
                                    " round counts for " + std::to_string(samples_) + " samples");
  }
  for (std::int64_t r : roundsPerSample) checkRounds(r);
  for (std::int64_t s = 1; mobility_ && s < samples_; ++s) {
    if (roundsPerSample[s] == roundsPerSample[0]) continue;
    impl::invalidArgument(kWho, "run: the samples of a moving simulation share one network, so "
                                "they run the same rounds; got " +
                                    std::to_string(roundsPerSample[0]) + " for sample 0 and " +
                                    std::to_string(roundsPerSample[s]) + " for sample " +
                                    std::to_string(s));
  }
  parameterValues_.requireAll(kWho, program_);
  // Longest first, so the samples still running are always a prefix of the positions.
  std::vector<std::int64_t> order = sampleAt_;
  std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
    return roundsPerSample[a] > roundsPerSample[b];
  });
  uploadSensors();
  reorder(order);
  followSwitchSensor();
  if (schedule_ && mobility_) {  // period by period: the network changes between them
    for (std::int64_t k = 0; k < roundsPerSample[0]; ++k) {
      runAsynchronous(std::vector<std::int64_t>(samples_, 1));
      moveDevices(samples_);
    }
    return;
  }
  if (schedule_) return runAsynchronous(roundsPerSample);
  const std::int64_t longest = roundsPerSample[order[0]];
  auto liveAt = [&](std::int64_t k) {
    std::int64_t live = 0;
    while (live < samples_ && roundsPerSample[sampleAt_[live]] > k) ++live;
    return live;
  };
  for (std::int64_t k = 0; k < longest; ++k) {
    const std::int64_t live = liveAt(k);
    // The output only where a sample ends, or where it moves the devices.
    const bool moves = mobility_ && mobility_->motion().model == Motion::Model::Velocity;
    round(live, false, liveAt(k + 1) < live || moves);
    if (mobility_) moveDevices(live);
  }
}

template <class ExecSpace>
void BasicSimulation<ExecSpace>::moveDevices(std::int64_t live) {
  mobility_->move(schedule_ ? schedule_->period : 1.0, planes_.output);
  const std::int64_t done = roundsDone_[sampleAt_[live - 1]];  // the same for every sample
  if (done % mobility_->motion().rebuildEvery == 0) rebuildNetwork();
}

// New neighborhoods; what each device sent each neighbor (exchanges' edge planes) moves to the
// neighbor's entry in the new row. A neighbor new to the device was sent nothing: it reads the
// device's own entry, the value of the sent field outside its domain.
template <class ExecSpace>
void BasicSimulation<ExecSpace>::rebuildNetwork() {
  mobility_->rebuild();
  net_ = mobility_->view();
  if (program_.edgePlanes == 0) return;
  const NetworkView<Memory> before = mobility_->previous(), after = net_;
  std::vector<std::int64_t> ownRow(static_cast<std::size_t>(program_.edgePlanes));
  for (std::size_t i = 0; i < program_.exports.size(); ++i) {
    if (program_.exports[i].edge >= 0) ownRow[program_.exports[i].edge] = std::int64_t(i) * devices_;
  }
  const auto own = impl::upload<Memory>(ownRow, "kfield::sim::edge_own_rows");
  const auto newEntries = static_cast<std::int64_t>(after.neighbors.extent(0));
  const std::int64_t edgeRow = planes_.edgeRow, edgePlanes = program_.edgePlanes;
  const std::uint64_t rows = impl::total({std::uint64_t(edgeRow), impl::product({std::uint64_t(edgePlanes), std::uint64_t(newEntries)})});
  const MemoryLimit limit = memoryLimit<Memory>();
  impl::requireMemory(kWho, "the exchanges' messages over the rebuilt neighborhoods",
                      impl::product({rows, std::uint64_t(samples_), sizeof(double)}), limit.bytes,
                      limit.where);
  const Plane<Memory> old = planes_.exportsPrev;
  Plane<Memory> moved(Kokkos::view_alloc(Kokkos::WithoutInitializing, old.label()), rows, samples_);
  Kokkos::deep_copy(space_, Kokkos::subview(moved, std::make_pair(std::int64_t(0), edgeRow), Kokkos::ALL()),
                    Kokkos::subview(old, std::make_pair(std::int64_t(0), edgeRow), Kokkos::ALL()));
  impl::moveEdgeMessages(space_, devices_, before, after, own, old, moved, edgeRow, edgePlanes);
  planes_.exportsPrev = moved;
  if (planes_.exportsNow.extent(0) != rows) {  // rewritten by the next round before it is read
    planes_.exportsNow = Plane<Memory>();
    planes_.exportsNow = Plane<Memory>(old.label(), rows, samples_);
  }
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
    for (std::int64_t p = 0; p < live; ++p) roundsDone_[sampleAt_[p]] += roundsPerSample[sampleAt_[p]];
    return;
  }
  for (;;) {
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
  for (std::int64_t p = 0; p < live; ++p) roundsDone_[sampleAt_[p]] += roundsPerSample[sampleAt_[p]];
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
    Kokkos::deep_copy(space_,
                      Kokkos::subview(planes_.presenceNow, std::make_pair(first, first + std::size_t(devices_)),
                                      std::make_pair(std::size_t(0), std::size_t(live))),
                      1.0);
  }
  for (;;) {
    std::int64_t firing = 0;
    while (firing < live && count[firing] * period < horizon(firing)) ++firing;
    if (firing == 0) break;
    for (std::int64_t p = 0; p < firing; ++p) {
      clockHost(p) = count[p] * period;                    // firingTime(count)
      clockHost(firing + p) = (count[p] - 1.0) * period;  // the last firing's
    }
    Kokkos::deep_copy(sampleClock_, clockHost);
    stepClock_ = Kokkos::subview(sampleClock_, std::make_pair(std::int64_t(0), 2 * firing));
    everyoneFires_ = !someOff;
    firesWhenOn_ = someOff;
    bool ends = false;  // the output only where a sample ends, as in synchronous rounds
    for (std::int64_t p = 0; p < firing; ++p) ends = ends || !((count[p] + 1.0) * period < horizon(p));
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
    return Kokkos::subview(planes_.states, static_cast<std::size_t>(c.row + block * devices_) + d, p);
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
  const auto rows = Kokkos::subview(planes_.states,
                                    std::make_pair(clock().row, clock().row + devices_), Kokkos::ALL());
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

template <class ExecSpace>
std::vector<std::int64_t> BasicSimulation<ExecSpace>::runUntilStable(std::int64_t maxRounds) {
  checkRounds(maxRounds);
  if (schedule_) {
    impl::invalidArgument(kWho, "runUntilStable needs synchronous rounds: on a Schedule no "
                                "round is one where every device has fired; use run");
  }
  if (mobility_) {
    impl::invalidArgument(kWho, "runUntilStable needs a still network: the samples of a moving "
                                "simulation share its network and run the same rounds; use run");
  }
  parameterValues_.requireAll(kWho, program_);
  uploadSensors();
  std::vector<std::int64_t> ran(samples_, 0);
  std::int64_t live = samples_;
  for (std::int64_t k = 0; k < maxRounds && live > 0; ++k) {
    Kokkos::deep_copy(space_, changed_, 0);
    round(live, true);
    if (exchange_) exchange_->combineChanged(changed_, live);
    auto changed = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), changed_);
    std::vector<std::int64_t> going, stopping;
    for (std::int64_t p = 0; p < live; ++p) {
      const std::int64_t s = sampleAt_[p];
      ++ran[s];
      (changed(p) != 0 || roundsDone_[s] == 1 ? going : stopping).push_back(s);
    }
    if (stopping.empty()) continue;
    std::vector<std::int64_t> order = going;
    order.insert(order.end(), stopping.begin(), stopping.end());
    order.insert(order.end(), sampleAt_.begin() + live, sampleAt_.end());
    reorder(order);
    live = static_cast<std::int64_t>(going.size());
  }
  return ran;
}

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
  c.presence =
      inSampleOrder(planes_.presencePrev, "kfield::carry::presence", &planes_.presenceNow);
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
    const std::size_t rows = static_cast<std::size_t>(planes_.edgeRow) +
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
