// `tessera-cli plugins [--json F]`: the plugin search path and every plugin file found, with what
// it offers or why it did not load (not a Qt plugin, another interface version, no device), and the
// modules beside them.
#include "CommandContext.h"
#include "Commands.h"

#include "support/Module.h"

#ifdef TESSERA_HAVE_PLUGINS
#include "PluginHost.h"
#endif

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <memory>

namespace tessera::cli {

namespace {

struct PluginsOptions {
  std::string json;
};

int runPlugins(const PluginsOptions& options) {
  nlohmann::json report;
#ifndef TESSERA_HAVE_PLUGINS
  std::printf("plugin support: none (this tessera-cli was built without Qt 6 Core); measured:cpu and measured:cuda "
              "fall back to analytic:h200\n");
  report["plugin_support"] = false;
  report["search_path"] = nlohmann::json::array();
  report["plugins"] = nlohmann::json::array();
#else
  const plugins::PluginHost& host = plugins::PluginHost::global();
  report["plugin_support"] = true;
  report["search_path"] = nlohmann::json::array();
  std::printf("search path (TESSERA_PLUGIN_PATH first, then next to the executable):\n");
  if (host.directories().empty()) std::printf("  (none)\n");
  for (const plugins::PluginDirectory& directory : host.directories()) {
    std::printf("  %s  [%s]%s\n", directory.path.c_str(), directory.origin.c_str(), directory.exists ? "" : "  (missing)");
    report["search_path"].push_back({{"path", directory.path}, {"origin", directory.origin}, {"exists", directory.exists}});
  }
  report["plugins"] = nlohmann::json::array();
  std::printf("plugins:\n");
  if (host.plugins().empty()) std::printf("  (none found)\n");
  for (const plugins::PluginRecord& record : host.plugins()) {
    const char* state = record.available ? "available" : record.loaded ? "unavailable" : "not loaded";
    std::printf("  %-6s %-11s %s\n", record.name.empty() ? "-" : record.name.c_str(), state, record.file.c_str());
    if (record.available) std::printf("         device: %s\n", record.device.c_str());
    if (!record.problem.empty()) std::printf("         why: %s\n", record.problem.c_str());
    report["plugins"].push_back({{"file", record.file},
                                 {"name", record.name},
                                 {"loaded", record.loaded},
                                 {"available", record.available},
                                 {"device", record.device},
                                 {"problem", record.problem}});
  }
#endif
  // Not backends, but found beside them (support/Module.h): what a command that needs one would load.
  report["modules"] = nlohmann::json::array();
  std::printf("modules (loaded when a command needs one):\n");
  const std::vector<Module::Found> modules = Module::available();
  if (modules.empty()) std::printf("  (none found)\n");
  for (const Module::Found& module : modules) {
    std::printf("  %-8s %s\n", module.name.c_str(), module.file.c_str());
    report["modules"].push_back({{"name", module.name}, {"file", module.file}});
  }
  if (!options.json.empty()) writeJsonReport(report, options.json);
  return 0;
}

} // namespace

void addPluginsCommand(CLI::App& app, CommandContext& context) {
  auto options = std::make_shared<PluginsOptions>();
  CLI::App* command = app.add_subcommand("plugins", "List backend plugins (measured:cpu, measured:cuda, measured:ort) and why any did not load");
  command->add_option("--json", options->json, "Also write the report as JSON to this file");
  command->callback([options, &context] { context.exitCode = runPlugins(*options); });
}

} // namespace tessera::cli
