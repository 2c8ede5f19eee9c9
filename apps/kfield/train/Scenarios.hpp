// The scenarios `kfield train` learns from and is evaluated on: random geometric graphs with
// random sources, each with its exact distances (Dijkstra) and the rounds it runs.
#ifndef KFIELD_APPS_TRAIN_SCENARIOS_HPP
#define KFIELD_APPS_TRAIN_SCENARIOS_HPP

#include "TrainConfig.hpp"

#include <kfield/net/Network.hpp>

#include <cstdint>
#include <vector>

namespace kfield::cli {

struct Scenario {
  std::vector<std::int64_t> sources;
  std::int64_t stop = 0;        // rounds it runs: until its distances settle, plus extra
  std::vector<double> target;   // the exact distance on every device
};

// Refuses (UserError naming the keys) sizes that do not fit: devices per network, and the
// memory of the scenarios' words, before anything is allocated.
void requireTrainSizes(const TrainConfig& config);

// The `graphs` graphs side by side, one network (devices of graph g are ids [g n, (g+1) n)).
Network trainingNetwork(const TrainConfig& config);
std::vector<Scenario> trainingScenarios(const TrainConfig& config, const Network& network);

// Held-out scenario h: its own graph of scale x devices, drawn apart from the training ones.
struct HeldOut {
  Network network;
  Scenario scenario;
};
HeldOut heldOutScenario(const TrainConfig& config, std::int64_t h);

}  // namespace kfield::cli

#endif
