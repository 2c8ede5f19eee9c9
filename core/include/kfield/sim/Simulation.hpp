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
#include "kfield/sim/SimulationOptions.hpp"
#include "kfield/sim/impl/Asynchronous.hpp"
#include "kfield/sim/impl/Inputs.hpp"
#include "kfield/sim/impl/Levels.hpp"
#include "kfield/sim/impl/Mobility.hpp"
#include "kfield/sim/impl/PlaneExchange.hpp"
#include "kfield/sim/impl/RoundAssembly.hpp"
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

namespace impl {
struct SimulationAccess;
}

template <class ExecSpace = Kokkos::DefaultExecutionSpace>
class BasicSimulation {
 public:
  using Memory = typename ExecSpace::memory_space;

  // `samples` independent samples of the program over the network, each from the program's
  // initial values: synchronous rounds, or asynchronous and moving devices as `options` say.
  BasicSimulation(TracedProgram program, const Network& network, std::int64_t samples = 1,
                  SimulationOptions options = {}, ExecSpace space = ExecSpace());

  // A sensor the program reads, settable per device for every sample or for one sample.
  using Sensor = impl::SensorHandle<BasicSimulation, impl::SimulationAccess>;

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
  // The one friend: what the reversal, a distributed network's part and sensor handles do to
  // a simulation, as named calls (sim/impl/SimulationAccess.hpp).
  friend struct impl::SimulationAccess;
  void setSensor(std::int32_t index, std::int64_t device, std::int64_t sample, double value) {
    const SensorInfo& sensor = program_.sensors[static_cast<std::size_t>(index)];
    impl::requireIndex(kWho, "sensor '" + sensor.name + "'", "device", device, devices_);
    impl::requireIndex(kWho, "sensor '" + sensor.name + "'", "sample", sample, samples_);
    sensorAt(index, device, sample) = impl::sensorValue(kWho, sensor, device, value);
    if (index == switchSensor_) switchesStale_ = true;
  }
  // Network::reverseEntries, refused as a program that exchanges sees it.
  static std::vector<std::int64_t> reverseEntries(const TracedProgram& program,
                                                  const Network& network) {
    try {
      return network.reverseEntries();
    } catch (const std::invalid_argument& e) {
      const std::string what = e.what();  // "kfield::Network: network '...': ..."
      impl::invalidArgument(kWho, "program '" + program.name +
                                      "' exchanges values with its neighbors, which needs a "
                                      "symmetric network; " +
                                      what.substr(what.find(": ") + 2));
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
  // Samples that sat out rounds get their last exports back into the "previous" planes, for
  // the first `live` positions (exportsSwapped_).
  void restoreExports(std::int64_t live);
  // The kernel's round of devices [devices.begin, devices.end) (or of those entries of its
  // list), tiled over the space's teams.
  void launchRound(impl::RoundKernel<ExecSpace>& k, IndexRange devices);
  // The compiled round of devices [devices.begin, devices.end), in chunks across the space.
  void runCompiled(IndexRange devices, std::int64_t live, bool writeOutput);
  void runCompiled(const CompiledRoundArgs& args, IndexRange devices);
  // What a compiled round (or reverse round) of `live` samples reads: the planes, parameters
  // and network, on the host.
  CompiledRoundArgs compiledArgs(std::int64_t live, bool writeOutput) const;
  static constexpr bool kCompiledRounds = kHostPlanes && !RoundTuning<ExecSpace>::kTeamLanes;
  CompiledRound compiled_ = nullptr;
  std::vector<double> compiledConstants_;
  bool useCompiled_ = true;
  // A buffer of at least plan.teams x plan.teamBytes for a round whose values spill.
  Kokkos::View<double*, Memory> spillBuffer(const impl::RoundScratch& plan);
  // One part of a distributed network: rounds compute the devices `active_` (the part's own),
  // and `exchange_` brings the ghosts' exports in before each and makes the parts agree.
  IndexRange active_;
  std::shared_ptr<impl::PlaneExchange<Memory>> exchange_;
  // What a halo moves of this simulation's planes.
  impl::HaloLayout haloLayout() const {
    return {static_cast<std::int64_t>(program_.exports.size()), program_.edgePlanes,
            planes_.edgeRow, planes_.presencePrev.extent(0) > 0};
  }

  TracedProgram program_;
  ExecSpace space_;
  std::int64_t devices_, samples_;
  Network network_;  // shared with the caller's: on the host, net_ views its arrays
  NetworkView<Memory> net_;
  impl::RoundAssembly<ExecSpace> assembly_;  // the program's code, plain and on a tape
  Kokkos::View<double*, Memory> parameters_;
  Kokkos::View<double*, Memory> spill_;    // kept between rounds; grows, never shrinks
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
  // The firings before each live position's horizon, level by level (Levels.hpp); false if
  // two neighbors tie, where the steps must go on.
  bool runLevels(std::int64_t live, const Kokkos::View<const double*, Kokkos::HostSpace>& horizon);
  std::optional<impl::Levels<ExecSpace>> levels_;
  std::shared_ptr<impl::SampleRows<ExecSpace>> sampleRows_;  // several samples, once needed
  bool useLevels_ = true;                                    // SimulationOptions::levels
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
  Kokkos::View<double*, Memory> roundOf_;  // synchronous: rounds run, per sample position
  std::vector<std::int64_t> sampleAt_;     // position -> sample
  std::vector<std::int64_t> positionOf_;   // sample -> position
  std::vector<std::int64_t> roundsDone_;   // per sample
  // Per sample: rounds ran without it an odd number of times since its own last round, so its
  // last exports (and presence keys) sit in the "now" planes, not the "previous" ones. A round
  // swaps the two for every column; a sample that runs again first gets its column back.
  std::vector<char> exportsSwapped_;
};

using Simulation = BasicSimulation<>;

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
BasicSimulation<ExecSpace>& BasicSimulation<ExecSpace>::parameter(
    const std::string& name, const std::vector<double>& values) {
  parameterValues_.set(kWho, program_, name, values);
  const std::vector<double>& all = parameterValues_.values();
  Kokkos::deep_copy(parameters_,
                    Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                        all.data(), all.size()));
  return *this;
}

template <class ExecSpace>
void BasicSimulation<ExecSpace>::round(std::int64_t live, bool trackChanges, bool writeOutput,
                                       const Kokkos::View<double*, Memory>& tape) {
  impl::RoundKernel<ExecSpace> k =
      assembly_.kernel(tape.extent(0) > 0, net_, parameters_, planes_, devices_);
  k.tape = tape;
  if (trackChanges) k.changed = changed_;
  k.writeOutput = writeOutput || trackChanges;
  k.live = live;
  restoreExports(live);
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
  // The compiled round does what the kernel does where every device has run before, keeps its
  // values nowhere else and nothing is tracked.
  const bool compiled = compiled_ && useCompiled_ && tape.extent(0) == 0 && !trackChanges &&
                        !schedule_ && !k.anyFresh && overflow_.extent(0) == 0;
  auto launch = [&](IndexRange devices) {  // the round of these devices
    if (devices.size() <= 0) return;
    if (compiled) return runCompiled(devices, live, k.writeOutput);
    launchRound(k, devices);
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
  if (overflow_.extent(0) > 0 && !schedule_)
    checkOverflow(live);  // on a Schedule: after the clocks
}

template <class ExecSpace>
void BasicSimulation<ExecSpace>::restoreExports(std::int64_t live) {
  for (std::int64_t p = 0; p < live; ++p) {
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
}

template <class ExecSpace>
void BasicSimulation<ExecSpace>::launchRound(impl::RoundKernel<ExecSpace>& k, IndexRange devices) {
  using Tuning = RoundTuning<ExecSpace>;
  const std::int64_t teamSize = Tuning::teamSize();
  k.firstDevice = devices.begin;
  k.endDevice = devices.end;
  const impl::RoundScratch plan = impl::planRoundScratch(
      k.slots, k.live, devices.size(), Tuning::kTileElements, Tuning::kLeastTileElements,
      k.tape.extent(0) > 0 ? impl::kSaturated : impl::roundScratchLimit(Tuning::scratchLimit()),
      std::max<std::int64_t>(1, static_cast<std::int64_t>(space_.concurrency()) / teamSize));
  k.tileDevices = plan.tileDevices;
  k.tiles = plan.tiles;
  k.spill = plan.spill ? spillBuffer(plan) : Kokkos::View<double*, Memory>();
  Kokkos::TeamPolicy<ExecSpace> policy(space_, plan.teams, teamSize);
  Kokkos::parallel_for("kfield::sim::round",
                       policy.set_scratch_size(0, Kokkos::PerTeam(k.scratchBytes())), k);
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
      const std::int64_t d =
          first[i * static_cast<std::size_t>(samples_) + static_cast<std::size_t>(p)];
      if (d < 0) continue;
      const SpawnInfo& spawn = program_.spawns[i];
      const std::int64_t sample = sampleAt_[p];
      std::string when = "in round " + std::to_string(roundsDone_[sample]);
      if (schedule_) {  // checked once the step's clocks have moved on: its firing is the last
        const auto at = Kokkos::subview(planes_.states,
                                        static_cast<std::size_t>(clock().row + 2 * devices_ + d),
                                        static_cast<std::size_t>(p));
        when = "at time " +
               impl::numberText(Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), at)());
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
    impl::invalidArgument(kWho,
                          "run: the samples of a moving simulation share one network, so "
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
  if (done % mobility_->motion().rebuildEvery != 0) return;
  mobility_->rebuild(planes_, program_, samples_);
  net_ = mobility_->view();
}

template <class ExecSpace>
std::vector<std::int64_t> BasicSimulation<ExecSpace>::runUntilStable(std::int64_t maxRounds) {
  checkRounds(maxRounds);
  if (schedule_) {
    impl::invalidArgument(kWho,
                          "runUntilStable needs synchronous rounds: on a Schedule no "
                          "round is one where every device has fired; use run");
  }
  if (mobility_) {
    impl::invalidArgument(kWho,
                          "runUntilStable needs a still network: the samples of a moving "
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

}  // namespace kfield

// Beside the synchronous run: the one friend, the asynchronous modes, the carry, the compiled
// round, what is allocated, and where the host backends' simulations are compiled.
#include "kfield/sim/impl/SimulationAccess.hpp"
#include "kfield/sim/impl/SimulationAsynchronous.hpp"
#include "kfield/sim/impl/SimulationCarrying.hpp"
#include "kfield/sim/impl/SimulationCompiledRound.hpp"
#include "kfield/sim/impl/SimulationInstances.hpp"
#include "kfield/sim/impl/SimulationLevels.hpp"
#include "kfield/sim/impl/SimulationSetup.hpp"

#endif
