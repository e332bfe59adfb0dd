// `tessera-cli session`: placeholder until the command lands; it refuses rather than pretends.
#include "CommandContext.h"
#include "Commands.h"

#include "support/Error.h"

#include <CLI/CLI.hpp>

namespace tessera::cli {

void addSessionCommand(CLI::App& app, CommandContext& context) {
  CLI::App* command = app.add_subcommand("session", "(not built yet)");
  command->allow_extras();
  command->callback([&context] {
    (void)context;
    throw Error("`session` is not built yet");
  });
}

} // namespace tessera::cli
