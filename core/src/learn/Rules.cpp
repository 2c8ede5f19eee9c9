#include "kfield/learn/Rules.hpp"

namespace kfield::rules {

using pointwise::Expr;

UpdateRule sgd(std::int64_t k) {
  UpdateRule r;
  r.update.slots = 2 * k + 1;  // p [0,k), mean [k,2k), rate 2k
  r.update.assignments = {
      pointwise::each(0, k, Expr::indexed(0) - Expr::slot(2 * k) * Expr::indexed(k))};
  return r;
}

UpdateRule momentum(std::int64_t k, double beta) {
  UpdateRule r;
  r.update.slots = 3 * k + 1;  // p [0,k), v [k,2k), mean [2k,3k), rate 3k
  r.initialState.assign(static_cast<std::size_t>(k), wordOf(0.0));
  r.perCoordinateState = 1;
  r.update.assignments = {
      pointwise::each(k, k, Expr(beta) * Expr::indexed(k) + Expr::indexed(2 * k)),
      pointwise::each(0, k, Expr::indexed(0) - Expr::slot(3 * k) * Expr::indexed(k))};
  return r;
}

UpdateRule adam(std::int64_t k, double beta1, double beta2, double epsilon) {
  UpdateRule r;
  const std::int64_t m1 = k, m2 = 2 * k, t = 3 * k, b1t = 3 * k + 1, b2t = 3 * k + 2;
  const std::int64_t mean = 3 * k + 3, rate = 4 * k + 3;
  r.update.slots = 4 * k + 4;
  r.initialState.assign(static_cast<std::size_t>(2 * k), wordOf(0.0));
  r.initialState.insert(r.initialState.end(), {wordOf(0.0), wordOf(1.0), wordOf(1.0)});
  r.perCoordinateState = 2;
  const Expr g = Expr::indexed(mean);
  r.update.assignments = {
      pointwise::set(t, Expr::slot(t) + Expr(1.0)),
      pointwise::set(b1t, Expr::slot(b1t) * Expr(beta1)),
      pointwise::set(b2t, Expr::slot(b2t) * Expr(beta2)),
      pointwise::each(m1, k, Expr(beta1) * Expr::indexed(m1) + Expr(1.0 - beta1) * g),
      pointwise::each(m2, k, Expr(beta2) * Expr::indexed(m2) + Expr(1.0 - beta2) * g * g),
      pointwise::each(0, k,
                      Expr::indexed(0) -
                          Expr::slot(rate) * (Expr::indexed(m1) / (Expr(1.0) - Expr::slot(b1t))) /
                              (pointwise::sqrt(Expr::indexed(m2) / (Expr(1.0) - Expr::slot(b2t))) +
                               Expr(epsilon)))};
  return r;
}

PointwiseProgram leastSquaresContribution(std::int64_t k) {
  // w [0,k), x [k,2k), y 2k, out [2k+1, 3k+1): out[0] holds w . x until it is overwritten last.
  const std::int64_t y = 2 * k, out = 2 * k + 1;
  const Expr scale = Expr(2.0) * (Expr::slot(out) - Expr::slot(y));
  PointwiseProgram p;
  p.slots = 3 * k + 1;
  p.assignments.push_back(pointwise::sum(out, k, Expr::indexed(0) * Expr::indexed(k)));
  if (k > 1) p.assignments.push_back(pointwise::each(out + 1, k - 1, scale * Expr::indexed(k + 1)));
  p.assignments.push_back(pointwise::set(out, scale * Expr::slot(k)));
  return p;
}

DataParallelSystem leastSquaresSystem(std::int64_t k, const UpdateRule& rule, double rate) {
  DataParallelSystem sys;
  sys.parameters = k;
  sys.sampleWidth = k + 1;
  sys.contribution = leastSquaresContribution(k);
  sys.update = rule.update;
  sys.initialParameters.assign(static_cast<std::size_t>(k > 0 ? k : 0), wordOf(0.0));
  sys.initialState = rule.initialState;
  sys.rate = wordOf(rate);
  return sys;
}

}  // namespace kfield::rules
