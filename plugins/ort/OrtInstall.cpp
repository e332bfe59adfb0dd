#include "OrtInstall.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include <unistd.h>

namespace tessera::ort {

namespace {

namespace fs = std::filesystem;

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

std::string findOnPath(const std::string& program) {
  std::istringstream path(environment("PATH"));
  for (std::string dir; std::getline(path, dir, ':');) {
    if (dir.empty()) continue;
    fs::path candidate = fs::path(dir) / program;
    std::error_code ec;
    if (fs::is_regular_file(candidate, ec) && access(candidate.c_str(), X_OK) == 0) return candidate.string();
  }
  return {};
}

} // namespace

OrtInstall findOrtInstall() {
  OrtInstall install;
  install.node = environment("TESSERA_NODE");
  if (install.node.empty()) install.node = findOnPath("node");
  if (install.node.empty()) install.node = findOnPath("nodejs");
  install.prefix = environment("TESSERA_ORT_PREFIX");
  if (install.prefix.empty()) install.prefix = TESSERA_ORT_DEFAULT_PREFIX;
  install.script = environment("TESSERA_ORT_WORKER");
  if (install.script.empty()) install.script = TESSERA_ORT_DEFAULT_WORKER;
  install.cpuClock = environment("TESSERA_ORT_CLOCK") == "cpu";
  if (std::string threads = environment("TESSERA_ORT_THREADS"); !threads.empty()) install.threads = std::max(1, std::atoi(threads.c_str()));

  const std::string setup = " (.ci/install-deps.sh installs it; TESSERA_ORT_PREFIX names another npm prefix)";
  std::error_code ec;
  if (install.node.empty())
    install.problem = "Node.js is not installed (no node or nodejs on PATH; TESSERA_NODE names one)";
  else if (!fs::is_regular_file(fs::path(install.prefix) / "node_modules/onnxruntime-node/package.json", ec))
    install.problem = "npm's onnxruntime-node is not installed in " + install.prefix + setup;
  else if (!fs::is_regular_file(fs::path(install.prefix) / "node_modules/onnxruntime-node/bin/napi-v6/linux/x64/libonnxruntime.so.1", ec))
    install.problem = "onnxruntime-node in " + install.prefix + " has no Linux x64 runtime (bin/napi-v6/linux/x64/libonnxruntime.so.1)";
  else if (!fs::is_regular_file(install.script, ec))
    install.problem = "the ONNX Runtime worker script " + install.script + " is missing (TESSERA_ORT_WORKER names another)";
  return install;
}

} // namespace tessera::ort
