#include "kfield/field/NeuralField.hpp"

#include "kfield/Random.hpp"
#include "kfield/field/Library.hpp"
#include "kfield/impl/Errors.hpp"

#include <cmath>

namespace kfield::lib {
namespace {

// units outputs of W x + b, W row-major (units x inputs) then b, from w[0..).
std::vector<Field<double>> affine(const std::vector<Field<double>>& w,
                                  const std::vector<Field<double>>& x, int units) {
  const auto n = static_cast<int>(x.size());
  std::vector<Field<double>> out;
  for (int u = 0; u < units; ++u) {
    Field<double> sum = w[std::size_t(u * n)] * x[0];
    for (int i = 1; i < n; ++i) sum = sum + w[std::size_t(u * n + i)] * x[std::size_t(i)];
    out.push_back(sum + w[std::size_t(units * n + u)]);
  }
  return out;
}

}  // namespace

void requireNeuralShape(const NeuralFieldShape& shape, const std::string& who) {
  if (shape.hidden.empty() || shape.hidden.size() > 4) {
    impl::invalidArgument(
        who, "a neural field has 1 to 4 hidden layers, got " + std::to_string(shape.hidden.size()));
  }
  for (std::size_t l = 0; l < shape.hidden.size(); ++l) {
    if (shape.hidden[l] < 1 || shape.hidden[l] > 64) {
      impl::invalidArgument(who, "hidden layer " + std::to_string(l + 1) + " has " +
                                     std::to_string(shape.hidden[l]) +
                                     " units; 1 to 64 are allowed");
    }
  }
}

std::vector<NeuralParameter> neuralParameters(const NeuralFieldShape& shape) {
  requireNeuralShape(shape, "kfield::lib::neuralParameters");
  std::vector<NeuralParameter> out;
  int fanIn = kNeuralFeatures;
  for (std::size_t l = 0; l < shape.hidden.size(); ++l) {
    out.push_back({"hidden" + std::to_string(l + 1), fanIn, shape.hidden[l]});
    fanIn = shape.hidden[l];
  }
  out.push_back({"output", fanIn + 1 + kNeuralFeatures, 0});  // h_last, least and the features
  return out;
}

std::vector<std::vector<double>> neuralInitialParameters(const NeuralFieldShape& shape,
                                                         std::uint64_t seed) {
  std::vector<std::vector<double>> values;
  std::uint64_t counter = 0;
  for (const NeuralParameter& p : neuralParameters(shape)) {
    const int units = p.units == 0 ? 1 : p.units;
    // Glorot uniform: limit sqrt(6 / (fan in + fan out)); sqrt is correctly rounded everywhere.
    const double limit = std::sqrt(6.0 / double(p.fanIn + units));
    std::vector<double> v(std::size_t(p.width()), 0.0);
    for (int k = 0; k < p.fanIn * units; ++k)
      v[std::size_t(k)] = limit * (2.0 * uniform01(seed, counter++) - 1.0);
    // The skip path starts as the identity on `least` (as residual networks start): the
    // program starts as a distance gradient plus what the random layers add.
    if (p.units == 0) v[std::size_t(p.fanIn - 1 - kNeuralFeatures)] = 1.0;
    values.push_back(std::move(v));
  }
  return values;
}

namespace {

// The shared state: 0 at a source, +inf until a device hears someone (and, with obstacles, on
// an obstacle, so that its neighbors never hear it), else the MLP's output.
Field<double> neuralState(Program& p, const Field<bool>& source, const Field<bool>* obstacle,
                          const NeuralFieldShape& shape) {
  const std::vector<NeuralParameter> layers = neuralParameters(shape);
  return p.aggregate("neuralDistance", [&] {
    return p.share(kInfinity, [&](const NbrField<double>& d) {
      const NbrField<double> through = (d + p.edgeLength()).excludeSelf();
      const NbrField<bool> heard = through < kInfinity;
      const Field<double> least = through.min();
      const Field<bool> reached = least < kInfinity;
      const Field<double> count = p.mux(heard, 1.0, 0.0).sum();
      const Field<double> mean = p.mux(heard, through, 0.0).sum() / max(count, p.constant(1.0));
      const Field<double> own = d.self();
      // Every input of the MLP is finite (0 where undefined), so no NaN reaches the reverse.
      const Field<double> zero = p.constant(0.0);
      const Field<double> leastIn = p.mux(reached, least, zero);
      std::vector<Field<double>> features{p.mux(reached && own < kInfinity, own - least, zero),
                                          p.mux(reached, mean - least, zero), count / 10.0};
      std::vector<Field<double>> h = features;
      for (std::size_t l = 0; l + 1 < layers.size(); ++l) {
        std::vector<Field<double>> a =
            affine(p.parameter(layers[l].name, layers[l].width()), h, layers[l].units);
        for (Field<double>& x : a) x = tanh(x);
        h = std::move(a);
      }
      h.push_back(leastIn);
      h.insert(h.end(), features.begin(), features.end());
      const Field<double> y =
          affine(p.parameter(layers.back().name, layers.back().width()), h, 1)[0];
      const Field<double> state = p.mux(source, 0.0, p.mux(reached, y, p.constant(kInfinity)));
      return obstacle ? p.mux(*obstacle, p.constant(kInfinity), state) : state;
    });
  });
}

}  // namespace

Field<double> neuralDistance(Program& p, const Field<bool>& source, const NeuralFieldShape& shape) {
  return neuralState(p, source, nullptr, shape);
}

Field<double> neuralDistance(Program& p, const Field<bool>& source, const Field<bool>& obstacle,
                             const NeuralFieldShape& shape) {
  return p.mux(obstacle, 0.0, neuralState(p, source, &obstacle, shape));
}

}  // namespace kfield::lib
