// SIP's final test: the reordered kernel against the tuned one on many fresh random inputs (the
// authors ran 10 million samples), in child processes side by side, stopping at the first sample
// that differs.
// The tuned kernel itself passed the reference interpreter; comparing with it costs one kernel run
// a sample instead of an interpreter run.
#pragma once

#include "tune/Workload.h"

#include <cstdint>
#include <functional>
#include <string>

namespace tessera::sip {

struct SampleTestOptions {
  int64_t samples = 100000;
  uint64_t seed = 1;
  double atol = 1e-3, rtol = 1e-3; // the tuner's verification tolerance
  int64_t samplesPerChild = 2000;  // a child's share: progress between them, and a bounded timeout
  double secondsPerSample = 2;     // the timeout of a child, per sample it runs
  int threads = 2;                 // the kernels' OpenMP threads, as they were tuned
  int parallelChildren = 0;        // children at once; 0: the usable cores / threads
  std::string cacheDir;            // where the harness is built; empty: tune::defaultCacheDir()
  std::string compiler = "cc";
};

struct SampleTestResult {
  int64_t tested = 0; // samples that ran, the failing one included
  bool passed = false;
  std::string error; // the first failure: which sample, which element, or how the child died
};

// Throws tessera::Error only when the harness cannot be built.
SampleTestResult testOnSamples(const tune::Workload& workload, const std::string& tunedLibrary, const std::string& candidateLibrary,
                               const SampleTestOptions& options, const std::function<void(int64_t tested)>& onProgress = {});

} // namespace tessera::sip
