// The learner written straight from its definition on the host (pointwise::evaluate, the
// recursive canonical sum), least-squares systems, and their closed-form optimum: the
// references the learner tests compare against.
#ifndef KFIELD_TEST_LEARNERREFERENCE_HPP
#define KFIELD_TEST_LEARNERREFERENCE_HPP

#include "support/SumReference.hpp"

#include <kfield/learn/DataParallelSystem.hpp>
#include <kfield/learn/Learner.hpp>
#include <kfield/learn/Rules.hpp>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace kfield::test {

// y = w* . x + noise with x uniform in [-1, 1]; samples split among owners at `cuts`
// (cuts[0] = 0, cuts.back() = n; empty owners allowed).
inline DataParallelSystem leastSquaresSystem(std::int64_t k, std::int64_t n,
                                             const std::vector<std::int64_t>& cuts,
                                             const rules::UpdateRule& rule, double rate,
                                             std::uint64_t seed = 7) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> truth(static_cast<std::size_t>(k));
  for (auto& w : truth) w = 2.0 * u(rng);
  DataParallelSystem sys = rules::leastSquaresSystem(k, rule, rate);
  std::vector<std::vector<Word>> all;
  for (std::int64_t j = 0; j < n; ++j) {
    std::vector<Word> sample;
    double y = 0.01 * u(rng);
    for (std::int64_t i = 0; i < k; ++i) {
      const double x = u(rng);
      y += truth[static_cast<std::size_t>(i)] * x;
      sample.push_back(wordOf(x));
    }
    sample.push_back(wordOf(y));
    all.push_back(sample);
  }
  for (std::size_t o = 0; o + 1 < cuts.size(); ++o) {
    sys.owners.emplace_back(all.begin() + cuts[o], all.begin() + cuts[o + 1]);
  }
  return sys;
}

// A small system of three owners' least-squares samples under Adam.
inline DataParallelSystem smallSystem() {
  return leastSquaresSystem(3, 10, {0, 4, 10}, rules::adam(3), 0.01);
}

// Cuts of n samples into `owners` shares of random, unequal sizes.
inline std::vector<std::int64_t> ownerCuts(std::int64_t n, int owners, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::int64_t> cuts{0, n};
  for (int j = 1; j < owners; ++j) cuts.push_back(static_cast<std::int64_t>(rng() % (n + 1)));
  std::sort(cuts.begin(), cuts.end());
  return cuts;
}

struct ReferenceState {
  std::vector<double> parameters, state;
};

// N steps of the definition: host evaluation, canonical sum per coordinate by recursion.
inline ReferenceState referenceRun(const DataParallelSystem& sys, std::int64_t steps) {
  const std::int64_t k = sys.parameters, s = sys.sampleWidth, m = sys.stateWords();
  ReferenceState st;
  for (Word w : sys.initialParameters) st.parameters.push_back(valueOf(w));
  for (Word w : sys.initialState) st.state.push_back(valueOf(w));
  std::vector<std::vector<Word>> samples;
  for (const auto& owned : sys.owners) samples.insert(samples.end(), owned.begin(), owned.end());
  const auto n = static_cast<std::int64_t>(samples.size());
  for (std::int64_t t = 0; t < steps; ++t) {
    std::vector<std::vector<double>> columns(static_cast<std::size_t>(k));
    for (const auto& sample : samples) {
      std::vector<double> slots(st.parameters);
      for (Word w : sample) slots.push_back(valueOf(w));
      slots.resize(static_cast<std::size_t>(2 * k + s), 0.0);
      pointwise::evaluate(sys.contribution, slots);
      for (std::int64_t c = 0; c < k; ++c) {
        columns[static_cast<std::size_t>(c)].push_back(slots[static_cast<std::size_t>(k + s + c)]);
      }
    }
    std::vector<double> slots(st.parameters);
    slots.insert(slots.end(), st.state.begin(), st.state.end());
    for (std::int64_t c = 0; c < k; ++c) {
      slots.push_back(referenceSum(columns[static_cast<std::size_t>(c)]) / static_cast<double>(n));
    }
    slots.push_back(valueOf(sys.rate));
    pointwise::evaluate(sys.update, slots);
    st.parameters.assign(slots.begin(), slots.begin() + k);
    st.state.assign(slots.begin() + k, slots.begin() + k + m);
  }
  return st;
}

// A learner state's words, parameters then state: what the bit-equality tests compare.
inline std::vector<Word> wordsOf(const LearnerState& s) {
  std::vector<Word> w = s.parameters;
  w.insert(w.end(), s.state.begin(), s.state.end());
  return w;
}

inline std::vector<Word> wordsOf(const ReferenceState& s) {
  std::vector<Word> w;
  for (double v : s.parameters) w.push_back(wordOf(v));
  for (double v : s.state) w.push_back(wordOf(v));
  return w;
}

// argmin_w sum (w . x - y)^2 by the normal equations (Gaussian elimination, long double).
inline std::vector<double> leastSquaresOptimum(const DataParallelSystem& sys) {
  const auto k = static_cast<std::size_t>(sys.parameters);
  std::vector<std::vector<long double>> a(k, std::vector<long double>(k + 1, 0.0L));
  for (const auto& owned : sys.owners) {
    for (const auto& sample : owned) {
      for (std::size_t i = 0; i < k; ++i) {
        for (std::size_t j = 0; j < k; ++j)
          a[i][j] += valueOf(sample[i]) * (long double)valueOf(sample[j]);
        a[i][k] += valueOf(sample[i]) * (long double)valueOf(sample[k]);
      }
    }
  }
  for (std::size_t c = 0; c < k; ++c) {
    std::size_t pivot = c;
    for (std::size_t r = c + 1; r < k; ++r) {
      if (std::fabs((double)a[r][c]) > std::fabs((double)a[pivot][c])) pivot = r;
    }
    std::swap(a[c], a[pivot]);
    for (std::size_t r = 0; r < k; ++r) {
      if (r == c) continue;
      const long double f = a[r][c] / a[c][c];
      for (std::size_t j = c; j <= k; ++j) a[r][j] -= f * a[c][j];
    }
  }
  std::vector<double> w(k);
  for (std::size_t i = 0; i < k; ++i) w[i] = static_cast<double>(a[i][k] / a[i][i]);
  return w;
}

}  // namespace kfield::test

#endif
