// Shards that stand in for bench rows in the launcher tests: each counts its runs in a file beside
// its output (so a test can prove nothing was computed twice) and writes "row N" as its result.
#pragma once

#include "launch/Shard.h"

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace tessera::testing {

// `script` runs after the run is counted, with $1 the temporary output; by default it sleeps
// `seconds` and writes the row.
inline launch::Shard countedShard(const std::string& dir, size_t i, double seconds = 0, const std::string& script = {}) {
  const std::string id = std::to_string(i);
  launch::Shard shard;
  shard.name = "row " + id;
  shard.output = dir + "/row-" + id + ".txt";
  const std::string body = script.empty() ? "sleep " + std::to_string(seconds) + "; printf 'row " + id + "' > \"$1\"" : script;
  shard.argv = {"sh", "-c", "echo run >> '" + dir + "/runs-" + id + "'; " + body, "shard", launch::kOutputPlaceholder};
  return shard;
}

inline std::vector<launch::Shard> countedShards(const std::string& dir, size_t count, double seconds = 0) {
  std::vector<launch::Shard> shards;
  for (size_t i = 0; i < count; ++i) shards.push_back(countedShard(dir, i, seconds));
  return shards;
}

inline std::string readText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// How often shard i's command started.
inline int runsOf(const std::string& dir, size_t i) {
  std::ifstream in(dir + "/runs-" + std::to_string(i));
  int runs = 0;
  for (std::string line; std::getline(in, line);) ++runs;
  return runs;
}

} // namespace tessera::testing
