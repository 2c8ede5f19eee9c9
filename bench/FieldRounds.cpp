// Synchronous rounds of the hop gradient: the engine (traced program, tile interpreter)
// against a hand-written loop over the same CSR, the practical speed limit, in one run.
#include "BenchContext.hpp"

#include <kfield/field/Library.hpp>
#include <kfield/field/Programs.hpp>
#include <kfield/sim/Simulation.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <string>

namespace kfield::bench {
namespace {

constexpr std::int64_t kRoundsPerIteration = 10;

// Networks are large: build each once per process.
const Network& network(std::int64_t kind, std::int64_t devices) {
  static std::map<std::pair<std::int64_t, std::int64_t>, std::unique_ptr<Network>> cache;
  auto& slot = cache[{kind, devices}];
  if (!slot) {
    const auto side = static_cast<std::int64_t>(std::llround(std::sqrt(double(devices))));
    slot = std::make_unique<Network>(kind == 0 ? Network::grid(side, side)
                                               : Network::randomGeometric(devices, 1.5, 1));
  }
  return *slot;
}

void countRounds(benchmark::State& state, const Network& net, std::int64_t samples) {
  const double deviceRounds =
      double(state.iterations()) * double(net.devices()) * double(kRoundsPerIteration);
  state.counters["device_rounds_per_second"] =
      benchmark::Counter(deviceRounds, benchmark::Counter::kIsRate);
  state.counters["sample_device_rounds_per_second"] =
      benchmark::Counter(deviceRounds * double(samples), benchmark::Counter::kIsRate);
  state.SetLabel(net.description());
}

template <class Space>
void engine(benchmark::State& state) {
  const Network& net = network(state.range(0), state.range(1));
  const std::int64_t samples = state.range(2);
  BasicSimulation<Space> sim(lib::findProgram("hop-gradient")->build(net, {}), net, samples);
  for (std::int64_t s = 0; s < samples; ++s) sim.sensor("source").set(s % net.devices(), s, true);
  sim.run(1);
  timeFenced<Space>(state, [&] { sim.run(kRoundsPerIteration); });
  countRounds(state, net, samples);
}

// The same rounds written directly: share semantics, double-buffered, CSR order.
template <class Space>
void handWritten(benchmark::State& state) {
  const Network& net = network(state.range(0), state.range(1));
  const std::int64_t samples = state.range(2), n = net.devices();
  using Plane = Kokkos::View<double**, Kokkos::LayoutRight, typename Space::memory_space>;
  const auto view = net.on<typename Space::memory_space>();
  Plane now("now", n, samples), prev("prev", n, samples);
  Kokkos::View<bool**, Kokkos::LayoutRight, typename Space::memory_space> source("source", n,
                                                                                 samples);
  Kokkos::parallel_for(
      "kfield::bench::sources", Kokkos::RangePolicy<Space>(0, samples),
      KOKKOS_LAMBDA(std::int64_t s) { source(s % n, s) = true; });
  Kokkos::deep_copy(prev, lib::kInfinity);
  timeFenced<Space>(state, [&] {
    for (std::int64_t r = 0; r < kRoundsPerIteration; ++r) {
      Kokkos::parallel_for(
          "kfield::bench::hand_written_hop", Kokkos::RangePolicy<Space>(0, n),
          KOKKOS_LAMBDA(std::int64_t i) {
            for (std::int64_t s = 0; s < samples; ++s) {
              double best = lib::kInfinity;
              for (std::int64_t k = view.offsets(i); k < view.offsets(i + 1); ++k) {
                const std::int64_t j = view.neighbors(k);
                const double v = prev(j, s);
                if (j != i && v < best) best = v;
              }
              now(i, s) = source(i, s) ? 0.0 : best + 1.0;
            }
          });
      std::swap(now, prev);
    }
  });
  countRounds(state, net, samples);
}

}  // namespace

void registerBenchmarks() {
  const auto shapes = [](benchmark::internal::Benchmark* b) {
    b->ArgNames({"network", "devices", "samples"});  // network 0: square grid, 1: rgg r=1.5
    for (std::int64_t samples : {1, 64}) {
      b->Args({0, 10000, samples})->Args({0, 1000000, samples})->Args({1, 1000000, samples});
    }
    b->Args({0, 10000000, 1});
  };
  registerForEachSpace(
      "Hop/Engine", [](auto t) { return engine<typename decltype(t)::type>; }, shapes);
  registerForEachSpace(
      "Hop/HandWritten", [](auto t) { return handWritten<typename decltype(t)::type>; }, shapes);
}

}  // namespace kfield::bench
