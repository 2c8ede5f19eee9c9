// The canonical reduction against Kokkos' own parallel_reduce and a STREAM-like read of the
// same bytes, measured in the same run: 10^8 doubles (and 10^9 on a GPU), and a 10^6 x 64
// plane over samples.
#include "Stream.hpp"

#include <kfield/sum/Canonical.hpp>

#include <cstdint>
#include <string>
#include <type_traits>

namespace kfield::bench {
namespace {

constexpr std::int64_t kDoubles = 100000000;
constexpr std::int64_t kDeviceDoubles = 1000000000;
constexpr std::int64_t kRows = 1000000;
constexpr std::int64_t kSamples = 64;

template <class Space>
using Vector = Kokkos::View<double*, typename Space::memory_space>;
template <class Space>
using Plane = Kokkos::View<double**, Kokkos::LayoutRight, typename Space::memory_space>;

// Values whose sums are exact in any order, so every variant can check its answer.
template <class Space>
Vector<Space> filled(std::int64_t n) {
  Vector<Space> x(Kokkos::ViewAllocateWithoutInitializing("x"), n);
  Kokkos::parallel_for(
      "kfield::bench::fill", Kokkos::RangePolicy<Space>(0, n),
      KOKKOS_LAMBDA(std::int64_t i) { x(i) = double(i % 8); });
  return x;
}
double expectedSum(std::int64_t n) {
  double total = 28.0 * double(n / 8);
  for (std::int64_t r = 0; r < n % 8; ++r) total += double(r);
  return total;
}

void countBytes(benchmark::State& state, std::int64_t n) {
  state.SetBytesProcessed(state.iterations() * n * std::int64_t(sizeof(double)));
  state.SetItemsProcessed(state.iterations() * n);
}

template <class Space>
void canonical(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  const auto x = filled<Space>(n);
  double sum = 0.0;
  timeFenced<Space>(state, [&] { sum = canonicalSum(Space(), x); });
  if (sum != expectedSum(n)) fail(state, "canonical sum is wrong");
  countBytes(state, n);
}

template <class Space>
void parallelReduce(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  const auto x = filled<Space>(n);
  double sum = 0.0;
  timeFenced<Space>(state, [&] {
    Kokkos::parallel_reduce(
        "kfield::bench::parallel_reduce", Kokkos::RangePolicy<Space>(0, n),
        KOKKOS_LAMBDA(std::int64_t i, double& partial) { partial += x(i); }, sum);
  });
  if (sum != expectedSum(n)) fail(state, "parallel_reduce sum is wrong");
  countBytes(state, n);
}

template <class Space>
void read(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  const auto x = filled<Space>(n);
  double sum = 0.0;
  timeFenced<Space>(state, [&] { sum = readLanes(Space(), x, n); });
  if (sum != expectedSum(n)) fail(state, "read sum is wrong");
  countBytes(state, n);
}

template <class Space>
Plane<Space> filledPlane() {
  Plane<Space> p(Kokkos::ViewAllocateWithoutInitializing("plane"), kRows, kSamples);
  Kokkos::parallel_for(
      "kfield::bench::fill_plane", Kokkos::RangePolicy<Space>(0, kRows),
      KOKKOS_LAMBDA(std::int64_t r) {
        for (std::int64_t s = 0; s < kSamples; ++s) p(r, s) = double(s % 8);
      });
  return p;
}

template <class Space>
void canonicalOverSamples(benchmark::State& state) {
  const auto p = filledPlane<Space>();
  Vector<Space> out("out", kRows);
  timeFenced<Space>(state, [&] { canonicalSumOverSamples(Space(), p, out); });
  countBytes(state, kRows * kSamples);
}

// What one writes without a contract: each row summed left to right by one thread.
template <class Space>
void rowLoopOverSamples(benchmark::State& state) {
  const auto p = filledPlane<Space>();
  Vector<Space> out("out", kRows);
  timeFenced<Space>(state, [&] {
    Kokkos::parallel_for(
        "kfield::bench::row_loop", Kokkos::RangePolicy<Space>(0, kRows),
        KOKKOS_LAMBDA(std::int64_t r) {
          double acc = 0.0;
          for (std::int64_t s = 0; s < kSamples; ++s) acc += p(r, s);
          out(r) = acc;
        });
  });
  countBytes(state, kRows * kSamples);
}

template <class Space>
void readPlane(benchmark::State& state) {
  const auto p = filledPlane<Space>();
  const Vector<Space> flat(p.data(), kRows * kSamples);
  timeFenced<Space>(state,
                    [&] { benchmark::DoNotOptimize(readLanes(Space(), flat, flat.size())); });
  countBytes(state, kRows * kSamples);
}

}  // namespace

void registerBenchmarks() {
  const auto vector = [](benchmark::internal::Benchmark* b) {
    b->ArgName("doubles")->Arg(kDoubles);
  };
  const auto plane = [](benchmark::internal::Benchmark* b) {
    b->ArgNames({"rows", "samples"})->Args({kRows, kSamples});
  };
  auto each = [](const char* name, auto make, auto shape) {
    registerForEachSpace(name, make, shape);
  };
  each(
      "Sum/Canonical", [](auto t) { return canonical<typename decltype(t)::type>; }, vector);
  each(
      "Sum/ParallelReduce", [](auto t) { return parallelReduce<typename decltype(t)::type>; },
      vector);
  each(
      "Sum/Read", [](auto t) { return read<typename decltype(t)::type>; }, vector);
  each(
      "Plane/CanonicalOverSamples",
      [](auto t) { return canonicalOverSamples<typename decltype(t)::type>; }, plane);
  each(
      "Plane/RowLoop", [](auto t) { return rowLoopOverSamples<typename decltype(t)::type>; },
      plane);
  each(
      "Plane/Read", [](auto t) { return readPlane<typename decltype(t)::type>; }, plane);
  // A GPU's figures are quoted at 10^9 doubles (8 GB): the reduction against the read of the
  // same bytes, in one run.
  forEachEnabledSpace([](auto tag) {
    using Space = typename decltype(tag)::type;
    if constexpr (!std::is_same<typename Space::memory_space, Kokkos::HostSpace>::value) {
      const std::string space = Space::name();
      benchmark::RegisterBenchmark(("Sum/Canonical/" + space).c_str(), canonical<Space>)
          ->UseManualTime()
          ->ArgName("doubles")
          ->Arg(kDeviceDoubles);
      benchmark::RegisterBenchmark(("Sum/Read/" + space).c_str(), read<Space>)
          ->UseManualTime()
          ->ArgName("doubles")
          ->Arg(kDeviceDoubles);
    }
  });
}

}  // namespace kfield::bench
