// A learnable aggregate program: a neural field. Each round a device feeds what it hears (the
// least neighbor distance through an edge, the mean of those, how many it heard) and its own
// previous state to a small MLP with tanh hidden layers, whose output is its new state; the
// MLP's weights are the program's parameters, shared by every device. Trained on exact
// distances (kfield train), it learns a distance gradient that holds on larger networks.
#ifndef KFIELD_FIELD_NEURALFIELD_HPP
#define KFIELD_FIELD_NEURALFIELD_HPP

#include "kfield/field/Program.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace kfield::lib {

struct NeuralFieldShape {
  std::vector<int> hidden{16, 16};  // tanh units per hidden layer (1 to 4 layers, 1 to 64 each)
};

// What a device computes from, per round (all finite: 0 where it heard nothing yet):
//   least = min over neighbors of (state + edge length)   (the skip path reads it)
//   own   = its previous state - least,  spread = the mean of those heard - least,
//   heard = the neighbors heard / 10.
// new state = 0 at a source; +inf until it hears a neighbor; else
//   output . [h_last, least, own, spread, heard, 1]  with  h_1 = tanh(W_1 [own, spread, heard] +
//   b_1), ...
// Hidden layers see only differences, so the program does not depend on where distances start.
constexpr int kNeuralFeatures = 3;  // own, spread, heard
Field<double> neuralDistance(Program& p, const Field<bool>& source,
                             const NeuralFieldShape& shape = {});
// Around obstacles: an obstacle device passes nothing on (its neighbors never hear it) and
// outputs 0, so a loss against targets that are 0 there counts only the free devices. The
// same parameters as above.
Field<double> neuralDistance(Program& p, const Field<bool>& source, const Field<bool>& obstacle,
                             const NeuralFieldShape& shape = {});

// The parameters in the program's order: "hidden1" .. "hiddenL" (W row-major, then b), "output".
struct NeuralParameter {
  std::string name;
  int fanIn = 0;
  int units = 0;  // rows of W; the width is fanIn * units + units (the output layer: fanIn + 1)
  int width() const { return units == 0 ? fanIn + 1 : fanIn * units + units; }
};
std::vector<NeuralParameter> neuralParameters(const NeuralFieldShape& shape);

// Glorot-uniform weights from a counter-based draw (the same words everywhere), biases 0; the
// output layer's weights drawn the same way over its fan-in, but 1 on `least` (the skip path
// starts as the identity, as residual networks start). Values per parameter, in order.
std::vector<std::vector<double>> neuralInitialParameters(const NeuralFieldShape& shape,
                                                         std::uint64_t seed);

// Throws std::invalid_argument naming the bad layer.
void requireNeuralShape(const NeuralFieldShape& shape, const std::string& who);

}  // namespace kfield::lib

#endif
