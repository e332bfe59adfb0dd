// SIP's search: simulated annealing over single moves, with the schedule of the authors' code
// (T0 1.0, T x 0.997 a step, stop at T <= 0.05 or the step limit). A candidate is scored by an
// evaluator that builds, tests and times it; one that fails any of these is rejected and counted.
#pragma once

#include "sip/Moves.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tessera::sip {

struct AnnealingOptions {
  int steps = 1000;
  double initialTemperature = 1.0;
  double cooling = 0.997;
  double finalTemperature = 0.05;
  uint64_t seed = 1;
  Legality legality = Legality::Deps;
};

enum class Outcome { Ok, FailedAssemble, FailedRun, FailedTest };
const char* outcomeName(Outcome outcome);

struct Evaluation {
  Outcome outcome = Outcome::Ok;
  double gflops = 0; // Ok only
  std::string error;
};

// Builds, tests on fresh random inputs, then times the kernel of this assembly text.
using Evaluate = std::function<Evaluation(const std::string& assembly)>;

struct AnnealingStep {
  int step = 0; // 1-based
  double temperature = 0;
  Move move;
  Evaluation evaluation;
  bool accepted = false;
  double currentGflops = 0, bestGflops = 0;
};

struct AnnealingResult {
  Schedule best;
  std::vector<Move> bestMoves; // the moves from the listing to `best`, in order
  double baselineGflops = 0, bestGflops = 0;
  int steps = 0, accepted = 0, failedAssemble = 0, failedRun = 0, failedTest = 0;
  std::string stopReason; // "temperature", "step limit", "no legal move", "stopped"
  std::vector<AnnealingStep> history;
};

// Δ, the move's gain, is in percent of the baseline's GFLOP/s: SIP's Δ is in TFLOP/s on kernels
// of about 100-300 TFLOP/s, so one unit there is a fraction of a percent to one percent of the
// kernel; a percent keeps that scale for CPU kernels of any speed. A worse move is accepted with
// probability exp(Δ / T). A candidate that would be the new best is evaluated twice and keeps the
// lower score. Throws tessera::Error when the unmodified listing does not evaluate.
AnnealingResult anneal(const Listing& listing, const Evaluate& evaluate, const AnnealingOptions& options,
                       const std::function<void(const AnnealingStep&)>& onStep = {}, const std::function<bool()>& shouldStop = {});

} // namespace tessera::sip
