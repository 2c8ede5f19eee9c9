#include "Scenarios.hpp"

#include "../Command.hpp"

#include <kfield/Random.hpp>
#include <kfield/Sizes.hpp>
#include <kfield/diff/FieldContribution.hpp>
#include <kfield/field/NeuralField.hpp>
#include <kfield/learn/Rules.hpp>
#include <kfield/net/ShortestPaths.hpp>
#include <kfield/rt/Topology.hpp>

#include <cmath>
#include <limits>
#include <map>
#include <string>

namespace kfield::cli {
namespace {

// Independent streams of draws, one per purpose and index.
std::uint64_t stream(std::uint64_t seed, std::uint64_t purpose, std::uint64_t index) {
  return mix64(mix64(seed, purpose), index);
}
constexpr std::uint64_t kTrainingGraph = 1, kScenario = 2, kHeldOutGraph = 3, kHeldOutScenario = 4;

// n points uniform over a square of side sqrt(n), shifted right by `left`.
void drawPoints(std::uint64_t s, std::int64_t n, double left, std::vector<double>& x,
                std::vector<double>& y) {
  const double side = std::sqrt(double(n));
  for (std::int64_t i = 0; i < n; ++i) {
    x.push_back(left + side * uniform01(s, 2 * std::uint64_t(i)));
    y.push_back(side * uniform01(s, 2 * std::uint64_t(i) + 1));
  }
}

std::int64_t drawBelow(std::uint64_t s, std::uint64_t counter, std::int64_t n) {
  return std::min<std::int64_t>(n - 1, std::int64_t(uniform01(s, counter) * double(n)));
}

// A graph's square: x in [left, left + side), y in [0, side).
struct Square {
  double left = 0, side = 0;
};

// `count` discs of radius 1.5 to 3 in each square: the devices inside are obstacles.
std::vector<char> drawObstacles(const Network& network, const std::vector<Square>& squares,
                                std::int64_t count, std::uint64_t s, std::uint64_t& counter) {
  std::vector<char> out(std::size_t(network.devices()), 0);
  const std::vector<double>& x = network.x();
  const std::vector<double>& y = network.y();
  for (const Square& q : squares) {
    for (std::int64_t k = 0; k < count; ++k) {
      const double cx = q.left + q.side * uniform01(s, counter++),
                   cy = q.side * uniform01(s, counter++);
      const double r = 1.5 + 1.5 * uniform01(s, counter++);
      for (std::int64_t d = 0; d < network.devices(); ++d) {
        const double dx = x[std::size_t(d)] - cx, dy = y[std::size_t(d)] - cy;
        if (dx * dx + dy * dy <= r * r) out[std::size_t(d)] = 1;
      }
    }
  }
  return out;
}

// Obstacles (with `obstacles` > 0), then sources drawn in each of the squares' runs of `size`
// ids (never on an obstacle), plus the least free device of every part of the network no
// source reaches; then the exact distances and the rounds to run.
Scenario scenario(const Network& network, const std::vector<Square>& squares, std::int64_t size,
                  std::int64_t sources, std::int64_t obstacles, std::int64_t extraRounds,
                  std::uint64_t s) {
  Scenario out;
  std::uint64_t counter = 0;
  if (obstacles > 0) out.obstacle = drawObstacles(network, squares, obstacles, s, counter);
  auto blocked = [&](std::int64_t d) {
    return !out.obstacle.empty() && out.obstacle[std::size_t(d)] != 0;
  };
  for (std::size_t g = 0; g < squares.size(); ++g) {
    for (std::int64_t k = 0; k < sources; ++k) {
      for (int attempt = 0; attempt < 64; ++attempt) {  // a graph all obstacles gets none
        const std::int64_t d = std::int64_t(g) * size + drawBelow(s, counter++, size);
        if (!blocked(d)) {
          out.sources.push_back(d);
          break;
        }
      }
    }
  }
  std::int64_t parts = 0;
  const std::vector<std::int64_t> part = components(network, &parts, out.obstacle);
  std::vector<char> reached(std::size_t(parts), 0);
  for (const std::int64_t d : out.sources) reached[std::size_t(part[std::size_t(d)])] = 1;
  for (std::int64_t d = 0; d < network.devices(); ++d) {
    if (blocked(d)) continue;
    char& r = reached[std::size_t(part[std::size_t(d)])];
    if (!r) out.sources.push_back(d);
    r = 1;
  }
  const ShortestPaths paths = shortestPaths(network, out.sources, out.obstacle);
  out.target = paths.distance;
  for (std::int64_t d = 0; d < network.devices(); ++d) {
    if (blocked(d)) out.target[std::size_t(d)] = 0.0;  // what the program outputs there
  }
  out.stop = paths.roundsToSettle() + drawBelow(s, counter++, extraRounds + 1);
  return out;
}

double gapOf(const TrainConfig& c) { return std::sqrt(double(c.devices)) + 2.0 * c.radius + 1.0; }

}  // namespace

void requireTrainSizes(const TrainConfig& c) {
  using kfield::sizes::product;
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
  const std::uint64_t words =
      product({std::uint64_t(c.samples), kfield::sizes::total({1, product({2, training})}), 8, 4});
  const std::uint64_t memory = hostMemoryBytes();
  if (words > memory) {
    throw UserError(
        "config: scenarios.samples x (graphs x devices) = " + std::to_string(c.samples) + " x " +
        std::to_string(training) + " scenario words need " + kfield::sizes::bytesText(words) +
        ", more than this machine's memory (" + kfield::sizes::bytesText(memory) + ")");
  }
}

Network trainingNetwork(const TrainConfig& c) {
  std::vector<double> x, y;
  for (std::int64_t g = 0; g < c.graphs; ++g) {  // gapOf: graphs never touch
    drawPoints(stream(c.seed, kTrainingGraph, std::uint64_t(g)), c.devices, double(g) * gapOf(c), x,
               y);
  }
  return Network::fromPositions(std::move(x), std::move(y), c.radius);
}

std::vector<Scenario> trainingScenarios(const TrainConfig& c, const Network& network) {
  std::vector<Square> squares;
  for (std::int64_t g = 0; g < c.graphs; ++g)
    squares.push_back({double(g) * gapOf(c), std::sqrt(double(c.devices))});
  std::vector<Scenario> out;
  for (std::int64_t j = 0; j < c.samples; ++j) {
    out.push_back(scenario(network, squares, c.devices, c.sources, c.obstacles, c.extraRounds,
                           stream(c.seed, kScenario, std::uint64_t(j))));
  }
  return out;
}

TracedProgram neuralProgram(const TrainConfig& c) {
  lib::NeuralFieldShape shape;
  shape.hidden = c.hidden;
  if (c.obstacles > 0) {
    return trace(
        [&](Program& p) {
          return lib::neuralDistance(p, p.sense<bool>("source"), p.sense<bool>("obstacle"), shape);
        },
        "neural-distance-obstacles");
  }
  return trace([&](Program& p) { return lib::neuralDistance(p, p.sense<bool>("source"), shape); },
               "neural-distance");
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

DataParallelSystem trainingSystem(const TrainConfig& c, const TracedProgram& program,
                                  const Network& network, const std::vector<Scenario>& scenarios,
                                  std::int64_t owners) {
  DataParallelSystem system = diff::fieldSystem(
      program, network, rules::adam(program.parameterWidth(), c.beta1, c.beta2, c.epsilon), c.rate,
      initialParameters(c));
  system.owners.resize(std::size_t(owners));
  const auto samples = static_cast<std::int64_t>(scenarios.size());
  for (std::int64_t j = 0; j < samples; ++j) {
    const Scenario& s = scenarios[std::size_t(j)];
    std::map<std::string, std::vector<double>> sensors{
        {"source", std::vector<double>(std::size_t(network.devices()), 0.0)}};
    for (const std::int64_t d : s.sources) sensors["source"][std::size_t(d)] = 1.0;
    if (!s.obstacle.empty())
      sensors["obstacle"] = std::vector<double>(s.obstacle.begin(), s.obstacle.end());
    system.owners[std::size_t(j * owners / samples)].push_back(
        diff::fieldSample(program, network, s.stop, sensors, s.target));
  }
  return system;
}

HeldOut heldOutScenario(const TrainConfig& c, std::int64_t h) {
  std::vector<double> x, y;
  const std::int64_t n = c.devices * c.scale;
  drawPoints(stream(c.seed, kHeldOutGraph, std::uint64_t(h)), n, 0.0, x, y);
  Network network = Network::fromPositions(std::move(x), std::move(y), c.radius);
  Scenario s = scenario(network, {{0.0, std::sqrt(double(n))}}, n, c.sources, c.obstacles * c.scale,
                        c.extraRounds, stream(c.seed, kHeldOutScenario, std::uint64_t(h)));
  return {std::move(network), std::move(s)};
}

}  // namespace kfield::cli
