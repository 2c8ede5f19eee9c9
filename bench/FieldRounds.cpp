// Synchronous rounds of library programs: the engine (traced program, tile interpreter)
// against the same rounds written by hand over the same CSR, in one run. The hand loops are
// the fastest simple code a user would write: the engine's order (neighbors outer, samples
// inner), contiguous sample rows, vectorisable. Every variant first checks its answer, bit for
// bit, against a host reference on a small network of the same kind and batch.
#include "BenchContext.hpp"
#include "HandEvents.hpp"
#include "HandRounds.hpp"
#include "PlainRounds.hpp"

#include <kfield/field/Library.hpp>
#include <kfield/field/Programs.hpp>
#include <kfield/sim/Simulation.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace kfield::bench {
namespace {

constexpr std::int64_t kRoundsPerIteration = 10;
constexpr std::int64_t kCheckRounds = 6;

// Networks are large: build each once per process. Kind 0: square grid, 1: rgg radius 1.5
// (devices numbered as drawn), 2: the same rgg numbered along a Hilbert curve.
const Network& network(std::int64_t kind, std::int64_t devices) {
  static std::map<std::pair<std::int64_t, std::int64_t>, std::unique_ptr<Network>> cache;
  auto& slot = cache[{kind, devices}];
  if (!slot) {
    const auto side = static_cast<std::int64_t>(std::llround(std::sqrt(double(devices))));
    const DeviceOrder order = kind == 2 ? DeviceOrder::Hilbert : DeviceOrder::Drawn;
    slot = std::make_unique<Network>(kind == 0 ? Network::grid(side, side)
                                               : Network::randomGeometric(devices, 1.5, 1, order));
  }
  return *slot;
}

// The engine running the library program of the same name: its compiled round where it has
// one (kfield/sim/CompiledRound.hpp), or (kCompiled false) the round kernel throughout.
template <class Space, bool kCompiled>
class EngineRoundsOf {
 public:
  EngineRoundsOf(HandProgram program, const Network& net, std::int64_t samples)
      : sim_(lib::findProgram(handProgramName(program))->build(net, {}), net, samples) {
    sim_.useCompiledRounds(kCompiled);
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
template <class Space>
using EngineRounds = EngineRoundsOf<Space, true>;
template <class Space>
using KernelRounds = EngineRoundsOf<Space, false>;

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
      return fail(state, std::string(handProgramName(program)) +
                             ": output differs from the host "
                             "reference");
    }
  }
  const Network& net = network(kind, state.range(2));
  Variant<Space> run(program, net, samples);
  run.rounds(1);
  timeFenced<Space>(state, [&] { run.rounds(kRoundsPerIteration); });
  countRounds(state, net, samples, Variant<Space>::threads());
}

// spawn with 16 live processes per device: 16 sources spread over a grid launch in round 1,
// and each process is a hop gradient from its source that lasts the whole run. Warmed up until
// every device holds all 16, and checked then: the sum of each device's 16 hop counts. Keys
// of one part (the source's id) or two (id, start round): what a pair key costs.
constexpr int kProcesses = 16;

TracedProgram spawnProgram(std::int64_t keyParts) {
  return trace(
      [keyParts](Program& p) {
        const Field<int> id = p.uid();
        const Field<int> round = p.remember(0, [](Field<int> r) { return r + 1; });
        const Field<bool> launches = p.sense<bool>("source") && round == 1;
        auto body = [&](const Field<int>& source) {
          return std::make_pair(lib::hopGradient(p, id == source), round < (1 << 30));
        };
        if (keyParts == 1) {
          return p
              .spawn<double>(p.mux(launches, id, p.constant(-1)), kProcesses,
                             [&](const Field<int>& key) { return body(key); })
              .sum();
        }
        using Key = Tuple<int, int>;
        const Field<Key> launch =
            p.mux(launches, p.tuple(id, round), p.tuple(p.constant(-1), p.constant(-1)));
        return p
            .spawn<double>(launch, kProcesses,
                           [&](const Field<Key>& key) { return body(get<0>(key)); })
            .sum();
      },
      "spawn-16");
}

// Bytes per device of a simulation's planes (one sample): RoundPlanes' rows over devices.
std::uint64_t planeBytesPerDevice(const TracedProgram& program, const Network& net) {
  auto keyed = [](const std::vector<PlaneInfo>& planes) {
    return std::any_of(planes.begin(), planes.end(), [](const PlaneInfo& x) { return x.keyed; });
  };
  const auto rows = impl::RoundPlanes<Kokkos::HostSpace>::rows(
      std::size_t(net.devices()), std::size_t(net.entries()), program.sensors.size(),
      program.exports.size(), std::size_t(program.edgePlanes), keyed(program.exports),
      program.states.size(), keyed(program.states), std::size_t(program.outputWidth));
  return rows.total() * sizeof(double) / std::uint64_t(net.devices());
}

// Hops from `source` by breadth-first search over the devices not `off` (all, when empty);
// +inf where unreachable.
std::vector<double> hopsFrom(const Network& net, std::int64_t source,
                             const std::vector<bool>& off = {}) {
  std::vector<double> hops(static_cast<std::size_t>(net.devices()),
                           std::numeric_limits<double>::infinity());
  std::deque<std::int64_t> queue{source};
  hops[static_cast<std::size_t>(source)] = 0.0;
  while (!queue.empty()) {
    const std::int64_t i = queue.front();
    queue.pop_front();
    for (std::int64_t k = net.offsets()[i]; k < net.offsets()[i + 1]; ++k) {
      const auto j = static_cast<std::size_t>(net.neighbors()[k]);
      if (!off.empty() && off[j]) continue;
      if (hops[j] > hops[static_cast<std::size_t>(i)] + 1.0) {
        hops[j] = hops[static_cast<std::size_t>(i)] + 1.0;
        queue.push_back(static_cast<std::int64_t>(j));
      }
    }
  }
  return hops;
}

template <class Space>
void spawnRounds(benchmark::State& state) {
  const Network& net = network(0, state.range(0));
  const TracedProgram program = spawnProgram(state.range(1));
  BasicSimulation<Space> sim(program, net, 1);
  std::vector<std::int64_t> sources;
  for (int k = 0; k < kProcesses; ++k)
    sources.push_back((2 * k + 1) * net.devices() / (2 * kProcesses));
  for (std::int64_t d : sources) sim.sensor("source").set(d, 0, 1.0);
  const auto side = static_cast<std::int64_t>(std::llround(std::sqrt(double(net.devices()))));
  sim.run(2 * side);  // every process reaches every device
  {
    std::vector<double> expected(static_cast<std::size_t>(net.devices()), 0.0);
    for (std::int64_t source : sources) {
      const std::vector<double> hops = hopsFrom(net, source);
      for (std::size_t d = 0; d < expected.size(); ++d) expected[d] += hops[d];
    }
    const HostPlane out = sim.output();
    if (!sameBits(std::vector<double>(out.data(), out.data() + out.size()), expected)) {
      return fail(state, "spawn: the 16 processes' hop counts differ from breadth-first search");
    }
  }
  timeFenced<Space>(state, [&] { sim.run(kRoundsPerIteration); });
  countRounds(state, net, 1, static_cast<int>(Space().concurrency()));
  state.counters["process_rounds_per_second"] = benchmark::Counter(
      double(state.iterations()) * double(net.devices()) * double(kRoundsPerIteration * kProcesses),
      benchmark::Counter::kIsRate);
  state.counters["plane_bytes_per_device"] = double(planeBytesPerDevice(program, net));
}

// Periods an asynchronous benchmark runs per iteration: 10, fewer on the largest batches
// (10^6 devices x 64 samples: one).
std::int64_t asyncPeriods(std::int64_t devices, std::int64_t samples) {
  return std::clamp<std::int64_t>(10000000 / (devices * samples), 1, kRoundsPerIteration);
}

// The hop gradient with devices on their own clocks (Schedule{1, jitter}) against the same
// engine in synchronous rounds (jitter < 0): what asynchrony costs per firing. `levels` 0: the
// jittered firings in steps over every device (SimulationOptions::levels false), the engine
// before its levels. Checked first on a small network of the same kind: after enough periods
// the field is the breadth-first hop count.
template <class Space>
void asyncRounds(benchmark::State& state) {
  const double jitter = double(state.range(0)) / 1000.0;
  const std::int64_t kind = state.range(1), samples = state.range(3), offPermille = state.range(4);
  const TracedProgram program = lib::findProgram("hop-gradient")->build(network(kind, 2500), {});
  // Devices switched off from the start (failure studies): a fixed pseudo-random set per
  // sample, never its source.
  auto off = [&](const Network& net, std::int64_t s) {
    std::vector<bool> out(static_cast<std::size_t>(net.devices()));
    for (std::int64_t d = 0; d < net.devices(); ++d) {
      const std::uint64_t h = mix64(std::uint64_t(d), std::uint64_t(s));
      out[std::size_t(d)] = std::int64_t(h % 1000) < offPermille && d != sourceOf(s, net);
    }
    return out;
  };
  auto make = [&](const Network& net) {
    SimulationOptions options;
    if (jitter >= 0) options.schedule = Schedule{1.0, jitter, 7};
    options.levels = state.range(5) != 0;
    BasicSimulation<Space> sim(program, net, samples, options);
    for (std::int64_t s = 0; s < samples; ++s) {
      sim.sensor("source").set(sourceOf(s, net), s, true);
      const std::vector<bool> down = off(net, s);
      for (std::int64_t d = 0; offPermille > 0 && d < net.devices(); ++d) {
        if (down[std::size_t(d)]) sim.switchOn(d, s, false);
      }
    }
    return sim;
  };
  {
    const Network& small = network(kind, 2500);
    BasicSimulation<Space> check = make(small);
    check.run(150);
    const HostPlane out = check.output();
    for (std::int64_t s = 0; s < samples; ++s) {
      const std::vector<bool> down = off(small, s);
      const std::vector<double> hops = hopsFrom(small, sourceOf(s, small), down);
      for (std::int64_t d = 0; d < small.devices(); ++d) {
        if (down[std::size_t(d)]) continue;  // never fired
        if (!sameBits(std::vector<double>{out(d, s)}, std::vector<double>{hops[std::size_t(d)]})) {
          return fail(state,
                      "async hop gradient: differs from breadth-first hops after 150 periods");
        }
      }
    }
  }
  const Network& net = network(kind, state.range(2));
  BasicSimulation<Space> sim = make(net);
  sim.run(1);
  auto firings = [&] {
    const HostPlane f = sim.firings();
    double total = 0;
    for (std::size_t i = 0; i < f.size(); ++i) total += f.data()[i];
    return total;
  };
  const double before = firings();
  const std::int64_t periods = asyncPeriods(net.devices(), samples);
  timeFenced<Space>(state, [&] { sim.run(periods); });
  const double fired = firings() - before;
  state.counters["device_rounds_per_second"] =
      benchmark::Counter(fired / double(samples), benchmark::Counter::kIsRate);
  state.counters["sample_device_rounds_per_second"] =
      benchmark::Counter(fired, benchmark::Counter::kIsRate);
  state.SetLabel(net.description() + ", " + std::to_string(Space().concurrency()) + " threads");
}

// The same asynchronous hop gradient written by hand in event order (bench/HandEvents.hpp):
// Hand the sequential code (HandAsyncHops), or the level-by-level code (HandLevelHops) on
// `threads` threads; firings per second as Async/Engine counts them. Checked first against
// the engine on a small network of the same kind, bit for bit, early (while the order of
// firings decides the field) and late.
template <class Hand>
void handAsyncRounds(benchmark::State& state, int threads) {
  using Host = Kokkos::DefaultHostExecutionSpace;
  const Schedule schedule{1.0, double(state.range(0)) / 1000.0, 7};
  const std::int64_t kind = state.range(1), samples = state.range(3);
  auto make = [&](const Network& net) {
    if constexpr (std::is_same<Hand, HandAsyncHops>::value) {
      (void)threads;
      return Hand(net, schedule, samples);
    } else {
      return Hand(net, schedule, samples, threads);
    }
  };
  {
    const Network& small = network(kind, 2500);
    BasicSimulation<Host> engine(lib::findProgram("hop-gradient")->build(small, {}), small, samples,
                                 schedule);
    for (std::int64_t s = 0; s < samples; ++s)
      engine.sensor("source").set(sourceOf(s, small), s, true);
    Hand hand = make(small);
    for (std::int64_t periods : {6, 54}) {
      engine.run(periods), hand.periods(periods);
      const HostPlane out = engine.output();
      for (std::int64_t d = 0; d < small.devices(); ++d) {
        for (std::int64_t s = 0; s < samples; ++s) {
          if (!sameBits(std::vector<double>{out(d, s)}, std::vector<double>{hand.value(d, s)})) {
            return fail(state, "hand-written async hop gradient: differs from the engine's");
          }
        }
      }
    }
  }
  const Network& net = network(kind, state.range(2));
  Hand hand = make(net);
  hand.periods(1);
  const std::int64_t before = hand.firings();
  const std::int64_t periods = asyncPeriods(net.devices(), samples);
  timeFenced<Host>(state, [&] { hand.periods(periods); });
  const double fired = double(hand.firings() - before);
  state.counters["device_rounds_per_second"] =
      benchmark::Counter(fired / double(samples), benchmark::Counter::kIsRate);
  state.counters["sample_device_rounds_per_second"] =
      benchmark::Counter(fired, benchmark::Counter::kIsRate);
  if constexpr (std::is_same<Hand, HandLevelHops>::value) {
    state.counters["levels_per_period"] = hand.levelsPerPeriod();  // the level code's depth
  }
  state.SetLabel(net.description() + ", " + std::to_string(threads) + " thread(s)");
}

// Moving devices written by hand, on one thread (bench/HandEvents.hpp): a straight-line step and
// a rebuild, devices per second, as Mobility/Rebuild counts them. `stage` 1: the step and the
// placement of the devices in their cells alone; 2: that and each device's neighbors counted in
// cell order, no rows written: floors of any cell-list rebuild. Checked first on a small rgg:
// the rows and the count against Network::fromPositions, the placement against the cells' order.
void handRebuilds(benchmark::State& state) {
  const std::int64_t stage = state.range(1);
  {
    HandRebuild check(network(1, 2500), 1.5, 0.1, 3);
    for (int r = 0; r < 5; ++r) check.move(), check.rebuild();
    const Network scratch = Network::fromPositions(check.x(), check.y(), 1.5);
    if (check.offsets() != scratch.offsets() || check.neighbors() != scratch.neighbors()) {
      return fail(state, "hand-written rebuild: differs from a from-scratch build");
    }
    check.move();
    const std::int64_t counted = check.countNeighbors();
    if (counted != Network::fromPositions(check.x(), check.y(), 1.5).entries()) {
      return fail(state, "hand-written count of neighbors: differs from a from-scratch build");
    }
    std::vector<bool> seen(check.x().size());
    std::int64_t last = -1;
    for (const std::int32_t d : check.members()) {
      const std::int64_t cell = check.cellOf(check.x()[std::size_t(d)], check.y()[std::size_t(d)]);
      if (seen[std::size_t(d)] || cell < last)
        return fail(state, "hand-written placement: not in cell order");
      seen[std::size_t(d)] = true, last = cell;
    }
  }
  const Network& net = network(1, state.range(0));
  HandRebuild hand(net, 1.5, 0.1, 3);
  for (int r = 0; r < 2; ++r) hand.move(), hand.rebuild();
  std::int64_t entries = 0;
  timeFenced<Kokkos::DefaultHostExecutionSpace>(state, [&] {
    hand.move();
    if (stage == 0) hand.rebuild();
    if (stage == 1) hand.placeInCells();
    if (stage == 2) entries = hand.countNeighbors();
  });
  benchmark::DoNotOptimize(entries);
  state.SetItemsProcessed(state.iterations() * net.devices());
  state.SetLabel(net.description() + ", 1 thread");
}

// Moving devices: one move and neighborhood rebuild of an rgg (radius 1.5, one device per unit
// of area), devices per second; checked first, on a small rgg, against a from-scratch build.
// Straight lines keep the density uniform, so every iteration does the same work (random
// waypoints gather devices in the middle as they go: rows grow with the iterations run).
template <class Space>
void rebuilds(benchmark::State& state) {
  Motion motion;
  motion.model = Motion::Model::Straight, motion.speed = 0.1, motion.radius = 1.5, motion.seed = 3;
  {
    const Network& small = network(1, 2500);
    impl::Mobility<Space> check(motion, small, true, false, Space(), "bench");
    const Plane<typename Space::memory_space> none;
    for (int r = 0; r < 5; ++r) check.move(1.0, none), check.rebuild();
    const Network built = check.network();
    const Network scratch = Network::fromPositions(check.row(4), check.row(5), 1.5);
    if (built.offsets() != scratch.offsets() || built.neighbors() != scratch.neighbors()) {
      return fail(state, "rebuilt neighborhoods differ from a from-scratch build");
    }
  }
  const Network& net = network(1, state.range(0));
  impl::Mobility<Space> mobility(motion, net, false, false, Space(), "bench");
  const Plane<typename Space::memory_space> none;
  // Two rebuilds first touch both rows' buffers, as a moving run's first rounds do.
  for (int r = 0; r < 2; ++r) mobility.move(1.0, none), mobility.rebuild();
  timeFenced<Space>(state, [&] { mobility.move(1.0, none), mobility.rebuild(); });
  state.SetItemsProcessed(state.iterations() * net.devices());
  state.counters["entries"] = double(mobility.entries());
  state.SetLabel(net.description() + ", " + std::to_string(Space().concurrency()) + " threads");
}

// The hop gradient on moving devices (random waypoint, speed 0.1), neighborhoods rebuilt every
// K rounds (K = 0: a still network), device-rounds per second; checked first: at speed 0 it
// gives the still network's bits.
template <class Space>
void movingRounds(benchmark::State& state) {
  const std::int64_t every = state.range(0), samples = state.range(2);
  const TracedProgram program = lib::findProgram("hop-gradient")->build(network(1, 2500), {});
  Motion motion;
  motion.speed = 0.1, motion.radius = 1.5, motion.seed = 3,
  motion.rebuildEvery = std::max<std::int64_t>(every, 1);
  auto make = [&](const Network& net, const Motion* m) {
    auto sim = m ? BasicSimulation<Space>(program, net, samples, *m)
                 : BasicSimulation<Space>(program, net, samples);
    for (std::int64_t s = 0; s < samples; ++s) sim.sensor("source").set(sourceOf(s, net), s, true);
    return sim;
  };
  {
    Motion still = motion;
    still.speed = 0.0;
    auto moving = make(network(1, 2500), &still), plain = make(network(1, 2500), nullptr);
    moving.run(20), plain.run(20);
    const HostPlane a = moving.output(), b = plain.output();
    if (!sameBits(std::vector<double>(a.data(), a.data() + a.size()),
                  std::vector<double>(b.data(), b.data() + b.size()))) {
      return fail(state, "moving hop gradient at speed 0: differs from the still network's");
    }
  }
  const Network& net = network(1, state.range(1));
  BasicSimulation<Space> sim = make(net, every > 0 ? &motion : nullptr);
  sim.run(1);
  timeFenced<Space>(state, [&] { sim.run(kRoundsPerIteration); });
  const double rounds = double(state.iterations() * kRoundsPerIteration);
  state.counters["device_rounds_per_second"] =
      benchmark::Counter(rounds * double(net.devices()), benchmark::Counter::kIsRate);
  state.counters["sample_device_rounds_per_second"] =
      benchmark::Counter(rounds * double(net.devices() * samples), benchmark::Counter::kIsRate);
  state.SetLabel(net.description() + ", " + std::to_string(Space().concurrency()) + " threads");
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
  // The round kernel alone, for the programs that have compiled rounds: what they gain.
  registerForEachSpace(
      "Rounds/Kernel", [](auto t) { return rounds<typename decltype(t)::type, KernelRounds>; },
      [](benchmark::internal::Benchmark* b) {
        b->ArgNames({"program", "network", "devices", "samples"});
        for (std::int64_t program : {0, 1, 3, 4}) {
          for (std::int64_t samples : {1, 64}) {
            b->Args({program, 0, 10000, samples})->Args({program, 0, 1000000, samples});
          }
        }
      });
  registerForEachSpace(
      "Spawn/Engine", [](auto t) { return spawnRounds<typename decltype(t)::type>; },
      [](benchmark::internal::Benchmark* b) {
        b->ArgNames({"devices", "key_parts"});
        for (std::int64_t devices : {10000, 100000}) b->Args({devices, 1})->Args({devices, 2});
      });
  // Grid and rgg, 10^4 and 10^6 devices, B = 1 and 64; the rgg numbered along a Hilbert curve
  // too (`kfield run --network rgg:N:R:SEED:hilbert`), as a large one would be run.
  const std::vector<std::vector<std::int64_t>> asyncSizes = {
      {0, 10000, 1},  {0, 10000, 64},  {0, 1000000, 1},  {0, 1000000, 64}, {1, 10000, 1},
      {1, 10000, 64}, {1, 1000000, 1}, {1, 1000000, 64}, {2, 10000, 1},    {2, 1000000, 1}};
  registerForEachSpace(
      "Async/Engine", [](auto t) { return asyncRounds<typename decltype(t)::type>; },
      [&](benchmark::internal::Benchmark* b) {
        b->ArgNames({"jitter_permille", "network", "devices", "samples", "off_permille", "levels"});
        for (const auto& z : asyncSizes) {
          b->Args({-1, z[0], z[1], z[2], 0, 1})->Args({500, z[0], z[1], z[2], 0, 1});
        }
        // The steps over every device (the engine before levels), the lockstep schedule, and
        // 1% of the devices switched off in each sample.
        b->Args({500, 0, 10000, 1, 0, 0})
            ->Args({500, 0, 10000, 64, 0, 0})
            ->Args({500, 0, 1000000, 1, 0, 0});
        for (std::int64_t jitter : {0, 500}) {
          b->Args({jitter, 0, 10000, 1, 0, 1})->Args({jitter, 0, 10000, 1, 10, 1});
        }
        b->Args({0, 0, 10000, 64, 10, 1})->Args({0, 0, 1000000, 1, 10, 1});
      });
  auto hand = [&](const char* name, auto run) {
    auto* b = benchmark::RegisterBenchmark(name, run);
    b->UseManualTime()->ArgNames({"jitter_permille", "network", "devices", "samples"});
    for (const auto& z : asyncSizes) b->Args({500, z[0], z[1], z[2]});
  };
  hand("Async/HandWritten/OneThread",
       [](benchmark::State& state) { handAsyncRounds<HandAsyncHops>(state, 1); });
  hand("Async/HandLevels/OneThread",
       [](benchmark::State& state) { handAsyncRounds<HandLevelHops>(state, 1); });
  hand("Async/HandLevels/OpenMP", [](benchmark::State& state) {
    handAsyncRounds<HandLevelHops>(state, int(Kokkos::DefaultHostExecutionSpace().concurrency()));
  });
  registerForEachSpace(
      "Mobility/Rebuild", [](auto t) { return rebuilds<typename decltype(t)::type>; },
      [](benchmark::internal::Benchmark* b) {
        b->ArgNames({"devices"})->Arg(10000)->Arg(1000000);
      });
  benchmark::RegisterBenchmark("Mobility/HandWritten/OneThread", handRebuilds)
      ->UseManualTime()
      ->ArgNames({"devices", "stage"})
      ->ArgsProduct({{10000, 1000000}, {0, 1, 2}});
  registerForEachSpace(
      "Mobility/Engine", [](auto t) { return movingRounds<typename decltype(t)::type>; },
      [](benchmark::internal::Benchmark* b) {
        b->ArgNames({"rebuild_every", "devices", "samples"});
        for (std::int64_t every : {0, 1, 10}) {  // still, rebuilt every round, every 10
          b->Args({every, 10000, 1})->Args({every, 1000000, 1})->Args({every, 1000000, 64});
        }
      });
  // A GPU also runs the hop gradient on 10^7 devices x 64 samples (tens of GB of planes).
  forEachEnabledSpace([](auto tag) {
    using Space = typename decltype(tag)::type;
    if constexpr (!std::is_same<typename Space::memory_space, Kokkos::HostSpace>::value) {
      const std::string space = Space::name();
      benchmark::RegisterBenchmark(("Rounds/Engine/" + space).c_str(), rounds<Space, EngineRounds>)
          ->UseManualTime()
          ->ArgNames({"program", "network", "devices", "samples"})
          ->Args({0, 0, 10000000, 64});
      benchmark::RegisterBenchmark(("Rounds/HandWritten/" + space).c_str(),
                                   rounds<Space, HandRounds>)
          ->UseManualTime()
          ->ArgNames({"program", "network", "devices", "samples"})
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
