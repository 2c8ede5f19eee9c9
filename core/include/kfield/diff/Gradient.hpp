// Gradients of an aggregate program through its rounds: d(loss)/d(parameters) of a batch of
// samples that stop at different rounds, by a recording forward that checkpoints the carry at
// every window start and a reverse that recomputes one window at a time. The same bits for any
// window, memory budget (samples chunked into whole subtrees of the canonical sum), thread
// count and backend.
#ifndef KFIELD_DIFF_GRADIENT_HPP
#define KFIELD_DIFF_GRADIENT_HPP

#include "kfield/Plane.hpp"
#include "kfield/diff/GradientResult.hpp"
#include "kfield/diff/Record.hpp"
#include "kfield/diff/Transpose.hpp"
#include "kfield/diff/Window.hpp"
#include "kfield/diff/impl/GradientPass.hpp"
#include "kfield/field/TracedProgram.hpp"
#include "kfield/impl/Errors.hpp"
#include "kfield/net/Network.hpp"
#include "kfield/sum/Canonical.hpp"
#include "kfield/sum/Chunking.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace kfield::diff {

template <class ExecSpace>
class BasicDistributedGradient;

template <class ExecSpace = Kokkos::DefaultExecutionSpace>
class BasicGradient {
 public:
  using Memory = typename ExecSpace::memory_space;

  // Throws std::invalid_argument when the program cannot be reversed (an opaque node).
  BasicGradient(TracedProgram program, const Network& network, std::int64_t samples = 1,
                ExecSpace space = ExecSpace());

  using Sensor = kfield::impl::SensorHandle<BasicGradient>;
  Sensor sensor(const std::string& name) { return Sensor(this, sensorIndex(name)); }
  std::int64_t devices() const { return devices_; }
  std::int64_t samples() const { return samples_; }
  BasicGradient& parameter(const std::string& name, const std::vector<double>& values);
  // Also differentiate with respect to a sensor: its gradient per device and sample.
  BasicGradient& differentiate(const std::string& sensor) {
    differentiated_[static_cast<std::size_t>(sensorIndex(sensor))] = 1;
    return *this;
  }
  BasicGradient& loss(Loss kind) {
    loss_ = kind;
    return *this;
  }
  // The squared error's target, devices x samples (zero until set); of a tuple-valued program,
  // (width x devices) x samples, rows as Simulation::output's.
  BasicGradient& target(const HostPlane& values);

  // stops[s]: the rounds sample s runs; its loss is taken at its last round.
  GradientResult run(const std::vector<std::int64_t>& stops, const GradientOptions& options = {});
  GradientResult run(std::int64_t rounds, const GradientOptions& options = {}) {
    return run(std::vector<std::int64_t>(static_cast<std::size_t>(samples_), rounds), options);
  }

  // What one sample costs a pass whose longest sample runs `longest` rounds (forward planes,
  // checkpoints, tape and adjoints): the unit of GradientOptions::budgetBytes.
  std::uint64_t bytesPerSample(std::int64_t longest, std::int64_t window = 0,
                               Tape tape = Tape::Carry) const {
    impl::PassSetup<ExecSpace> s = setup(1, tape);
    s.window = window > 0 ? window : defaultWindowOf(s, longest);
    return impl::passBytesPerSample(s, longest);
  }

  // The reverse of one round's graph: its vjp steps, joins and snapshots.
  const ReversePlan& reversePlan() const { return plan_; }
  const TracedProgram& program() const { return program_; }

 private:
  static constexpr const char* kWho = "kfield::diff::Gradient";
  friend class kfield::impl::SensorHandle<BasicGradient>;
  void setSensor(std::int32_t index, std::int64_t device, std::int64_t sample, double value) {
    const SensorInfo& sensor = program_.sensors[static_cast<std::size_t>(index)];
    kfield::impl::requireIndex(kWho, "sensor '" + sensor.name + "'", "device", device, devices_);
    kfield::impl::requireIndex(kWho, "sensor '" + sensor.name + "'", "sample", sample, samples_);
    sensors_(static_cast<std::size_t>(index * devices_ + device),
             static_cast<std::size_t>(sample)) =
        kfield::impl::sensorValue(kWho, sensor, device, value);
  }
  // The default window of a carry tape: its rows' size in carries balanced against the
  // checkpoints (a compiled reverse's rows also hold the folds' results); of a values tape,
  // defaultWindow(longest).
  static std::int64_t defaultWindowOf(const impl::PassSetup<ExecSpace>& s, std::int64_t longest) {
    if (s.valuesOnTape) return defaultWindow(longest);
    const impl::PassRows r = impl::passRows(s);
    return defaultWindow(longest, r.carry > 0 ? double(r.tapeRow) / double(r.carry) : 1.0);
  }
  impl::PassSetup<ExecSpace> setup(std::int64_t window, Tape tape) const {
    impl::PassSetup<ExecSpace> s{program_,
                                 network_,
                                 space_,
                                 transposed_,
                                 sensors_,
                                 target_,
                                 parameters_.values(),
                                 differentiated_,
                                 loss_ == Loss::Output};
    s.window = window;
    s.valuesOnTape = tape == Tape::Values;
    s.parts = parts_;
    return s;
  }
  std::int32_t sensorIndex(const std::string& name) const;
  // The target's rows, as the output's: output width x devices (component-major).
  std::size_t targetRows() const {
    return static_cast<std::size_t>(program_.outputWidth) * static_cast<std::size_t>(devices_);
  }

  TracedProgram program_;
  Network network_;
  ExecSpace space_;
  std::int64_t devices_, samples_;
  ReversePlan plan_;
  impl::Transposed<Memory> transposed_;
  HostPlane sensors_;  // sensor x device rows, samples in order
  HostPlane target_;
  kfield::impl::ParameterValues parameters_;
  std::vector<char> differentiated_;
  Loss loss_ = Loss::SquaredError;
  RecordSlot slot_;
  // One part of a distributed network (DistributedGradient.hpp): network_ is the part.
  template <class>
  friend class BasicDistributedGradient;
  impl::PassParts<ExecSpace>* parts_ = nullptr;
};

using Gradient = BasicGradient<>;

// The vjp planes of every node of a traced program (its reads and writes).
std::vector<NodeVjp> vjpsOf(const TracedProgram& program);

template <class ExecSpace>
BasicGradient<ExecSpace>::BasicGradient(TracedProgram program, const Network& network,
                                        std::int64_t samples, ExecSpace space)
    : program_(std::move(program)),
      network_(network),
      space_(space),
      devices_(network.devices()),
      samples_(samples) {
  if (samples < 1)
    kfield::impl::invalidArgument(kWho, "samples must be >= 1, got " + std::to_string(samples));
  plan_ = transpose(program_.description, vjpsOf(program_), outputPlanes(program_));
  // Before anything is allocated: the sensors and targets of every sample, and the
  // transposed network (an entry and a reader per network entry).
  using kfield::impl::product;
  const auto D = static_cast<std::uint64_t>(devices_), B = static_cast<std::uint64_t>(samples);
  const std::uint64_t rows = product({program_.sensors.size(), D});
  kfield::impl::requireMemory(
      kWho, "the sensors and targets of " + std::to_string(samples) + " samples",
      kfield::impl::total({product({rows, B, 8}), product({targetRows(), B, 8}),
                           product({static_cast<std::uint64_t>(network_.entries()), 12})}),
      hostMemoryBytes(), "this machine's memory");
  transposed_ = impl::transposedNetwork<Memory>(network_);
  sensors_ = HostPlane("kfield::diff::sensors", rows, samples);
  target_ = HostPlane("kfield::diff::target", targetRows(), samples);
  parameters_ = kfield::impl::ParameterValues(program_);
  differentiated_.assign(program_.sensors.size(), 0);
}

template <class ExecSpace>
std::int32_t BasicGradient<ExecSpace>::sensorIndex(const std::string& name) const {
  const std::int32_t index = program_.sensorIndex(name);
  if (index < 0) {
    kfield::impl::invalidArgument(
        kWho, "program '" + program_.name + "' reads no sensor named '" + name + "'");
  }
  return index;
}

template <class ExecSpace>
BasicGradient<ExecSpace>& BasicGradient<ExecSpace>::parameter(const std::string& name,
                                                              const std::vector<double>& values) {
  parameters_.set(kWho, program_, name, values);
  return *this;
}

template <class ExecSpace>
BasicGradient<ExecSpace>& BasicGradient<ExecSpace>::target(const HostPlane& values) {
  if (values.extent(0) != targetRows() || static_cast<std::int64_t>(values.extent(1)) != samples_) {
    kfield::impl::invalidArgument(
        kWho, "the target is " + std::to_string(values.extent(0)) + " x " +
                  std::to_string(values.extent(1)) + ", expected " +
                  (program_.outputWidth == 1 ? "devices" : "(output width x devices)") +
                  " x samples = " + std::to_string(targetRows()) + " x " +
                  std::to_string(samples_));
  }
  Kokkos::deep_copy(target_, values);
  return *this;
}

template <class ExecSpace>
GradientResult BasicGradient<ExecSpace>::run(const std::vector<std::int64_t>& stops,
                                             const GradientOptions& options) {
  if (static_cast<std::int64_t>(stops.size()) != samples_) {
    kfield::impl::invalidArgument(kWho, "run: " + std::to_string(stops.size()) +
                                            " stop rounds for " + std::to_string(samples_) +
                                            " samples");
  }
  for (std::size_t s = 0; s < stops.size(); ++s) {
    if (stops[s] < 0) {
      kfield::impl::invalidArgument(kWho, "run: sample " + std::to_string(s) + " stops at round " +
                                              std::to_string(stops[s]) + " (must be >= 0)");
    }
  }
  parameters_.requireAll(kWho, program_);
  if (options.window < 0) {
    kfield::impl::invalidArgument(
        kWho, "window must be >= 1 (0: the default), got " + std::to_string(options.window));
  }
  if (options.budgetBytes < 0) {
    kfield::impl::invalidArgument(kWho, "budget must be >= 0 bytes (0: no limit), got " +
                                            std::to_string(options.budgetBytes));
  }
  const std::int64_t longest = *std::max_element(stops.begin(), stops.end());
  impl::PassSetup<ExecSpace> setup = this->setup(1, options.tape);
  setup.compiledReverse = options.compiledReverse;
  setup.window = options.window > 0 ? options.window : defaultWindowOf(setup, longest);
  if (options.spill && options.spillAlways) setup.spill = options.spill.get();
  std::int64_t perPass = samples_;
  if (options.budgetBytes > 0) {
    std::uint64_t perSample = impl::passBytesPerSample(setup, longest);
    perPass = chunkSamples(options.budgetBytes, static_cast<std::int64_t>(perSample), samples_,
                           options.leaf);
    if (options.spill && !setup.spill && perPass < samples_) {  // the budget says: spill
      setup.spill = options.spill.get();
      perSample = impl::passBytesPerSample(setup, longest);
      perPass = chunkSamples(options.budgetBytes, static_cast<std::int64_t>(perSample), samples_,
                             options.leaf);
    }
    if (parts_) perPass = parts_->agree(perPass);
    if (perPass == 0) {
      kfield::impl::invalidArgument(
          kWho, "a budget of " + kfield::impl::bytesText(std::uint64_t(options.budgetBytes)) +
                    " holds no pass: one sample needs " + kfield::impl::bytesText(perSample));
    }
  }
  if (slot_.begin() != RecordSlot::Begin::Ok) {
    kfield::impl::runtimeError(kWho, "a run of this gradient is already in progress");
  }
  const std::uint64_t generation = slot_.generation();
  GradientResult result;
  result.sampleLoss.assign(static_cast<std::size_t>(samples_), 0.0);
  result.sampleGradient.assign(static_cast<std::size_t>(samples_),
                               std::vector<double>(parameters_.values().size(), 0.0));
  for (std::size_t i = 0; i < differentiated_.size(); ++i) {
    if (differentiated_[i]) {
      result.sensorGradient[program_.sensors[i].name] =
          HostPlane("kfield::diff::sensor_gradient", devices_, samples_);
    }
  }
  result.schedule.window = setup.window;
  result.schedule.samplesPerPass = perPass;
  try {
    slot_.hold(generation);
    for (std::int64_t first = 0; first < samples_; first += perPass) {
      impl::Pass<ExecSpace>::run(setup, stops, first, std::min(perPass, samples_ - first), result);
    }
    slot_.release(generation, true);
  } catch (...) {
    slot_.release(generation, true);
    throw;
  }
  // Over samples, the canonical reduction in sample order (on the host).
  using Host = Kokkos::DefaultHostExecutionSpace;
  const auto P = static_cast<std::int64_t>(parameters_.values().size());
  Kokkos::View<double*, Kokkos::HostSpace> losses(result.sampleLoss.data(),
                                                  static_cast<std::size_t>(samples_));
  result.loss = canonicalSum(Host(), losses);
  Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace> rows(
      "kfield::diff::sample_gradients", samples_, P);
  for (std::int64_t s = 0; s < samples_; ++s) {
    for (std::int64_t q = 0; q < P; ++q)
      rows(s, q) = result.sampleGradient[static_cast<std::size_t>(s)][q];
  }
  Kokkos::View<double*, Kokkos::HostSpace> total("kfield::diff::gradient",
                                                 static_cast<std::size_t>(P));
  if (P > 0) canonicalSumOfVectors(Host(), rows, total);
  result.gradient.assign(total.data(), total.data() + P);
  return result;
}

}  // namespace kfield::diff

#endif
