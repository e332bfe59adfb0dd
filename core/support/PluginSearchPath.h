// Where Tessera looks for what it loads at run time: the backend plugins (plugins/api's PluginHost)
// and the modules (support/Module.h). The one place that knows these directories.
#pragma once

#include <string>
#include <vector>

namespace tessera {

struct PluginDirectory {
  std::string path;
  std::string origin; // "TESSERA_PLUGIN_PATH" or "next to the executable"
  bool exists = false;
};

// $TESSERA_PLUGIN_PATH's entries (colon-separated, searched first), then <directory of the
// running executable>/plugins.
std::vector<PluginDirectory> pluginSearchPath();

// The directory of the running executable, or empty where /proc/self/exe cannot be read.
std::string executableDirectory();

} // namespace tessera
