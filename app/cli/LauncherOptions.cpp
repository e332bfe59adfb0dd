// The launcher options and the one place that runs shards for the CLI.
#include "LauncherOptions.h"

#include "CommandContext.h"

#include "launch/ShardBoard.h"
#include "support/Error.h"
#include "support/SplitText.h"

#include <CLI/CLI.hpp>

#include <cstdlib>
#include <filesystem>

#include <unistd.h>

namespace tessera::cli {

void addLauncherOptions(CLI::App* command, LauncherOptions& options) {
  command->add_option("--launcher", options.launcher,
                      "Fan the work out as shards: local (child processes) or slurm (one sbatch array job); "
                      "without it the work runs in this process")
      ->check(CLI::IsMember({"local", "slurm"}));
  command->add_option("--work-dir", options.workDir,
                      "Shard results, logs and the launch's state; a launch restarted with the same directory redoes "
                      "nothing done (slurm: on a file system every node sees; local: default a new directory in $TMPDIR)");
  command->add_option("--retries", options.retries, "Resubmissions of a shard that failed or vanished")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  command->add_option("--slurm-partition", options.slurmPartition, "Slurm partition (default: the cluster's default)");
  command->add_option("--slurm-args", options.slurmArgs, "Extra sbatch options, e.g. \"--time=30 --account=lab\"");
  command->add_option("--slurm-max-parallel", options.maxParallel, "Shards running at once (slurm: the array's %N limit; also local)")
      ->check(CLI::PositiveNumber);
}

std::string selfExecutable() {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw Error("cannot find this program's own path (/proc/self/exe): " + ec.message());
  return self.string();
}

std::string launchWorkDir(LauncherOptions& options, const std::string& command) {
  options.command = command;
  if (!options.workDir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(options.workDir, ec);
    if (ec) throw errorInFile(options.workDir, "cannot create the work directory: " + ec.message());
    return options.workDir;
  }
  if (options.launcher == "slurm")
    throw Error("--launcher slurm needs --work-dir: a directory every node of the partition sees, for results and logs");
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/tessera-" + command + "-XXXXXX";
  if (!::mkdtemp(pattern.data())) throw Error("cannot create a work directory in " + std::string(tmp ? tmp : "/tmp"));
  options.workDir = pattern;
  reportProgress("launch: work directory " + pattern);
  return pattern;
}

launch::LaunchResult runShards(const LauncherOptions& options, const std::vector<launch::Shard>& shards,
                               const std::vector<std::string>& sbatchArgs, int defaultParallel) {
  launch::LaunchOptions launch;
  launch.workDir = options.workDir;
  launch.retries = options.retries;
  launch.maxParallel = options.maxParallel > 0 ? options.maxParallel : defaultParallel;
  launch.partition = options.slurmPartition;
  launch.sbatchArgs = sbatchArgs;
  for (std::string_view word : splitWords(options.slurmArgs, ' ')) launch.sbatchArgs.emplace_back(word);
  if (options.launcher != "slurm" && (!options.slurmPartition.empty() || !options.slurmArgs.empty()))
    throw Error("--slurm-partition and --slurm-args need --launcher slurm");
  std::unique_ptr<launch::Launcher> launcher =
      options.launcher == "slurm" ? launch::makeSlurmLauncher(launch) : launch::makeLocalLauncher(launch);
  launcher->check();
  reportProgress("launch: " + std::to_string(shards.size()) + " shard(s) on " + launcher->name() + ", work directory " +
                 options.workDir);
  launch::ShardBoard board{launcher->name(), options.command, {}, false, {}};
  for (size_t i = 0; i < shards.size(); ++i) board.shards.push_back({i, shards[i].name, launch::ShardState::Waiting, {}, 0, {}});
  launch::writeShardBoard(options.workDir, board);
  launch::LaunchResult result = launcher->run(shards, [&](const launch::ShardProgress& p) {
    reportProgress("launch: " + launch::describe(p, shards.size()));
    board.shards.at(p.index) = p;
    launch::writeShardBoard(options.workDir, board);
  });
  board.shards = result.shards;
  board.finished = true;
  launch::writeShardBoard(options.workDir, board);
  const std::vector<size_t> failed = result.failed();
  std::string names;
  for (size_t i : failed) names += "\n  " + shards[i].name + ": " + result.shards[i].note;
  reportProgress("launch: " + std::to_string(shards.size() - failed.size()) + " of " + std::to_string(shards.size()) +
                 " shard(s) done in " + std::to_string(static_cast<int>(result.seconds)) + " s" +
                 (failed.empty() ? "" : "; failed:" + names));
  return result;
}

} // namespace tessera::cli
