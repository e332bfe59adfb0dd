// The Slurm launcher: one sbatch array per round of submissions, the queue polled with squeue, and
// a shard that left the queue without its output resubmitted up to `retries` times. Its state
// lives in the work directory, so a new driver with the same directory picks up where one stopped.
#include "launch/ChildProcess.h"
#include "launch/LaunchState.h"
#include "launch/Launcher.h"
#include "launch/SlurmClient.h"
#include "launch/SlurmScript.h"
#include "launch/WorkDir.h"

#include "support/Error.h"

#include <chrono>
#include <map>
#include <optional>
#include <thread>

#include <sys/stat.h>
#include <unistd.h>

namespace tessera::launch {

namespace {

using Clock = std::chrono::steady_clock;

std::string shortHostName() {
  char name[256] = {};
  ::gethostname(name, sizeof name - 1);
  std::string host = name;
  return host.substr(0, host.find('.'));
}

bool sameProgress(const ShardProgress& a, const ShardProgress& b) {
  return a.state == b.state && a.node == b.node && a.retries == b.retries && a.note == b.note;
}

class SlurmLauncher final : public Launcher {
public:
  explicit SlurmLauncher(LaunchOptions options) : options_(std::move(options)) {}

  std::string name() const override { return "slurm"; }

  // Everything that can be known wrong before a job is submitted.
  void check() override {
    if (options_.retries < 0) throw Error("--retries must be at least 0");
    client_.requireCommands();
    client_.requireController();
    partition_ = options_.partition.empty() ? client_.defaultPartition() : options_.partition;
    if (partition_.empty()) throw Error("--launcher slurm: the cluster has no default partition; name one with --slurm-partition");
    const std::vector<std::string> nodes = client_.partitionNodes(partition_);
    workDir_.emplace(options_.workDir);
    const std::string self = shortHostName();
    bool elsewhere = false;
    for (const std::string& node : nodes) elsewhere = elsewhere || (node != self && node != "localhost");
    const FileSystemKind kind = fileSystemOf(workDir_->path());
    if (elsewhere && !kind.shared)
      throw errorInFile(workDir_->path(), "the work directory is on a local file system (" + kind.name + "), but partition '" +
                                              partition_ + "' has nodes other than this one; give --work-dir a directory every node "
                                              "sees (NFS, Lustre, GPFS, …)");
  }

  LaunchResult run(const std::vector<Shard>& shards, const ProgressCallback& onProgress) override {
    if (!workDir_) check();
    const auto start = Clock::now();
    const std::string script = workDir_->file("tessera-array.sh");
    const std::string statePath = workDir_->file("launch.json");
    const std::string scriptText = slurmArrayScript(shards);
    const std::string jobName = "tessera-" + fingerprintOf(workDir_->path()).substr(0, 10);

    LaunchState state = readLaunchState(statePath);
    if (!state.fingerprint.empty() && state.fingerprint != fingerprintOf(scriptText))
      throw errorInFile(workDir_->path(), "the work directory holds another launch (other shards or commands); give this one its own --work-dir");
    if (state.fingerprint.empty()) {
      state.fingerprint = fingerprintOf(scriptText);
      state.shards.assign(shards.size(), {});
    }
    if (state.shards.size() != shards.size()) throw errorInFile(statePath, "lists another number of shards than this launch");
    writeFileAtomically(script, scriptText);
    ::chmod(script.c_str(), 0755);

    LaunchResult result;
    for (size_t i = 0; i < shards.size(); ++i)
      result.shards.push_back({i, shards[i].name, ShardState::Waiting, state.shards[i].node, state.shards[i].retries, {}});
    std::vector<ShardProgress> reported(shards.size());
    for (auto& r : reported) r.state = ShardState::Failed; // differs from every first state, so each is reported once
    auto report = [&](size_t i) {
      if (sameProgress(reported[i], result.shards[i])) return;
      reported[i] = result.shards[i];
      if (onProgress) onProgress(result.shards[i]);
    };

    int failedPolls = 0;
    for (bool first = true;; first = false) {
      if (!first) std::this_thread::sleep_for(std::chrono::duration<double>(options_.pollSeconds));
      std::map<size_t, QueuedTask> queued;
      try {
        for (QueuedTask& task : client_.queue(jobName)) queued[task.taskId] = std::move(task);
        failedPolls = 0;
      } catch (const Error& e) {
        // The controller may be restarting: nothing is resubmitted on a poll that failed.
        if (++failedPolls * options_.pollSeconds > 120) throw;
        continue;
      }

      std::vector<size_t> toSubmit;
      for (size_t i = 0; i < shards.size(); ++i) {
        ShardProgress& progress = result.shards[i];
        ShardRecord& record = state.shards[i];
        if (progress.state == ShardState::Done || progress.state == ShardState::Failed) continue;
        if (fileExists(shards[i].output)) {
          progress.state = ShardState::Done;
          progress.note = first && !record.submitted ? "already done (" + shards[i].output + ")" : std::string();
        } else if (auto task = queued.find(i); task != queued.end()) {
          const bool running = task->second.state == "RUNNING" || task->second.state == "COMPLETING";
          // Back in the queue after it ran: Slurm requeued it (its node went down, or a requeue).
          const bool requeued = !running && progress.state == ShardState::Running;
          progress.state = running ? ShardState::Running : ShardState::Pending;
          if (!task->second.node.empty()) progress.node = record.node = task->second.node;
          progress.note = running || task->second.reason == "None" ? std::string() : "waiting: " + task->second.reason;
          if (requeued) progress.note = "requeued by Slurm" + (progress.note.empty() ? "" : "; " + progress.note);
          if (first && record.submitted) progress.note = "adopted job " + task->second.arrayJobId + "_" + std::to_string(i) +
                                                         (progress.note.empty() ? "" : "; " + progress.note);
        } else if (!record.submitted) {
          toSubmit.push_back(i);
        } else {
          const std::string why = whyGone(state, i);
          if (record.retries >= options_.retries) {
            progress.state = ShardState::Failed;
            progress.note = why + " (see " + workDir_->shardLog(i) + ")";
          } else {
            progress.retries = ++record.retries;
            progress.note = why + "; resubmitting";
            toSubmit.push_back(i);
          }
        }
        report(i);
      }

      if (!toSubmit.empty()) {
        SbatchRequest request{script, jobName, toSubmit, options_.maxParallel, partition_,
                              workDir_->path() + "/logs/shard-%a.log", workDir_->path(), options_.sbatchArgs};
        const std::string job = client_.submit(request);
        state.jobs.push_back(job);
        for (size_t i : toSubmit) {
          state.shards[i].submitted = true;
          result.shards[i].state = ShardState::Pending;
          result.shards[i].note = "submitted as job " + job + "_" + std::to_string(i);
        }
        writeLaunchState(statePath, state);
        for (size_t i : toSubmit) report(i);
        continue;
      }
      writeLaunchState(statePath, state);
      bool finished = true;
      for (const ShardProgress& p : result.shards) finished = finished && (p.state == ShardState::Done || p.state == ShardState::Failed);
      if (finished) break;
    }
    result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return result;
  }

private:
  // Why shard i left the queue without its output, from the controller's record of its last job.
  std::string whyGone(const LaunchState& state, size_t i) const {
    for (auto job = state.jobs.rbegin(); job != state.jobs.rend(); ++job) {
      const std::optional<JobRecord> record = client_.record(*job, i);
      if (!record) continue;
      return "job " + *job + "_" + std::to_string(i) + " ended " + record->state + " (exit " + record->exitCode + ")";
    }
    return "its job left the queue without its result";
  }

  LaunchOptions options_;
  SlurmClient client_;
  std::string partition_;
  std::optional<WorkDir> workDir_;
};

} // namespace

std::unique_ptr<Launcher> makeSlurmLauncher(const LaunchOptions& options) { return std::make_unique<SlurmLauncher>(options); }

} // namespace tessera::launch
