// kfield: the command-line program. Subcommands register in Command.hpp.
#include "Command.hpp"

#include <kfield/Config.hpp>
#include <kfield/Errors.hpp>
#include <kfield/rt/Runtime.hpp>
#include <kfield/rt/Topology.hpp>

#include <exception>
#include <iostream>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace kfield::cli {
namespace {
WorldRanks world;  // set once the runtime has started
}
WorldRanks worldRanks() { return world; }

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

  const std::vector<Command> commands{addInfoCommand(app), addRunCommand(app), addGradCommand(app),
                                      addInspectCommand(app), addReproCommand(app)};
  // Set after the subcommands exist, which keep refusing extras: what none of them takes
  // comes back here, to be named in one line below.
  app.allow_extras();

  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help, --version
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "kfield: " << e.what() << " (see kfield --help)\n";
    return kExitUsage;
  }

  const Command* chosen = nullptr;
  for (const Command& command : commands) {
    if (command.parser->parsed()) chosen = &command;
  }
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
  try {
    const int pus = threads > 0 ? kfield::readTopology().pus : 0;
    if (pus > 0 && threads > pus) {
      throw UserError("--threads " + std::to_string(threads) + " is more than this machine's " +
                      std::to_string(pus) + " processing units");
    }
    runtime.emplace(kfield::RuntimeOptions{threads});
    // Under mpirun every rank runs the command; rank 0 alone speaks (its errors are every
    // rank's: they all check the same options).
    world = {runtime->rank(), runtime->ranks()};
    if (runtime->rank() != 0) {
      std::cout.rdbuf(nullptr);
      std::cerr.rdbuf(nullptr);
    }
    return chosen->run();
  } catch (const UserError& e) {
    report(e.what());
    return kExitUsage;
  } catch (const std::exception& e) {
    report(std::string("internal error: ") + e.what());
    return kExitInternal;
  }
}
