// Learner steps for least squares (k = 10^3 parameters, 10^5 samples, 4 owners; a small
// 100 x 2000 case for the smoke test), with the C++ functor and the pointwise-program
// contribution, SGD and Adam; the same step with an unordered Kokkos parallel_reduce in place
// of the canonical combine; a wide model (k = 10^6, 10^4 sparse samples); and the update
// program alone at k = 10^7 next to a hand-written update and a copy of the same words.
#include "BenchContext.hpp"

#include <kfield/impl/KokkosCompat.hpp>
#include <kfield/sum/InnerSum.hpp>

#include <kfield/Random.hpp>
#include <kfield/learn/Learner.hpp>
#include <kfield/learn/Rules.hpp>
#include <kfield/learn/Update.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <tuple>

namespace kfield::bench {
namespace {

constexpr int kOwners = 4;
constexpr std::int64_t kUpdateParams = 10000000;

enum Rule { kSgd, kAdam };
rules::UpdateRule ruleOf(Rule r, std::int64_t k) {
  return r == kSgd ? rules::sgd(k) : rules::adam(k);
}

// y = w* . x + noise, x uniform in [-1, 1), drawn from a counter-based generator; shares of
// unequal sizes. Built once per shape: at 10^3 x 10^5 the samples alone are 800 MB.
const DataParallelSystem& leastSquares(Rule r, std::int64_t k, std::int64_t n) {
  static std::map<std::tuple<Rule, std::int64_t, std::int64_t>, std::unique_ptr<DataParallelSystem>>
      cache;
  auto& slot = cache[{r, k, n}];
  if (slot) return *slot;
  slot = std::make_unique<DataParallelSystem>(rules::leastSquaresSystem(k, ruleOf(r, k), 0.05));
  auto& sys = *slot;
  auto u = [](std::uint64_t stream, std::uint64_t i) { return 2.0 * uniform01(stream, i) - 1.0; };
  const std::int64_t cuts[kOwners + 1] = {0, n / 10, n / 2, n * 3 / 4, n};
  sys.owners.resize(kOwners);
  for (int o = 0; o < kOwners; ++o) {
    for (std::int64_t j = cuts[o]; j < cuts[o + 1]; ++j) {
      std::vector<Word> sample(static_cast<std::size_t>(k + 1));
      double y = 0.01 * u(3, static_cast<std::uint64_t>(j));
      for (std::int64_t i = 0; i < k; ++i) {
        const double x = u(2, static_cast<std::uint64_t>(j * k + i));
        y += u(1, static_cast<std::uint64_t>(i)) * x;
        sample[static_cast<std::size_t>(i)] = wordOf(x);
      }
      sample[static_cast<std::size_t>(k)] = wordOf(y);
      sys.owners[static_cast<std::size_t>(o)].push_back(std::move(sample));
    }
  }
  return sys;
}

void countSteps(benchmark::State& state) {
  state.SetItemsProcessed(state.iterations() * state.range(1));  // samples per second
  state.counters["steps_per_s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["owners"] = kOwners;
}

template <class Space, class Contribution>
void learnerStep(benchmark::State& state, Rule r, Contribution contribution) {
  LearnerOptions options;
  options.checkEvery = 16;
  DataParallelLearner<Space, Contribution> learner(leastSquares(r, state.range(0), state.range(1)),
                                                   contribution, options);
  learner.run(1);  // first touch
  timeFenced<Space>(state, [&] { learner.run(1); });
  countSteps(state);
}

// The k-wide sum of contributions by Kokkos' own reduction: per-thread accumulators joined
// in whatever order the backend picks. The second k words are the sample's scratch row.
template <class Space, class Contribution>
struct UnorderedNumerator {
  using value_type = double[];
  using Samples = Kokkos::View<const double**, Kokkos::LayoutRight, typename Space::memory_space>;
  unsigned value_count;
  std::int64_t k;
  Contribution contribution;
  Samples samples;
  const double* w;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t j, double* acc) const {
    double* out = acc + k;
    for (std::int64_t c = 0; c < k; ++c) out[c] = 0.0;
    contribution(w, &samples(j, 0), out);
    for (std::int64_t c = 0; c < k; ++c) acc[c] += out[c];
  }
  KOKKOS_INLINE_FUNCTION void init(double* acc) const {
    for (unsigned c = 0; c < value_count; ++c) acc[c] = 0.0;
  }
  KOKKOS_INLINE_FUNCTION void join(double* dst, const double* src) const {
    for (std::int64_t c = 0; c < k; ++c) dst[c] += src[c];
  }
  KOKKOS_INLINE_FUNCTION void join(volatile double* dst, const volatile double* src) const {
    for (std::int64_t c = 0; c < k; ++c) dst[c] = dst[c] + src[c];  // C++20: no volatile +=
  }
};

template <class Space>
void divideByMass(const Kokkos::View<double*, typename Space::memory_space>& mean,
                  const Kokkos::View<double*, typename Space::memory_space>& numerator,
                  double mass) {
  Kokkos::parallel_for(
      "kfield::bench::mean", Kokkos::RangePolicy<Space>(0, mean.extent(0)),
      KOKKOS_LAMBDA(std::int64_t c) { mean(c) = numerator(c) / mass; });
}

// One replica, the same contribution and update program; only the combine differs.
template <class Space, class Contribution>
void unorderedStep(benchmark::State& state, Rule r, Contribution contribution) {
  using Memory = typename Space::memory_space;
  const auto& sys = leastSquares(r, state.range(0), state.range(1));
  const std::int64_t k = sys.parameters, m = sys.stateWords(), n = sys.totalMass();
  Kokkos::View<double**, Kokkos::LayoutRight, Memory> samples("samples", n, sys.sampleWidth);
  {
    auto h = Kokkos::create_mirror_view(samples);
    std::int64_t row = 0;
    for (const auto& owned : sys.owners) {
      for (const auto& sample : owned) {
        for (std::int64_t c = 0; c < sys.sampleWidth; ++c)
          h(row, c) = valueOf(sample[static_cast<std::size_t>(c)]);
        ++row;
      }
    }
    Kokkos::deep_copy(samples, h);
  }
  Kokkos::View<double*, Memory> params("params", k), st("state", m + 1), mean("mean", k),
      numerator("numerator", 2 * k), rate("rate", 1);
  {
    auto hs = Kokkos::create_mirror_view(st);
    for (std::int64_t c = 0; c < m; ++c)
      hs(c) = valueOf(sys.initialState[static_cast<std::size_t>(c)]);
    Kokkos::deep_copy(st, hs);
  }
  Kokkos::deep_copy(rate, valueOf(sys.rate));
  const PointwiseUpdate<Space> update(sys.update, k, m);
  const UnorderedNumerator<Space, Contribution> reduce{static_cast<unsigned>(2 * k), k,
                                                       contribution, samples, params.data()};
  // Check the reducer once at the initial (zero) parameters: numerator_0 = sum of -2 y x_0.
  Kokkos::parallel_reduce("kfield::bench::unordered_numerator", Kokkos::RangePolicy<Space>(0, n),
                          reduce, numerator);
  double expected = 0.0, got = 0.0;
  for (const auto& owned : sys.owners) {
    for (const auto& sample : owned) {
      expected += -2.0 * valueOf(sample[static_cast<std::size_t>(k)]) * valueOf(sample[0]);
    }
  }
  Kokkos::deep_copy(got, Kokkos::subview(numerator, 0));
  if (!(std::fabs(got - expected) <= 1e-9 * std::fabs(expected))) {
    fail(state, "the unordered numerator is wrong");
    return;
  }
  timeFenced<Space>(state, [&] {
    Kokkos::parallel_reduce("kfield::bench::unordered_numerator", Kokkos::RangePolicy<Space>(0, n),
                            reduce, numerator);
    divideByMass<Space>(mean, numerator, static_cast<double>(n));
    update.run(Space(), params.data(), st.data(), mean.data(), rate.data());
  });
  countSteps(state);
}

// One kind of step: canonical or unordered combine, C++ functor or pointwise program.
template <class Space>
void stepOf(benchmark::State& s, Rule r, bool ordered, bool program) {
  if (program) {
    const auto contribution =
        PointwiseContribution<Space>::of(leastSquares(r, s.range(0), s.range(1)));
    ordered ? learnerStep<Space>(s, r, contribution) : unorderedStep<Space>(s, r, contribution);
  } else {
    const rules::LeastSquaresGradient functor{s.range(0)};
    ordered ? learnerStep<Space>(s, r, functor) : unorderedStep<Space>(s, r, functor);
  }
}

// Sparse least squares on a wide model: a sample holds kNonzeros (coordinate, value) pairs
// and y; its contribution is 2 (w . x - y) x on those coordinates. Each sample still costs a
// k-word row (zeroed, then merged in the canonical tree), which is what this measures.
constexpr int kNonzeros = 8;
struct SparseLeastSquares {
  KOKKOS_INLINE_FUNCTION void operator()(const double* w, const double* sample, double* out) const {
    const double dot = innerSum(kNonzeros, Product{w, sample});
    const double scale = 2.0 * (dot - sample[2 * kNonzeros]);
    for (int j = 0; j < kNonzeros; ++j) {
      double& o = out[static_cast<std::int64_t>(sample[j])];
      o = o + scale * sample[kNonzeros + j];
    }
  }
  struct Product {
    const double* w;
    const double* sample;
    KOKKOS_INLINE_FUNCTION double operator()(std::int64_t j) const {
      return w[static_cast<std::int64_t>(sample[j])] * sample[kNonzeros + j];
    }
  };
};

void wideStep(benchmark::State& state) {
  const std::int64_t k = state.range(0), n = state.range(1);
  DataParallelSystem sys;
  sys.parameters = k;
  sys.sampleWidth = 2 * kNonzeros + 1;
  const rules::UpdateRule rule = rules::sgd(k);
  sys.update = rule.update;
  sys.initialParameters.assign(static_cast<std::size_t>(k), wordOf(0.0));
  sys.rate = wordOf(0.05);
  sys.contribution.slots = 2 * k + sys.sampleWidth;  // described by the functor, not run
  sys.owners.resize(kOwners);
  for (std::int64_t j = 0; j < n; ++j) {
    std::vector<Word> sample;
    for (int i = 0; i < kNonzeros; ++i) {
      const auto c = static_cast<std::uint64_t>(j * kNonzeros + i);
      sample.push_back(wordOf(std::floor(uniform01(4, c) * static_cast<double>(k))));
    }
    for (int i = 0; i < kNonzeros; ++i) {
      sample.push_back(wordOf(uniform01(5, static_cast<std::uint64_t>(j * kNonzeros + i))));
    }
    sample.push_back(wordOf(uniform01(6, static_cast<std::uint64_t>(j))));
    sys.owners[static_cast<std::size_t>(j * kOwners / n)].push_back(std::move(sample));
  }
  LearnerOptions options;
  options.checkEvery = 0;
  DataParallelLearner<Kokkos::DefaultExecutionSpace, SparseLeastSquares> learner(
      sys, SparseLeastSquares{}, options);
  learner.run(1);  // first touch
  timeFenced<Kokkos::DefaultExecutionSpace>(state, [&] { learner.run(1); });
  // The first step moves w off 0 (p = -rate * mean); the mean is nonzero where samples are.
  const LearnerState after = learner.state();
  double moved = 0.0;
  for (Word w : after.parameters) moved += valueOf(w) != 0.0 ? 1.0 : 0.0;
  if (!(moved > 0.0)) fail(state, "the wide step left every parameter at 0");
  countSteps(state);
  state.counters["threads"] = Kokkos::DefaultExecutionSpace().concurrency();
}

// Bytes per second of a copy of n doubles (read n, write n) on Space, the best of five: the
// bandwidth an update of the same words is measured against, in the same process.
template <class Space>
double copyBandwidth(std::int64_t n) {
  using Memory = typename Space::memory_space;
  Kokkos::View<double*, Memory> x("x", n), y("y", n);
  Kokkos::deep_copy(x, 1.0);
  Kokkos::deep_copy(y, 0.0);
  double best = 0.0;
  for (int r = 0; r < 5; ++r) {
    Space().fence();
    const auto start = std::chrono::steady_clock::now();
    Kokkos::parallel_for(
        "kfield::bench::copy", Kokkos::RangePolicy<Space>(0, n),
        KOKKOS_LAMBDA(std::int64_t i) { y(i) = x(i); });
    Space().fence();
    const std::chrono::duration<double> t = std::chrono::steady_clock::now() - start;
    best = std::max(best, 16.0 * static_cast<double>(n) / t.count());
  }
  return best;
}

// The update program alone on k = 10^7 coordinates (parameters, state, mean and rate on the
// device), and the same SGD written by hand: coordinates per second.
template <class Space>
void updateProgram(benchmark::State& state, Rule r) {
  using Memory = typename Space::memory_space;
  const std::int64_t k = kUpdateParams;
  const auto rule = ruleOf(r, k);
  const auto m = static_cast<std::int64_t>(rule.initialState.size());
  Kokkos::View<double*, Memory> params("params", k), st("state", m + 1), mean("mean", k),
      rate("rate", 1);
  Kokkos::deep_copy(mean, 1e-3);
  Kokkos::deep_copy(rate, 0.01);
  if (r == kAdam) {  // t = 0, beta1^0 = beta2^0 = 1
    Kokkos::deep_copy(Kokkos::subview(st, std::make_pair(2 * k + 1, 2 * k + 3)), 1.0);
  }
  const PointwiseUpdate<Space> update(rule.update, k, m);
  const double copy = copyBandwidth<Space>(k);
  double total = 0.0;
  for (auto _ : state) {
    Space().fence();
    const auto start = std::chrono::steady_clock::now();
    update.run(Space(), params.data(), st.data(), mean.data(), rate.data());
    Space().fence();
    const std::chrono::duration<double> t = std::chrono::steady_clock::now() - start;
    state.SetIterationTime(t.count());
    total += t.count();
  }
  const std::int64_t bytes = k * 8 * (r == kSgd ? 3 : 7);  // words read + written
  state.SetItemsProcessed(state.iterations() * k);
  state.SetBytesProcessed(state.iterations() * bytes);
  state.counters["copy_GBps"] = copy / 1e9;
  // The update's bytes per second over the copy's: 1 is the memory-bandwidth bound.
  state.counters["of_copy_bandwidth"] =
      static_cast<double>(bytes) * static_cast<double>(state.iterations()) / total / copy;
}

template <class Space>
void handWrittenSgd(benchmark::State& state) {
  using Memory = typename Space::memory_space;
  Kokkos::View<double*, Memory> params("params", kUpdateParams), mean("mean", kUpdateParams);
  Kokkos::deep_copy(mean, 1e-3);
  const double rate = 0.01;
  timeFenced<Space>(state, [&] {
    Kokkos::parallel_for(
        "kfield::bench::sgd", Kokkos::RangePolicy<Space>(0, kUpdateParams),
        KOKKOS_LAMBDA(std::int64_t i) { params(i) = params(i) - rate * mean(i); });
  });
  state.SetItemsProcessed(state.iterations() * kUpdateParams);
  state.SetBytesProcessed(state.iterations() * kUpdateParams * 8 * 3);
}

// Adam as rules::adam defines it, written by hand (the same operations in the same order):
// how fast the update program could be.
template <class Space>
void handWrittenAdam(benchmark::State& state) {
  using Memory = typename Space::memory_space;
  const std::int64_t k = kUpdateParams;
  Kokkos::View<double*, Memory> p("params", k), m1("m1", k), m2("m2", k), mean("mean", k);
  Kokkos::deep_copy(mean, 1e-3);
  const double rate = 0.01, beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8;
  double b1t = 1.0, b2t = 1.0;
  const double copy = copyBandwidth<Space>(k);
  double total = 0.0;
  for (auto _ : state) {
    b1t = b1t * beta1;
    b2t = b2t * beta2;
    const double c1 = 1.0 - b1t, c2 = 1.0 - b2t;
    Space().fence();
    const auto start = std::chrono::steady_clock::now();
    Kokkos::parallel_for(
        "kfield::bench::adam", Kokkos::RangePolicy<Space>(0, k), KOKKOS_LAMBDA(std::int64_t i) {
          const double g = mean(i);
          const double a = beta1 * m1(i) + (1.0 - beta1) * g;
          const double b = beta2 * m2(i) + (1.0 - beta2) * g * g;
          m1(i) = a;
          m2(i) = b;
          p(i) = p(i) - rate * (a / c1) / (impl::math::sqrt(b / c2) + epsilon);
        });
    Space().fence();
    const std::chrono::duration<double> t = std::chrono::steady_clock::now() - start;
    state.SetIterationTime(t.count());
    total += t.count();
  }
  const std::int64_t bytes = k * 8 * 7;
  state.SetItemsProcessed(state.iterations() * k);
  state.SetBytesProcessed(state.iterations() * bytes);
  state.counters["of_copy_bandwidth"] =
      static_cast<double>(bytes) * static_cast<double>(state.iterations()) / total / copy;
}

}  // namespace

void registerBenchmarks() {
  const auto step = [](benchmark::internal::Benchmark* b) {
    b->Unit(benchmark::kMillisecond)
        ->ArgNames({"k", "samples"})
        ->Args({1000, 100000})
        ->Args({100, 2000});
  };
  const auto update = [](benchmark::internal::Benchmark* b) {
    b->Unit(benchmark::kMillisecond)->Arg(kUpdateParams)->ArgName("k");
  };
  for (Rule r : {kSgd, kAdam}) {
    const std::string rule = r == kSgd ? "Sgd" : "Adam";
    for (bool ordered : {true, false}) {
      for (bool program : {false, true}) {
        const std::string name = std::string(ordered ? "Learner/Step/" : "Learner/UnorderedStep/") +
                                 (program ? "Program/" : "Functor/") + rule;
        registerForEachSpace(
            name,
            [r, ordered, program](auto t) {
              return [r, ordered, program](benchmark::State& s) {
                stepOf<typename decltype(t)::type>(s, r, ordered, program);
              };
            },
            step);
      }
    }
    registerForEachSpace(
        "Learner/Update/" + rule,
        [r](auto t) {
          using Space = typename decltype(t)::type;
          return [r](benchmark::State& s) { updateProgram<Space>(s, r); };
        },
        update);
  }
  // The default space only: one wide system is 10^6 x 10 words of stacks per thread.
  benchmark::RegisterBenchmark("Learner/WideStep/Functor/Sgd", wideStep)
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond)
      ->ArgNames({"k", "samples"})
      ->Args({1000000, 10000})
      ->Args({10000, 200});
  registerForEachSpace(
      "Learner/Update/HandWrittenAdam",
      [](auto t) { return handWrittenAdam<typename decltype(t)::type>; }, update);
  registerForEachSpace(
      "Learner/Update/HandWrittenSgd",
      [](auto t) { return handWrittenSgd<typename decltype(t)::type>; }, update);
}

}  // namespace kfield::bench
