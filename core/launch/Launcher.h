// The launcher interface: run a list of shards, resuming what a work directory already holds, and
// say which finished. Local child processes and Slurm array jobs are its two implementations.
#pragma once

#include "launch/Shard.h"
#include "launch/ShardProgress.h"

#include <memory>
#include <string>
#include <vector>

namespace tessera::launch {

struct LaunchResult {
  std::vector<ShardProgress> shards; // the last word on each shard, in the launch's order
  double seconds = 0;

  bool allDone() const;
  std::vector<size_t> failed() const;
};

class Launcher {
public:
  virtual ~Launcher() = default;
  virtual std::string name() const = 0; // "local", "slurm"
  // Throws tessera::Error, before running anything, when the launcher cannot work (no Slurm, an
  // unknown partition, a work directory it cannot use).
  virtual void check() = 0;
  // Runs the shards whose outputs are missing, retrying failures, and returns when every shard is
  // done or has failed for good. `onProgress` hears each change of a shard's state.
  virtual LaunchResult run(const std::vector<Shard>& shards, const ProgressCallback& onProgress) = 0;
};

struct LaunchOptions {
  std::string workDir;     // scripts, logs and the launch's state; for slurm on a file system every node sees
  int retries = 2;         // resubmissions per shard after a failure
  int maxParallel = 0;     // shards at once; 0: local, the CPU count; slurm, no limit
  std::string partition;   // slurm: empty for the cluster's default
  std::vector<std::string> sbatchArgs; // slurm: extra sbatch options (--gres=gpu:1, --time=…)
  double pollSeconds = 2;  // slurm: between squeue polls
};

std::unique_ptr<Launcher> makeLocalLauncher(const LaunchOptions& options);
std::unique_ptr<Launcher> makeSlurmLauncher(const LaunchOptions& options);

} // namespace tessera::launch
