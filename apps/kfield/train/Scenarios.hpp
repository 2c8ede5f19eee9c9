// The problem `kfield train` solves: the program, the scenarios it learns from and is evaluated on:
// random geometric graphs with random sources, each with its exact distances (Dijkstra) and the
// rounds it runs; the learner's system over them.
#ifndef KFIELD_APPS_TRAIN_SCENARIOS_HPP
#define KFIELD_APPS_TRAIN_SCENARIOS_HPP

#include "TrainConfig.hpp"

#include <kfield/field/TracedProgram.hpp>
#include <kfield/learn/DataParallelSystem.hpp>
#include <kfield/net/Network.hpp>

#include <cstdint>
#include <vector>

namespace kfield::cli {

struct Scenario {
  std::vector<std::int64_t> sources;
  std::int64_t stop = 0;       // rounds it runs: until its distances settle, plus extra
  std::vector<double> target;  // the exact distance on every device (0 on an obstacle)
  std::vector<char> obstacle;  // per device, with obstacles; else empty
};

// Refuses (UserError naming the keys) sizes that do not fit: devices per network, and the
// memory of the scenarios' words, before anything is allocated.
void requireTrainSizes(const TrainConfig& config);

// The `graphs` graphs side by side, one network (devices of graph g are ids [g n, (g+1) n)).
Network trainingNetwork(const TrainConfig& config);
std::vector<Scenario> trainingScenarios(const TrainConfig& config, const Network& network);

// The program trained (neural-distance of the config's hidden layers) and its parameters at
// step 0 (from program.seed).
TracedProgram neuralProgram(const TrainConfig& config);
std::vector<double> initialParameters(const TrainConfig& config);

// The learner's system: Adam at the config's rate and betas; owner o holds a contiguous run of
// the scenarios, the first ones one more.
DataParallelSystem trainingSystem(const TrainConfig& config, const TracedProgram& program,
                                  const Network& network, const std::vector<Scenario>& scenarios,
                                  std::int64_t owners);

// Held-out scenario h: its own graph of scale x devices, drawn apart from the training ones.
struct HeldOut {
  Network network;
  Scenario scenario;
};
HeldOut heldOutScenario(const TrainConfig& config, std::int64_t h);

}  // namespace kfield::cli

#endif
