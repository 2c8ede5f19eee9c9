// kfield: the command-line program. Subcommands register in Command.hpp.
#include "Command.hpp"
#include "ExactNumbers.hpp"

#include <kfield/Config.hpp>
#include <kfield/Errors.hpp>
#include <kfield/rt/Runtime.hpp>
#include <kfield/rt/Topology.hpp>

#include <kfield/Errors.hpp>
#if KFIELD_ENABLE_MPI
#include <kfield/rt/Mpi.hpp>

#include <mpi.h>
#endif

#include <charconv>
#include <chrono>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace kfield::cli {
namespace {
WorldRanks world;  // set once the runtime has started
#if KFIELD_ENABLE_MPI
MPI_Comm failures = MPI_COMM_NULL;
#endif
std::streambuf* errors = nullptr;  // stderr, kept on ranks other than 0 (muted there)

// Before MPI starts: this process's rank as the launcher tells it (Open MPI, MPICH, Slurm's
// PMI), so that only rank 0 reports a mistake on the command line.
int launcherRank() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"}) {
    if (const char* value = std::getenv(name)) return std::atoi(value);
  }
  return 0;
}
}  // namespace
WorldRanks worldRanks() { return world; }

void checkOnEveryRank(const std::function<void()>& check) {
  std::string problem;
  try {
    check();
  } catch (const UserError& e) {
    if (world.ranks == 1) throw;
    problem = e.what();
  } catch (const std::invalid_argument& e) {
    if (world.ranks == 1) throw;
    problem = reason(e);
  } catch (const std::exception& e) {  // out of memory, a failing library call: all the same
    if (world.ranks == 1) throw;
    problem = std::string("internal error: ") + e.what();
  }
#if KFIELD_ENABLE_MPI
  if (world.ranks > 1) {
    try {
      kfield::failOnEveryRank("kfield::cli", problem, MPI_COMM_WORLD);
    } catch (const std::invalid_argument& e) {
      throw UserError(reason(e));
    }
  }
#endif
}

namespace {
// --threads, and the environment's thread counts Kokkos reads when it is not given: at most the
// machine's processing units (more fail inside the OpenMP runtime), whole numbers.
void requireThreadsFit(int threads) {
  std::vector<std::pair<std::string, std::string>> asked;  // (what, value)
  if (threads > 0) asked.emplace_back("--threads ", std::to_string(threads));
  for (const char* name : {"KOKKOS_NUM_THREADS", "OMP_NUM_THREADS"}) {
    const char* value = std::getenv(name);
    if (threads == 0 && value && *value) asked.emplace_back(std::string(name) + "=", value);
  }
  if (asked.empty()) return;
  const int pus = kfield::readTopology().pus;
  for (const auto& [what, value] : asked) {
    // OMP_NUM_THREADS may list nested levels ("4,2"): the first is the one that runs.
    const std::string first = value.substr(0, value.find(','));
    long long n = 0;
    const auto parsed = std::from_chars(first.data(), first.data() + first.size(), n);
    if (parsed.ec != std::errc() || parsed.ptr != first.data() + first.size() || n < 1) {
      throw UserError(what + "'" + kfield::printable(value) + "' is not a whole number >= 1");
    }
    if (pus > 0 && n > pus) {
      throw UserError(what + first + " is more than this machine's " + std::to_string(pus) +
                      " processing units");
    }
  }
}
}  // namespace

int refusalsAsUserErrors(const std::function<int()>& body, const std::string& whatWasAsked) {
  try {
    return body();
  } catch (const std::invalid_argument& e) {  // the library refused what was asked
    throw UserError(reason(e));
  } catch (const std::bad_alloc&) {
    throw UserError("out of memory " + whatWasAsked);
  }
}
}  // namespace kfield::cli

int main(int argc, char* argv[]) {
  using namespace kfield::cli;
  CLI::App app{
      "kfield: aggregate (field-calculus) programs on Kokkos, bitwise reproducible.\n"
      "Example: kfield run hop-gradient --network grid:1000x1000",
      "kfield"};
  app.require_subcommand(0, 1);
  app.set_version_flag("--version", std::string(KFIELD_VERSION_STRING));
  int threads = 0;
  app.add_option("--threads", threads, "Host threads for OpenMP (default: Kokkos' choice)")
      ->check(CLI::NonNegativeNumber);

  const std::vector<Command> commands{
      addInfoCommand(app),  addRunCommand(app),   addGradCommand(app), addInspectCommand(app),
      addReproCommand(app), addTrainCommand(app), addPlotCommand(app)};
  // Set after the subcommands exist, which keep refusing extras: what none of them takes
  // comes back here, to be named in one line below.
  app.allow_extras();
  requireExactNumbers(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help, --version
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    if (launcherRank() == 0) std::cerr << "kfield: " << e.what() << " (see kfield --help)\n";
    return kExitUsage;
  }

  const Command* chosen = nullptr;
  for (const Command& command : commands) {
    if (command.parser->parsed()) chosen = &command;
  }
  if (launcherRank() != 0) errors = std::cerr.rdbuf(nullptr);  // a mistake below: rank 0 says it
  if (!app.remaining().empty()) {
    const std::string first = app.remaining().front();
    const bool option = first.rfind('-', 0) == 0;
    std::cerr << "kfield: " << (chosen || option ? "unexpected argument '" : "unknown subcommand '")
              << first << "' (see kfield --help)\n";
    return kExitUsage;
  }
  if (!chosen) {
    std::cerr << "kfield: a subcommand is required (see kfield --help)\n";
    return kExitUsage;
  }

  // The runtime outlives the handlers below: rank 0 writes its error before any rank stops
  // MPI, so mpiexec cannot end the job (or print its own lines) before the error is out.
  std::optional<kfield::Runtime> runtime;
  // One write per message: under mpiexec, lines from other processes can land between writes.
  const auto report = [](const std::string& line) { std::cerr << ("kfield: " + line + "\n"); };
  // Under mpirun, a failure not every rank shares ends the whole job with its code, said by the
  // rank that had it (the other ranks may be waiting for this one).
  const auto endTogether = [](const std::string& line, int code) {
#if KFIELD_ENABLE_MPI
    if (world.ranks > 1 && failures != MPI_COMM_NULL) {
      // Every rank failed too (an error they decided together): they all end normally, rank 0
      // having said it. Otherwise the others may wait for this rank for ever: it speaks and
      // ends the job.
      MPI_Request all = MPI_REQUEST_NULL;
      int done = 0;
      MPI_Ibarrier(failures, &all);
      for (int waited = 0; !done && waited < 300; ++waited) {
        MPI_Test(&all, &done, MPI_STATUS_IGNORE);
        if (!done) std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
      if (done) return;
      if (world.rank != 0 && errors) {
        std::cerr.rdbuf(errors);
        std::cerr << ("kfield: " + line + " (rank " + std::to_string(world.rank) + ")\n")
                  << std::flush;
      }
      MPI_Abort(MPI_COMM_WORLD, code);
    }
#else
    (void)line, (void)code;
#endif
  };
  try {
    requireThreadsFit(threads);
    // --threads decides: Kokkos refuses to start when the environment asks for another count.
    if (threads > 0) ::unsetenv("KOKKOS_NUM_THREADS");
    // MPI only under an MPI launcher: a singleton's MPI start-up (a daemon) would be most of
    // a small run's time.
    runtime.emplace(kfield::RuntimeOptions{threads, kfield::launchedByMpi()});
    // Under mpirun every rank runs the command; rank 0 alone speaks (its errors are every
    // rank's: they all check the same options).
    world = {runtime->rank(), runtime->ranks()};
#if KFIELD_ENABLE_MPI
    // The communicator on which failing ranks find each other (endTogether), apart from the
    // work's own collective calls.
    if (world.ranks > 1) MPI_Comm_dup(MPI_COMM_WORLD, &failures);
#endif
    if (runtime->rank() != 0) {
      std::cout.rdbuf(nullptr);
      std::streambuf* was = std::cerr.rdbuf(nullptr);
      if (!errors) errors = was;
    } else if (errors) {
      std::cerr.rdbuf(errors);  // the launcher's rank was not MPI's
    }
    return chosen->run();
  } catch (const UserError& e) {
    report(e.what());
    std::cerr.flush();
    endTogether(e.what(), kExitUsage);
    return kExitUsage;
  } catch (const std::exception& e) {
    report(std::string("internal error: ") + e.what());
    std::cerr.flush();
    endTogether(std::string("internal error: ") + e.what(), kExitInternal);
    return kExitInternal;
  }
}
