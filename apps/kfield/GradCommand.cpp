// kfield grad: the gradient of a learnable library program's loss with respect to its
// parameters, through S rounds, by the windowed reverse; with the plain forward's time beside.
#include "Command.hpp"
#include "CommandNetwork.hpp"
#include "Digest.hpp"
#include "Space.hpp"

#include <kfield/Bits.hpp>
#include <kfield/Errors.hpp>
#include <kfield/Sizes.hpp>
#include <kfield/diff/DistributedGradient.hpp>
#include <kfield/diff/Gradient.hpp>
#include <kfield/field/Programs.hpp>
#include <kfield/io/NetworkFile.hpp>
#include <kfield/io/PartialFile.hpp>
#include <kfield/io/Spill.hpp>
#include <kfield/rt/Topology.hpp>
#include <kfield/sim/DistributedSimulation.hpp>
#include <kfield/sim/Simulation.hpp>

#include <sys/resource.h>

#include <chrono>
#include <fstream>
#include <iostream>
#include <limits>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>

namespace kfield::cli {
namespace {

struct GradOptions {
  std::string program;
  std::string network = "grid:316x316";
  std::int64_t rounds = 0;
  std::int64_t samples = 1;
  std::int64_t window = 0;
  std::int64_t budget = 0;
  std::int64_t chunk = 0;  // at most this many samples per pass; 0: as the budget allows
  std::string spill;
  std::int64_t source = 0;
  std::string space;  // "": Kokkos' default
  BitsOutput bits;
  std::string partition = "blocks";  // under mpirun: how the devices are split among the ranks
  bool partitionGiven = false;
  int rank = 0, ranks = 1;               // MPI's world
  std::optional<DevicePartition> parts;  // parsed from partition, over several ranks
};

std::string learnableNames() {
  std::string names;
  for (const lib::LibraryProgram& p : lib::programs()) {
    if (!p.parameters.empty()) names += (names.empty() ? "" : ", ") + p.name;
  }
  return names;
}

// This process's own peak: VmHWM, which starts afresh at exec (getrusage's ru_maxrss keeps the
// peak of the process that exec'd it, a Python parent's for instance).
std::uint64_t peakResidentBytes() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stoull(line.substr(6)) * 1024;  // kB
  }
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;  // kilobytes on Linux
}

// Sample s: the source `stride * s` devices on from --source; values that differ per sample.
template <class Target>
void setInputs(Target& t, const lib::LibraryProgram& chosen, const GradOptions& o, std::int64_t n) {
  const std::int64_t stride = std::max<std::int64_t>(1, n / std::max<std::int64_t>(o.samples, 1));
  for (const std::string& sensor : chosen.sensors) {
    for (std::int64_t s = 0; s < o.samples; ++s) {
      if (sensor == "source") {
        t.sensor("source").set((o.source + s * stride) % n, s, true);
      } else {
        for (std::int64_t d = 0; d < n; ++d)
          t.sensor(sensor).set(d, s, double((d * (s + 1)) % 17) / 17.0);
      }
    }
  }
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The loss and the gradients' bits: row 0 the batch (its loss, then its gradient), row 1 + s
// sample s (its loss, then its gradient).
ResultBits resultBits(const diff::GradientResult& r) {
  ResultBits bits;
  bits.rows = 1 + static_cast<std::int64_t>(r.sampleLoss.size());
  bits.columns = 1 + static_cast<std::int64_t>(r.gradient.size());
  bits.rowName = "row(0:batch,1+s:sample-s)";
  bits.columnName = "column(0:loss,1+i:parameter-value-i)";
  auto row = [&](double loss, const std::vector<double>& gradient) {
    bits.words.push_back(kfield::bitsOf(loss));
    for (double g : gradient) bits.words.push_back(kfield::bitsOf(g));
  };
  row(r.loss, r.gradient);
  for (std::size_t s = 0; s < r.sampleLoss.size(); ++s) row(r.sampleLoss[s], r.sampleGradient[s]);
  return bits;
}

// The forward and the gradient, on one execution space: in one process, or over the world's
// MPI ranks (each simulating and reversing its part; rank 0 reports).
template <class MakeSimulation, class MakeGradient>
int differentiateWith(const GradOptions& o, const lib::LibraryProgram& chosen,
                      const CommandNetwork& net, const TracedProgram& program,
                      const std::string& spaceName, const MakeSimulation& makeSimulation,
                      const MakeGradient& makeGradient) {
  const std::int64_t n = net.devices;

  // What one sample's reverse holds (checkpoints, tape), checked before any round runs: a run
  // of 2^63 rounds is refused at once, not after its forward.
  auto g = makeGradient();
  checkOnEveryRank([&] {
    if (!o.spill.empty()) return;
    kfield::sizes::requireMemory(
        "kfield::cli::grad",
        "the gradient through " + std::to_string(o.rounds) + " rounds of one sample",
        g.bytesPerSample(o.rounds, o.window), hostMemoryBytes(), "this machine's memory");
  });

  // The plain forward, for comparison.
  double forwardSeconds = 0;
  {
    auto sim = makeSimulation();
    for (const lib::ParameterDefault& p : chosen.parameters) {
      sim.parameter(p.name, lib::defaultParameter(chosen, p.name, net.facts));
    }
    setInputs(sim, chosen, o, n);
    const auto start = std::chrono::steady_clock::now();
    sim.run(o.rounds);
    forwardSeconds = secondsSince(start);
  }

  for (const lib::ParameterDefault& p : chosen.parameters) {
    g.parameter(p.name, lib::defaultParameter(chosen, p.name, net.facts));
  }
  setInputs(g, chosen, o, n);
  diff::GradientOptions options;
  options.window = o.window;
  options.budgetBytes = o.budget;
  if (o.chunk > 0) {  // a budget of chunk samples: passes of at most that many (Chunking.hpp)
    const std::uint64_t perSample = g.bytesPerSample(o.rounds, o.window);
    options.budgetBytes = static_cast<std::int64_t>(
        std::min<std::uint64_t>(kfield::sizes::product({perSample, std::uint64_t(o.chunk)}),
                                std::uint64_t(std::numeric_limits<std::int64_t>::max())));
  }
  if (!o.spill.empty()) options.spill = io::spillStore(o.spill);
  const auto start = std::chrono::steady_clock::now();
  const diff::GradientResult r = g.run(o.rounds, options);
  const double gradientSeconds = secondsSince(start);
  if (o.rank != 0) return 0;  // rank 0 reports

  std::cout.precision(17);
  std::cout << o.program << " on " << net.description << ", " << o.samples << " sample"
            << (o.samples == 1 ? "" : "s") << ", " << o.rounds << " rounds, " << spaceName
            << (o.ranks > 1
                    ? ", over " + std::to_string(o.ranks) + " MPI ranks (" + o.parts->text() + ")"
                    : "")
            << "\n"
            << "loss (sum of squares of the final field): " << r.loss << "\n";
  for (const ParameterInfo& p : program.parameters) {
    for (std::int32_t i = 0; i < p.width; ++i) {
      std::cout << "d(loss)/d(" << p.name << (p.width > 1 ? "[" + std::to_string(i) + "]" : "")
                << "): " << r.gradient[static_cast<std::size_t>(p.offset + i)] << "\n";
    }
  }
  reportBits(resultBits(r), "gradient", o.bits);
  std::cout.precision(4);
  const auto& s = r.schedule;
  std::cout << "schedule: window " << s.window << ", " << s.checkpoints << " checkpoints, at most "
            << s.maxTapeRows << " rounds on the tape, " << s.passes << " pass"
            << (s.passes == 1 ? "" : "es") << " of " << s.samplesPerPass << " samples"
            << (s.spilledBytes > 0
                    ? ", checkpoints spilled to disk (" +
                          kfield::sizes::bytesText(std::uint64_t(s.spilledBytes)) + ")"
                    : "")
            << "\n"
            << "memory: forward planes " << kfield::sizes::bytesText(r.forwardBytes) << ", reverse "
            << kfield::sizes::bytesText(r.reverseBytes) << ", peak resident "
            << kfield::sizes::bytesText(peakResidentBytes()) << "\n"
            << "time: forward " << forwardSeconds << " s, gradient (record + reverse) "
            << gradientSeconds << " s (" << gradientSeconds / std::max(forwardSeconds, 1e-12)
            << " x the forward)\n";
  return 0;
}

template <class Space>
int differentiate(const GradOptions& o, const lib::LibraryProgram& chosen,
                  const CommandNetwork& net, const TracedProgram& program, Space space) {
#if KFIELD_ENABLE_MPI
  if (o.ranks > 1) {
    return differentiateWith(
        o, chosen, net, program, Space::name(),
        [&] {
          return BasicDistributedSimulation<Space>(program, *net.part, *net.partition, o.samples,
                                                   MPI_COMM_WORLD, space);
        },
        [&] {
          return diff::BasicDistributedGradient<Space>(program, *net.part, *net.partition,
                                                       o.samples, MPI_COMM_WORLD, space);
        });
  }
#endif
  return differentiateWith(
      o, chosen, net, program, Space::name(),
      [&] { return BasicSimulation<Space>(program, *net.whole, o.samples, {}, space); },
      [&] { return diff::BasicGradient<Space>(program, *net.whole, o.samples, space); });
}

int runGrad(GradOptions o) {
  o.rank = worldRanks().rank;
  o.ranks = worldRanks().ranks;
  const lib::LibraryProgram* chosen = lib::findProgram(o.program);
  if (!chosen || chosen->parameters.empty()) {
    throw UserError("'" + o.program +
                    "' is not a learnable program (learnable: " + learnableNames() + ")");
  }
  if (o.rounds < 1) throw UserError("--rounds must be >= 1, got " + std::to_string(o.rounds));
  if (o.samples < 1) throw UserError("--samples must be >= 1, got " + std::to_string(o.samples));
  if (o.window < 0) throw UserError("--window must be >= 1, got " + std::to_string(o.window));
  if (o.budget < 0) throw UserError("--budget must be >= 0 bytes, got " + std::to_string(o.budget));
  if (o.chunk < 0) throw UserError("--chunk must be >= 1, got " + std::to_string(o.chunk));
  if (o.chunk > 0 && o.budget > 0)
    throw UserError("--chunk and --budget both set the passes: give one");
  requireSpace(o.space);
  // Where it writes, checked before the work: every rank spills its own part; rank 0 saves the
  // bits.
  checkOnEveryRank([&] {
    if (!o.spill.empty()) io::requireWritableFolder(o.spill);
    if (o.rank == 0) claimBitsFile(o.bits);
  });
  const CommandNetwork net =
      commandNetwork(o.network, o.partition, o.partitionGiven, o.rank, o.ranks, false);
  const std::int64_t n = net.devices;
  if (o.source < 0 || o.source >= n) {
    throw UserError("--source " + std::to_string(o.source) + " is not a device of " +
                    net.description + " (0.." + std::to_string(n - 1) + ")");
  }
  o.parts = net.partition;
  const TracedProgram program = chosen->build(net.facts, {});
  return onSpace(o.space,
                 [&](auto space) { return differentiate(o, *chosen, net, program, space); });
}

}  // namespace

Command addGradCommand(CLI::App& app) {
  auto o = std::make_shared<GradOptions>();
  CLI::App* grad = app.add_subcommand(
      "grad",
      "The gradient of a learnable program's loss (the sum of squares of its final field, over\n"
      "devices and samples) with respect to its parameters, through the rounds.\n"
      "Example: kfield grad scaled-distance --network grid:316x316 --rounds 1000 --samples 16");
  grad->add_option("program", o->program, learnableNames())->required();
  grad->add_option("--network", o->network,
                   "grid:WxH[:4|:8], rgg:N:RADIUS[:SEED][:hilbert], edges:FILE or arcs:FILE "
                   "(default grid:316x316)");
  grad->add_option("--rounds", o->rounds, "Rounds every sample runs")->required();
  grad->add_option("--samples", o->samples,
                   "Samples (sample s: source stride * s devices on; default 1)");
  grad->add_option("--window", o->window,
                   "Rounds per recompute window (default clamp(ceil(sqrt S), 16, 1024))");
  grad->add_option("--budget", o->budget,
                   "Bytes one pass may hold (default: the whole batch at once)");
  grad->add_option("--spill", o->spill,
                   "A folder for window checkpoints when --budget cannot hold them in memory");
  grad->add_option("--source", o->source, "The first sample's source device (default 0)");
  grad->add_option("--space", o->space,
                   "Execution space: " + spaceList() + " (default " + defaultSpaceName() + ")");
  grad->add_option("--chunk", o->chunk,
                   "At most this many samples per pass (a power of two below 256, else a multiple "
                   "of 256; the same bits)");
  grad->add_option(
      "--partition", o->partition,
      "Under mpirun: how the devices are split among the ranks: blocks (the default) or "
      "bounds:B1,...,B(P-1), as for run");
  addBitsOptions(*grad, o->bits);
  grad->fallthrough();
  return {grad, [o, grad] {
            o->partitionGiven = grad->count("--partition") > 0;
            return refusalsAsUserErrors([&] { return runGrad(*o); },
                                        "differentiating '" + o->program + "' on " + o->network);
          }};
}

}  // namespace kfield::cli
