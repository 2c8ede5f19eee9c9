// Synchronous rounds of library programs: the engine (traced program, tile interpreter)
// against the same rounds written by hand over the same CSR, in one run. The hand loops are
// the fastest simple code a user would write: the engine's order (neighbors outer, samples
// inner), contiguous sample rows, vectorisable. Every variant first checks its answer, bit for
// bit, against a host reference on a small network of the same kind and batch.
#include "BenchContext.hpp"
#include "HandRounds.hpp"
#include "PlainRounds.hpp"

#include <kfield/field/Programs.hpp>
#include <kfield/sim/Simulation.hpp>

#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace kfield::bench {
namespace {

constexpr std::int64_t kRoundsPerIteration = 10;
constexpr std::int64_t kCheckRounds = 6;

// Networks are large: build each once per process. Kind 0: square grid, 1: rgg radius 1.5.
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

// The engine running the library program of the same name.
template <class Space>
class EngineRounds {
 public:
  EngineRounds(HandProgram program, const Network& net, std::int64_t samples)
      : sim_(lib::findProgram(handProgramName(program))->build(net, {}), net, samples) {
    for (std::int64_t s = 0; s < samples; ++s) sim_.sensor("source").set(sourceOf(s, net), s, true);
    if (program == HandProgram::Collect) sim_.sensor("value").fill(1.0);
    if (program == HandProgram::NearestSource || program == HandProgram::CollectWeighted) {
      for (std::int64_t d = 0; d < net.devices(); ++d) {
        for (std::int64_t s = 0; s < samples; ++s) sim_.sensor("value").set(d, s, valueOf(d, s));
      }
    }
  }
  void rounds(std::int64_t k) { sim_.run(k); }
  static int threads() { return static_cast<int>(Space().concurrency()); }
  std::vector<double> output() const {
    const HostPlane out = sim_.output();
    return {out.data(), out.data() + out.size()};
  }

 private:
  BasicSimulation<Space> sim_;
};

void countRounds(benchmark::State& state, const Network& net, std::int64_t samples, int threads) {
  const double deviceRounds =
      double(state.iterations()) * double(net.devices()) * double(kRoundsPerIteration);
  state.counters["device_rounds_per_second"] =
      benchmark::Counter(deviceRounds, benchmark::Counter::kIsRate);
  state.counters["sample_device_rounds_per_second"] =
      benchmark::Counter(deviceRounds * double(samples), benchmark::Counter::kIsRate);
  state.SetLabel(net.description() + ", " + std::to_string(threads) + " threads");
}

// Args: program, network kind, devices, samples.
template <class Space, template <class> class Variant>
void rounds(benchmark::State& state) {
  const auto program = static_cast<HandProgram>(state.range(0));
  const std::int64_t kind = state.range(1), samples = state.range(3);
  {
    const Network& small = network(kind, 2500);
    Variant<Space> check(program, small, samples);
    check.rounds(kCheckRounds);
    if (!sameBits(check.output(), handReference(program, small, samples, kCheckRounds))) {
      return fail(state, std::string(handProgramName(program)) + ": output differs from the host "
                                                                 "reference");
    }
  }
  const Network& net = network(kind, state.range(2));
  Variant<Space> run(program, net, samples);
  run.rounds(1);
  timeFenced<Space>(state, [&] { run.rounds(kRoundsPerIteration); });
  countRounds(state, net, samples, Variant<Space>::threads());
}

}  // namespace

void registerBenchmarks() {
  const auto shapes = [](benchmark::internal::Benchmark* b) {
    b->ArgNames({"program", "network", "devices", "samples"});
    for (std::int64_t program : {0, 1, 2}) {  // hop, distance, collect
      for (std::int64_t samples : {1, 64}) {
        b->Args({program, 0, 10000, samples})
            ->Args({program, 0, 1000000, samples})
            ->Args({program, 1, 1000000, samples});
      }
      b->Args({program, 0, 10000000, 1});
    }
    for (std::int64_t samples : {1, 64}) {  // nearest-source: the tuple-valued G block
      b->Args({3, 0, 10000, samples})->Args({3, 0, 1000000, samples});
    }
    for (std::int64_t samples : {1, 64}) {  // collect-weighted: nbr of a neighbor field
      b->Args({4, 0, 10000, samples})->Args({4, 0, 1000000, samples});
    }
  };
  registerForEachSpace(
      "Rounds/Engine", [](auto t) { return rounds<typename decltype(t)::type, EngineRounds>; },
      shapes);
  registerForEachSpace(
      "Rounds/HandWritten", [](auto t) { return rounds<typename decltype(t)::type, HandRounds>; },
      shapes);
  // A GPU also runs the hop gradient on 10^7 devices x 64 samples (tens of GB of planes).
  forEachEnabledSpace([](auto tag) {
    using Space = typename decltype(tag)::type;
    if constexpr (!std::is_same<typename Space::memory_space, Kokkos::HostSpace>::value) {
      const std::string space = Space::name();
      benchmark::RegisterBenchmark(("Rounds/Engine/" + space).c_str(), rounds<Space, EngineRounds>)
          ->UseManualTime()->ArgNames({"program", "network", "devices", "samples"})
          ->Args({0, 0, 10000000, 64});
      benchmark::RegisterBenchmark(("Rounds/HandWritten/" + space).c_str(),
                                   rounds<Space, HandRounds>)
          ->UseManualTime()->ArgNames({"program", "network", "devices", "samples"})
          ->Args({0, 0, 10000000, 64});
    }
  });
  // Gradients only, on the host: the check that the hand loop is itself the fastest simple one.
  auto* plain = benchmark::RegisterBenchmark(
      "Rounds/Plain/OpenMP", rounds<Kokkos::DefaultHostExecutionSpace, PlainRounds>);
  plain->UseManualTime()->ArgNames({"program", "network", "devices", "samples"});
  for (std::int64_t program : {0, 1}) {
    for (std::int64_t samples : {1, 64}) {
      plain->Args({program, 0, 10000, samples})->Args({program, 0, 1000000, samples});
    }
  }
}

}  // namespace kfield::bench
