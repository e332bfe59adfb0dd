// The runner (MetaSchedule's LocalRunner): each candidate runs in a fresh child process (a small
// C harness compiled once) that loads the kernel, checks it against the reference output, then
// times it: warm-up, repeats of at least minRepeatMs each (with flushCaches, of runs timed one by
// one, each after a flush), OpenMP threads pinned. A crash, a hang or a wrong answer is that
// trial's outcome.
#pragma once

#include "tune/Reference.h"
#include "tune/TrialStatus.h"

#include <memory>
#include <string>
#include <vector>

namespace tessera::tune {

struct RunnerOptions {
  int threads = 2;
  bool pinThreads = true; // OMP_PROC_BIND=close, OMP_PLACES=cores
  int warmup = 1;
  int repeats = 5;
  double minRepeatMs = 20;
  // Flush every input and the output from the caches before each timed run, as a whole model
  // meets them (MetaSchedule's enable_cpu_cache_flush); off: a kernel benchmark's warm caches.
  bool flushCaches = false;
  double timeoutSeconds = 60;
  std::string cacheDir; // where the harness and the problem file live; empty: defaultCacheDir()
  std::string compiler = "cc";
};

struct RunResult {
  TrialStatus status = TrialStatus::RuntimeError;
  std::vector<double> runMs; // one per repeat (each the mean of its runs)
  double medianMs = 0;
  double maxAbsError = 0;
  std::string error;
};

class Runner {
public:
  virtual ~Runner() = default;
  virtual RunResult run(const std::string& library) = 0;
};

class LocalRunner : public Runner {
public:
  // Writes the problem next to the harness (compiling the harness when it is not cached).
  // Throws tessera::Error when the harness cannot be built.
  LocalRunner(const Problem& problem, RunnerOptions options = {});
  ~LocalRunner() override;
  LocalRunner(const LocalRunner&) = delete;
  LocalRunner& operator=(const LocalRunner&) = delete;
  RunResult run(const std::string& library) override;

private:
  RunnerOptions options_;
  std::string harness_;
  std::string problemFile_;
};

} // namespace tessera::tune
