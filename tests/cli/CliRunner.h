// Runs tessera-cli as a user would and captures what it prints and its exit code.
#pragma once

#include <string>

namespace tessera::test {

struct CliResult {
  int exitCode = -1;
  std::string output; // stdout and stderr together
};

// `arguments` is appended to the executable path as-is (quote paths yourself).
CliResult runCli(const std::string& arguments);

// A fresh, empty directory under the system temp dir, unique per call.
std::string makeTempDir(const std::string& tag);

} // namespace tessera::test
