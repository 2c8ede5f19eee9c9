// One step of `kfield train`: the neural-distance program learning exact distances, its batch
// the command's own scenarios (apps/kfield/train: random geometric graphs, random sources, each
// scenario run until its distances settle plus a few rounds), at the default config and larger.
// The step (the gradient of every scenario through its rounds by the windowed reverse, the
// ordered combine, Adam's update) beside the plain forward of the same batch, the way a user
// would run the trained program. Each checks its answer first: the step's loss at the initial
// parameters is the squared error of the plain forward's output, and a second step lowers it.
#include "BenchContext.hpp"

#include <Scenarios.hpp>

#include <kfield/diff/FieldContribution.hpp>
#include <kfield/learn/Learner.hpp>
#include <kfield/sim/Simulation.hpp>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

namespace kfield::bench {
namespace {

using cli::Scenario;
using cli::TrainConfig;

// The default config with `devices` per graph and `samples` scenarios.
struct Batch {
  TrainConfig config;
  TracedProgram program;
  Network network;
  std::vector<Scenario> scenarios;
  std::vector<std::int64_t> stops;
  double deviceRounds = 0;  // per pass over the batch: devices x rounds, summed over scenarios
};

const Batch& batch(std::int64_t devices, std::int64_t samples) {
  static std::map<std::pair<std::int64_t, std::int64_t>, std::unique_ptr<Batch>> cache;
  auto& slot = cache[{devices, samples}];
  if (!slot) {
    auto b = std::make_unique<Batch>();
    b->config.devices = devices;
    b->config.samples = samples;
    b->program = cli::neuralProgram(b->config);
    b->network = cli::trainingNetwork(b->config);
    b->scenarios = cli::trainingScenarios(b->config, b->network);
    for (const Scenario& s : b->scenarios) {
      b->stops.push_back(s.stop);
      b->deviceRounds += double(b->network.devices()) * double(s.stop);
    }
    slot = std::move(b);
  }
  return *slot;
}

void label(benchmark::State& state, const Batch& b, int threads) {
  const double passes = double(state.iterations());
  state.counters["scenarios_per_second"] =
      benchmark::Counter(passes * double(b.scenarios.size()), benchmark::Counter::kIsRate);
  state.counters["device_rounds_per_second"] =
      benchmark::Counter(passes * b.deviceRounds, benchmark::Counter::kIsRate);
  state.counters["mean_rounds"] =
      double(std::accumulate(b.stops.begin(), b.stops.end(), std::int64_t(0))) /
      double(b.stops.size());
  state.SetLabel(std::to_string(b.config.graphs) + " rggs of " + std::to_string(b.config.devices) +
                 " devices, " + std::to_string(b.scenarios.size()) + " scenarios, " +
                 std::to_string(b.program.parameterWidth()) + " parameters, " +
                 std::to_string(threads) + " threads");
}

// The plain forward of the batch at the initial parameters: each scenario's final field.
template <class Space>
HostPlane forwardOf(const Batch& b, double* seconds) {
  BasicSimulation<Space> sim(b.program, b.network, std::int64_t(b.scenarios.size()));
  const std::vector<double> parameters = cli::initialParameters(b.config);
  for (const ParameterInfo& p : b.program.parameters) {
    sim.parameter(p.name, std::vector<double>(parameters.begin() + p.offset,
                                              parameters.begin() + p.offset + p.width));
  }
  for (std::size_t j = 0; j < b.scenarios.size(); ++j) {
    for (const std::int64_t d : b.scenarios[j].sources)
      sim.sensor("source").set(d, std::int64_t(j), true);
  }
  Space().fence();
  const auto start = std::chrono::steady_clock::now();
  sim.run(b.stops);
  Space().fence();
  *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return sim.output();
}

// Args: devices per graph, scenarios.
template <class Space>
void forward(benchmark::State& state) {
  const Batch& b = batch(state.range(0), state.range(1));
  for (auto _ : state) {
    double seconds = 0;
    forwardOf<Space>(b, &seconds);
    state.SetIterationTime(seconds);
  }
  label(state, b, static_cast<int>(Space().concurrency()));
}

// The command's contribution, timed: the gradient's share of a step.
template <class Space>
struct TimedContribution {
  static constexpr bool kRows = true;
  diff::FieldContribution<Space> inner;
  double seconds = 0;
  std::vector<unsigned char> identityBytes() const { return inner.identityBytes(); }
  template <class SampleView, class RowView>
  void rows(const std::vector<double>& parameters, const SampleView& samples, const RowView& rows) {
    const auto start = std::chrono::steady_clock::now();
    inner.rows(parameters, samples, rows);
    Space().fence();
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
};

// Args: devices per graph, scenarios.
template <class Space>
void step(benchmark::State& state) {
  const Batch& b = batch(state.range(0), state.range(1));
  const std::int64_t owners = b.config.owners;
  DataParallelLearner<Space, TimedContribution<Space>> learner(
      cli::trainingSystem(b.config, b.program, b.network, b.scenarios, owners),
      TimedContribution<Space>{diff::FieldContribution<Space>(b.program, b.network)});
  auto batchLoss = [&] {
    const std::vector<double>& l = learner.contribution().inner.sampleLoss();
    return std::accumulate(l.begin(), l.end(), 0.0);
  };

  learner.run(1);  // at the initial parameters: the plain forward's squared error
  double forwardSeconds = 0;
  const HostPlane out = forwardOf<Space>(b, &forwardSeconds);
  double expected = 0;
  for (std::size_t j = 0; j < b.scenarios.size(); ++j) {
    for (std::int64_t d = 0; d < b.network.devices(); ++d) {
      const double e = out(d, std::int64_t(j)) - b.scenarios[j].target[std::size_t(d)];
      expected += e * e;
    }
  }
  const double first = batchLoss();
  if (!(std::fabs(first - expected) <= 1e-12 * expected)) {
    return fail(state, "the step's loss is " + std::to_string(first) +
                           ", the forward's squared error " + std::to_string(expected));
  }
  learner.run(1);
  if (!(batchLoss() < first)) {
    return fail(state, "a second step does not lower the loss: " + std::to_string(first) +
                           " then " + std::to_string(batchLoss()));
  }

  double stepSeconds = 0;
  const double gradientBefore = learner.contribution().seconds;
  for (auto _ : state) {
    Space().fence();
    const auto start = std::chrono::steady_clock::now();
    learner.run(1);
    Space().fence();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    stepSeconds += seconds;
    state.SetIterationTime(seconds);
  }
  // The step's split: the plain forward of the batch (timed once, above), the rest of the
  // gradient (recording, recompute, the reverse), and the combine and update around it.
  const double perStep = stepSeconds / double(state.iterations());
  const double gradient =
      (learner.contribution().seconds - gradientBefore) / double(state.iterations());
  state.counters["forward_share"] = forwardSeconds / perStep;
  state.counters["reverse_share"] = (gradient - forwardSeconds) / perStep;
  state.counters["combine_update_share"] = (perStep - gradient) / perStep;
  state.counters["x_forward"] = perStep / forwardSeconds;
  state.counters["owners"] = double(owners);
  label(state, b, static_cast<int>(Space().concurrency()));
}

}  // namespace

void registerBenchmarks() {
  auto sizes = [](benchmark::internal::Benchmark* b) {
    b->Args({150, 8});   // the default config
    b->Args({150, 32});  // more scenarios per step
    b->Args({1500, 8});  // ten times the devices
    b->ArgNames({"devices", "samples"});
    b->Unit(benchmark::kMillisecond);
  };
  registerForEachSpace(
      "Train/Forward", [](auto tag) { return forward<typename decltype(tag)::type>; }, sizes);
  registerForEachSpace(
      "Train/Step", [](auto tag) { return step<typename decltype(tag)::type>; }, sizes);
}

}  // namespace kfield::bench
