// A gradient that follows moving devices: 2000 devices walk between random waypoints, firing on
// their own jittered clocks, and the BIS gradient from device 0 tracks them. Every 20 periods
// it prints how far the estimates are from the exact distances on that period's network.
#include <kfield/kfield.hpp>

#include <cmath>
#include <cstdio>
#include <queue>
#include <vector>

// Shortest distances from device 0 over a network (Dijkstra), for comparison.
std::vector<double> exact(const kfield::Network& net) {
  std::vector<double> d(net.devices(), kfield::lib::kInfinity);
  const std::vector<double> lengths = net.lengths();
  using Item = std::pair<double, std::int64_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> queue;
  d[0] = 0, queue.push({0.0, 0});
  while (!queue.empty()) {
    const auto [at, i] = queue.top();
    queue.pop();
    if (at > d[i]) continue;
    for (std::int64_t k = net.offsets()[i]; k < net.offsets()[i + 1]; ++k) {
      const std::int64_t j = net.neighbors()[k];
      if (at + lengths[k] < d[j]) d[j] = at + lengths[k], queue.push({d[j], j});
    }
  }
  return d;
}

int main(int argc, char* argv[]) {
  kfield::Runtime runtime(argc, argv);
  using namespace kfield;
  const Network start = Network::randomGeometric(2000, 1.8, 5);
  const TracedProgram program =
      trace([](Program& p) { return lib::bisGradient(p, p.sense<bool>("source"), 1.8); }, "bis");
  Motion motion;
  motion.model = Motion::Model::Waypoint, motion.speed = 0.05, motion.radius = 1.8;
  Simulation sim(program, start, 1, {Schedule{1.0, 0.5, 3}, motion});
  sim.sensor("source").set(0, true);
  std::printf("period  reached  mean |estimate - exact| / exact\n");
  for (int k = 1; k <= 10; ++k) {
    sim.run(20);
    const std::vector<double> truth = exact(sim.network());
    const auto out = sim.output();
    double error = 0;
    int reached = 0;
    for (std::int64_t d = 1; d < start.devices(); ++d) {
      if (truth[d] == lib::kInfinity || out(d, 0) == lib::kInfinity) continue;
      error += std::abs(out(d, 0) - truth[d]) / truth[d], ++reached;
    }
    std::printf("%6lld  %7d  %.3f\n", static_cast<long long>(sim.rounds()[0]), reached,
                reached ? error / reached : 0.0);
  }
  return 0;
}
