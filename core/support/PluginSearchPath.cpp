#include "support/PluginSearchPath.h"

#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace tessera {

std::string executableDirectory() {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : self.parent_path().string();
}

std::vector<PluginDirectory> pluginSearchPath() {
  std::vector<PluginDirectory> directories;
  auto add = [&](const std::string& path, const char* origin) {
    if (path.empty()) return;
    std::error_code ec;
    directories.push_back({path, origin, std::filesystem::is_directory(path, ec)});
  };
  if (const char* variable = std::getenv("TESSERA_PLUGIN_PATH"); variable && *variable) {
    std::stringstream entries(variable);
    for (std::string entry; std::getline(entries, entry, ':');) add(entry, "TESSERA_PLUGIN_PATH");
  }
  const std::string executable = executableDirectory();
  if (!executable.empty()) add((std::filesystem::path(executable) / "plugins").string(), "next to the executable");
  return directories;
}

} // namespace tessera
