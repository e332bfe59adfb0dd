// Slurm's client commands driven as child processes with --parsable output (as submitit does;
// libslurm's C API changes every release): submit an array, list its tasks, read a finished task's
// record, ping the controller, look up a partition.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace tessera::launch {

// One array task as squeue lists it.
struct QueuedTask {
  std::string arrayJobId;
  size_t taskId = 0;
  std::string state;  // PENDING, RUNNING, COMPLETING, …
  std::string node;   // empty while pending
  std::string reason; // why it is pending
};

// A job's record from `scontrol show job -o` (kept by the controller for MinJobAge after it ends).
struct JobRecord {
  std::string state;    // COMPLETED, FAILED, CANCELLED, NODE_FAIL, …
  std::string exitCode; // "0:15": status and signal
  std::string node;
};

struct SbatchRequest {
  std::string script;
  std::string jobName;
  std::vector<size_t> tasks;
  int maxParallel = 0; // 0: no limit
  std::string partition;
  std::string logPattern; // --output, with %a and %A
  std::string directory;  // --chdir
  std::vector<std::string> extraArgs;
};

class SlurmClient {
public:
  explicit SlurmClient(double timeoutSeconds = 30) : timeoutSeconds_(timeoutSeconds) {}

  // Each throws tessera::Error with the command's own message when it fails or does not answer.
  // sbatch, squeue, scontrol and scancel on PATH.
  void requireCommands() const;
  // The controller answers (scontrol ping).
  void requireController() const;
  // The partition's nodes (expanded host names); throws naming the known partitions if it does not exist.
  std::vector<std::string> partitionNodes(const std::string& partition) const;
  // The default partition's name, or empty when the cluster has none.
  std::string defaultPartition() const;
  // The array job's id.
  std::string submit(const SbatchRequest& request) const;
  // The tasks of jobs named jobName that are still queued or running.
  std::vector<QueuedTask> queue(const std::string& jobName) const;
  // The record of one array task ("12_3"), when the controller still holds it.
  std::optional<JobRecord> record(const std::string& arrayJobId, size_t taskId) const;

private:
  std::string run(const std::vector<std::string>& argv, const std::string& what) const;
  double timeoutSeconds_;
};

// --array's value: "0-3,7,9" with %N appended when maxParallel > 0.
std::string arraySpec(const std::vector<size_t>& tasks, int maxParallel);
// squeue --format='%F|%K|%T|%N|%r' lines into tasks (one line per task with --array).
std::vector<QueuedTask> parseQueue(const std::string& text);
// KEY=VALUE words of one `scontrol show -o` line.
std::optional<std::string> recordField(const std::string& line, const std::string& key);

} // namespace tessera::launch
