#include "RlTrainShards.h"

#include "support/Error.h"

#include <charconv>
#include <filesystem>

namespace tessera::cli {

std::string absolutePath(const std::string& path) { return std::filesystem::absolute(path).lexically_normal().string(); }

std::vector<std::string> rlTrainShardCommand(const RlTrainOptions& options) {
  std::vector<std::string> argv = {selfExecutable(), "rl", "train", "--agent", options.agent, "--models"};
  for (const std::string& model : options.models) argv.push_back(absolutePath(model));
  const std::string cost = options.cost.rfind("table:", 0) == 0 ? "table:" + absolutePath(options.cost.substr(6)) : options.cost;
  argv.insert(argv.end(), {"--seed", std::to_string(options.seed), "--cost", cost});
  if (!options.rules.empty()) argv.insert(argv.end(), {"--rules", absolutePath(options.rules)});
  if (options.maxCandidates > 0) argv.insert(argv.end(), {"--max-candidates", std::to_string(options.maxCandidates)});
  if (options.horizon > 0) argv.insert(argv.end(), {"--horizon", std::to_string(options.horizon)});
  for (const std::string& parameter : options.rlflow.parameters) argv.insert(argv.end(), {"--param", parameter});
  for (const std::string& shape : options.shapes.inputShapes) argv.insert(argv.end(), {"--input-shape", shape});
  for (const std::string& dim : options.shapes.dims) argv.insert(argv.end(), {"--dim", dim});
  return argv;
}

std::pair<int, int> shardRange(const std::string& flag, const std::string& text) {
  const size_t colon = text.find(':');
  int first = -1, count = -1;
  const char* end = text.data() + text.size();
  if (colon == std::string::npos || std::from_chars(text.data(), text.data() + colon, first).ptr != text.data() + colon ||
      std::from_chars(text.data() + colon + 1, end, count).ptr != end || first < 0 || count < 1)
    throw Error(flag + " " + text + ": expected FIRST:COUNT");
  return {first, count};
}

void requireShardsDone(const launch::LaunchResult& result, const std::string& what, const std::string& workDir) {
  if (result.allDone()) return;
  throw Error("rl train: " + std::to_string(result.failed().size()) + " of " + std::to_string(result.shards.size()) + " " + what +
              " shard(s) did not finish (see the launch lines above); run again with --work-dir " + workDir + " to collect only those");
}

} // namespace tessera::cli
