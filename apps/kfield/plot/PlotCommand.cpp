// kfield plot: PNG pictures of a training checkpoint (the loss curve, learned fields beside the
// exact ones) or of an export (the last field over the devices' positions).
#include "../Command.hpp"
#include "Plot.hpp"

#include <memory>

namespace kfield::cli {

Command addPlotCommand(CLI::App& app) {
  struct PlotOptions {
    std::string file, out = "kfield-plots";
  };
  auto o = std::make_shared<PlotOptions>();
  CLI::App* cmd = app.add_subcommand(
      "plot",
      "PNG pictures of a kfield file: of a training checkpoint (kfield train), the loss curve\n"
      "and each learned field beside the exact one; of an export (kfield run --out), the last\n"
      "field over the devices' positions. Prints the paths it writes.\n"
      "Example: kfield plot kfield-train.h5 --out pictures");
  cmd->add_option("file", o->file, "A training checkpoint or an export")->required();
  cmd->add_option("--out", o->out, "The folder for the pictures (default kfield-plots)");
  return {cmd, [o] { return worldRanks().rank == 0 ? plotFile(o->file, o->out) : 0; }};
}

}  // namespace kfield::cli
