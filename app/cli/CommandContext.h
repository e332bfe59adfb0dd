// What every sub-command shares: its exit code, progress output and the --json report writer.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <string>

namespace tessera::cli {

struct CommandContext {
  int exitCode = 0;
  std::string commandLine; // as typed, quoted for a shell, so a report can say how to make it again
};

// argv as one line a POSIX shell reads back as the same words (words with spaces or quotes quoted).
std::string shellCommandLine(int argc, const char* const* argv);

// Writes `report` to `path` (pretty-printed); throws tessera::Error if the file cannot be written.
void writeJsonReport(const nlohmann::json& report, const std::string& path);

// One line of progress on stderr ("[3/9] bert ..."), so long work shows it is alive.
void reportProgress(const std::string& line);

} // namespace tessera::cli
