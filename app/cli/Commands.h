// The sub-commands of tessera-cli. Each registers itself on the app and, when chosen, runs and
// stores its exit code in the context.
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace tessera::cli {

struct CommandContext;

void addInfoCommand(CLI::App& app, CommandContext& context);
void addRunCommand(CLI::App& app, CommandContext& context);
void addVerifyCommand(CLI::App& app, CommandContext& context);
void addSamplesCommand(CLI::App& app, CommandContext& context);
void addRulesCommand(CLI::App& app, CommandContext& context);
// `rules synthesize`, under `rules`.
void addRulesSynthesizeCommand(CLI::App& rules, CommandContext& context);
void addOptimizeCommand(CLI::App& app, CommandContext& context);
void addExtractCommand(CLI::App& app, CommandContext& context);
void addSessionCommand(CLI::App& app, CommandContext& context);
void addBenchCommand(CLI::App& app, CommandContext& context);
void addPluginsCommand(CLI::App& app, CommandContext& context);
void addCostsCommand(CLI::App& app, CommandContext& context);
void addTuneCommand(CLI::App& app, CommandContext& context);
void addRlCommand(CLI::App& app, CommandContext& context);
// `sip`, in builds with LLVM: in the sip module (modules/).
void addSipCommand(CLI::App& app, CommandContext& context);
// What --help says of the commands that live in modules, also while their module is not loaded
// (ModuleCommands.cpp).
inline constexpr const char* kRlCommandDescription = "Reinforcement-learning agents that rewrite graphs (needs a build with libtorch)";
inline constexpr const char* kSipCommandDescription =
    "SIP: reorder a tuned CPU kernel's memory instructions by simulated annealing, every candidate tested (issue #34)";
// `costs accuracy` and `costs calibrate` under `costs`, sharing its --cache and --json values.
void addCostsAccuracyCommands(CLI::App& costs, CommandContext& context, const std::string& cache, const std::string& json);

} // namespace tessera::cli
