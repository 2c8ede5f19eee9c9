// Gradients through rounds: the scaled distance gradient (edge lengths times a learnable
// scale) on a grid, its loss the sum of squares of the final field. The plain forward (what
// a user runs without gradients; compiled rounds on host backends) against the gradient
// (recording forward + windowed reverse), with the tape keeping carries (the default: compiled
// reverse rounds on host backends) or values, against the store-everything tape (one window of
// S rounds, values kept), and (Gradient/Interpreted) against the default with the interpreted
// reverse. Each gradient reports x_forward: its time over the forward's of the same size, run
// in the same process just before. Each first checks its answer on a small grid:
// d(loss)/d(scale) = 2 scale sum(hops^2), exact.
#include "BenchContext.hpp"

#include <kfield/diff/Gradient.hpp>
#include <kfield/field/Programs.hpp>
#include <kfield/sim/Simulation.hpp>

#include <algorithm>
#include <chrono>
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

// Seconds of one forward of `rounds` rounds from a fresh simulation.
template <class Space>
double forwardSeconds(const Network& net, std::int64_t rounds, std::int64_t samples) {
  BasicSimulation<Space> sim(program().build(net, {}), net, samples);
  sim.parameter("scale", {1.0});
  setSources(sim, net, samples);
  Space().fence();
  const auto start = std::chrono::steady_clock::now();
  sim.run(rounds);
  Space().fence();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Args: rounds, devices, samples.
template <class Space>
void forward(benchmark::State& state) {
  const std::int64_t rounds = state.range(0), samples = state.range(2);
  const Network& net = grid(state.range(1));
  for (auto _ : state) state.SetIterationTime(forwardSeconds<Space>(net, rounds, samples));
  label(state, net, samples, rounds, static_cast<int>(Space().concurrency()));
}

// Args: variant, rounds, devices, samples. Compiled: the compiled reverse where there is one.
template <class Space, bool Compiled>
void reverse(benchmark::State& state) {
  const std::int64_t variant = state.range(0), rounds = state.range(1), samples = state.range(3);
  const Network& net = grid(state.range(2));
  auto options = [&](std::int64_t S) {
    diff::GradientOptions o = optionsOf(variant, S);
    o.compiledReverse = Compiled;
    return o;
  };
  {
    const Network& small = grid(900);
    const auto check = gradientOf<Space>(small, 2)->run(80, options(80));
    const double expected = 2.0 * (sumOfSquaredHops(small, sourceOf(0, small)) +
                                   sumOfSquaredHops(small, sourceOf(1, small)));
    if (check.gradient[0] != expected) {
      return fail(state, "d(loss)/d(scale) is " + std::to_string(check.gradient[0]) +
                             ", expected " + std::to_string(expected));
    }
  }
  diff::GradientResult r;
  const double forward = forwardSeconds<Space>(net, rounds, samples);
  const auto g = gradientOf<Space>(net, samples);  // set up as the forward's simulation is
  double seconds = 0.0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    try {
      r = g->run(rounds, options(rounds));
    } catch (const std::invalid_argument& e) {  // a tape that does not fit: the point of windows
      state.SkipWithError(e.what());
      return;
    }
    const double t =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    state.SetIterationTime(t);
    seconds += t;
  }
  state.counters["x_forward"] = seconds / double(state.iterations()) / forward;
  state.counters["reverse_bytes"] = double(r.reverseBytes);
  state.counters["forward_bytes"] = double(r.forwardBytes);
  state.counters["carries"] = double(r.reverseBytes) / double(r.carryBytes);
  state.counters["two_sqrt_S"] = 2.0 * std::sqrt(double(rounds));
  state.counters["window"] = double(r.schedule.window);
  label(state, net, samples, rounds, static_cast<int>(Space().concurrency()));
}

}  // namespace

void registerBenchmarks() {
  // variants: tape kinds (0 carries, 1 values, 2 store everything), or none (the forward, the
  // interpreted reverse).
  auto sizes = [](benchmark::internal::Benchmark* b, int variants) {
    for (std::int64_t devices : {10000, 100000}) {
      for (std::int64_t rounds : {100, 1000, 10000}) {
        for (std::int64_t samples : {1, 64}) {
          for (std::int64_t variant = 0; variant < std::max(variants, 1); ++variant) {
            if (variants > 0) {
              b->Args({variant, rounds, devices, samples});
            } else {
              b->Args({rounds, devices, samples});
            }
          }
        }
      }
    }
    b->ArgNames(variants > 0 ? std::vector<std::string>{"tape", "rounds", "devices", "samples"}
                             : std::vector<std::string>{"rounds", "devices", "samples"});
    b->Unit(benchmark::kMillisecond)->Iterations(1);
  };
  registerForEachSpace(
      "Gradient/Forward", [](auto tag) { return forward<typename decltype(tag)::type>; },
      [&](benchmark::internal::Benchmark* b) { sizes(b, 0); });
  registerForEachSpace(
      "Gradient/Reverse", [](auto tag) { return reverse<typename decltype(tag)::type, true>; },
      [&](benchmark::internal::Benchmark* b) { sizes(b, 3); });
  registerForEachSpace(
      "Gradient/Interpreted", [](auto tag) { return reverse<typename decltype(tag)::type, false>; },
      [&](benchmark::internal::Benchmark* b) { sizes(b, 1); });
}

}  // namespace kfield::bench
