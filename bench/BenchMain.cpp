// main() of every kfield benchmark suite: the runtime first, then Google Benchmark.
#include "BenchContext.hpp"

#include <kfield/rt/Runtime.hpp>

#include <cstddef>
#include <iostream>

namespace kfield::bench {
void registerBenchmarks();  // each suite defines it
}

int main(int argc, char* argv[]) {
  kfield::Runtime runtime(argc, argv);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  kfield::bench::addKfieldContext();
  kfield::bench::registerBenchmarks();
  const std::size_t ran = benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  // A filter that matches nothing, or a wrong answer, must not pass as a run.
  if (ran == 0) {
    std::cerr << argv[0] << ": no benchmark matches the filter\n";
    return 1;
  }
  if (kfield::bench::anyFailed()) {
    std::cerr << argv[0] << ": a benchmark's own check failed (see its error above)\n";
    return 1;
  }
  return 0;
}
