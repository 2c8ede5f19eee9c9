// What a simulation allocates, each size checked before it is: its planes, network copies and
// the buffer of a round whose values spill. Definitions of BasicSimulation's members, reached
// through Simulation.hpp.
#ifndef KFIELD_SIM_IMPL_SIMULATIONSETUP_HPP
#define KFIELD_SIM_IMPL_SIMULATIONSETUP_HPP

#include "kfield/sim/Simulation.hpp"

namespace kfield {

template <class ExecSpace>
BasicSimulation<ExecSpace>::BasicSimulation(TracedProgram program, const Network& network,
                                            std::int64_t samples, SimulationOptions options,
                                            ExecSpace space)
    : program_(std::move(program)),
      space_(space),
      devices_(network.devices()),
      samples_(samples),
      network_(network) {
  active_ = {0, devices_};
  const std::optional<Schedule>& schedule = options.schedule;
  const std::optional<Motion>& motion = options.motion;
  if (samples < 1) {
    impl::invalidArgument(kWho, "samples must be >= 1, got " + std::to_string(samples));
  }
  if (schedule) {
    schedule->check(kWho);
    program_ = impl::keyedByClock(std::move(program_));
    schedule_ = schedule;
    useLevels_ = options.levels;
  }
  const bool readsLengths =
      std::any_of(program_.entries.begin(), program_.entries.end(),
                  [](const impl::EntryOp& e) { return e.code == impl::EntryCode::EdgeLength; });
  if (readsLengths && !motion && !network.hasLengths()) {
    impl::invalidArgument(kWho, "program '" + program_.name +
                                    "' reads edge lengths, but network '" + network.description() +
                                    "' has none (neither lengths nor positions)");
  }
  if (motion) {
    motion->check(kWho);
    if (motion->model == Motion::Model::Velocity && (samples != 1 || program_.outputWidth < 2)) {
      impl::invalidArgument(kWho,
                            "motion: the velocity model moves each device by the program's "
                            "output (x, y): it needs one sample and an output of width >= 2; "
                            "program '" +
                                program_.name + "' has width " +
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
      anyKeyed(program_.states), static_cast<std::size_t>(program_.outputWidth));
  checkSizes(rows);
  if (mobility_) {
    net_ = mobility_->view();
  } else {
    net_ = network_.on<Memory>(readsLengths);
  }
  if (program_.edgePlanes > 0 &&
      !mobility_) {  // what a neighbor sent a device is at its entry for the device
    net_.reverse =
        impl::upload<Memory>(reverseEntries(program_, network_), "kfield::network::reverse");
  }
  if constexpr (kCompiledRounds) {
    compiled_ = findCompiledRound(program_);
    if (compiled_) compiledConstants_ = compiledRoundConstants(program_);
  }
  assembly_ = impl::RoundAssembly<ExecSpace>(program_);
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

// Refuses, before anything is allocated, planes that do not fit where they would live.
template <class ExecSpace>
void BasicSimulation<ExecSpace>::checkSizes(
    const typename impl::RoundPlanes<Memory>::Rows& rows) const {
  const auto samples = static_cast<std::uint64_t>(samples_);
  const std::uint64_t bytes = sizeof(double);
  const std::uint64_t planes = impl::product({rows.total(), samples, bytes});
  // Off the host, the network's copy lives beside the planes, and the host keeps the sensors.
  // A moving network's own arrays are checked where they are built (Mobility.hpp).
  const auto entries = static_cast<std::uint64_t>(network_.entries());
  const std::uint64_t network = kHostPlanes || mobility_ ? 0 : impl::product({entries, 12});
  // Exchanges' reverse-entry index (one int64 per network entry), and on a Schedule which
  // devices fire in a step (a byte per device and sample): beside the planes on every backend.
  const std::uint64_t reverse =
      program_.edgePlanes > 0 && !mobility_ ? impl::product({entries, 8}) : 0;
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
    spill_ = Kokkos::View<double*, Memory>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "kfield::sim::spill"),
        static_cast<std::size_t>(bytes / sizeof(double)));
  }
  return spill_;
}

}  // namespace kfield

#endif
