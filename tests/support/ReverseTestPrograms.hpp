// Programs whose compiled reverse rounds the tests compile as a user compiles their own
// (support/WriteTestReverses.cpp writes them at build time, kfield::diff::registerCompiledReverses
// adds them): between them, every operation the reverse writer differentiates.
#ifndef KFIELD_TESTS_SUPPORT_REVERSETESTPROGRAMS_HPP
#define KFIELD_TESTS_SUPPORT_REVERSETESTPROGRAMS_HPP

#include <kfield/field/Program.hpp>
#include <kfield/field/TracedProgram.hpp>

#include <vector>

namespace kfield::test {

// A state on one device: x_{t+1} = a x_t + b from x_0 (sensor x0); the output is x.
inline TracedProgram affineRecurrence() {
  return trace(
      [](Program& p) {
        const Field<double> a = p.parameter("a"), b = p.parameter("b");
        return p.remember(p.sense<double>("x0"), [&](Field<double> x) { return a * x + b; });
      },
      "affine");
}

// A small learnable update: consensus with a learnable rate, through tanh, exp and pow.
inline TracedProgram neuralConsensus() {
  return trace(
      [](Program& p) {
        const auto w = p.parameter("w", 3);
        const Field<double> x0 = p.sense<double>("x");
        return p.share(x0, [&](const NbrField<double>& x) {
          const Field<double> mine = x.self();
          const Field<double> pull = (x - mine).excludeSelf().sum();
          const Field<double> h = tanh(w[0] * pull + w[1] * mine);
          return mine + h * sigmoid(w[2]) + pow(exp(-mine * mine), 2.0) * 0.01;
        });
      },
      "neural_consensus");
}

inline std::vector<TracedProgram> reverseTestPrograms() {
  return {
      affineRecurrence(),
      neuralConsensus(),
      // Min and max folds with entry programs of divisions, absolute values and edge lengths,
      // reading computed values and parameters; sqrt, log, mux, min, max, negation.
      trace(
          [](Program& p) {
            const auto w = p.parameter("w", 2);
            const Field<double> x0 = p.sense<double>("x");
            return p.share(x0, [&](const NbrField<double>& x) {
              const Field<double> mine = x.self();
              const Field<double> scale = mine * mine + 1.0;
              const Field<double> hi = (abs(x) * w[0] + p.edgeLength()).excludeSelf().max();
              const Field<double> lo = (x / scale).excludeSelf().min();
              const Field<double> r = sqrt(abs(hi) + 1.0) - log(abs(lo) + 2.0) / w[1];
              return p.mux(mine > 0.5, min(r, mine), max(-r, mine)) * 0.5;
            });
          },
          "reverse_select"),
  };
}

}  // namespace kfield::test

#endif
