// Training an aggregate program: a neural field learns the distance to the nearest source.
// Every device runs the same small network (the program's shared parameters) on what it hears
// from its neighbors; Adam follows the gradient of the squared error against the exact
// distances (Dijkstra) through every round of every scenario, by the windowed reverse. What
// `kfield train` does, in the library's own terms. Exits 1 unless the loss falls tenfold.
#include <kfield/kfield.hpp>

#include <cstdio>
#include <numeric>
#include <vector>

int main(int argc, char* argv[]) {
  kfield::Runtime runtime(argc, argv);
  using namespace kfield;
  using Space = Kokkos::DefaultExecutionSpace;

  // The program: one hidden layer of 8 tanh units.
  lib::NeuralFieldShape shape;
  shape.hidden = {8};
  const TracedProgram program = trace(
      [&](Program& p) { return lib::neuralDistance(p, p.sense<bool>("source"), shape); }, "neural");
  std::vector<double> start;
  for (const std::vector<double>& layer : lib::neuralInitialParameters(shape, 1)) {
    start.insert(start.end(), layer.begin(), layer.end());
  }

  // The scenarios: one source each on a random geometric graph, run until the distances settle.
  const Network net = Network::randomGeometric(200, 2.0, 3);
  DataParallelSystem system =
      diff::fieldSystem(program, net, rules::adam(program.parameterWidth()), 0.01, start);
  system.owners.resize(2);  // two owners of two scenarios each; any split gives the same bits
  for (std::int64_t j = 0; j < 4; ++j) {
    const std::vector<std::int64_t> sources{j * 47 % net.devices()};
    const ShortestPaths exact = shortestPaths(net, sources);
    std::vector<double> source(std::size_t(net.devices()), 0.0);
    source[std::size_t(sources[0])] = 1.0;
    system.owners[std::size_t(j / 2)].push_back(diff::fieldSample(
        program, net, exact.roundsToSettle() + 2, {{"source", source}}, exact.distance));
  }

  DataParallelLearner<Space, diff::FieldContribution<Space>> learner(
      system, diff::FieldContribution<Space>(program, net));
  auto loss = [&] {
    const std::vector<double>& l = learner.contribution().sampleLoss();
    return std::accumulate(l.begin(), l.end(), 0.0) / double(l.size());
  };
  learner.run(1);
  const double first = loss();
  std::printf("step 1: mean squared error %.4g per scenario\n", first);
  for (int step = 2; step <= 100; ++step) {
    learner.run(1);
    if (step % 25 == 0)
      std::printf("step %d: mean squared error %.4g per scenario\n", step, loss());
  }
  const bool learned = loss() < first / 10;
  std::printf("%s\n", learned ? "learned: the loss fell more than tenfold" : "did not learn");
  return learned ? 0 : 1;
}
