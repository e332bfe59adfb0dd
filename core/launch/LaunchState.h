// What a Slurm launch remembers in its work directory (launch.json), so that a driver killed and
// started again with the same directory adopts the tasks still queued and redoes nothing: the
// array jobs it submitted, and per shard whether it was submitted, its retries and its last node.
#pragma once

#include <string>
#include <vector>

namespace tessera::launch {

struct ShardRecord {
  bool submitted = false;
  int retries = 0;
  std::string node;
};

struct LaunchState {
  std::string fingerprint; // of the array script: the same shards, commands and outputs
  std::vector<std::string> jobs;
  std::vector<ShardRecord> shards;
};

// A stable digest of `text` (support/ContentHash.h), so that a new driver recognises its launch.
std::string fingerprintOf(const std::string& text);

// A state with no fingerprint when the file does not exist. Throws
// tessera::Error naming the file when it is malformed.
LaunchState readLaunchState(const std::string& path);
void writeLaunchState(const std::string& path, const LaunchState& state);

} // namespace tessera::launch
