#include "CommandContext.h"

#include "support/Error.h"

#include <nlohmann/json.hpp>

#include <cstdio>
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

} // namespace tessera::cli
