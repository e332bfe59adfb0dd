// The agents module, libtessera_agents.so: the RL agents (core/xrlflow, core/rlflow), which need
// libtorch, with the `rl` command. tessera-cli loads it when `rl` or an agent's strategy is used
// (ModuleCommands.cpp).
#include "../CommandContext.h"
#include "../Commands.h"

#include "rlflow/RlflowStrategy.h"
#include "xrlflow/XrlflowStrategy.h"
#if TESSERA_AGENTS_PUCT
#include "puct/PuctAgent.h"
#endif

// Replaces the program's stand-ins for the agents' strategies (and MCTS's prior loader) with the real ones.
extern "C" void tessera_module_init() {
  tessera::registerXrlflowStrategy();
  tessera::registerRlflowStrategy();
#if TESSERA_AGENTS_PUCT
  tessera::registerPuctPriors();
#endif
}

extern "C" void tessera_module_add_commands(CLI::App& app, tessera::cli::CommandContext& context) { tessera::cli::addRlCommand(app, context); }
