// Gradients through rounds: the scaled distance gradient (edge lengths times a learnable
// scale) on a grid, its loss the sum of squares of the final field. The plain forward (what
// a user runs without gradients) against the gradient (recording forward + windowed reverse),
// with the tape keeping carries (the default) or values, and against the store-everything
// tape (one window of S rounds, values kept). Each gradient first checks its answer on a small
// grid: d(loss)/d(scale) = 2 scale sum(hops^2), exact.
#include "BenchContext.hpp"

#include <kfield/diff/Gradient.hpp>
#include <kfield/field/Programs.hpp>
#include <kfield/sim/Simulation.hpp>

#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <queue>
#include <string>
#include <vector>

namespace kfield::bench {
namespace {

const Network& grid(std::int64_t devices) {
  static std::map<std::int64_t, std::unique_ptr<Network>> cache;
  auto& slot = cache[devices];
  if (!slot) {
    const auto side = static_cast<std::int64_t>(std::llround(std::sqrt(double(devices))));
    slot = std::make_unique<Network>(Network::grid(side, side));
  }
  return *slot;
}

const lib::LibraryProgram& program() { return *lib::findProgram("scaled-distance"); }

std::int64_t sourceOf(std::int64_t sample, const Network& net) {
  return (sample * 7919) % net.devices();
}

template <class Target>
void setSources(Target& t, const Network& net, std::int64_t samples) {
  for (std::int64_t s = 0; s < samples; ++s) t.sensor("source").set(sourceOf(s, net), s, true);
}

double sumOfSquaredHops(const Network& net, std::int64_t source) {
  std::vector<double> hops(static_cast<std::size_t>(net.devices()), -1);
  std::queue<std::int64_t> q;
  hops[source] = 0, q.push(source);
  double sum = 0;
  while (!q.empty()) {
    const std::int64_t d = q.front();
    q.pop();
    sum += hops[d] * hops[d];
    for (std::int32_t j : net.neighborsOf(d)) {
      if (hops[j] < 0) hops[j] = hops[d] + 1, q.push(j);
    }
  }
  return sum;
}

template <class Space>
std::unique_ptr<diff::BasicGradient<Space>> gradientOf(const Network& net, std::int64_t samples) {
  auto g = std::make_unique<diff::BasicGradient<Space>>(program().build(net, {}), net, samples);
  g->parameter("scale", {1.0});
  setSources(*g, net, samples);
  return g;
}

// The options of a variant: 0 carries on the tape, 1 values, 2 store everything.
diff::GradientOptions optionsOf(std::int64_t variant, std::int64_t rounds) {
  diff::GradientOptions o;
  o.tape = variant == 0 ? diff::Tape::Carry : diff::Tape::Values;
  if (variant == 2) o.window = rounds;
  return o;
}

void label(benchmark::State& state, const Network& net, std::int64_t samples, std::int64_t rounds,
           int threads) {
  const double work =
      double(state.iterations()) * double(net.devices()) * double(samples) * double(rounds);
  state.counters["sample_device_rounds_per_second"] =
      benchmark::Counter(work, benchmark::Counter::kIsRate);
  state.SetLabel(net.description() + ", " + std::to_string(threads) + " threads");
}

// Args: rounds, devices, samples.
template <class Space>
void forward(benchmark::State& state) {
  const std::int64_t rounds = state.range(0), samples = state.range(2);
  const Network& net = grid(state.range(1));
  for (auto _ : state) {
    BasicSimulation<Space> sim(program().build(net, {}), net, samples);
    sim.parameter("scale", {1.0});
    setSources(sim, net, samples);
    Space().fence();
    const auto start = std::chrono::steady_clock::now();
    sim.run(rounds);
    Space().fence();
    state.SetIterationTime(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  label(state, net, samples, rounds, static_cast<int>(Space().concurrency()));
}

// Args: variant, rounds, devices, samples.
template <class Space>
void reverse(benchmark::State& state) {
  const std::int64_t variant = state.range(0), rounds = state.range(1), samples = state.range(3);
  const Network& net = grid(state.range(2));
  {
    const Network& small = grid(900);
    const auto check = gradientOf<Space>(small, 2)->run(80, optionsOf(variant, 80));
    const double expected = 2.0 * (sumOfSquaredHops(small, sourceOf(0, small)) +
                                   sumOfSquaredHops(small, sourceOf(1, small)));
    if (check.gradient[0] != expected) {
      return fail(state, "d(loss)/d(scale) is " + std::to_string(check.gradient[0]) +
                             ", expected " + std::to_string(expected));
    }
  }
  diff::GradientResult r;
  const auto g = gradientOf<Space>(net, samples);  // set up as the forward's simulation is
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    try {
      r = g->run(rounds, optionsOf(variant, rounds));
    } catch (const std::invalid_argument& e) {  // a tape that does not fit: the point of windows
      state.SkipWithError(e.what());
      return;
    }
    state.SetIterationTime(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  state.counters["reverse_bytes"] = double(r.reverseBytes);
  state.counters["forward_bytes"] = double(r.forwardBytes);
  state.counters["carries"] = double(r.reverseBytes) / double(r.carryBytes);
  state.counters["two_sqrt_S"] = 2.0 * std::sqrt(double(rounds));
  state.counters["window"] = double(r.schedule.window);
  label(state, net, samples, rounds, static_cast<int>(Space().concurrency()));
}

}  // namespace

void registerBenchmarks() {
  auto sizes = [](benchmark::internal::Benchmark* b, bool variants) {
    for (std::int64_t devices : {10000, 100000}) {
      for (std::int64_t rounds : {100, 1000, 10000}) {
        for (std::int64_t variant = 0; variant < (variants ? 3 : 1); ++variant) {
          if (variants) {
            b->Args({variant, rounds, devices, 16});
          } else {
            b->Args({rounds, devices, 16});
          }
        }
      }
    }
    b->ArgNames(variants ? std::vector<std::string>{"tape", "rounds", "devices", "samples"}
                         : std::vector<std::string>{"rounds", "devices", "samples"});
    b->Unit(benchmark::kMillisecond)->Iterations(1);
  };
  registerForEachSpace(
      "Gradient/Forward", [](auto tag) { return forward<typename decltype(tag)::type>; },
      [&](benchmark::internal::Benchmark* b) { sizes(b, false); });
  registerForEachSpace(
      "Gradient/Reverse", [](auto tag) { return reverse<typename decltype(tag)::type>; },
      [&](benchmark::internal::Benchmark* b) { sizes(b, true); });
}

}  // namespace kfield::bench
