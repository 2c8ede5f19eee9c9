// main() of every kfield benchmark suite: the runtime first, then Google Benchmark.
#include "BenchContext.hpp"

#include <kfield/rt/Runtime.hpp>

namespace kfield::bench {
void registerBenchmarks();  // each suite defines it
}

int main(int argc, char* argv[]) {
  kfield::Runtime runtime(argc, argv);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  kfield::bench::addKfieldContext();
  kfield::bench::registerBenchmarks();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
