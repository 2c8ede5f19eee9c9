// What `kfield train` runs: the program's shape, the scenarios, the optimizer and the
// evaluation, read from a JSON file (every key optional; the defaults are the built-in run).
#ifndef KFIELD_APPS_TRAIN_TRAINCONFIG_HPP
#define KFIELD_APPS_TRAIN_TRAINCONFIG_HPP

#include <cstdint>
#include <string>
#include <vector>

namespace kfield::cli {

struct TrainConfig {
  // "program": the neural field.
  std::vector<int> hidden{16, 16};
  std::uint64_t initSeed = 1;
  // "scenarios": the training network is `graphs` random geometric graphs side by side, each of
  // `devices` devices at one per unit of area, neighbors within `radius`; a scenario puts
  // `sources` random sources in each graph (and one in any part no source reaches) and runs
  // until its distances settle, plus 0..extra_rounds rounds. With `obstacles` > 0, each graph
  // also has that many discs of obstacle devices (radius 1.5 to 3), which pass no distance on:
  // the program learns the distance around them (0 on an obstacle).
  std::int64_t graphs = 2;
  std::int64_t devices = 150;
  double radius = 2.0;
  std::int64_t samples = 8;
  std::int64_t sources = 1;
  std::int64_t extraRounds = 6;
  std::int64_t obstacles = 0;
  std::uint64_t seed = 7;
  // "training": Adam over the mean loss of the scenarios, a checkpoint every checkpoint_every
  // steps and at the end.
  std::int64_t steps = 600;
  double rate = 0.01;
  double beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8;
  std::int64_t checkpointEvery = 50;
  std::int64_t owners = 2;
  // "evaluation": held-out graphs of `scale` times the devices, `sources` sources each (and
  // `scale` times the obstacles: the same density).
  std::int64_t heldOut = 2;
  std::int64_t scale = 10;
  // Where the checkpoint goes.
  std::string out = "kfield-train.h5";

  std::string json() const;  // every key, as a config file would give it
};

// Reads a config file; an unknown key, a wrong type or an impossible value is a UserError
// naming the file and the key. "" gives the defaults.
TrainConfig readTrainConfig(const std::string& path);
// The same from JSON text (`where` names it in messages).
TrainConfig parseTrainConfig(const std::string& text, const std::string& where);

}  // namespace kfield::cli

#endif
