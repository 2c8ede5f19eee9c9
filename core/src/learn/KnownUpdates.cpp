#include "kfield/learn/impl/KnownUpdates.hpp"

#include "kfield/learn/Rules.hpp"

#include <vector>

namespace kfield::impl {

namespace {

// The constants of an assignment's code, in order.
std::vector<double> constantsOf(const pointwise::Assignment& a) {
  std::vector<double> out;
  for (std::size_t j = 0; j + 1 < a.code.size(); ++j) {
    if (pointwise::opcodeOf(a.code[j]) == pointwise::opcode::kConstant) {
      out.push_back(valueOf(a.code[++j]));
    }
  }
  return out;
}

bool sameProgram(const PointwiseProgram& a, const PointwiseProgram& b) {
  return pointwise::encode(a) == pointwise::encode(b);
}

}  // namespace

KnownUpdate recogniseUpdate(const PointwiseProgram& update, std::int64_t k, std::int64_t m) {
  KnownUpdate r;
  const auto& as = update.assignments;
  if (k < 1) return r;
  if (m == 0 && sameProgram(update, rules::sgd(k).update)) {
    r.kind = KnownUpdate::kSgd;
  } else if (m == k && as.size() == 2) {
    const auto c = constantsOf(as[0]);
    if (c.size() == 1 && sameProgram(update, rules::momentum(k, c[0]).update)) {
      r.kind = KnownUpdate::kMomentum;
      r.beta1 = c[0];
    }
  } else if (m == 2 * k + 3 && as.size() == 6) {
    const auto c1 = constantsOf(as[1]), c2 = constantsOf(as[2]), last = constantsOf(as[5]);
    if (c1.size() == 1 && c2.size() == 1 && !last.empty() &&
        sameProgram(update, rules::adam(k, c1[0], c2[0], last.back()).update)) {
      r.kind = KnownUpdate::kAdam;
      r.beta1 = c1[0];
      r.beta2 = c2[0];
      r.epsilon = last.back();
    }
  }
  return r;
}

const char* describe(KnownUpdate::Kind kind) {
  switch (kind) {
    case KnownUpdate::kSgd: return "sgd";
    case KnownUpdate::kMomentum: return "momentum";
    case KnownUpdate::kAdam: return "adam";
    default: return "interpreted";
  }
}

}  // namespace kfield::impl
