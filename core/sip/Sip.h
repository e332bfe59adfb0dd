// One SIP run on a tuned kernel (issue #34): its record's LLVM IR lowered to x86 machine code,
// simulated annealing over memory-instruction moves with every candidate built by the MC layer,
// tested against the reference interpreter on fresh random inputs and timed in a child process
// beside the tuned kernel (its score: the record's GFLOP/s x the tuned kernel's time / its time);
// then the best kernel tested on many samples against the tuned one and timed against it
// interleaved.
#pragma once

#include "sip/Annealing.h"
#include "sip/InterleavedTiming.h"
#include "sip/Listing.h"

#include "tune/Runner.h"
#include "tune/TuningDatabase.h"
#include "tune/Workload.h"

#include <functional>
#include <string>

namespace tessera::sip {

struct SipOptions {
  AnnealingOptions annealing;
  int64_t testSamples = 100000;
  int timingRounds = 20;
  tune::RunnerOptions run; // the candidates' runner (its threads are the tuned kernel's)
  std::string cacheDir;    // empty: the tuner's
};

struct SipProgress {
  const AnnealingStep* step = nullptr; // during the search
  int64_t samplesTested = -1;          // during the final test
  int timingRound = -1;                // during the final timing
};

struct SipRun {
  tune::Workload workload;
  std::string baseHash;
  Listing listing;
  AnnealingResult search;
  std::string baselineLibrary, bestLibrary;
  std::string bestAssembly;
  bool openmp = false; // the kernel calls OpenMP's runtime
  bool bestDiffers = false; // the search kept a reordered kernel
  int64_t samplesTested = 0;
  bool finalTestPassed = false;
  std::string finalTestError;
  Improvement improvement; // the best against the tuned kernel, interleaved (when it differs and passed)
  // Differs, passed every sample and is faster with 95 % confidence: worth storing.
  bool wins() const { return bestDiffers && finalTestPassed && improvement.significant(); }
};

// The listing of a record's kernel: its trace replayed and lowered to LLVM IR, which must still be
// the kernel the record measured. Throws tessera::Error naming the record when it is not (another
// hash, a C kernel, a trace that no longer replays) or when LLVM cannot compile it.
struct RecordKernel {
  tune::Workload workload;
  Listing listing;
  bool openmp = false;
};
RecordKernel lowerRecord(const tune::TuningRecord& record);

// Throws tessera::Error when the record's kernel cannot be lowered or its unmodified listing fails.
SipRun runSip(const tune::TuningRecord& record, const SipOptions& options, const std::function<void(const SipProgress&)>& onProgress = {});

} // namespace tessera::sip
