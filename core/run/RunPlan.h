// Everything one run is asked to do, the same for every entry point (optimize, bench, the explorer,
// the teaching sample): the request (strategy, cost model, search options, whether to verify), the
// rules with the user's pins and vetoes, how many input sets verification draws, the end-to-end
// check (do no harm), where the result is written and for which runtime, and where the run is
// recorded. A session records a run by its plan, every setting included (runInfoFor).
//
// The defaults are core's, one set for every entry point: SearchOptions' limits (60 s, 15 eqsat
// iterations, k_multi 2, each strategy's own node limit, dag extraction, seed 1), defaultCostSpec() (the machine's own measured backend),
// one verification trial, and the backend's end-to-end protocol (defaultEndToEndOptions).
#pragma once

#include "cost/EndToEndComparison.h"
#include "run/RulePack.h"
#include "run/RunRecording.h"
#include "run/RunRequest.h"

#include <string>

namespace tessera {

// Do no harm: time the candidate against the original end to end and keep the original unless
// the candidate is faster. It runs with a measured cost model (on its backend) or for a deploy
// runtime (RunPlan::deploy).
struct EndToEndSettings {
  bool enabled = true;
  int warmup = -1;   // untimed runs of each graph before timing; -1: the backend's default
  int maxPairs = -1; // the most interleaved pairs; -1: the backend's default
};

struct RunPlan {
  RunRequest request;
  RuleChoice rules;
  int verifyTrials = 1; // random input sets verification draws
  EndToEndSettings endToEnd;
  // The model's file, read again to write an export that keeps its free dimensions; empty for a
  // model built in memory (an export then pins every dimension).
  std::string modelPath;
  std::string exportPath; // write the result here and verify the file read back; empty: not written
  // The runtime the result is for ("cpu", "ort", "cuda"): do no harm times the graphs there,
  // whatever cost model guided the search. Empty: the measured cost spec's backend, if any.
  std::string deploy;
  std::string sessionPath; // record the run here; empty: not recorded
  RecordedModel recordedModel;
  // false (the explorer): a session that cannot be written is reported in the outcome and the run
  // goes on. true (the CLI): it is an error before any work.
  bool recordingRequired = true;
};

// The backend's end-to-end protocol with the settings' warm-up and pairs in place of its own.
EndToEndOptions endToEndOptionsFor(const std::string& backend, const EndToEndSettings& settings);

// The runtime do no harm times on for `plan`, priced with `pricedWith` (the model's spec after
// resolution): the deploy runtime, else the measured backend asked for (also one that fell back, so
// the outcome says why it was not timed), else the one "auto" resolved to; empty when there is none.
std::string endToEndBackendOf(const RunPlan& plan, const std::string& pricedWith);

// The run's row: the request's (runInfoFor(RunRequest)) with the cost spec the run priced with,
// plus the rules (source, hash, pins, vetoes), verify_trials, the end-to-end settings, out and deploy.
RunInfo runInfoFor(const RunPlan& plan, const std::string& costSpec, const ActiveRules& rules, int64_t modelId);

} // namespace tessera
