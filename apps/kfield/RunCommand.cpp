// kfield run: a library program over a network, to a fixed round or until stable.
#include "Command.hpp"
#include "CommandNetwork.hpp"
#include "Digest.hpp"
#include "Space.hpp"

#include <kfield/Errors.hpp>
#include <kfield/field/Library.hpp>
#include <kfield/field/Programs.hpp>
#include <kfield/io/Export.hpp>
#include <kfield/io/NetworkFile.hpp>
#include <kfield/io/PartialFile.hpp>
#include <kfield/io/Restart.hpp>
#include <kfield/sim/DistributedSimulation.hpp>
#include <kfield/sim/Simulation.hpp>

#include <kfield/Config.hpp>
#include <kfield/Sizes.hpp>
#include <kfield/rt/Topology.hpp>

#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>
#include <type_traits>

namespace kfield::cli {
namespace {

struct RunOptions {
  std::string program;
  std::string network = "grid:1000x1000";
  std::int64_t rounds = -1;  // -1: until stable
  std::int64_t maxRounds = 1000000;
  std::int64_t samples = 1;
  std::vector<std::int64_t> sources;
  int radius = 2;
  bool radiusGiven = false;
  bool print = false;
  std::string out;
  std::int64_t every = 0;  // 0: the final field only
  std::string resume;
  int deflate = 1;
  std::string space;       // "": Kokkos' default
  std::int64_t chunk = 0;  // samples per simulation; 0: all in one
  std::string async;       // PERIOD[:JITTER]; empty: synchronous rounds
  std::uint64_t seed = 0;  // the schedule's
  bool seedGiven = false, retainGiven = false;
  double retain = 0;                 // 0: not given (messages never expire)
  std::vector<std::string> fail;     // DEVICE@FROM[-TO]
  std::optional<Schedule> schedule;  // parsed from async, seed and retain
  std::string move;                  // MODEL[:SPEED]; empty: a still network
  std::int64_t rebuild = 1;
  double range = 0;
  bool rebuildGiven = false, rangeGiven = false;
  std::optional<Motion> motion;      // parsed from move, rebuild, range and seed
  std::string partition = "blocks";  // under mpirun: how the devices are split among the ranks
  bool partitionGiven = false;
  int rank = 0, ranks = 1;               // MPI's world
  std::optional<DevicePartition> parts;  // parsed from partition, over several ranks
  BitsOutput bits;
};

// A device switched off at period `from` (into this run) and on again at `to` (or never).
struct Failure {
  std::int64_t device = 0, from = 0, to = -1;
};

std::vector<Failure> failuresOf(const std::vector<std::string>& specs) {
  std::vector<Failure> failures;
  for (const std::string& spec : specs) {
    auto whole = [&](const std::string& part) {
      char* end = nullptr;
      errno = 0;
      const long long v = std::strtoll(part.c_str(), &end, 10);
      if (part.empty() || *end != '\0' || errno != 0 || v < 0) {
        throw UserError(
            "--fail must be DEVICE@FROM or DEVICE@FROM-TO (whole numbers >= 0: a "
            "device, periods into the run), got '" +
            spec + "'");
      }
      return static_cast<std::int64_t>(v);
    };
    const auto at = spec.find('@');
    if (at == std::string::npos) whole("");
    const auto dash = spec.find('-', at);
    Failure f;
    f.device = whole(spec.substr(0, at));
    f.from =
        whole(spec.substr(at + 1, dash == std::string::npos ? std::string::npos : dash - at - 1));
    if (dash != std::string::npos) {
      f.to = whole(spec.substr(dash + 1));
      if (f.to <= f.from) {
        throw UserError("--fail " + spec + ": the device comes back (period " +
                        std::to_string(f.to) + ") before it fails (period " +
                        std::to_string(f.from) + ")");
      }
    }
    failures.push_back(f);
  }
  return failures;
}

// --move MODEL[:SPEED] with --rebuild, --range (default: the network's own: an rgg's radius,
// a grid's neighbor distance) and --seed: the motion, checked.
Motion motionOf(const RunOptions& o) {
  const std::size_t colon = o.move.find(':');
  const std::string model = o.move.substr(0, colon);
  Motion m;
  if (model == "straight") {
    m.model = Motion::Model::Straight;
  } else if (model == "waypoint") {
    m.model = Motion::Model::Waypoint;
  } else {
    throw UserError("--move must be straight[:SPEED] or waypoint[:SPEED], got '" + o.move + "'");
  }
  m.speed = 0.1;
  if (colon != std::string::npos) {
    const std::string text = o.move.substr(colon + 1);
    char* end = nullptr;
    m.speed = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0') {
      throw UserError("--move " + o.move + ": the speed must be a number, got '" + text + "'");
    }
  }
  m.rebuildEvery = o.rebuild;
  m.seed = o.seed;
  if (o.rangeGiven) {
    m.radius = o.range;
  } else if (o.network.rfind("rgg:", 0) == 0) {  // rgg:N:RADIUS[:SEED]
    const std::string rest = o.network.substr(o.network.find(':', 4) + 1);
    m.radius = std::strtod(rest.substr(0, rest.find(':')).c_str(), nullptr);
  } else if (o.network.rfind("grid:", 0) == 0) {
    const bool moore =
        o.network.size() > 2 && o.network.compare(o.network.size() - 2, 2, ":8") == 0;
    m.radius = moore ? 1.5 : 1.0;
  } else {
    throw UserError("--move on " + o.network +
                    ": give the distance devices hear each other at with --range R");
  }
  try {
    m.check("--move");
  } catch (const std::invalid_argument& e) {
    throw UserError(e.what());
  }
  return m;
}

// --async PERIOD[:JITTER] with --seed: the schedule, checked.
Schedule scheduleOf(const std::string& text, std::uint64_t seed) {
  auto number = [&](const std::string& part) {
    char* end = nullptr;
    const double v = std::strtod(part.c_str(), &end);
    if (part.empty() || *end != '\0') {
      throw UserError("--async must be PERIOD or PERIOD:JITTER (numbers), got '" + text + "'");
    }
    return v;
  };
  const auto colon = text.find(':');
  Schedule schedule;
  schedule.period = number(text.substr(0, colon));
  schedule.jitter = colon == std::string::npos ? 0.0 : number(text.substr(colon + 1));
  schedule.seed = seed;
  try {
    schedule.check("--async");
  } catch (const std::invalid_argument& e) {
    throw UserError(e.what());
  }
  return schedule;
}

std::string programNames() {
  std::string names;
  for (const lib::LibraryProgram& p : lib::programs())
    names += (names.empty() ? "" : ", ") + p.name;
  return names;
}

// A progress bar on a terminal; nothing when stderr is a file or a pipe.
class Progress {
 public:
  explicit Progress(std::int64_t total) : total_(total), shown_(isatty(2) != 0 && total >= 100) {}
  void update(std::int64_t done) const {
    if (!shown_) return;
    const int width = 40, filled = int(width * done / std::max<std::int64_t>(total_, 1));
    std::cerr << "\r[" << std::string(filled, '#') << std::string(width - filled, ' ') << "] "
              << done << "/" << total_ << " rounds" << std::flush;
  }
  ~Progress() {
    if (shown_) std::cerr << "\r" << std::string(70, ' ') << "\r" << std::flush;
  }

 private:
  std::int64_t total_;
  bool shown_;
};

// The run itself, on one execution space: the samples in chunks of o.chunk simulations
// (all in one by default), each from the same inputs.
template <class Space>
int simulate(const RunOptions& o, const lib::LibraryProgram& chosen, const CommandNetwork& net,
             const TracedProgram& program, const std::vector<std::int64_t>& sources,
             const std::vector<Failure>& failures, Space space) {
  const std::int64_t n = net.devices;
  const std::int64_t chunk = o.chunk > 0 ? std::min(o.chunk, o.samples) : o.samples;
  auto reads = [&](const char* sensor) {
    return std::find(chosen.sensors.begin(), chosen.sensors.end(), sensor) != chosen.sensors.end();
  };
  // A tuple-valued program's output: one block of device rows per component.
  const std::int64_t width = program.outputWidth, rows = width * n;
  // The command's own copies (the field it prints and hashes, the clocks) are checked before
  // they are allocated, as the simulation checks its planes.
  const auto u = [](std::int64_t v) { return static_cast<std::uint64_t>(v); };
  kfield::sizes::requireMemory("kfield::cli::run",
                               "the final field of " + std::to_string(rows) + " rows x " +
                                   std::to_string(o.samples) + " samples",
                               kfield::sizes::product({u(rows) + (o.schedule && o.print ? u(n) : 0),
                                                       u(o.samples), sizeof(double)}),
                               hostMemoryBytes(), "this machine's memory");
  HostPlane out("kfield::cli::field", static_cast<std::size_t>(rows),
                static_cast<std::size_t>(o.samples));
  // Printed: on a schedule, each device's clock; moving, where each device ends (the chunks
  // share it).
  HostPlane clocks("kfield::cli::times", o.schedule && o.print ? static_cast<std::size_t>(n) : 0,
                   static_cast<std::size_t>(o.samples));
  std::pair<std::vector<double>, std::vector<double>> places;
  std::int64_t resumedAt = 0, ran = 0;
  double deviceRounds = 0, seconds = 0;
  const int rank = o.rank;
  // The inputs a resumed run must share with the run it continues (the rest of what changes
  // the bits is the program, the network and the samples, which the file checks).
  io::RunInputs inputs;
  if (reads("source")) {
    std::string list;
    for (std::int64_t s : sources) list += (list.empty() ? "" : ",") + std::to_string(s);
    inputs.emplace_back("--source", list);
  }
  // Before the work, decided on every rank: the carry to resume from (every rank reads it) and
  // the export (rank 0 claims and writes it; one chunk, as for --resume).
  std::optional<SimulationCarry> resumed;
  std::unique_ptr<io::SimulationExport> exported;
  checkOnEveryRank([&] {
    if (!o.resume.empty()) {
      resumed = io::loadRestart(o.resume, program, *net.whole, o.samples, inputs);
      resumedAt = *std::max_element(resumed->rounds.begin(), resumed->rounds.end());
    }
    if (!o.out.empty() && rank == 0) {
      exported = std::make_unique<io::SimulationExport>(
          o.out, *net.whole, o.program, o.samples, "output", o.deflate, width,
          io::SimulationExport::Contents{o.schedule.has_value(), o.motion.has_value(), &program,
                                         inputs});
    }
  });
  for (std::int64_t first = 0; first < o.samples; first += chunk) {
    const std::int64_t count = std::min(chunk, o.samples - first);
    std::optional<Schedule> schedule = o.schedule;
    if (schedule)
      schedule->firstSample = static_cast<std::uint64_t>(first);  // chunks keep the bits
    auto drive = [&](auto& sim) {  // a Simulation, or one part of a DistributedSimulation
      constexpr bool kOneProcess =
          std::is_same<std::decay_t<decltype(sim)>, BasicSimulation<Space>>::value;
      // The whole output: gathered on rank 0 (the one that writes and prints), empty elsewhere.
      auto output = [&] {
        if constexpr (kOneProcess) {
          return sim.output();
        } else {
          return sim.gatherOutput(0);
        }
      };
      auto firings = [&] {  // on a schedule, what a device-round is: one device's firing
        double total = 0;
        if constexpr (kOneProcess) {  // distributed runs are synchronous
          const HostPlane f = sim.firings();
          for (std::size_t d = 0; d < f.extent(0); ++d) {
            for (std::size_t s = 0; s < f.extent(1); ++s) total += f(d, s);
          }
        }
        return total;
      };
      const double firedBefore = o.schedule ? firings() : 0.0;
      for (const lib::ParameterDefault& p : chosen.parameters) {
        sim.parameter(p.name, lib::defaultParameter(chosen, p.name, net.facts));
      }
      lib::setDefaultInputs(sim, chosen, sources, n);
      if (resumed) sim.restore(*resumed);  // one chunk: runProgram refuses --chunk with --resume
      auto roundsSoFar = [&] {
        const auto r = sim.rounds();
        return *std::max_element(r.begin(), r.end());
      };
      auto clocksAndPlaces = [&] {  // distributed runs are synchronous on still networks
        io::SimulationExport::Snapshot more;
        if constexpr (kOneProcess) {
          if (o.schedule) more.times = sim.times();
          if (o.motion) more.positions = sim.positions();
        }
        return more;
      };
      std::int64_t lastExported = -1;
      // Each snapshot is committed with the run's carry as it is taken (distributed: both
      // gathered on rank 0): a run killed later keeps it, and resumes from it.
      auto snapshot = [&](std::int64_t ranHere) {
        const HostPlane field = output();
        const SimulationCarry carry = sim.carry();
        if (exported) {
          exported->append(roundsSoFar(), field, clocksAndPlaces());
          exported->commit(carry);
        }
        lastExported = ranHere;
      };
      const auto start = std::chrono::steady_clock::now();
      std::int64_t ranHere = 0;
      {
        const std::int64_t total = o.rounds >= 0 ? o.rounds : o.maxRounds;
        Progress progress(total);
        const std::int64_t step = o.every > 0 ? o.every : std::max<std::int64_t>(1, total / 100);
        while (ranHere < total) {
          std::int64_t k = std::min(step - ranHere % step, total - ranHere);
          for (const Failure& f : failures) {  // switches fall between runs (one process only)
            if constexpr (kOneProcess) {
              if (f.from == ranHere) sim.switchOn(f.device, false);
              if (f.to == ranHere) sim.switchOn(f.device, true);
            }
            if (f.from > ranHere) k = std::min(k, f.from - ranHere);
            if (f.to > ranHere) k = std::min(k, f.to - ranHere);
          }
          if (o.rounds >= 0) {
            sim.run(k);
            ranHere += k;
          } else {
            const auto done = sim.runUntilStable(k);
            ranHere += *std::max_element(done.begin(), done.end());
            if (*std::max_element(done.begin(), done.end()) < k) break;
          }
          progress.update(ranHere);
          if (o.every > 0 && ranHere % o.every == 0) snapshot(ranHere);
        }
      }
      if (!o.out.empty()) {
        if (lastExported != ranHere) snapshot(ranHere);
        if (exported) exported->finish();
      }
      seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      deviceRounds +=
          o.schedule ? (firings() - firedBefore) / double(count) : double(n) * double(ranHere);
      ran = std::max(ran, ranHere);
      const HostPlane part = output();
      for (std::int64_t r = 0; r < rows && rank == 0; ++r) {
        for (std::int64_t s = 0; s < count; ++s) out(r, first + s) = part(r, s);
      }
      if (o.print) {
        const io::SimulationExport::Snapshot more = clocksAndPlaces();
        for (std::size_t d = 0; d < more.times.extent(0); ++d) {
          for (std::int64_t s = 0; s < count; ++s) clocks(d, first + s) = more.times(d, s);
        }
        places = more.positions;
      }
    };
#if KFIELD_ENABLE_MPI
    if (o.ranks > 1) {
      BasicDistributedSimulation<Space> sim(program, *net.part, *net.partition, count,
                                            MPI_COMM_WORLD, space);
      drive(sim);
      continue;
    }
#endif
    const Network& whole = *net.whole;
    BasicSimulation<Space> sim(program, whole, count, SimulationOptions(schedule, o.motion), space);
    drive(sim);
  }
  if (rank != 0) return 0;  // rank 0 reports

  std::cout << o.program << " on " << net.description << ", " << o.samples << " sample"
            << (o.samples == 1 ? "" : "s")
            << (chunk < o.samples ? " in chunks of " + std::to_string(chunk) : "") << ", "
            << Space::name()
            << (o.ranks > 1
                    ? ", over " + std::to_string(o.ranks) + " MPI ranks (" + o.parts->text() + ")"
                    : std::string())
            << "\n"
            << (o.schedule ? "periods: " : "rounds: ") << ran
            << (o.rounds < 0 ? " (until stable)" : "")
            << (o.schedule ? " (asynchronous: " + o.schedule->text() + ")" : "")
            << (o.resume.empty() ? ""
                                 : ", after " + std::to_string(resumedAt) + " from " + o.resume)
            << "\n"
            << (o.motion ? "moving devices: " + o.motion->text() + "\n" : std::string())
            << "device-rounds per second: " << deviceRounds / std::max(seconds, 1e-12) << " ("
            << seconds << " s)\n";
  for (std::int64_t c = 0; c < width; ++c) {
    double lo = lib::kInfinity, hi = -lib::kInfinity, sum = 0;
    std::int64_t finite = 0;
    for (std::int64_t d = 0; d < n; ++d) {
      const double v = out(c * n + d, 0);
      if (!std::isfinite(v)) continue;
      lo = std::min(lo, v), hi = std::max(hi, v), sum += v, ++finite;
    }
    std::cout << "final field (sample 0"
              << (width == 1 ? std::string() : ", component " + std::to_string(c))
              << "): " << finite << " finite of " << n;
    if (finite > 0)
      std::cout << ", min " << lo << ", max " << hi << ", mean " << sum / double(finite);
    std::cout << "\n";
  }
  reportBits(ResultBits::ofField(out, n), "field", o.bits);
  if (o.print) {
    std::cout.precision(17);
    for (std::int64_t d = 0; d < n; ++d) {  // a tuple: its components side by side
      std::cout << d;
      if (o.motion) std::cout << " " << places.first[d] << " " << places.second[d];
      for (std::int64_t s = 0; s < o.samples; ++s) {
        for (std::int64_t c = 0; c < width; ++c) std::cout << " " << out(c * n + d, s);
        if (o.schedule) std::cout << " " << clocks(d, s);
      }
      std::cout << "\n";
    }
  }
  return 0;
}

int runProgram(const RunOptions& o) {
  if (o.rounds == 0 || o.rounds < -1) {
    throw UserError("--rounds must be >= 1, got " + std::to_string(o.rounds));
  }
  if (o.maxRounds < 1) {
    throw UserError("--max-rounds must be >= 1, got " + std::to_string(o.maxRounds));
  }
  if (o.samples < 1) throw UserError("--samples must be >= 1, got " + std::to_string(o.samples));
  if (o.deflate < 0 || o.deflate > 9) {
    throw UserError("--deflate must be 0 to 9, got " + std::to_string(o.deflate));
  }
  if (o.chunk < 0) throw UserError("--chunk must be >= 1, got " + std::to_string(o.chunk));
  if (o.chunk > 0 && o.chunk < o.samples && (!o.out.empty() || !o.resume.empty())) {
    throw UserError(std::string("--chunk runs the samples as separate simulations; --") +
                    (o.out.empty() ? "resume" : "out") + " needs them in one");
  }
  if (o.every < 0 || (o.every > 0 && o.out.empty())) {
    throw UserError(o.out.empty() ? "--every needs --out FILE.h5"
                                  : "--every must be >= 1, got " + std::to_string(o.every));
  }
  const lib::LibraryProgram* chosen = lib::findProgram(o.program);
  if (!chosen) {
    throw UserError("unknown program '" + o.program + "' (programs: " + programNames() + ")");
  }
  auto reads = [&](const char* sensor) {
    return std::find(chosen->sensors.begin(), chosen->sensors.end(), sensor) !=
           chosen->sensors.end();
  };
  if (!o.sources.empty() && !reads("source")) {
    throw UserError("--source: program '" + o.program + "' has no source");
  }
  if (o.radiusGiven && o.program != "election") {
    throw UserError("--radius: only election takes a radius, not '" + o.program + "'");
  }
  if (o.radius < 0 || o.radius > lib::kMaxElectionRadius) {
    throw UserError("--radius must be in [0, " + std::to_string(lib::kMaxElectionRadius) +
                    "] (one traced level per hop), got " + std::to_string(o.radius));
  }
  if (o.seedGiven && o.async.empty() && o.move.empty()) {
    throw UserError("--seed: only --async and --move take a seed");
  }
  if ((o.rebuildGiven || o.rangeGiven) && o.move.empty()) {
    throw UserError(std::string(o.rebuildGiven ? "--rebuild" : "--range") +
                    " needs --move: only moving devices have their neighborhoods rebuilt");
  }
  if (!o.move.empty() && o.rounds < 0) {
    throw UserError("--move needs --rounds: a moving network is not run until stable");
  }
  if (o.retainGiven && o.async.empty()) throw UserError("--retain: only --async takes a retention");
  if (!o.fail.empty() && o.async.empty()) {
    throw UserError("--fail needs --async: devices fail and return on a schedule");
  }
  const std::vector<Failure> failures = failuresOf(o.fail);
  if (!o.async.empty() && o.rounds < 0) {
    throw UserError("--async needs --rounds: devices on a schedule do not run until stable");
  }
  RunOptions options = o;
  if (!o.async.empty()) {
    options.schedule = scheduleOf(o.async, o.seed);
    if (o.retainGiven) options.schedule->retain = o.retain;
    try {
      options.schedule->check("--retain");
    } catch (const std::invalid_argument& e) {
      throw UserError(e.what());
    }
  }
  options.rank = worldRanks().rank;
  options.ranks = worldRanks().ranks;
  if (options.ranks > 1) {  // over MPI ranks: synchronous rounds on a still network
    for (const auto& [given, option] :
         {std::pair<bool, const char*>{!o.async.empty(), "--async"}, {!o.move.empty(), "--move"}}) {
      if (given) {
        throw UserError(std::string(option) + ": a run over " + std::to_string(options.ranks) +
                        " MPI ranks runs synchronous rounds on a still network; run asynchronous "
                        "or moving devices in one process");
      }
    }
  }
  requireSpace(o.space);
  // What is written is claimed before the work (a second writer, a target that is not a regular
  // file or a missing folder refused at once); rank 0 writes.
  checkOnEveryRank([&] {
    if (options.rank != 0) return;
    if (!o.out.empty()) io::requireWritableFile(o.out);
    claimBitsFile(options.bits);
  });
  // Under mpirun, --out (rank 0) and --resume (every rank) need the whole network: the file
  // holds it.
  const CommandNetwork net =
      commandNetwork(o.network, o.partition, o.partitionGiven, options.rank, options.ranks,
                     !o.resume.empty() || (!o.out.empty() && options.rank == 0));
  options.parts = net.partition;
  if (!o.move.empty()) options.motion = motionOf(o);
  const std::int64_t n = net.devices;
  std::vector<std::int64_t> sources = o.sources.empty() ? std::vector<std::int64_t>{0} : o.sources;
  for (const Failure& f : failures) {
    if (f.device >= n) {
      throw UserError("--fail: device " + std::to_string(f.device) + " is not a device of " +
                      net.description + " (0.." + std::to_string(n - 1) + ")");
    }
  }
  for (std::int64_t s : sources) {
    if (s < 0 || s >= n) {
      throw UserError("--source " + std::to_string(s) + " is not a device of " + net.description +
                      " (0.." + std::to_string(n - 1) + ")");
    }
  }
  lib::ProgramSettings settings;
  settings.radius = o.radius;
  const TracedProgram program = chosen->build(net.facts, settings);
  return onSpace(o.space, [&](auto space) {
    return simulate(options, *chosen, net, program, sources, failures, space);
  });
}

}  // namespace

Command addRunCommand(CLI::App& app) {
  auto o = std::make_shared<RunOptions>();
  CLI::App* run = app.add_subcommand(
      "run",
      "Run a library program over a network.\n"
      "Example: kfield run hop-gradient --network grid:1000x1000 --source 0 --rounds 500");
  run->add_option("program", o->program, programNames())->required();
  run->add_option("--network", o->network,
                  "grid:WxH[:4|:8], rgg:N:RADIUS[:SEED][:hilbert], edges:FILE or arcs:FILE "
                  "(directed) (default grid:1000x1000)");
  run->add_option("--rounds", o->rounds, "Rounds to run (default: until stable)");
  run->add_option("--max-rounds", o->maxRounds, "Cap when running until stable");
  run->add_option("--samples", o->samples, "Samples run together (default 1)");
  run->add_option("--source", o->sources, "Source device(s); channel: source then destination");
  run->add_option("--radius", o->radius, "election: hops between leaders (default 2)");
  run->add_flag("--print", o->print,
                "Write the final field, one 'device value...' line each (a value per sample; a "
                "tuple's components side by side; with --async each sample's values then the "
                "device's time; with --move the device's x y before them)");
  run->add_option(
      "--out", o->out,
      "Write the network and the field of every sample to an HDF5 file (h5py reads it)");
  run->add_option("--every", o->every, "With --out: a snapshot every K rounds (default: the last)");
  run->add_option("--deflate", o->deflate,
                  "With --out: zlib level for the fields, 0 (off, fastest) to 9 (default 1)");
  run->add_option("--resume", o->resume,
                  "Continue the run an --out file ended with (same program, network, samples)");
  run->add_option("--space", o->space,
                  "Execution space: " + spaceList() + " (default " + defaultSpaceName() + ")");
  run->add_option("--chunk", o->chunk,
                  "Run the samples as separate simulations of this many (the same bits)");
  run->add_option("--async", o->async,
                  "Devices fire on their own clocks: every PERIOD, each firing late by up to "
                  "JITTER (random, from --seed); --rounds counts periods");
  run->add_option(
      "--seed", o->seed,
      "With --async or --move: the schedule's and the motion's random seed (default 0)");
  run->add_option(
      "--retain", o->retain,
      "With --async: a neighbor's message older than this is no longer heard (default: never)");
  run->add_option(
      "--fail", o->fail,
      "With --async: DEVICE@FROM[-TO] switches the device off at period FROM of this run "
      "(on again at TO, as a new device); repeatable");
  run->add_option("--move", o->move,
                  "Devices move: straight (each along its own random direction, bouncing off the "
                  "area's sides) or waypoint (random waypoints), at SPEED per round or period "
                  "(default 0.1); the area is the bounding box of the network's positions");
  run->add_option("--rebuild", o->rebuild,
                  "With --move: rebuild the neighborhoods every K rounds (default 1)");
  run->add_option("--range", o->range,
                  "With --move: devices this close hear each other (default: an rgg's radius; "
                  "a grid's 1, or 1.5 with :8)");
  run->add_option("--partition", o->partition,
                  "Under mpirun: how the devices are split among the ranks: blocks (near-equal "
                  "runs of ids, the default) or bounds:B1,...,B(P-1) (rank r owns ids "
                  "[B(r), B(r+1)))");
  addBitsOptions(*run, o->bits);
  run->fallthrough();  // --threads may follow the subcommand
  return {run, [o, run] {
            o->radiusGiven = run->count("--radius") > 0;
            o->seedGiven = run->count("--seed") > 0;
            o->retainGiven = run->count("--retain") > 0;
            o->rebuildGiven = run->count("--rebuild") > 0;
            o->rangeGiven = run->count("--range") > 0;
            o->partitionGiven = run->count("--partition") > 0;
            return refusalsAsUserErrors([&] { return runProgram(*o); },
                                        "running '" + o->program + "' on " + o->network + " with " +
                                            std::to_string(o->samples) + " samples");
          }};
}

}  // namespace kfield::cli
