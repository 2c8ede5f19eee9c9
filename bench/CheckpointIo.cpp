// Learner checkpoints through HDF5 next to the plainest code that saves the same bytes:
// fwrite of the parameters and the Adam state to one file, fflush and fsync; fread back. Both
// write into the same folder (KFIELD_BENCH_DIR, default the working directory) and both
// reach the disk (fsync) before the clock stops; kfield's write also renames its temporary
// file over the old checkpoint and syncs the folder. Reads come from the page cache for both,
// into new vectors (what a load function returns); kfield's read checks every chunk's
// Fletcher32 checksum, which HDF5 computes at about 1 GB/s on one core.
#include "BenchContext.hpp"

#include <kfield/field/Library.hpp>
#include <kfield/io/Checkpoint.hpp>
#include <kfield/io/Export.hpp>
#include <kfield/learn/Rules.hpp>
#include <kfield/sim/Simulation.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace kfield::bench {
namespace {

std::string folder() {
  const char* dir = std::getenv("KFIELD_BENCH_DIR");
  return dir && *dir ? dir : ".";
}

// k parameters and Adam's 2k + 1 state words, with values that do not compress.
LearnerState adamState(std::int64_t k) {
  LearnerState s;
  s.parameterCount = k;
  for (std::int64_t j = 0; j < k; ++j)
    s.parameters.push_back(wordOf(1.0 + 1e-3 * double(j % 9973)));
  for (std::int64_t j = 0; j < 2 * k + 1; ++j) s.state.push_back(wordOf(0.5 / double(j + 1)));
  s.step = 100;
  s.rate = wordOf(0.01);
  s.numericalContract = learnerNumericalContract();
  s.owners = 4;
  s.sampleWidth = 1;
  s.samples = 1000;
  s.sampleHashes.assign(1000, 7);
  return s;
}

std::int64_t bytesOf(const LearnerState& s) {
  return std::int64_t(8 * (s.parameters.size() + s.state.size()));
}

void checkpointWrite(benchmark::State& state) {
  const LearnerState s = adamState(state.range(0));
  const std::string path = folder() + "/kfield_bench_checkpoint.h5";
  for (auto _ : state) io::saveCheckpoint(path, s);
  if (io::loadCheckpoint(path).state != s.state) fail(state, "the checkpoint reads back wrong");
  std::remove(path.c_str());
  state.SetBytesProcessed(state.iterations() * bytesOf(s));
}

void checkpointRead(benchmark::State& state) {
  const LearnerState s = adamState(state.range(0));
  const std::string path = folder() + "/kfield_bench_checkpoint.h5";
  io::saveCheckpoint(path, s);
  bool same = true;
  for (auto _ : state) {
    const LearnerState back = io::loadCheckpoint(path);
    same = same && back.parameters.size() == s.parameters.size();
    benchmark::DoNotOptimize(back.state.data());
  }
  if (!same || io::loadCheckpoint(path).parameters != s.parameters) fail(state, "read back wrong");
  std::remove(path.c_str());
  state.SetBytesProcessed(state.iterations() * bytesOf(s));
}

void plainWrite(benchmark::State& state) {
  const LearnerState s = adamState(state.range(0));
  const std::string path = folder() + "/kfield_bench_plain.bin";
  for (auto _ : state) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return fail(state, "cannot create " + path);
    std::fwrite(s.parameters.data(), 8, s.parameters.size(), f);
    std::fwrite(s.state.data(), 8, s.state.size(), f);
    std::fflush(f);
    fsync(fileno(f));
    std::fclose(f);
  }
  std::remove(path.c_str());
  state.SetBytesProcessed(state.iterations() * bytesOf(s));
}

void plainRead(benchmark::State& state) {
  const LearnerState s = adamState(state.range(0));
  const std::string path = folder() + "/kfield_bench_plain.bin";
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return fail(state, "cannot create " + path);
    std::fwrite(s.parameters.data(), 8, s.parameters.size(), f);
    std::fwrite(s.state.data(), 8, s.state.size(), f);
    std::fclose(f);
  }
  std::vector<Word> words;
  for (auto _ : state) {
    // As a load function would: new vectors each time, as loadCheckpoint returns.
    std::vector<Word> parameters(s.parameters.size()), stateWords(s.state.size());
    std::FILE* f = std::fopen(path.c_str(), "rb");
    const std::size_t got = std::fread(parameters.data(), 8, parameters.size(), f) +
                            std::fread(stateWords.data(), 8, stateWords.size(), f);
    std::fclose(f);
    if (got != parameters.size() + stateWords.size()) return fail(state, "short read");
    benchmark::DoNotOptimize(stateWords.data());
    words = std::move(stateWords);
  }
  if (words != s.state) fail(state, "read back wrong");
  std::remove(path.c_str());
  state.SetBytesProcessed(state.iterations() * bytesOf(s));
}

// The hop gradient on a 1000 x 1000 grid for 100 rounds, with (every:10) and without (every:0)
// an export of its field every 10 rounds, uncompressed (deflate:0) or at zlib level 1: the
// export's cost on the run. commit:0 commits the snapshots once, at the end; commit:1 commits
// each with the run's carry as it is taken, as `kfield run --out` does (what makes a killed run
// keep them and resume).
void exportedRounds(benchmark::State& state) {
  const std::int64_t every = state.range(0);
  const int deflate = static_cast<int>(state.range(1));
  const bool commits = state.range(2) != 0;
  static const Network net = Network::grid(1000, 1000);
  static const TracedProgram program =
      trace([](Program& p) { return lib::hopGradient(p, p.sense<bool>("source")); }, "hop");
  const std::string path = folder() + "/kfield_bench_export.h5";
  std::int64_t snapshots = 0;
  for (auto _ : state) {
    state.PauseTiming();
    Simulation sim(program, net, 1);
    sim.sensor("source").set(0, true);
    std::unique_ptr<io::SimulationExport> out;
    if (every > 0) {
      out = std::make_unique<io::SimulationExport>(
          path, net, "hop", 1, "output", deflate, 1,
          io::ExportContents{false, false, commits ? &program : nullptr, {}});
    }
    state.ResumeTiming();
    for (std::int64_t r = 0; r<100; r += every> 0 ? every : 100) {
      sim.run(every > 0 ? every : 100);
      if (out) out->append(sim.rounds()[0], sim.output());
      if (out && commits) out->commit(sim.carry());
    }
    if (out) {
      out->finish();
      snapshots = out->snapshots();
    }
  }
  if (every > 0 && snapshots != 100 / every) fail(state, "wrong snapshot count");
  std::remove(path.c_str());
  state.SetItemsProcessed(state.iterations() * 100 * net.devices());
  state.counters["snapshots"] = double(snapshots);
}

}  // namespace

void registerBenchmarks() {
  benchmark::RegisterBenchmark("Export/HopRounds/devices:1000000", exportedRounds)
      ->ArgNames({"every", "deflate", "commit"})
      ->Args({0, 0, 0})
      ->Args({10, 0, 0})
      ->Args({10, 1, 0})
      ->Args({10, 1, 1})
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  using Body = void (*)(benchmark::State&);
  for (auto [name, body] : {std::pair<const char*, Body>{"Checkpoint/Write", checkpointWrite},
                            std::pair<const char*, Body>{"Checkpoint/Read", checkpointRead},
                            std::pair<const char*, Body>{"Plain/Write", plainWrite},
                            std::pair<const char*, Body>{"Plain/Read", plainRead}}) {
    benchmark::RegisterBenchmark(name, body)
        ->ArgName("parameters")
        ->Arg(100000)
        ->Arg(10000000)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
}

}  // namespace kfield::bench
