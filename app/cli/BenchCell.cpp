#include "BenchCell.h"

#include "CommandContext.h"

#include "events/Control.h"
#include "run/RunRequest.h"
#include "support/Error.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>

namespace tessera::cli {

namespace {

// "mcts.simulations=64" applies to mcts only; "simulations=64" to every strategy.
std::map<std::string, std::string> parametersFor(const std::string& strategy, const std::vector<std::string>& pairs) {
  std::vector<std::string> mine;
  for (const std::string& pair : pairs) {
    size_t dot = pair.find('.'), equals = pair.find('=');
    if (dot != std::string::npos && dot < equals) {
      if (pair.substr(0, dot) == strategy) mine.push_back(pair.substr(dot + 1));
    } else {
      mine.push_back(pair);
    }
  }
  return parseRunParameters(mine);
}

double mean(const std::vector<double>& values) {
  double sum = 0;
  for (double v : values) sum += v;
  return values.empty() ? 0 : sum / static_cast<double>(values.size());
}

double sampleStd(const std::vector<double>& values) {
  if (values.size() < 2) return 0;
  const double m = mean(values);
  double squares = 0;
  for (double v : values) squares += (v - m) * (v - m);
  return std::sqrt(squares / static_cast<double>(values.size() - 1));
}

} // namespace

RunPlan benchPlan(const BenchSettings& settings, const BenchModel& model, const std::string& strategy, uint64_t seed) {
  RunPlan plan;
  plan.request.strategy = strategy;
  plan.request.costSpec = settings.cost;
  plan.request.search = settings.search;
  plan.request.search.seed = seed;
  plan.request.search.parameters = parametersFor(strategy, settings.parameters);
  plan.request.verify = settings.verify;
  plan.verifyTrials = settings.verifyTrials;
  plan.endToEnd = settings.endToEndSettings;
  plan.endToEnd.enabled = settings.endToEnd;
  plan.modelPath = model.path;
  plan.sessionPath = settings.session;
  // A built-in model has no file: the session names the suite it was built from.
  plan.recordedModel = model.path.empty() ? RecordedModel{0, model.name, "built-in:" + model.suite + "/" + model.name}
                                          : recordedModelOf(model.path);
  return plan;
}

BenchRow runBenchCell(const BenchSettings& settings, const BenchModel& model, const std::string& strategy, uint64_t seed,
                      const RunBackends& backends) {
  BenchRow row{model.name, strategy};
  try {
    Control control;
    const RunOutcome run = runModel(model.graph, benchPlan(settings, model, strategy, seed), backends, control, nullptr);
    const SearchResult& result = run.result;
    row.originalMs = result.originalCostMs;
    row.optimizedMs = result.bestCostMs;
    row.speedupPct = result.speedupPct;
    row.seconds = result.searchSeconds + result.extractionSeconds;
    row.enodes = result.enodes;
    row.steps = result.steps;
    row.stopReason = result.stopReason;
    row.verificationRun = result.verificationRun;
    row.verified = result.verified;
    row.noiseToSignal = result.noiseToSignal;
    row.inSample = result.inSample;
    if (run.deployCheck) row.e2eMismatch = run.deployCheck->skipped;
    if (const std::optional<DoNoHarmOutcome>& outcome = run.deployCheck ? run.deployCheck->outcome : std::nullopt) {
      row.keptOriginal = outcome->keptOriginal;
      row.e2eMismatch = outcome->executorMismatch;
      if (!row.e2eMismatch.empty()) reportProgress("  " + model.name + " " + strategy + ": not timed, " + row.e2eMismatch);
      row.e2eCandidatePct = outcome->comparison ? outcome->comparison->speedup.pct : 0.0;
      row.e2eReturnedPct = outcome->returnedSpeedupPct();
      if (outcome->comparison) { // none when the search returned the original: nothing to time
        row.e2eOriginalMs = outcome->comparison->originalMs;
        row.e2eCandidateMs = outcome->comparison->candidateMs;
      }
    }
    reportProgress("  " + model.name + " " + strategy + ": " + std::to_string(row.speedupPct) + " % in " + std::to_string(row.seconds) +
                   " s (" + row.stopReason + ")");
  } catch (const Error& e) {
    row.error = e.what();
    reportProgress("  " + model.name + " " + strategy + " failed: " + row.error);
  }
  return row;
}

BenchRow combineSeeds(const std::vector<BenchRow>& runs) {
  BenchRow row{runs.front().model, runs.front().strategy};
  std::vector<double> optimized, seconds, enodes, steps, e2eOriginal, e2eCandidate, e2eCandidatePct, e2eReturnedPct;
  for (const BenchRow& run : runs) {
    if (!run.error.empty() && row.error.empty()) row.error = run.error;
    if (!run.error.empty()) continue;
    row.originalMs = run.originalMs;
    row.seedSpeedups.push_back(run.speedupPct);
    optimized.push_back(run.optimizedMs);
    seconds.push_back(run.seconds);
    enodes.push_back(static_cast<double>(run.enodes));
    steps.push_back(run.steps);
    row.secondsMax = std::max(row.secondsMax, run.seconds);
    if (row.stopReason.find(run.stopReason) == std::string::npos)
      row.stopReason += (row.stopReason.empty() ? "" : ",") + run.stopReason;
    row.verificationRun = row.verificationRun || run.verificationRun;
    row.noiseToSignal = std::max(row.noiseToSignal, run.noiseToSignal);
    row.inSample = run.inSample; // the same checkpoint and model for every seed
    if (!run.e2eReturnedPct) continue;
    if (run.e2eOriginalMs) e2eOriginal.push_back(*run.e2eOriginalMs);
    if (run.e2eCandidateMs) e2eCandidate.push_back(*run.e2eCandidateMs);
    e2eCandidatePct.push_back(*run.e2eCandidatePct);
    e2eReturnedPct.push_back(*run.e2eReturnedPct);
    row.keptOriginal += run.keptOriginal;
    if (row.e2eMismatch.empty()) row.e2eMismatch = run.e2eMismatch;
  }
  if (row.seedSpeedups.empty()) return row;
  row.verified = row.verificationRun && std::all_of(runs.begin(), runs.end(), [](const BenchRow& r) { return r.verified; });
  row.speedupPct = mean(row.seedSpeedups);
  row.speedupStd = sampleStd(row.seedSpeedups);
  row.optimizedMs = mean(optimized);
  row.seconds = mean(seconds);
  row.enodes = static_cast<size_t>(std::llround(mean(enodes)));
  row.steps = static_cast<int>(std::lround(mean(steps)));
  if (e2eReturnedPct.empty()) return row;
  if (!e2eOriginal.empty()) row.e2eOriginalMs = mean(e2eOriginal);
  if (!e2eCandidate.empty()) row.e2eCandidateMs = mean(e2eCandidate);
  row.e2eCandidatePct = mean(e2eCandidatePct);
  row.e2eReturnedPct = mean(e2eReturnedPct);
  return row;
}

nlohmann::json benchRowJson(const BenchRow& row) {
  nlohmann::json j{{"model", row.model},
                   {"strategy", row.strategy},
                   {"original_cost_ms", row.originalMs},
                   {"optimized_cost_ms", row.optimizedMs},
                   {"speedup_pct", row.speedupPct},
                   {"optimize_seconds", row.seconds},
                   {"enodes", row.enodes},
                   {"steps", row.steps},
                   {"stop_reason", row.stopReason},
                   {"verified", row.verified},
                   {"verification_run", row.verificationRun},
                   {"noise_to_signal", row.noiseToSignal},
                   {"seeds", row.seedSpeedups.size()},
                   {"speedup_pct_std", row.speedupStd},
                   {"speedup_pct_per_seed", row.seedSpeedups},
                   {"optimize_seconds_max", row.secondsMax}};
  if (row.e2eReturnedPct) {
    // The keys optimize reports: e2e_speedup_pct is the candidate's, measured; what optimize
    // returns is e2e_returned_speedup_pct (the original, 0 %, where the candidate was not faster).
    if (row.e2eOriginalMs) j["e2e_original_ms"] = *row.e2eOriginalMs;
    if (row.e2eCandidateMs) j["e2e_optimized_ms"] = *row.e2eCandidateMs;
    j["e2e_speedup_pct"] = *row.e2eCandidatePct;
    j["e2e_returned_speedup_pct"] = *row.e2eReturnedPct;
    j["kept_original"] = row.keptOriginal;
    if (!row.e2eMismatch.empty()) j["e2e_mismatch"] = row.e2eMismatch;
  }
  if (row.inSample) j["in_sample"] = *row.inSample;
  if (!row.error.empty()) j["error"] = row.error;
  return j;
}

BenchRow benchRowFromJson(const nlohmann::json& j) {
  BenchRow row;
  row.model = j.at("model").get<std::string>();
  row.strategy = j.at("strategy").get<std::string>();
  row.originalMs = j.at("original_cost_ms").get<double>();
  row.optimizedMs = j.at("optimized_cost_ms").get<double>();
  row.speedupPct = j.at("speedup_pct").get<double>();
  row.seconds = j.at("optimize_seconds").get<double>();
  row.enodes = j.at("enodes").get<size_t>();
  row.steps = j.at("steps").get<int>();
  row.stopReason = j.at("stop_reason").get<std::string>();
  row.verified = j.at("verified").get<bool>();
  row.verificationRun = j.at("verification_run").get<bool>();
  row.noiseToSignal = j.at("noise_to_signal").get<double>();
  row.seedSpeedups = j.at("speedup_pct_per_seed").get<std::vector<double>>();
  row.speedupStd = j.at("speedup_pct_std").get<double>();
  row.secondsMax = j.at("optimize_seconds_max").get<double>();
  if (j.contains("in_sample")) row.inSample = j["in_sample"].get<bool>();
  if (j.contains("e2e_returned_speedup_pct")) {
    if (j.contains("e2e_original_ms")) row.e2eOriginalMs = j["e2e_original_ms"].get<double>();
    if (j.contains("e2e_optimized_ms")) row.e2eCandidateMs = j["e2e_optimized_ms"].get<double>();
    row.e2eCandidatePct = j.at("e2e_speedup_pct").get<double>();
    row.e2eReturnedPct = j.at("e2e_returned_speedup_pct").get<double>();
    row.keptOriginal = j.at("kept_original").get<int>();
    row.e2eMismatch = j.value("e2e_mismatch", std::string());
  }
  row.error = j.value("error", std::string());
  return row;
}

} // namespace tessera::cli
