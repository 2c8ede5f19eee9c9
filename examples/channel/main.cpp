// A channel between two devices of a grid, going round a wall of obstacles: the obstacles
// take the other side of a branch, so the gradients inside the channel never reach them.
#include <kfield/kfield.hpp>

#include <cstdio>

int main(int argc, char* argv[]) {
  kfield::Runtime runtime(argc, argv);
  using namespace kfield;
  const int w = 30, h = 12;
  const Network net = Network::grid(w, h, 8);
  const TracedProgram program = trace([](Program& p) {
    return toDouble(lib::channel(p, p.sense<bool>("source"), p.sense<bool>("destination"),
                                 p.sense<bool>("obstacle"), 0.3));
  });
  Simulation sim(program, net);
  sim.sensor("source").set(6 * w + 2, true);
  sim.sensor("destination").set(6 * w + 27, true);
  for (int y = 0; y < 9; ++y) sim.sensor("obstacle").set(y * w + 15, true);
  sim.runUntilStable(10000);
  const auto out = sim.output();
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      const bool wall = x == 15 && y < 9;
      std::printf("%c", wall ? '#' : out(y * w + x, 0) != 0.0 ? '*' : '.');
    }
    std::printf("\n");
  }
  return 0;
}
