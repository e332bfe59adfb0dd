// Shard states in words, and a launch's summary.
#include "launch/Launcher.h"
#include "launch/ShardProgress.h"

#include <algorithm>

namespace tessera::launch {

const char* shardStateName(ShardState state) {
  switch (state) {
  case ShardState::Waiting: return "WAITING";
  case ShardState::Pending: return "PENDING";
  case ShardState::Running: return "RUNNING";
  case ShardState::Done: return "DONE";
  case ShardState::Failed: return "FAILED";
  }
  return "?";
}

std::string describe(const ShardProgress& progress, size_t shardCount) {
  std::string line = "shard " + std::to_string(progress.index + 1) + "/" + std::to_string(shardCount) + " " + progress.name + ": " +
                     shardStateName(progress.state);
  if (!progress.node.empty()) line += (progress.state == ShardState::Running ? " on " : ", last on ") + progress.node;
  if (progress.retries > 0) line += " (retries " + std::to_string(progress.retries) + ")";
  if (!progress.note.empty()) line += ": " + progress.note;
  return line;
}

bool LaunchResult::allDone() const {
  return std::all_of(shards.begin(), shards.end(), [](const ShardProgress& p) { return p.state == ShardState::Done; });
}

std::vector<size_t> LaunchResult::failed() const {
  std::vector<size_t> indices;
  for (const ShardProgress& p : shards)
    if (p.state != ShardState::Done) indices.push_back(p.index);
  return indices;
}

} // namespace tessera::launch
