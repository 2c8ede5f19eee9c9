// STREAM-like read and copy of doubles on each execution space.
#include "Stream.hpp"

#include <cstdint>

namespace kfield::bench {

template <class Space>
void readBandwidth(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  Kokkos::View<double*, typename Space::memory_space> x("x", n);
  Kokkos::deep_copy(x, 1.0);
  double sum = 0.0;
  timeFenced<Space>(state, [&] { sum = readLanes(Space(), x, n); });
  if (sum != static_cast<double>(n)) fail(state, "read sum is wrong");
  state.SetBytesProcessed(state.iterations() * n * std::int64_t(sizeof(double)));
  state.SetItemsProcessed(state.iterations() * n);
}

template <class Space>
void copyBandwidth(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  Kokkos::View<double*, typename Space::memory_space> x("x", n), y("y", n);
  Kokkos::deep_copy(x, 1.0);
  timeFenced<Space>(state, [&] {
    Kokkos::parallel_for(
        "kfield::bench::copy", Kokkos::RangePolicy<Space>(0, n),
        KOKKOS_LAMBDA(std::int64_t i) { y(i) = x(i); });
  });
  // Read x, write y: STREAM counts both.
  state.SetBytesProcessed(state.iterations() * n * std::int64_t(2 * sizeof(double)));
  state.SetItemsProcessed(state.iterations() * n);
}

void registerBenchmarks() {
  const auto sizes = [](benchmark::internal::Benchmark* b) {
    b->ArgName("doubles")->Arg(1 << 20)->Arg(1 << 24)->Arg(100000000);
  };
  registerForEachSpace(
      "Read", [](auto tag) { return readBandwidth<typename decltype(tag)::type>; }, sizes);
  registerForEachSpace(
      "Copy", [](auto tag) { return copyBandwidth<typename decltype(tag)::type>; }, sizes);
}

}  // namespace kfield::bench
