#include "CandidateExport.h"
#include "MeasuringPause.h"

#include "CostModels.h"

#include "run/CostResolution.h"
#include "run/DeployCheck.h"
#include "support/Error.h"

#include <algorithm>

namespace tessera::gui {

std::string exportCandidateFor(const CandidateExport& request) {
  if (!request.original || !request.candidate) throw Error("no candidate to export: select one in the Candidates dock or run a search");
  SearchResult result;
  result.best = *request.candidate;
  ResultExport file{request.path, request.modelPath, true, 1, 1, {}};
  if (!request.runtime.empty()) waitForOwnSearch("timing the export on " + request.runtime);
  const std::optional<DeployCheck> check = exportForRuntime(*request.original, result, request.costSpec, request.runtime,
                                                            backendExecutors(), file, {}, {});
  if (result.verificationRun && !result.verified)
    throw Error(request.path + " does not compute what the original does: " + result.verifyProblem);
  std::string line = "wrote " + request.path;
  if (!check) return line + " (not timed for a runtime), verified against the original";
  if (!check->outcome) return line + " for " + request.runtime + ", not timed there: " + check->skipped + "; verified against the original";
  const DoNoHarmOutcome& outcome = *check->outcome;
  if (!outcome.comparison) return line + " for " + request.runtime + ": the candidate is the original graph";
  const std::string measured = outcome.comparison->describeSpeedup() + " on " + outcome.comparison->device;
  if (outcome.keptOriginal)
    return line + " for " + request.runtime + ": kept the original, the candidate is not faster there (" + measured + ")";
  return line + " for " + request.runtime + ": the candidate, " + measured + ", verified against the original";
}

std::vector<std::string> exportRuntimes() {
  std::vector<std::string> runtimes;
  for (const CostChoice& choice : measuredCostChoices()) {
    std::optional<std::string> backend = measuredBackend(choice.spec);
    if (backend && choice.unavailable.empty()) runtimes.push_back(*backend);
  }
  std::stable_partition(runtimes.begin(), runtimes.end(), [](const std::string& name) { return name == "ort"; });
  return runtimes;
}

} // namespace tessera::gui
