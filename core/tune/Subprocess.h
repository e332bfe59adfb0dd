// Child processes for the builder (the C compiler) and the runner (the measuring harness): a
// candidate that crashes, hangs or fails to compile takes down its child, never the tuner.
#pragma once

#include <string>
#include <vector>

namespace tessera::tune {

struct ProcessResult {
  int exitCode = -1;     // when it exited
  int signal = 0;        // when a signal ended it
  bool timedOut = false; // killed at the deadline
  std::string output;    // stdout and stderr together
  double seconds = 0;

  bool succeeded() const { return !timedOut && signal == 0 && exitCode == 0; }
  // "exit status 1", "signal 11 (Segmentation fault)", "timed out after 30 s".
  std::string describe() const;
};

struct Command {
  std::vector<std::string> argv;     // argv[0] is looked up in PATH
  std::vector<std::string> env;      // NAME=VALUE set or replaced in the child's environment
  std::string outputFile;            // where the child's output goes (read back, then removed)
};

// Runs the commands, at most `jobs` at a time, each killed after timeoutSeconds with every process
// it started (each runs in a process group of its own). Results are in
// the commands' order. Throws tessera::Error only when a process cannot be started at all.
std::vector<ProcessResult> runCommands(const std::vector<Command>& commands, int jobs, double timeoutSeconds);

} // namespace tessera::tune
