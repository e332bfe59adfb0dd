// The tuned kernels the CPU backend may run in place of oneDNN: the tuning database's fastest
// verified record of each workload on this target (machine, thread count, and whether the tuner
// flushed the caches: such records first, since the profiler times ops that way), each rebuilt and
// loaded on first use, and per op signature which of the two is faster. The profiler times both
// and records the choice; the executor runs the tuned kernel only where that choice says so. A
// record whose kernel does not build or load is skipped with a warning, never an error.
#pragma once

#include "cost/OpSignature.h"
#include "tune/Builder.h"
#include "tune/TuningDatabase.h"

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace tessera::tune {
class TunedKernel;
}

namespace tessera::cpu {

class TunedKernels {
public:
  using Warning = std::function<void(const std::string&)>;

  // No file at `databasePath`: no tuned kernels (no file is created). A database that cannot be
  // opened is warned about and counts as none. `warn` empty: warnings go to stderr. Each workload
  // takes its record from the first of `targets` that has one; a choice is kept under the target
  // of the record whose kernel it timed.
  TunedKernels(const std::string& databasePath, const std::vector<std::string>& targets, Warning warn = {},
               tune::BuildOptions build = {});
  ~TunedKernels();
  TunedKernels(const TunedKernels&) = delete;
  TunedKernels& operator=(const TunedKernels&) = delete;

  // tune::defaultTuningDatabasePath() on tune::cpuTarget(cpuThreads()), caches flushed first: the
  // executor's threads.
  static std::shared_ptr<TunedKernels> openDefault();

  const std::string& databasePath() const { return path_; }
  // Workloads with a tuned kernel on one of the targets.
  size_t count() const { return records_.size(); }
  // Eight hex digits naming the set of kernels (workloads and hashes); empty when there are none.
  const std::string& fingerprint() const { return fingerprint_; }

  // The loaded kernel of the op's workload; nullptr when the op is not a tuned workload or its
  // kernel failed to load (warned once).
  const tune::TunedKernel* kernelFor(const OpSignature& signature);
  // The profiler's two timings of the op; the faster runs in the executor.
  void recordChoice(const OpSignature& signature, const tune::TunedKernel& kernel, double tunedMs, double libraryMs);
  // The kernel to run in place of the library's op: only where a recorded choice timed it faster.
  const tune::TunedKernel* chosenKernel(const OpSignature& signature);

private:
  const tune::TuningRecord* recordFor(const OpSignature& signature) const;
  const tune::TunedKernel* load(const tune::TuningRecord& record);

  std::mutex mutex_; // the profiler and the executor may share one instance across threads
  std::string path_;
  Warning warn_;
  tune::BuildOptions buildOptions_;
  std::unique_ptr<tune::Builder> builder_; // made with the first kernel loaded
  std::unique_ptr<tune::TuningDatabase> database_;
  std::map<std::string, tune::TuningRecord> records_;                  // by workload key
  std::map<std::string, std::unique_ptr<tune::TunedKernel>> loaded_; // by workload key; nullptr: failed
  std::string fingerprint_;
};

// `deviceKey` ("cpu:X (2 threads, executor timings)") with ", N tuned kernels <fingerprint>" inside
// its parentheses when there are tuned kernels: costs timed against another set of kernels, or
// none, are kept under another key of the cost cache.
std::string deviceKeyWithTunedKernels(const std::string& deviceKey, const TunedKernels* tuned);

} // namespace tessera::cpu
