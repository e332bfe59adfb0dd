// Runs tessera-cli as a user would and captures what it prints and its exit code.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace tessera::test {

struct CliResult {
  int exitCode = -1;
  std::string output; // stdout and stderr together
};

// `arguments` is appended to the executable path as-is (quote paths yourself).
CliResult runCli(const std::string& arguments);
// A whole shell command line (environment settings, another program), run the same way.
CliResult runShell(const std::string& commandLine);

// A fresh, empty directory under the system temp dir, unique per call.
std::string makeTempDir(const std::string& tag);

nlohmann::json readJson(const std::string& path);

// The run failed the way bad input should: exit 1, an error line that mentions `mentions`.
void expectCleanError(const CliResult& result, const std::string& mentions);

} // namespace tessera::test
