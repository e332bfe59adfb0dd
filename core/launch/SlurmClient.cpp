// Each call is one client command with a deadline; its output is parsed here and nowhere else.
#include "launch/SlurmClient.h"

#include "launch/ChildProcess.h"
#include "support/Error.h"
#include "support/SplitText.h"

#include <sstream>

namespace tessera::launch {

namespace {

std::string trimmed(const std::string& text) {
  const size_t begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos) return {};
  return text.substr(begin, text.find_last_not_of(" \t\r\n") - begin + 1);
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> result;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!trimmed(line).empty()) result.push_back(trimmed(line));
  return result;
}

} // namespace

std::string SlurmClient::run(const std::vector<std::string>& argv, const std::string& what) const {
  const CapturedRun result = runCaptured(argv, timeoutSeconds_);
  if (result.exit.succeeded()) return result.output;
  std::string command;
  for (const std::string& arg : argv) command += (command.empty() ? "" : " ") + arg;
  throw Error("Slurm: " + what + " failed (" + command + ": " + result.exit.describe(timeoutSeconds_) + ")" +
              (trimmed(result.output).empty() ? "" : ": " + trimmed(result.output)));
}

void SlurmClient::requireCommands() const {
  for (const char* program : {"sbatch", "squeue", "scontrol", "scancel"})
    if (findOnPath(program).empty())
      throw Error(std::string("--launcher slurm: ") + program +
                  " is not on PATH (install Slurm's client commands, e.g. Debian's slurm-client, or load the cluster's module)");
}

void SlurmClient::requireController() const {
  const CapturedRun result = runCaptured({"scontrol", "ping"}, timeoutSeconds_);
  const std::string answer = trimmed(result.output);
  if (result.exit.succeeded() && answer.find("is UP") != std::string::npos) return;
  throw Error("--launcher slurm: the Slurm controller does not answer (scontrol ping: " +
              (answer.empty() ? result.exit.describe(timeoutSeconds_) : answer.substr(0, answer.find('\n'))) +
              "); check SlurmctldHost in slurm.conf (SLURM_CONF) and that slurmctld runs");
}

std::string SlurmClient::defaultPartition() const {
  for (const std::string& line : lines(run({"scontrol", "show", "partition", "-o"}, "listing the partitions")))
    if (line.find(" Default=YES") != std::string::npos)
      if (std::optional<std::string> name = recordField(line, "PartitionName")) return *name;
  return {};
}

std::vector<std::string> SlurmClient::partitionNodes(const std::string& partition) const {
  const std::vector<std::string> all = lines(run({"scontrol", "show", "partition", "-o"}, "listing the partitions"));
  std::string known;
  for (const std::string& line : all) {
    const std::optional<std::string> name = recordField(line, "PartitionName");
    if (!name) continue;
    known += (known.empty() ? "" : ", ") + *name;
    if (*name != partition) continue;
    const std::optional<std::string> nodes = recordField(line, "Nodes");
    if (!nodes || *nodes == "(null)") return {};
    return lines(run({"scontrol", "show", "hostnames", *nodes}, "expanding the partition's node list"));
  }
  throw Error("--slurm-partition: the cluster has no partition '" + partition + "' (it has: " + (known.empty() ? "none" : known) + ")");
}

std::string SlurmClient::submit(const SbatchRequest& request) const {
  std::vector<std::string> argv{"sbatch", "--parsable", "--job-name=" + request.jobName,
                                "--array=" + arraySpec(request.tasks, request.maxParallel), "--output=" + request.logPattern,
                                "--open-mode=append", "--requeue", "--chdir=" + request.directory};
  if (!request.partition.empty()) argv.push_back("--partition=" + request.partition);
  argv.insert(argv.end(), request.extraArgs.begin(), request.extraArgs.end());
  argv.push_back(request.script);
  const std::string answer = trimmed(run(argv, "submitting the array job"));
  // --parsable: "jobid" or "jobid;cluster".
  const std::string id = answer.substr(0, answer.find(';'));
  if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos)
    throw Error("Slurm: sbatch answered '" + answer + "', not a job id");
  return id;
}

std::vector<QueuedTask> SlurmClient::queue(const std::string& jobName) const {
  return parseQueue(run({"squeue", "--noheader", "--array", "--name=" + jobName, "--format=%F|%K|%T|%N|%r"}, "listing the queue"));
}

std::optional<JobRecord> SlurmClient::record(const std::string& arrayJobId, size_t taskId) const {
  const CapturedRun result = runCaptured({"scontrol", "show", "job", "-o", arrayJobId + "_" + std::to_string(taskId)}, timeoutSeconds_);
  if (!result.exit.succeeded()) return std::nullopt; // gone: older than MinJobAge
  JobRecord record;
  record.state = recordField(result.output, "JobState").value_or("");
  record.exitCode = recordField(result.output, "ExitCode").value_or("");
  record.node = recordField(result.output, "NodeList").value_or("");
  if (record.node == "(null)") record.node.clear();
  return record;
}

std::string arraySpec(const std::vector<size_t>& tasks, int maxParallel) {
  std::string spec;
  for (size_t i = 0; i < tasks.size();) {
    size_t j = i;
    while (j + 1 < tasks.size() && tasks[j + 1] == tasks[j] + 1) ++j;
    spec += (spec.empty() ? "" : ",") + std::to_string(tasks[i]);
    if (j > i) spec += "-" + std::to_string(tasks[j]);
    i = j + 1;
  }
  if (maxParallel > 0) spec += "%" + std::to_string(maxParallel);
  return spec;
}

std::vector<QueuedTask> parseQueue(const std::string& text) {
  std::vector<QueuedTask> tasks;
  for (const std::string& line : lines(text)) {
    const std::vector<std::string_view> fields = splitText(line, '|');
    if (fields.size() < 5) throw Error("Slurm: unexpected squeue line '" + line + "'");
    // A pending array whose tasks are not split out yet shows one line with a range ("3-7%2"); the
    // tasks are listed one per line with --array, so only a plain number is a task here.
    if (fields[1].empty() || fields[1].find_first_not_of("0123456789") != std::string::npos) continue;
    QueuedTask task;
    task.arrayJobId = std::string(fields[0]);
    task.taskId = std::stoul(std::string(fields[1]));
    task.state = std::string(fields[2]);
    task.node = fields[3] == "(null)" ? std::string() : std::string(fields[3]);
    task.reason = std::string(fields[4]);
    tasks.push_back(std::move(task));
  }
  return tasks;
}

std::optional<std::string> recordField(const std::string& line, const std::string& key) {
  const std::string needle = key + "=";
  for (size_t at = line.find(needle); at != std::string::npos; at = line.find(needle, at + 1)) {
    if (at > 0 && line[at - 1] != ' ' && line[at - 1] != '\n' && line[at - 1] != '\t') continue;
    const size_t begin = at + needle.size();
    const size_t end = line.find_first_of(" \n\t", begin);
    return line.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
  }
  return std::nullopt;
}

} // namespace tessera::launch
