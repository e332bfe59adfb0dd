// The commands and strategies that live in modules (support/Module.h, app/cli/modules): tessera-cli
// lists them at start without loading anything, and loads a module only when one of them is used,
// so `info`, `run`, `optimize --strategy greedy` and the rest never load libtorch or LLVM.
#pragma once

namespace CLI {
class App;
}

namespace tessera::cli {

struct CommandContext;

// The agents module's strategies (xrlflow, rlflow), registered by name: the first makeStrategy of
// one loads the module, whose own registration then replaces the stand-in.
void registerModuleStrategies();

// `rl` (the agents module) and `sip` (the sip module): the real command from its module when
// the command line chooses it, else a stand-in that lists it in --help. Where the module cannot be
// loaded, the chosen command fails with the loader's error (which module, where it looked, why).
void addModuleCommands(CLI::App& app, CommandContext& context, int argc, char** argv);

} // namespace tessera::cli
