// Fits y = a x + b to 1000 noisy points with Adam. The contribution (the gradient of the
// squared residual) is written as a pointwise program; the samples are split unevenly among
// three owners, then re-split among five: the learner identity and the parameters' bits stay.
#include <kfield/kfield.hpp>

#include <cstdio>

int main(int argc, char* argv[]) {
  kfield::Runtime runtime(argc, argv);
  using namespace kfield;
  using pointwise::Expr;

  // Contribution slots: parameters a, b = 0, 1; sample x, y = 2, 3; gradient = 4, 5.
  const Expr residual = Expr::slot(0) * Expr::slot(2) + Expr::slot(1) - Expr::slot(3);
  DataParallelSystem sys;
  sys.parameters = 2;
  sys.sampleWidth = 2;
  sys.contribution.slots = 6;
  sys.contribution.assignments = {pointwise::set(4, Expr(2.0) * residual * Expr::slot(2)),
                                  pointwise::set(5, Expr(2.0) * residual)};
  const rules::UpdateRule adam = rules::adam(2);
  sys.update = adam.update;
  sys.initialState = adam.initialState;
  sys.initialParameters = {wordOf(0.0), wordOf(0.0)};
  sys.rate = wordOf(0.05);

  // y = 3 x - 1 plus a small fixed perturbation (exact arithmetic: the same data everywhere).
  std::vector<std::vector<Word>> points;
  for (int j = 0; j < 1000; ++j) {
    const double x = (j - 500) / 250.0;
    const double noise = ((j * 7919) % 101 - 50) / 1000.0;
    points.push_back({wordOf(x), wordOf(3.0 * x - 1.0 + noise)});
  }
  sys.owners = {{points.begin(), points.begin() + 100},
                {points.begin() + 100, points.begin() + 650},
                {points.begin() + 650, points.end()}};
  if (const auto verdict = admitted(sys); !verdict) {
    std::fprintf(stderr, "not admitted: %s: %s\n", describe(verdict.condition).c_str(),
                 verdict.detail.c_str());
    return 1;
  }

  DataParallelLearner<> threeOwners(sys);
  threeOwners.run(2000);
  const LearnerState a = threeOwners.state();
  DataParallelLearner<> fiveOwners(repartitioned(sys, 5));
  fiveOwners.run(2000);
  const LearnerState b = fiveOwners.state();

  std::printf("after %lld steps: a = %.6f, b = %.6f\n", static_cast<long long>(a.step),
              valueOf(a.parameters[0]), valueOf(a.parameters[1]));
  std::printf("learner identity %s\n", describe(a.learnerIdentity).c_str());
  std::printf("3 owners and 5 owners: identity %s, parameters and state %s\n",
              a.learnerIdentity == b.learnerIdentity ? "equal" : "DIFFER",
              a.parameters == b.parameters && a.state == b.state ? "bit-identical" : "DIFFER");
  return a.parameters == b.parameters && a.state == b.state ? 0 : 1;
}
