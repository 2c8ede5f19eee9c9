// kfield inspect: what a kfield HDF5 file holds, its checksums verified on request.
#include "Command.hpp"

#include <kfield/io/Inspect.hpp>

#include <iostream>
#include <memory>

namespace kfield::cli {

Command addInspectCommand(CLI::App& app) {
  struct Options {
    std::string file;
    bool verify = false;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "inspect",
      "Show what a kfield HDF5 file holds (kind, provenance, identities, contract, shapes).\n"
      "Example: kfield inspect run.h5 --verify");
  cmd->add_option("file", o->file, "A checkpoint or export kfield wrote")->required();
  cmd->add_flag("--verify", o->verify,
                "Read every dataset (Fletcher32 checksums) and load the file as its kind");
  cmd->fallthrough();
  return {cmd, [o] {
            return refusalsAsUserErrors(
                [&] {
                  std::cout << io::inspect(o->file, o->verify);
                  return 0;
                },
                "inspecting " + o->file);
          }};
}

}  // namespace kfield::cli
