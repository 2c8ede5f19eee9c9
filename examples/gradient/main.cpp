// A hop gradient from one corner of a 20 x 10 grid, shown as a map after 8 rounds and once
// stable: a device k hops away is exact from round k + 1.
#include <kfield/kfield.hpp>

#include <cstdio>

int main(int argc, char* argv[]) {
  kfield::Runtime runtime(argc, argv);
  using namespace kfield;
  const Network net = Network::grid(20, 10);
  const TracedProgram program =
      trace([](Program& p) { return lib::hopGradient(p, p.sense<bool>("source")); }, "hops");
  Simulation sim(program, net);
  sim.sensor("source").set(0, true);
  auto show = [&](const char* title) {
    const auto out = sim.output();
    std::printf("%s (round %lld)\n", title, static_cast<long long>(sim.rounds()[0]));
    for (int y = 0; y < 10; ++y) {
      for (int x = 0; x < 20; ++x) {
        const double d = out(y * 20 + x, 0);
        std::printf(d == lib::kInfinity ? "  ." : "%3.0f", d);
      }
      std::printf("\n");
    }
  };
  sim.run(8);
  show("after 8 rounds");
  sim.runUntilStable(1000);
  show("stable");
  return 0;
}
