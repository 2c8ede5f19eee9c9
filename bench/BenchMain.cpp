// main() of every kfield benchmark suite: the runtime first, then Google Benchmark.
#include "BenchContext.hpp"

#include <kfield/rt/Runtime.hpp>

#include <cstddef>
#include <iostream>
#include <string>
#include <vector>

namespace kfield::bench {
void registerBenchmarks();  // each suite defines it
}

int main(int argc, char* argv[]) {
  kfield::Runtime runtime(argc, argv);
  bool toFile = false;  // --benchmark_out=FILE: Google Benchmark wants a file reporter too
  for (int i = 1; i < argc; ++i)
    toFile = toFile || std::string(argv[i]).rfind("--benchmark_out=", 0) == 0;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  kfield::bench::addKfieldContext();
  kfield::bench::registerBenchmarks();
  // Under mpirun every rank runs the suite; rank 0 alone reports.
  struct Silent : benchmark::BenchmarkReporter {
    bool ReportContext(const Context&) override { return true; }
    void ReportRuns(const std::vector<Run>&) override {}
  } silent, silentFile;
  const std::size_t ran = runtime.rank() == 0 ? benchmark::RunSpecifiedBenchmarks()
                          : toFile ? benchmark::RunSpecifiedBenchmarks(&silent, &silentFile)
                                   : benchmark::RunSpecifiedBenchmarks(&silent);
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
