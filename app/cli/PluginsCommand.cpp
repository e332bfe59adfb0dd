// `tessera-cli plugins`: placeholder until the command lands; it refuses rather than pretends.
#include "CommandContext.h"
#include "Commands.h"

#include "support/Error.h"

#include <CLI/CLI.hpp>

namespace tessera::cli {

void addPluginsCommand(CLI::App& app, CommandContext& context) {
  CLI::App* command = app.add_subcommand("plugins", "(not built yet)");
  command->allow_extras();
  command->callback([&context] {
    (void)context;
    throw Error("`plugins` is not built yet");
  });
}

} // namespace tessera::cli
