// The sip module, libtessera_sip.so: SIP on tuned CPU kernels (core/sip, LLVM's MC layer) with the
// `sip` command. tessera-cli loads it when `sip` is used (ModuleCommands.cpp).
#include "../CommandContext.h"
#include "../Commands.h"

extern "C" void tessera_module_add_commands(CLI::App& app, tessera::cli::CommandContext& context) { tessera::cli::addSipCommand(app, context); }
