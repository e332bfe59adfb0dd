// The shard board: what the driver of a launch knows about each shard (state, node, retries, why),
// written to the work directory (shards.json) at every change, so that the explorer's Jobs panel,
// or anyone with the directory, sees the launch as the driver's progress lines tell it.
#pragma once

#include "launch/ShardProgress.h"

#include <string>
#include <vector>

namespace tessera::launch {

inline constexpr const char* kShardBoardFile = "shards.json";

struct ShardBoard {
  std::string launcher;  // "local", "slurm"
  std::string command;   // what launched the shards ("bench", "rl train", …)
  std::string updated;   // UTC, ISO 8601, when the driver last wrote it
  bool finished = false; // the driver's run of the shards returned
  std::vector<ShardProgress> shards;
};

// Writes the board into `workDir` atomically, stamped with the time.
void writeShardBoard(const std::string& workDir, ShardBoard& board);

// The board in `workDir`; throws tessera::Error naming the file when it is missing or malformed.
ShardBoard readShardBoard(const std::string& workDir);

// The directory whose board shows where the launches of `workDir` stand. A command that launches
// several times in a row keeps each launch in a directory of its own below its --work-dir (rl train
// --agent puct: generation-1, generation-2, …, final); for such a directory, the subdirectory whose
// board was written last, which is where its driver is now. `workDir` itself when it holds a board,
// or when no subdirectory does (readShardBoard then says there is none).
std::string launchToShow(const std::string& workDir);

// "RUNNING" → ShardState::Running; throws tessera::Error for a name it does not know.
ShardState shardStateNamed(const std::string& name);

} // namespace tessera::launch
