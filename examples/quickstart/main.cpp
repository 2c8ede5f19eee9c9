// The README's example: a program, run and differentiated. It checks what the README says: the
// field is the exact distance (on a grid of unit edges, x + y from the corner), and since the
// field grows linearly with `scale`, the loss (the sum of its squares) grows as scale^2, so its
// derivative at scale 1 is twice the loss.
#include <kfield/kfield.hpp>

#include <cmath>
#include <cstdio>

using namespace kfield;

int main(int argc, char* argv[]) {
  Runtime runtime(argc, argv);  // Kokkos, and MPI under mpirun
  const Network net = Network::grid(30, 30);
  const TracedProgram program = trace(
      [](Program& p) {  // the distance to the nearest source, along edges scaled by a parameter
        return lib::distanceGradient(p, p.sense<bool>("source"), p.parameter("scale"));
      },
      "scaled-distance");

  Simulation sim(program, net);  // one sample, synchronous rounds
  sim.parameter("scale", {1.0});
  sim.sensor("source").set(0, true);
  sim.run(60);
  const HostPlane d = sim.output();  // d(device, sample): 58 at the far corner

  diff::Gradient g(program, net);  // the loss through the same 60 rounds, and its gradient
  g.parameter("scale", {1.0});
  g.sensor("source").set(0, true);
  const diff::GradientResult r = g.run(60);  // r.loss; r.gradient[0] = d loss / d scale

  std::printf("distance to the far corner: %g\nloss %.17g, d loss / d scale %.17g\n", d(899, 0),
              r.loss, r.gradient[0]);
  const bool exact = d(899, 0) == 58.0 && d(29, 0) == 29.0;
  const bool twice = std::abs(r.gradient[0] - 2.0 * r.loss) <= 1e-12 * std::abs(r.gradient[0]);
  if (!exact || !twice) {
    std::printf("quickstart: %s\n", !exact ? "the field is not the exact distance"
                                           : "the gradient is not twice the loss");
    return 1;
  }
  return 0;
}
