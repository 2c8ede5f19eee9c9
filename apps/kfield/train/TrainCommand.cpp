// kfield train: a neural field learns distances to the nearest source from random scenarios
// (Adam over the gradient through each scenario's rounds, by the windowed reverse, owners in
// this process or over MPI ranks), checkpointed to HDF5 with its loss log, resumable bit for bit,
// and evaluated on held-out networks ten times larger against the exact distances.
#include "../Command.hpp"
#include "../Digest.hpp"
#include "../Space.hpp"
#include "../plot/Plot.hpp"
#include "Progress.hpp"
#include "Scenarios.hpp"
#include "TrainConfig.hpp"

#include <kfield/Bits.hpp>
#include <kfield/diff/FieldContribution.hpp>
#include <kfield/field/Library.hpp>
#include <kfield/field/NeuralField.hpp>
#include <kfield/io/Checkpoint.hpp>
#include <kfield/io/PartialFile.hpp>
#include <kfield/learn/Learner.hpp>
#include <kfield/learn/Rules.hpp>
#include <kfield/sim/Simulation.hpp>

#include <nlohmann/json.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iostream>
#include <memory>
#include <sstream>

namespace kfield::cli {
namespace {

struct TrainOptions {
  std::string config;       // "" : the built-in default
  std::int64_t owners = 0;  // 0: the config's
  std::int64_t window = 0;
  std::int64_t budget = 0;
  std::string space;
  std::string resume;
  std::string out;  // "" : the config's
  std::string png;  // a folder for pictures (kfield plot); "": beside the checkpoint
  bool noPng = false;
  bool showConfig = false;
};

std::string parameterDigest(const std::vector<Word>& words) {
  ResultBits bits;
  bits.rows = static_cast<std::int64_t>(words.size());
  bits.columns = 1;
  bits.rowName = "parameter";
  for (const Word w : words) bits.words.push_back(w);
  return bits.digest();
}

// What a resumed run must share with the run it continues: everything but where it writes and
// how long it goes on.
void requireSameTraining(const TrainConfig& now, const std::string& savedJson,
                         const std::string& path) {
  nlohmann::json saved, current = nlohmann::json::parse(now.json()).flatten();
  try {
    saved = nlohmann::json::parse(savedJson).flatten();
  } catch (const nlohmann::json::exception&) {
    throw UserError("--resume '" + path + "': its /training config is not JSON");
  }
  for (const char* free :
       {"/out", "/training/steps", "/training/checkpoint_every", "/training/owners"}) {
    saved.erase(free);
    current.erase(free);
  }
  // A flattened key ("/program/hidden/0") as the config writes it ("program.hidden[0]").
  auto keyName = [](const std::string& pointer) {
    std::string out;
    std::size_t at = 1;
    while (at <= pointer.size()) {
      const std::size_t next = std::min(pointer.find('/', at), pointer.size());
      const std::string part = pointer.substr(at, next - at);
      const bool index = !part.empty() && part.find_first_not_of("0123456789") == std::string::npos;
      out += index ? "[" + part + "]" : (out.empty() ? "" : ".") + part;
      at = next + 1;
    }
    return out;
  };
  for (const auto& [key, value] : current.items()) {
    if (!saved.contains(key) || saved[key] != value) {
      throw UserError("--resume '" + path + "': it was trained with " + keyName(key) + " = " +
                      (saved.contains(key) ? saved[key].dump() : "(none)") + ", this config has " +
                      value.dump());
    }
  }
  for (const auto& [key, value] : saved.items()) {
    if (!current.contains(key)) {
      throw UserError("--resume '" + path + "': it was trained with " + keyName(key) + " = " +
                      value.dump() + ", this config has none");
    }
  }
}

struct Evaluation {
  std::vector<io::PositionedField> fields;
  std::string report;
};

template <class Space>
Evaluation evaluate(const TrainConfig& c, const TracedProgram& program,
                    const std::vector<double>& parameters, Space space) {
  Evaluation out;
  std::ostringstream report;
  // The hand-written reference: the library's distance gradient, in a branch of the free
  // devices where there are obstacles (they never hear each other).
  const TracedProgram exact =
      c.obstacles > 0
          ? trace(
                [](Program& p) {
                  return p.branch(
                      p.sense<bool>("obstacle"), [&] { return p.constant(lib::kInfinity); },
                      [&] { return lib::distanceGradient(p, p.sense<bool>("source")); });
                },
                "distance-gradient-obstacles")
          : trace([](Program& p) { return lib::distanceGradient(p, p.sense<bool>("source")); },
                  "distance-gradient");
  for (std::int64_t h = 0; h < c.heldOut; ++h) {
    const HeldOut held = heldOutScenario(c, h);
    const std::int64_t n = held.network.devices();
    auto fieldOf = [&](const TracedProgram& prog, bool learned) {
      BasicSimulation<Space> sim(prog, held.network, 1, {}, space);
      for (const std::int64_t s : held.scenario.sources) sim.sensor("source").set(s, 0, true);
      for (std::size_t d = 0; d < held.scenario.obstacle.size(); ++d) {
        if (held.scenario.obstacle[d]) sim.sensor("obstacle").set(std::int64_t(d), 0, true);
      }
      if (learned) {
        for (const ParameterInfo& p : prog.parameters) {
          sim.parameter(p.name, std::vector<double>(parameters.begin() + p.offset,
                                                    parameters.begin() + p.offset + p.width));
        }
      }
      sim.run(held.scenario.stop);
      const HostPlane f = sim.output();
      std::vector<double> v(static_cast<std::size_t>(n), 0.0);
      for (std::int64_t d = 0; d < n; ++d) v[std::size_t(d)] = f(d, 0);
      return v;
    };
    const std::vector<double> learned = fieldOf(program, true), library = fieldOf(exact, false);
    auto blocked = [&](std::int64_t d) {
      return !held.scenario.obstacle.empty() && held.scenario.obstacle[std::size_t(d)];
    };
    std::int64_t free = 0;
    for (std::int64_t d = 0; d < n; ++d) free += blocked(d) ? 0 : 1;
    // Over the free devices (all of them without obstacles).
    auto errors = [&](const std::vector<double>& v) {
      double sum = 0, most = 0, scale = 0;
      for (std::int64_t d = 0; d < n; ++d) {
        if (blocked(d)) continue;
        const double e = std::fabs(v[std::size_t(d)] - held.scenario.target[std::size_t(d)]);
        sum += e;
        most = std::max(most, e != e ? INFINITY : e);
        scale += held.scenario.target[std::size_t(d)];
      }
      char text[160];
      std::snprintf(
          text, sizeof text, "mean |error| %.4g (%.3g%% of the mean distance %.4g), max %.4g",
          sum / double(free), 100.0 * sum / (scale > 0 ? scale : 1.0), scale / double(free), most);
      return std::string(text);
    };
    report << "held-out " << h << " (" << n << " devices";
    if (free < n) report << ", " << n - free << " on obstacles";
    report << ", " << held.scenario.sources.size() << " source"
           << (held.scenario.sources.size() == 1 ? "" : "s") << ", " << held.scenario.stop
           << " rounds): learned " << errors(learned) << "; library distance-gradient "
           << errors(library) << "\n";
    io::PositionedField f;
    f.name = "heldout" + std::to_string(h);
    f.title = "held-out network " + std::to_string(h) + ": " + std::to_string(n) + " devices";
    f.x = held.network.x();
    f.y = held.network.y();
    f.values = learned;
    f.expected = held.scenario.target;
    for (std::int64_t d = 0; d < n; ++d) {  // obstacles drawn as no value (grey)
      if (blocked(d)) f.values[std::size_t(d)] = f.expected[std::size_t(d)] = INFINITY;
    }
    out.fields.push_back(std::move(f));
  }
  out.report = report.str();
  return out;
}

// --png, or the checkpoint's name without .h5 and with -pictures.
std::string picturesFolder(const TrainOptions& o, const std::string& out) {
  if (!o.png.empty()) return o.png;
  const bool h5 = out.size() > 3 && out.compare(out.size() - 3, 3, ".h5") == 0;
  return (h5 ? out.substr(0, out.size() - 3) : out) + "-pictures";
}

template <class Space>
int train(const TrainOptions& o, const TrainConfig& c, Space space) {
  const WorldRanks world = worldRanks();
  const TracedProgram program = neuralProgram(c);
  const Network network = trainingNetwork(c);
  const std::vector<Scenario> scenarios = trainingScenarios(c, network);
  const std::int64_t owners = o.owners > 0 ? o.owners : c.owners;
  if (owners > c.samples) {
    throw UserError("--owners " + std::to_string(owners) + " is more than the " +
                    std::to_string(c.samples) + " scenarios");
  }
  DataParallelSystem system = trainingSystem(c, program, network, scenarios, owners);
  LearnerOptions options;
#if KFIELD_ENABLE_MPI
  if (world.ranks > 1) options.placement = OwnerPlacement::overRanks(MPI_COMM_WORLD);
#endif
  diff::GradientOptions gradient;
  gradient.window = o.window;
  gradient.budgetBytes = o.budget;
  DataParallelLearner<Space, diff::FieldContribution<Space>> learner(
      system, diff::FieldContribution<Space>(program, network, gradient, space), options, space);

  io::TrainingRecord record;
  record.config = c.json();
  std::int64_t first = 0;
  if (!o.resume.empty()) {
    const LearnerState saved = io::loadCheckpoint(o.resume);
    io::TrainingRecord was = io::loadTrainingRecord(o.resume);
    requireSameTraining(c, was.config, o.resume);
    if (std::int64_t(was.loss.size()) != saved.step) {
      throw UserError("--resume '" + o.resume + "': its log has " +
                      std::to_string(was.loss.size()) + " steps, its learner state " +
                      std::to_string(saved.step));
    }
    if (saved.step > c.steps) {
      throw UserError("--resume '" + o.resume + "': it is at step " + std::to_string(saved.step) +
                      ", past training.steps = " + std::to_string(c.steps));
    }
    learner.resume(saved);
    record.loss = was.loss;
    record.gradientNorm = was.gradientNorm;
    first = saved.step;
  }

  const std::int64_t devices = network.devices();
  std::cout << "kfield train: a neural field (" << program.parameterWidth()
            << " parameters, hidden";
  for (const int h : c.hidden) std::cout << " " << h;
  std::cout << ") learns distances to the nearest source"
            << (c.obstacles > 0 ? " around " + std::to_string(c.obstacles) + " obstacle" +
                                      (c.obstacles == 1 ? "" : "s") + " per graph"
                                : std::string())
            << "\n"
            << "scenarios: " << c.samples << " on " << c.graphs << " random geometric graph"
            << (c.graphs == 1 ? "" : "s") << " of " << c.devices << " devices (radius " << c.radius
            << "), " << owners << " owners"
            << (world.ranks > 1 ? " over " + std::to_string(world.ranks) + " ranks" : "") << ", "
            << Space::name() << "\n";
  if (first > 0) std::cout << "resumed at step " << first << " from " << o.resume << "\n";
  std::cout << std::flush;

  const std::string out = o.out.empty() ? c.out : o.out;
  io::CheckpointOptions save;
  save.training = &record;
  const bool terminal = world.rank == 0 && ::isatty(STDOUT_FILENO);
  Progress progress(std::cout, first, c.steps, terminal);
  for (std::int64_t step = first + 1; step <= c.steps; ++step) {
    learner.run(1);
    // Every scenario's loss, in sequence order whatever the split, summed in that order.
    const std::vector<double>& mine = learner.contribution().sampleLoss();
    std::vector<unsigned char> bytes(mine.size() * sizeof(double));
    if (!mine.empty()) std::memcpy(bytes.data(), mine.data(), bytes.size());
    double loss = 0;
    for (const std::vector<unsigned char>& rank : options.placement.allgather(bytes)) {
      for (std::size_t k = 0; k + sizeof(double) <= rank.size(); k += sizeof(double)) {
        double x;
        std::memcpy(&x, rank.data() + k, sizeof x);
        loss += x;
      }
    }
    loss /= double(c.samples);
    double norm = 0;
    for (const double g : learner.mean()) norm += g * g;
    norm = std::sqrt(norm);
    record.loss.push_back(loss);
    record.gradientNorm.push_back(norm);
    const bool checkpoint = step % c.checkpointEvery == 0 && step < c.steps;
    if (checkpoint) io::saveCheckpoint(out, learner.state(), options.placement, save);
    progress.update(step, loss, std::sqrt(loss / double(devices)), norm, checkpoint);
  }
  progress.finish();

  const LearnerState state = learner.state();
  std::vector<double> parameters;
  for (const Word w : state.parameters) parameters.push_back(valueOf(w));
  const Evaluation evaluation = evaluate(c, program, parameters, space);
  record.fields = evaluation.fields;
  record.report = evaluation.report;
  io::saveCheckpoint(out, state, options.placement, save);

  if (!record.loss.empty()) {
    std::cout << "loss: " << record.loss.front() << " at step 1, " << record.loss.back()
              << " at step " << c.steps << "\n";
  }
  std::cout << evaluation.report << "checkpoint: " << out << " (step " << state.step
            << "; kfield train --resume " << out << " continues it)\n";
  std::cout << "parameters sha256: " << parameterDigest(state.parameters) << "\n" << std::flush;
  if (o.noPng || world.rank != 0) return 0;
  std::cout << "pictures:\n" << std::flush;
  return plotFile(out, picturesFolder(o, out));
}

int runTrain(const TrainOptions& o) {
  const TrainConfig c = readTrainConfig(o.config);
  if (o.showConfig) {
    std::cout << c.json() << "\n";
    return 0;
  }
  requireTrainSizes(c);
  requireSpace(o.space);
  if (o.owners < 0) throw UserError("--owners must be >= 2, got " + std::to_string(o.owners));
  if (o.window < 0) throw UserError("--window must be >= 1, got " + std::to_string(o.window));
  if (o.budget < 0) throw UserError("--budget must be >= 0 bytes, got " + std::to_string(o.budget));
  const std::string out = o.out.empty() ? c.out : o.out;
  checkOnEveryRank([&] {
    if (worldRanks().rank == 0) {
      io::requireWritableFile(out);
      if (!o.noPng) {
        // The folder, or where it will be created.
        const std::string folder = picturesFolder(o, out);
        struct stat st {};
        const std::size_t slash = folder.find_last_of('/');
        io::requireWritableFolder(::stat(folder.c_str(), &st) == 0 ? folder
                                  : slash == std::string::npos     ? std::string(".")
                                                                   : folder.substr(0, slash + 1));
      }
    }
    if (!o.resume.empty()) {
      io::loadCheckpoint(o.resume);
      io::loadTrainingRecord(o.resume);
    }
  });
  return onSpace(o.space, [&](auto space) { return train(o, c, space); });
}

}  // namespace

Command addTrainCommand(CLI::App& app) {
  auto o = std::make_shared<TrainOptions>();
  CLI::App* cmd = app.add_subcommand(
      "train",
      "Train a neural field (an MLP each device runs on what it hears) to compute distances to\n"
      "the nearest source, from random scenarios, with Adam over the gradient through their\n"
      "rounds; checkpointed to HDF5 with its loss log, and evaluated on larger held-out networks.\n"
      "Example: kfield train --threads 2            (the built-in config: kfield train "
      "--show-config)");
  cmd->add_option("config", o->config,
                  "A JSON config (every key optional; default: the built-in one)");
  cmd->add_option("--owners", o->owners,
                  "Owners the scenarios are split among (>= 2; the same bits for any)");
  cmd->add_option("--window", o->window,
                  "Rounds per recompute window of the reverse (the same bits)");
  cmd->add_option("--budget", o->budget, "Bytes one gradient pass may hold (the same bits)");
  cmd->add_option("--space", o->space,
                  "Execution space: " + spaceList() + " (default " + defaultSpaceName() + ")");
  cmd->add_option("--resume", o->resume, "Continue from this checkpoint (bit for bit)");
  cmd->add_option("--out", o->out, "Where the checkpoint goes (default: the config's \"out\")");
  cmd->add_option("--png", o->png,
                  "The folder for the pictures (default: the checkpoint's name, -pictures)");
  cmd->add_flag("--no-png", o->noPng, "Draw no pictures");
  cmd->add_flag("--show-config", o->showConfig, "Print the config (with every default) and stop");
  cmd->fallthrough();
  return {cmd, [o] { return refusalsAsUserErrors([&] { return runTrain(*o); }, "training"); }};
}

}  // namespace kfield::cli
