// What the launched shards of `rl train` share, whatever the agent (RLFlow's world-model episodes,
// PUCT's self-play games): their command line, this program on the training's models, cost, rules
// and settings with every path absolute (a shard may start in another directory or on another
// node); a shard's FIRST:COUNT; and the failure of a launch that left shards undone.
#pragma once

#include "RlTrainOptions.h"

#include "launch/Launcher.h"

#include <string>
#include <utility>
#include <vector>

namespace tessera::cli {

std::string absolutePath(const std::string& path);

// `tessera-cli rl train --agent A --models … --seed … --cost …` and the options the training was
// given (rules, candidates, horizon, --param, input shapes); the caller adds its shard's flags and
// `--out {output}`.
std::vector<std::string> rlTrainShardCommand(const RlTrainOptions& options);

// FIRST:COUNT of a hidden shard flag (`flag` names it in the error).
std::pair<int, int> shardRange(const std::string& flag, const std::string& text);

// Throws tessera::Error when some of `shards` did not finish: how many, of what, and how to collect
// only those (the same --work-dir).
void requireShardsDone(const launch::LaunchResult& result, const std::string& what, const std::string& workDir);

} // namespace tessera::cli
