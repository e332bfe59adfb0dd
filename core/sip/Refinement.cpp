// Refinement records.
#include "sip/Refinement.h"

#include "tune/Builder.h"
#include "tune/TunedKernel.h"

#include <nlohmann/json.hpp>

namespace tessera::sip {

std::optional<tune::TuningRecord> baseRecord(const tune::TuningDatabase& database, const std::string& workload, const std::string& target) {
  std::optional<tune::TuningRecord> best;
  for (tune::TuningRecord& record : database.records(workload, target)) {
    if (record.status != tune::TrialStatus::Ok || record.search == kRefinementSearch) continue;
    if (!best || record.latencyMs < best->latencyMs) best = std::move(record);
  }
  return best;
}

tune::TuningRecord refinementRecord(const tune::TuningRecord& base, const SipRun& run, uint64_t seed, Legality legality) {
  nlohmann::json provenance;
  provenance["legality"] = legalityName(legality);
  provenance["seed"] = seed;
  provenance["improvement_pct"] = run.improvement.meanPct;
  provenance["improvement_ci_pct"] = {run.improvement.lowPct, run.improvement.highPct};
  provenance["samples_tested"] = run.samplesTested;
  nlohmann::json moves = nlohmann::json::array();
  for (const Displacement& d : displacements(run.listing, run.search.best))
    moves.push_back({{"instruction", d.text}, {"from_line", d.fromLine + 1}, {"to_line", d.toLine + 1}});
  provenance["moves"] = moves;

  tune::TuningRecord record = base;
  record.trace = tune::traceWithMachineCode(base.trace, {run.bestAssembly, run.openmp}, base.hash, provenance.dump());
  record.hash = tune::contentHash(run.bestAssembly);
  record.search = kRefinementSearch;
  record.seed = seed;
  record.trial = run.search.steps;
  record.buildSeconds = 0;
  record.error.clear();
  record.latencyMs = base.latencyMs * run.improvement.candidateMedianMs / run.improvement.baselineMedianMs;
  record.runMs = run.improvement.candidateMs;
  record.gflops = run.workload.gflopsAt(record.latencyMs);
  return record;
}

} // namespace tessera::sip
