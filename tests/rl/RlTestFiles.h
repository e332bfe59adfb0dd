// Files and errors in the RL tests: a per-process scratch directory and the message of a
// tessera::Error.
#pragma once

#include "support/Error.h"

#include <filesystem>
#include <string>

#include <unistd.h>

namespace tessera::test {

// `name` in a scratch directory of this test process, `tag` telling the suites apart.
inline std::string tempPath(const std::string& tag, const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("tessera-" + tag + "-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

// The error `run` throws, or "" when it throws none.
template <typename Run>
std::string errorOf(Run run) {
  try {
    run();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

} // namespace tessera::test
