// What makes a benchmark figure comparable, recorded in Google Benchmark's JSON context.
#ifndef KFIELD_BENCH_BENCHCONTEXT_HPP
#define KFIELD_BENCH_BENCHCONTEXT_HPP

#include <benchmark/benchmark.h>
#include <Kokkos_Core.hpp>

#include <chrono>
#include <functional>
#include <string>

namespace kfield::bench {

// Adds kfield's revision, Kokkos' version and backends, threads, topology and binding,
// compiler, flags and build type to the context. Needs an initialised Kokkos.
void addKfieldContext();

// A benchmark whose own answer is wrong: skipped with the reason, and the suite exits 1.
void fail(benchmark::State& state, const std::string& why);
bool anyFailed();

// Registers one benchmark per enabled execution space, named "<name>/<Space>".
// make(tag) returns the benchmark's body for that space.
template <class Make>
void registerForEachSpace(const std::string& name, Make&& make,
                          const std::function<void(benchmark::internal::Benchmark*)>& shape);

// Times body() between fences: the figure is the kernel's, not its launch's.
template <class Space, class Body>
void timeFenced(benchmark::State& state, Body&& body) {
  for (auto _ : state) {
    Space().fence();
    const auto start = std::chrono::steady_clock::now();
    body();
    Space().fence();
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    state.SetIterationTime(elapsed.count());
  }
}

}  // namespace kfield::bench

#include <kfield/backends/ExecutionSpaces.hpp>

namespace kfield::bench {

template <class Make>
void registerForEachSpace(const std::string& name, Make&& make,
                          const std::function<void(benchmark::internal::Benchmark*)>& shape) {
  forEachEnabledSpace([&](auto tag) {
    using Space = typename decltype(tag)::type;
    auto* b = benchmark::RegisterBenchmark((name + "/" + Space::name()).c_str(), make(tag));
    b->UseManualTime();
    shape(b);
  });
}

}  // namespace kfield::bench

#endif
