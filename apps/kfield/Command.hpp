// What every kfield subcommand shares: how it registers and how a user error ends it.
#ifndef KFIELD_APPS_COMMAND_HPP
#define KFIELD_APPS_COMMAND_HPP

#include <CLI/CLI.hpp>

#include <functional>
#include <stdexcept>
#include <string>

namespace kfield::cli {

// A mistake in what the user asked for: one line on stderr, exit code 2.
struct UserError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Exit codes: 0 success, 1 internal failure, 2 user error.
constexpr int kExitInternal = 1;
constexpr int kExitUsage = 2;

// A subcommand: its parser, and what runs once it parsed and the runtime is up.
struct Command {
  CLI::App* parser = nullptr;
  std::function<int()> run;
};

// Runs a subcommand's body: what the library refuses (std::invalid_argument) is a user error in
// its words, and running out of memory a user error saying what was asked.
int refusalsAsUserErrors(const std::function<int()>& body, const std::string& whatWasAsked);

// This process's MPI rank and the world's size (0 and 1 without MPI).
struct WorldRanks {
  int rank = 0, ranks = 1;
};
WorldRanks worldRanks();

// Checks made before the work starts, decided together: under mpirun a problem found on any
// rank (a file only rank 0 writes, a file one rank cannot read) ends every rank, in the words of
// the first rank that found it, printed once; in one process it is thrown as it is.
void checkOnEveryRank(const std::function<void()>& check);
// Any other failure under mpirun: when every rank has it, they all end with its exit code (rank
// 0 says it); when some rank goes on, the failing rank says it and ends the whole job
// (MPI_Abort), since the others may be waiting for it in a collective call.

Command addInfoCommand(CLI::App& app);
Command addRunCommand(CLI::App& app);
Command addGradCommand(CLI::App& app);
Command addInspectCommand(CLI::App& app);
Command addReproCommand(CLI::App& app);
Command addTrainCommand(CLI::App& app);
Command addPlotCommand(CLI::App& app);

}  // namespace kfield::cli

#endif
