// What a launch-files fuzz input goes through: the bytes written as both JSON files a launch's work
// directory holds, the shard board (shards.json, which the explorer's Jobs panel reads from any
// directory it is handed) and the launch state (launch.json, which a restarted Slurm driver adopts).
// Each is read; what reads is described as the CLI prints it, written back and read again
// unchanged. The contract (ShardBoard.h, LaunchState.h): a malformed file is a tessera::Error
// naming the file, never a crash. Shared by fuzz_launch_files and tests/launch's corpus replay.
#pragma once

#include "FuzzSupport.h"

#include "launch/LaunchState.h"
#include "launch/ShardBoard.h"
#include "support/Error.h"

#include <filesystem>
#include <string>

namespace tessera::fuzz {

inline bool sameShards(const launch::ShardBoard& a, const launch::ShardBoard& b) {
  if (a.launcher != b.launcher || a.command != b.command || a.finished != b.finished || a.shards.size() != b.shards.size()) return false;
  for (size_t i = 0; i < a.shards.size(); ++i) {
    const launch::ShardProgress &x = a.shards[i], &y = b.shards[i];
    if (x.index != y.index || x.name != y.name || x.state != y.state || x.node != y.node || x.retries != y.retries || x.note != y.note)
      return false;
  }
  return true;
}

inline bool sameLaunch(const launch::LaunchState& a, const launch::LaunchState& b) {
  if (a.fingerprint != b.fingerprint || a.jobs != b.jobs || a.shards.size() != b.shards.size()) return false;
  for (size_t i = 0; i < a.shards.size(); ++i)
    if (a.shards[i].submitted != b.shards[i].submitted || a.shards[i].retries != b.shards[i].retries || a.shards[i].node != b.shards[i].node)
      return false;
  return true;
}

// Errors must read "PATH: problem".
inline void expectErrorNamesFile(const Error& e, const std::string& path, FuzzOutcome& outcome) {
  if (std::string(e.what()).rfind(path + ": ", 0) != 0) outcome.defect = std::string("the error does not name the file: ") + e.what();
}

inline void checkShardBoard(const std::string& bytes, const std::string& workDir, FuzzOutcome& outcome) {
  const std::string path = workDir + "/" + launch::kShardBoardFile;
  writeBytes(path, bytes);
  try {
    launch::ShardBoard board = launch::readShardBoard(workDir);
    outcome.accepted = true;
    for (const launch::ShardProgress& shard : board.shards) launch::describe(shard, board.shards.size());
    launch::writeShardBoard(workDir, board);
    if (!sameShards(launch::readShardBoard(workDir), board)) outcome.defect = "a shard board written back reads differently";
  } catch (const Error& e) {
    expectErrorNamesFile(e, path, outcome);
  }
}

inline void checkLaunchState(const std::string& bytes, const std::string& workDir, FuzzOutcome& outcome) {
  const std::string path = workDir + "/launch.json";
  writeBytes(path, bytes);
  try {
    const launch::LaunchState state = launch::readLaunchState(path);
    outcome.accepted = true;
    launch::writeLaunchState(path, state);
    if (!sameLaunch(launch::readLaunchState(path), state)) outcome.defect = "a launch state written back reads differently";
  } catch (const Error& e) {
    expectErrorNamesFile(e, path, outcome);
  }
}

// `workDir` is a scratch directory of this input's own, removed afterwards. Accepted: either file read.
inline FuzzOutcome checkLaunchFiles(const std::string& bytes, const std::string& workDir) {
  FuzzOutcome outcome;
  std::filesystem::create_directories(workDir);
  checkShardBoard(bytes, workDir, outcome);
  if (outcome.defect.empty()) checkLaunchState(bytes, workDir, outcome);
  std::filesystem::remove_all(workDir);
  return outcome;
}

} // namespace tessera::fuzz
