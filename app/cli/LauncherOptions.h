// --launcher local|slurm and its options (--work-dir, --retries, --slurm-partition, --slurm-args,
// --slurm-max-parallel), shared by every command that fans its work out as shards (tune MODEL,
// costs profile, bench): the options and their help live here once, and so does running the shards
// with progress on stderr.
#pragma once

#include "launch/Launcher.h"

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace tessera::cli {

struct LauncherOptions {
  std::string launcher; // empty: the command works in this process, as without these options
  std::string workDir;
  int retries = 2;
  std::string slurmPartition;
  std::string slurmArgs; // extra sbatch options, split at spaces
  int maxParallel = 0;
  std::string command;  // what launches ("bench", "rl-train"), named by launchWorkDir; the shard board says it

  bool enabled() const { return !launcher.empty(); }
};

void addLauncherOptions(CLI::App* command, LauncherOptions& options);

// Runs `shards` with the chosen launcher, each shard's progress as a line on stderr and on the work
// directory's shard board (launch/ShardBoard.h, the explorer's Jobs panel), and says which failed. `sbatchArgs` are the command's own (--gres=gpu:1 for a GPU shard), before --slurm-args;
// `defaultParallel` bounds a launch whose --slurm-max-parallel is not given (0: the launcher's own).
// Throws tessera::Error before running anything when the launcher cannot work.
launch::LaunchResult runShards(const LauncherOptions& options, const std::vector<launch::Shard>& shards,
                               const std::vector<std::string>& sbatchArgs = {}, int defaultParallel = 0);

// The work directory in use, created: --work-dir, or for the local launcher a new one under $TMPDIR.
std::string launchWorkDir(LauncherOptions& options, const std::string& command);

// This program's own path, for the shards' command lines.
std::string selfExecutable();

} // namespace tessera::cli
