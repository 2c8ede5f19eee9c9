#include "kfield/learn/LearnerState.hpp"

#include "kfield/impl/Errors.hpp"

#include <algorithm>

namespace kfield {

std::string learnerNumericalContract() {
  return "kfield-learner-v2; combine: canonical pairwise tree over the global sample sequence "
         "in owner order, padded right with absent entries; mean: numerator / mass in binary64; "
         "inner sums (pointwise sum, rules' dot products): 16 lanes, term i in lane i mod 16 "
         "from -0.0, lanes combined by halving; "
         "contraction: off (no fused multiply-add); pointwise min/max: left operand unless the "
         "right is strictly smaller/larger";
}

namespace {

std::vector<std::string> clauses(const std::string& contract) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at <= contract.size()) {
    const std::size_t end = std::min(contract.find("; ", at), contract.size());
    out.push_back(contract.substr(at, end - at));
    at = end + 2;
  }
  return out;
}

}  // namespace

std::string firstDifference(const LearnerState& saved, const LearnerState& current) {
  if (saved.numericalContract != current.numericalContract) {
    const auto a = clauses(saved.numericalContract), b = clauses(current.numericalContract);
    for (std::size_t j = 0; j < std::max(a.size(), b.size()); ++j) {
      const std::string x = j < a.size() ? a[j] : "(none)", y = j < b.size() ? b[j] : "(none)";
      if (x != y) return "numerical contract: saved '" + x + "', this build '" + y + "'";
    }
  }
  auto count = [](const char* what, std::int64_t x, std::int64_t y) {
    return x == y ? std::string()
                  : std::string(what) + " " + std::to_string(x) + " vs " + std::to_string(y) +
                        " (saved vs this learner)";
  };
  for (const std::string& d : {count("parameters", saved.parameterCount, current.parameterCount),
                               count("optimizer state words", std::int64_t(saved.state.size()),
                                     std::int64_t(current.state.size())),
                               count("sample width", saved.sampleWidth, current.sampleWidth),
                               count("samples", saved.samples, current.samples)}) {
    if (!d.empty()) return d;
  }
  if (saved.rate != current.rate) {
    return "rate " + impl::numberText(valueOf(saved.rate)) + " vs " +
           impl::numberText(valueOf(current.rate)) + " (saved vs this learner)";
  }
  if (saved.ruleIdentity != current.ruleIdentity) {
    return "the rule differs (contribution, update or initial values; rule identity " +
           describe(saved.ruleIdentity) + " vs " + describe(current.ruleIdentity) + ")";
  }
  const std::size_t n = std::min(saved.sampleHashes.size(), current.sampleHashes.size());
  for (std::size_t j = 0; j < n; ++j) {
    if (saved.sampleHashes[j] != current.sampleHashes[j]) {
      return "sample " + std::to_string(j) + " differs";
    }
  }
  if (saved.learnerIdentity != current.learnerIdentity) {
    return "learner identity " + describe(saved.learnerIdentity) + " vs " +
           describe(current.learnerIdentity) + " (saved vs this learner)";
  }
  return "";
}

}  // namespace kfield
