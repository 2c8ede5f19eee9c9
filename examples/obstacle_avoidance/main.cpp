// A user-defined aggregate function and a branch: obstacles and free devices never hear each
// other, so the gradient of the free devices flows round the obstacles.
#include <kfield/kfield.hpp>

#include <cstdio>
#include <iostream>

using namespace kfield;

// An aggregate function of our own: its name goes on the path of every call inside it.
Field<double> hopsFrom(Program& p, const Field<bool>& source) {
  return p.aggregate("hopsFrom", [&] {
    return p.share(lib::kInfinity, [&](const NbrField<double>& d) {
      return p.mux(source, 0.0, d.excludeSelf().min() + 1.0);
    });
  });
}

Field<double> avoiding(Program& p) {
  return p.branch(
      p.sense<bool>("obstacle"), [&] { return p.constant(lib::kInfinity); },
      [&] { return hopsFrom(p, p.sense<bool>("source")); });
}

int main(int argc, char* argv[]) {
  kfield::Runtime runtime(argc, argv);
  const TracedProgram program = trace(avoiding, "avoiding");
  std::cout << describe(program);
  const Network net = Network::grid(16, 8);
  Simulation sim(program, net);
  sim.sensor("source").set(0, true);
  for (int y = 1; y < 8; ++y) sim.sensor("obstacle").set(y * 16 + 6, true);
  sim.runUntilStable(1000);
  const auto out = sim.output();
  for (int y = 0; y < 8; ++y) {
    for (int x = 0; x < 16; ++x) {
      const double d = out(y * 16 + x, 0);
      std::printf(d == lib::kInfinity ? "  #" : "%3.0f", d);
    }
    std::printf("\n");
  }
  return 0;
}
