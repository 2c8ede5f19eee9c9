#include "Scenarios.hpp"

#include "../Command.hpp"

#include <kfield/Random.hpp>
#include <kfield/diff/FieldContribution.hpp>
#include <kfield/field/NeuralField.hpp>
#include <kfield/learn/Rules.hpp>
#include <kfield/impl/Sizes.hpp>
#include <kfield/net/ShortestPaths.hpp>
#include <kfield/rt/Topology.hpp>

#include <cmath>
#include <limits>

namespace kfield::cli {
namespace {

// Independent streams of draws, one per purpose and index.
std::uint64_t stream(std::uint64_t seed, std::uint64_t purpose, std::uint64_t index) {
  return mix64(mix64(seed, purpose), index);
}
constexpr std::uint64_t kTrainingGraph = 1, kScenario = 2, kHeldOutGraph = 3, kHeldOutScenario = 4;

// n points uniform over a square of side sqrt(n), shifted right by `left`.
void drawPoints(std::uint64_t s, std::int64_t n, double left, std::vector<double>& x, std::vector<double>& y) {
  const double side = std::sqrt(double(n));
  for (std::int64_t i = 0; i < n; ++i) {
    x.push_back(left + side * uniform01(s, 2 * std::uint64_t(i)));
    y.push_back(side * uniform01(s, 2 * std::uint64_t(i) + 1));
  }
}

std::int64_t drawBelow(std::uint64_t s, std::uint64_t counter, std::int64_t n) {
  return std::min<std::int64_t>(n - 1, std::int64_t(uniform01(s, counter) * double(n)));
}

// Sources drawn in each of `groups` runs of `size` ids, plus the least device of every part of
// the network no source reaches; then the exact distances and the rounds to run.
Scenario scenario(const Network& network, std::int64_t groups, std::int64_t size, std::int64_t sources,
                  std::int64_t extraRounds, std::uint64_t s) {
  Scenario out;
  std::uint64_t counter = 0;
  for (std::int64_t g = 0; g < groups; ++g) {
    for (std::int64_t k = 0; k < sources; ++k) out.sources.push_back(g * size + drawBelow(s, counter++, size));
  }
  std::int64_t parts = 0;
  const std::vector<std::int64_t> part = components(network, &parts);
  std::vector<char> reached(std::size_t(parts), 0);
  for (const std::int64_t d : out.sources) reached[std::size_t(part[std::size_t(d)])] = 1;
  for (std::int64_t d = 0; d < network.devices(); ++d) {
    char& r = reached[std::size_t(part[std::size_t(d)])];
    if (!r) out.sources.push_back(d);
    r = 1;
  }
  const ShortestPaths paths = shortestPaths(network, out.sources);
  out.target = paths.distance;
  out.stop = paths.roundsToSettle() + drawBelow(s, counter++, extraRounds + 1);
  return out;
}

}  // namespace

void requireTrainSizes(const TrainConfig& c) {
  using kfield::impl::product;
  const std::uint64_t training = product({std::uint64_t(c.graphs), std::uint64_t(c.devices)});
  const std::uint64_t heldOut = product({std::uint64_t(c.scale), std::uint64_t(c.devices)});
  constexpr std::uint64_t kMostDevices = std::numeric_limits<std::int32_t>::max();
  if (training > kMostDevices) {
    throw UserError("config: scenarios.graphs x scenarios.devices = " + std::to_string(training) +
                    " devices, more than a network's " + std::to_string(kMostDevices));
  }
  if (heldOut > kMostDevices) {
    throw UserError("config: evaluation.scale x scenarios.devices = " + std::to_string(heldOut) +
                    " devices, more than a network's " + std::to_string(kMostDevices));
  }
  // The scenarios' words (a stop, a source flag and a target per device), held by the system,
  // the learner and the gradient's planes: four copies at least.
  const std::uint64_t words = product({std::uint64_t(c.samples), kfield::impl::total({1, product({2, training})}), 8, 4});
  const std::uint64_t memory = hostMemoryBytes();
  if (words > memory) {
    throw UserError("config: scenarios.samples x (graphs x devices) = " + std::to_string(c.samples) + " x " +
                    std::to_string(training) + " scenario words need " + kfield::impl::bytesText(words) +
                    ", more than this machine's memory (" + kfield::impl::bytesText(memory) + ")");
  }
}

Network trainingNetwork(const TrainConfig& c) {
  std::vector<double> x, y;
  const double gap = std::sqrt(double(c.devices)) + 2.0 * c.radius + 1.0;  // graphs never touch
  for (std::int64_t g = 0; g < c.graphs; ++g) {
    drawPoints(stream(c.seed, kTrainingGraph, std::uint64_t(g)), c.devices, double(g) * gap, x, y);
  }
  return Network::fromPositions(std::move(x), std::move(y), c.radius);
}

std::vector<Scenario> trainingScenarios(const TrainConfig& c, const Network& network) {
  std::vector<Scenario> out;
  for (std::int64_t j = 0; j < c.samples; ++j) {
    out.push_back(scenario(network, c.graphs, c.devices, c.sources, c.extraRounds,
                           stream(c.seed, kScenario, std::uint64_t(j))));
  }
  return out;
}

TracedProgram neuralProgram(const TrainConfig& c) {
  lib::NeuralFieldShape shape;
  shape.hidden = c.hidden;
  return trace([&](Program& p) { return lib::neuralDistance(p, p.sense<bool>("source"), shape); }, "neural-distance");
}

std::vector<double> initialParameters(const TrainConfig& c) {
  lib::NeuralFieldShape shape;
  shape.hidden = c.hidden;
  std::vector<double> all;
  for (const std::vector<double>& layer : lib::neuralInitialParameters(shape, c.initSeed)) {
    all.insert(all.end(), layer.begin(), layer.end());
  }
  return all;
}

DataParallelSystem trainingSystem(const TrainConfig& c, const TracedProgram& program, const Network& network,
                                  const std::vector<Scenario>& scenarios, std::int64_t owners) {
  DataParallelSystem system = diff::fieldSystem(
      program, network, rules::adam(program.parameterWidth(), c.beta1, c.beta2, c.epsilon), c.rate, initialParameters(c));
  system.owners.resize(std::size_t(owners));
  const auto samples = static_cast<std::int64_t>(scenarios.size());
  for (std::int64_t j = 0; j < samples; ++j) {
    const Scenario& s = scenarios[std::size_t(j)];
    std::vector<double> source(std::size_t(network.devices()), 0.0);
    for (const std::int64_t d : s.sources) source[std::size_t(d)] = 1.0;
    system.owners[std::size_t(j * owners / samples)].push_back(
        diff::fieldSample(program, network, s.stop, {{"source", source}}, s.target));
  }
  return system;
}

HeldOut heldOutScenario(const TrainConfig& c, std::int64_t h) {
  std::vector<double> x, y;
  const std::int64_t n = c.devices * c.scale;
  drawPoints(stream(c.seed, kHeldOutGraph, std::uint64_t(h)), n, 0.0, x, y);
  Network network = Network::fromPositions(std::move(x), std::move(y), c.radius);
  Scenario s = scenario(network, 1, n, c.sources, c.extraRounds, stream(c.seed, kHeldOutScenario, std::uint64_t(h)));
  return {std::move(network), std::move(s)};
}

}  // namespace kfield::cli
