// Distributed field rounds (run under mpirun -np P): the hop gradient on a grid split among the
// ranks in bands of whole rows. Strong scaling: the same grid at every P; weak scaling: the
// same devices per rank. Every rank times the same iterations, and each iteration counts the
// slowest rank's time, so Google Benchmark makes the same choices on every rank (rank 0
// reports). Before timing, a small grid's field is checked against one process, bit for bit.
// Random geometric graphs numbered as drawn or along a Hilbert curve (spatial blocks).
// Distributed gradients: the scaled distance gradient's loss differentiated through its rounds
// (record + windowed reverse) over the ranks, on a square grid in bands, checked likewise.
#include "BenchContext.hpp"
#include "HandRounds.hpp"

#include <kfield/diff/DistributedGradient.hpp>
#include <kfield/field/Programs.hpp>
#include <kfield/sim/DistributedSimulation.hpp>

#include <mpi.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>

namespace kfield::bench {
namespace {

constexpr std::int64_t kRoundsPerIteration = 10;

int worldRanks() {
  int ranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  return ranks;
}

template <class Space>
void setSources(BasicDistributedSimulation<Space>& sim, const Network& net) {
  for (std::int64_t s = 0; s < sim.samples(); ++s)
    sim.sensor("source").set(sourceOf(s, net), s, true);
}

// On a 60 x 40 grid, 30 rounds of the hop gradient: the bits of one process.
template <class Space>
bool sameAsOneProcess(std::int64_t samples) {
  const Network net = Network::grid(60, 40);
  const TracedProgram program = lib::findProgram("hop-gradient")->build(net, {});
  BasicDistributedSimulation<Space> sim(program, net, samples, MPI_COMM_WORLD);
  setSources(sim, net);
  sim.run(30);
  const HostPlane gathered = sim.gatherOutput(0);
  int same = 1;
  if (sim.rank() == 0) {
    BasicSimulation<Space> whole(program, net, samples);
    for (std::int64_t s = 0; s < samples; ++s)
      whole.sensor("source").set(sourceOf(s, net), s, true);
    whole.run(30);
    const HostPlane expected = whole.output();
    for (std::size_t i = 0; i < expected.size() && same; ++i) {
      same = kfield::bitsOf(expected.data()[i]) == kfield::bitsOf(gathered.data()[i]);
    }
  }
  MPI_Bcast(&same, 1, MPI_INT, 0, MPI_COMM_WORLD);  // every rank skips, or none
  return same != 0;
}

template <class Space>
void roundsOn(benchmark::State& state, const Network& net, std::int64_t samples);

// devices x samples: the grid is side x (devices / side), side = sqrt(devices per rank) for
// weak scaling, sqrt(devices) for strong.
template <class Space>
void distributedRounds(benchmark::State& state, bool weak) {
  const int ranks = worldRanks();
  const std::int64_t devices = weak ? state.range(0) * ranks : state.range(0);
  const auto side = static_cast<std::int64_t>(std::llround(std::sqrt(double(state.range(0)))));
  roundsOn<Space>(state, Network::grid(side, devices / side), state.range(1));
}

// A random geometric graph (radius 1.5, about 7 neighbors) numbered as drawn (order 0) or
// along a Hilbert curve (order 1): blocks of ids are then regions of the plane.
template <class Space>
void distributedRggRounds(benchmark::State& state) {
  roundsOn<Space>(
      state,
      Network::randomGeometric(state.range(0), 1.5, 1,
                               state.range(1) == 1 ? DeviceOrder::Hilbert : DeviceOrder::Drawn),
      1);
}

template <class Space>
void roundsOn(benchmark::State& state, const Network& net, std::int64_t samples) {
  const int ranks = worldRanks();
  if (!sameAsOneProcess<Space>(samples)) {
    return fail(state, "distributed hop gradient: differs from one process's");
  }
  const TracedProgram program = lib::findProgram("hop-gradient")->build(net, {});
  BasicDistributedSimulation<Space> sim(program, net, samples, MPI_COMM_WORLD);
  setSources(sim, net);
  sim.run(1);
  for (auto _ : state) {
    Space().fence();
    const auto start = std::chrono::steady_clock::now();
    sim.run(kRoundsPerIteration);
    Space().fence();
    double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    MPI_Allreduce(MPI_IN_PLACE, &elapsed, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    state.SetIterationTime(elapsed);
  }
  unsigned long long halo = sim.haloBytesPerRound(), most = 0;
  MPI_Allreduce(&halo, &most, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  const double rounds = double(state.iterations() * kRoundsPerIteration);
  state.counters["device_rounds_per_second"] =
      benchmark::Counter(rounds * double(net.devices()), benchmark::Counter::kIsRate);
  state.counters["sample_device_rounds_per_second"] =
      benchmark::Counter(rounds * double(net.devices() * samples), benchmark::Counter::kIsRate);
  state.counters["ranks"] = ranks;
  state.counters["halo_bytes_per_round_per_rank"] = double(most);  // the largest rank's
  state.SetLabel(net.description() + ", " + std::to_string(ranks) + " ranks x " +
                 std::to_string(Space().concurrency()) + " threads");
}

template <class Space>
std::unique_ptr<diff::BasicDistributedGradient<Space>> distributedGradient(const Network& net) {
  const TracedProgram program = lib::findProgram("scaled-distance")->build(net, {});
  auto g = std::make_unique<diff::BasicDistributedGradient<Space>>(program, net, 1, MPI_COMM_WORLD);
  g->parameter("scale", {1.0});
  g->sensor("source").set(sourceOf(0, net), 0, true);
  return g;
}

// On a 40 x 30 grid, 50 rounds: the loss and d(loss)/d(scale) of one process, bit for bit.
template <class Space>
bool gradientSameAsOneProcess() {
  const Network net = Network::grid(40, 30);
  const diff::GradientResult r = distributedGradient<Space>(net)->run(50);
  diff::BasicGradient<Space> whole(lib::findProgram("scaled-distance")->build(net, {}), net, 1);
  whole.parameter("scale", {1.0});
  whole.sensor("source").set(sourceOf(0, net), 0, true);
  const diff::GradientResult expected = whole.run(50);
  return kfield::bitsOf(r.loss) == kfield::bitsOf(expected.loss) &&
         kfield::bitsOf(r.gradient[0]) == kfield::bitsOf(expected.gradient[0]);
}

// Args: devices (a square grid), rounds. One sample; an iteration is one gradient run.
template <class Space>
void distributedGradientRounds(benchmark::State& state) {
  const int ranks = worldRanks();
  if (!gradientSameAsOneProcess<Space>()) {
    return fail(state, "distributed gradient: differs from one process's");
  }
  const std::int64_t rounds = state.range(1);
  const auto side = static_cast<std::int64_t>(std::llround(std::sqrt(double(state.range(0)))));
  const Network net = Network::grid(side, side);
  const auto g = distributedGradient<Space>(net);
  diff::GradientResult r;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    r = g->run(rounds);
    double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    MPI_Allreduce(MPI_IN_PLACE, &elapsed, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    state.SetIterationTime(elapsed);
  }
  const double work = double(state.iterations()) * double(rounds) * double(net.devices());
  state.counters["device_rounds_per_second"] =
      benchmark::Counter(work, benchmark::Counter::kIsRate);
  state.counters["ranks"] = ranks;
  state.counters["reverse_bytes_per_rank"] = double(r.reverseBytes);
  state.counters["window"] = double(r.schedule.window);
  state.SetLabel(net.description() + ", " + std::to_string(ranks) + " ranks x " +
                 std::to_string(Space().concurrency()) + " threads, record + reverse");
}

}  // namespace

void registerBenchmarks() {
  registerForEachSpace(
      "Distributed/Strong",
      [](auto t) {
        return [](benchmark::State& state) {
          distributedRounds<typename decltype(t)::type>(state, false);
        };
      },
      [](benchmark::internal::Benchmark* b) {
        b->ArgNames({"devices", "samples"})
            ->Args({10000, 1})
            ->Args({1000000, 1})
            ->Args({1000000, 64})
            ->Args({10000000, 1});
      });
  registerForEachSpace(
      "Distributed/Weak",
      [](auto t) {
        return [](benchmark::State& state) {
          distributedRounds<typename decltype(t)::type>(state, true);
        };
      },
      [](benchmark::internal::Benchmark* b) {
        b->ArgNames({"devices_per_rank", "samples"})
            ->Args({10000, 1})
            ->Args({1000000, 1})
            ->Args({5000000, 1});
      });
  registerForEachSpace(
      "Distributed/Rgg",
      [](auto t) {
        return [](benchmark::State& state) {
          distributedRggRounds<typename decltype(t)::type>(state);
        };
      },
      [](benchmark::internal::Benchmark* b) {
        b->ArgNames({"devices", "hilbert"})
            ->Args({10000, 0})
            ->Args({10000, 1})
            ->Args({1000000, 0})
            ->Args({1000000, 1});
      });
  registerForEachSpace(
      "Distributed/Gradient",
      [](auto t) {
        return [](benchmark::State& state) {
          distributedGradientRounds<typename decltype(t)::type>(state);
        };
      },
      [](benchmark::internal::Benchmark* b) {
        b->ArgNames({"devices", "rounds"})->Args({10000, 64})->Args({1000000, 64});
      });
}

}  // namespace kfield::bench
