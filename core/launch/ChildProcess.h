// Child processes for the launchers: a shard run locally (polled, so many run at once) and the
// Slurm client commands (sbatch, squeue, scontrol), whose output is read back under a deadline so
// that an unreachable controller is an error, never a hang.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <sys/types.h>

namespace tessera::launch {

struct ChildExit {
  int exitCode = -1;
  int signal = 0;
  bool timedOut = false;

  bool succeeded() const { return !timedOut && signal == 0 && exitCode == 0; }
  // "exit status 1", "signal 9 (Killed)", "no answer within 20 s".
  std::string describe(double timeoutSeconds = 0) const;
};

class ChildProcess {
public:
  // Starts argv (argv[0] looked up in PATH) in a process group of its own, with `env` (NAME=VALUE)
  // added to this process's environment and stdout and stderr appended to `logPath`. Throws
  // tessera::Error when it cannot start.
  ChildProcess(const std::vector<std::string>& argv, const std::vector<std::string>& env, const std::string& logPath);
  ChildProcess(ChildProcess&& other) noexcept;
  ChildProcess& operator=(ChildProcess&& other) noexcept;
  ChildProcess(const ChildProcess&) = delete;
  ~ChildProcess(); // kills the group if it still runs

  // The exit once it has ended, without blocking.
  std::optional<ChildExit> poll();
  pid_t pid() const { return pid_; }

private:
  void stop(); // kills the group and reaps the child
  pid_t pid_ = -1;
};

struct CapturedRun {
  ChildExit exit;
  std::string output; // stdout and stderr together
};

// Runs argv to completion, killing it after timeoutSeconds. Throws tessera::Error when it cannot start.
CapturedRun runCaptured(const std::vector<std::string>& argv, double timeoutSeconds);

// The full path of an executable on PATH, or empty.
std::string findOnPath(const std::string& program);

} // namespace tessera::launch
