#include "ModuleCommands.h"

#include "CommandContext.h"
#include "Commands.h"

#include "search/Strategy.h"
#if TESSERA_AGENTS_PUCT
#include "search/mcts/PriorModel.h"
#endif
#include "support/Error.h"
#include "support/Module.h"

#include <CLI/CLI.hpp>

#include <set>
#include <string>

namespace tessera::cli {

namespace {

// A module's commands: it exports tessera_module_add_commands (app/cli/modules).
using AddCommands = void(CLI::App&, CommandContext&);

struct ModuleCommand {
  const char* command;
  const char* module;
  const char* needs; // what the module brings, for its error
  const char* description; // the stand-in's: the module's command says the same (Commands.h)
};

[[maybe_unused]] constexpr ModuleCommand kAgentsCommand{"rl", "agents", "libtorch", kRlCommandDescription};
[[maybe_unused]] constexpr ModuleCommand kSipCommand{"sip", "sip", "LLVM", kSipCommandDescription};

// The sub-command the command line names: its first word that is not an option.
std::string chosenCommand(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (argv[i][0] != '-') return argv[i];
  return {};
}

Error moduleError(const ModuleCommand& command, const std::string& use, const Error& cause) {
  return Error(use + " needs the " + command.module + " module (" + command.needs + "): " + cause.what());
}

[[maybe_unused]] void addModuleCommand(CLI::App& app, CommandContext& context, const ModuleCommand& command, bool chosen) {
  if (chosen) {
    try {
      Module::load(command.module).function<AddCommands>("tessera_module_add_commands")(app, context);
      return;
    } catch (const Error& e) {
      // The command stays on the line, so --help still shows it; running it says why it cannot run.
      const Error error = moduleError(command, std::string("tessera-cli ") + command.command, e);
      CLI::App* standIn = app.add_subcommand(command.command, command.description);
      standIn->prefix_command();
      standIn->callback([error] { throw error; });
      return;
    }
  }
  app.add_subcommand(command.command, command.description)->prefix_command();
}

} // namespace

void registerModuleStrategies() {
#if TESSERA_AGENTS_MODULE
  // Loads the agents module, whose init registers its factories over these stand-ins; a module
  // that did not would send the stand-in back here, so each use is guarded against coming back.
  auto loadAgents = [](const std::string& use) {
    try {
      Module::load(kAgentsCommand.module);
    } catch (const Error& e) {
      throw moduleError(kAgentsCommand, use, e);
    }
  };
  struct Reentry {
    std::set<std::string>& uses;
    const std::string& use;
    Reentry(std::set<std::string>& uses, const std::string& use) : uses(uses), use(use) {
      if (!uses.insert(use).second) throw Error("the agents module did not register " + use);
    }
    ~Reentry() { uses.erase(use); }
  };
  static thread_local std::set<std::string> resolving;
  for (const char* name : {"xrlflow", "rlflow"}) {
    registerStrategy(name, [loadAgents, use = "strategy '" + std::string(name) + "'", strategy = std::string(name)]() -> std::unique_ptr<Strategy> {
      Reentry guard(resolving, use);
      loadAgents(use);
      return makeStrategy(strategy);
    });
  }
#if TESSERA_AGENTS_PUCT
  mcts::registerPriorModelLoader([loadAgents](const std::string& path, std::span<const Rule* const> rules) {
    const std::string use = "--param prior (the PUCT agent)";
    Reentry guard(resolving, use);
    loadAgents(use);
    return mcts::loadPriorModel(path, rules);
  });
#endif
#endif
}

void addModuleCommands(CLI::App& app, CommandContext& context, int argc, char** argv) {
  [[maybe_unused]] const std::string chosen = chosenCommand(argc, argv);
#if TESSERA_AGENTS_MODULE
  addModuleCommand(app, context, kAgentsCommand, chosen == kAgentsCommand.command);
#else
  addRlCommand(app, context); // a build without libtorch: rl says what is missing
#endif
#if TESSERA_SIP_MODULE
  addModuleCommand(app, context, kSipCommand, chosen == kSipCommand.command);
#endif
}

} // namespace tessera::cli
