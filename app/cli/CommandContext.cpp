#include "CommandContext.h"

#include "support/Error.h"
#include "support/ShellQuote.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>

namespace tessera::cli {

void writeJsonReport(const nlohmann::json& report, const std::string& path) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw errorInFile(path, "cannot open for writing");
  out << report.dump(2) << '\n';
  if (!out) throw errorInFile(path, "write failed");
}

void reportProgress(const std::string& line) {
  std::fprintf(stderr, "%s\n", line.c_str());
  std::fflush(stderr);
}

std::string shellCommandLine(int argc, const char* const* argv) {
  // The program by its name, not the path it was started from, so the line reads the same anywhere.
  std::string line = argc > 0 ? std::filesystem::path(argv[0]).filename().string() : "tessera-cli";
  for (int i = 1; i < argc; ++i) line += " " + shellWord(argv[i]);
  return line;
}

} // namespace tessera::cli
