// tessera-cli entry point: parses the command line and maps errors to one line and an exit code.
#include "CommandContext.h"
#include "Commands.h"
#include "ModuleCommands.h"

#include "support/Error.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>
#include <new>

int main(int argc, char** argv) {
  using namespace tessera::cli;
  CLI::App app{"tessera-cli: tensor-graph superoptimisation (inspect, run, verify and optimise ONNX models)"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "tessera-cli 0.1.0");
  // Strategies register before the commands are added: their help texts and option checks list
  // core's strategyNames(), which then includes them. Those of modules load their module when used.
  registerModuleStrategies();
  CommandContext context;
  context.commandLine = shellCommandLine(argc, argv);
  addInfoCommand(app, context);
  addRunCommand(app, context);
  addVerifyCommand(app, context);
  addSamplesCommand(app, context);
  addRulesCommand(app, context);
  addOptimizeCommand(app, context);
  addExtractCommand(app, context);
  addSessionCommand(app, context);
  addBenchCommand(app, context);
  addPluginsCommand(app, context);
  addCostsCommand(app, context);
  addTuneCommand(app, context);
  addModuleCommands(app, context, argc, argv);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const tessera::Error& e) {
    std::fprintf(stderr, "tessera-cli: error: %s\n", e.what());
    return 1;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "tessera-cli: error: out of memory\n");
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tessera-cli: internal error: %s\n", e.what());
    return 3;
  }
  return context.exitCode;
}
