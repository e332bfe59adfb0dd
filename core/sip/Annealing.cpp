// Simulated annealing over SIP's moves.
#include "sip/Annealing.h"

#include "support/Error.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace tessera::sip {

const char* outcomeName(Outcome outcome) {
  switch (outcome) {
  case Outcome::Ok: return "ok";
  case Outcome::FailedAssemble: return "failed_assemble";
  case Outcome::FailedRun: return "failed_run";
  case Outcome::FailedTest: return "failed_test";
  }
  return "?";
}

AnnealingResult anneal(const Listing& listing, const Evaluate& evaluate, const AnnealingOptions& options,
                       const std::function<void(const AnnealingStep&)>& onStep, const std::function<bool()>& shouldStop) {
  AnnealingResult result;
  const Schedule original(listing);
  const Evaluation baseline = evaluate(listing.render(original.order));
  if (baseline.outcome != Outcome::Ok || baseline.gflops <= 0)
    throw Error(std::string("the unmodified kernel does not pass (") + outcomeName(baseline.outcome) + "): " + baseline.error);
  result.baselineGflops = result.bestGflops = baseline.gflops;
  result.best = original;

  std::mt19937_64 random(options.seed);
  Schedule current = original;
  std::vector<Move> currentMoves;
  double currentGflops = baseline.gflops;
  double temperature = options.initialTemperature;
  result.stopReason = "step limit";
  for (int step = 1; step <= options.steps; ++step) {
    if (temperature <= options.finalTemperature) {
      result.stopReason = "temperature";
      break;
    }
    if (shouldStop && shouldStop()) {
      result.stopReason = "stopped";
      break;
    }
    const std::vector<Move> moves = legalMoves(listing, current, options.legality);
    if (moves.empty()) {
      result.stopReason = "no legal move";
      break;
    }
    AnnealingStep record;
    record.step = step;
    record.temperature = temperature;
    record.move = moves[std::uniform_int_distribution<size_t>(0, moves.size() - 1)(random)];
    Schedule candidate = current;
    candidate.apply(record.move);
    const std::string assembly = listing.render(candidate.order);
    record.evaluation = evaluate(assembly);
    // A new best is timed again and keeps the lower score: one lucky measurement (a neighbour
    // slowed by the machine's load) must not become the kernel SIP returns.
    if (record.evaluation.outcome == Outcome::Ok && record.evaluation.gflops > result.bestGflops) {
      const Evaluation again = evaluate(assembly);
      record.evaluation = again.outcome == Outcome::Ok ? Evaluation{Outcome::Ok, std::min(record.evaluation.gflops, again.gflops), ""} : again;
    }
    ++result.steps;
    switch (record.evaluation.outcome) {
    case Outcome::FailedAssemble: ++result.failedAssemble; break;
    case Outcome::FailedRun: ++result.failedRun; break;
    case Outcome::FailedTest: ++result.failedTest; break;
    case Outcome::Ok: {
      const double delta = (record.evaluation.gflops - currentGflops) / result.baselineGflops * 100;
      record.accepted = delta >= 0 || std::uniform_real_distribution<double>(0, 1)(random) < std::exp(delta / temperature);
      break;
    }
    }
    if (record.accepted) {
      ++result.accepted;
      current = std::move(candidate);
      currentMoves.push_back(record.move);
      currentGflops = record.evaluation.gflops;
      if (currentGflops > result.bestGflops) {
        result.bestGflops = currentGflops;
        result.best = current;
        result.bestMoves = currentMoves;
      }
    }
    record.currentGflops = currentGflops;
    record.bestGflops = result.bestGflops;
    result.history.push_back(record);
    if (onStep) onStep(record);
    temperature *= options.cooling;
  }
  return result;
}

} // namespace tessera::sip
