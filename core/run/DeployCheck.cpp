#include "run/DeployCheck.h"

#include "run/CostResolution.h"
#include "support/Error.h"

namespace tessera {

DeployCheck checkOnRuntime(const Graph& original, SearchResult& result, const std::string& runtime, const ExecutorFactory& executors,
                           const EndToEndSettings& settings, const std::function<void(const std::string&)>& say,
                           const std::function<void(const std::string&)>& warn) {
  DeployCheck check{runtime, std::nullopt, {}};
  if (result.verificationRun && !result.verified) {
    check.skipped = "the candidate failed verification";
    return check;
  }
  try {
    if (!executors) throw Error("no " + runtime + " executor: " + kNoPluginSupport);
    std::unique_ptr<GraphExecutor> executor = executors(runtime);
    if (say) say("timing the candidate against the original end to end on " + executor->device());
    check.outcome = keepOriginalUnlessFaster(original, result, *executor, endToEndOptionsFor(runtime, settings));
  } catch (const Error& e) {
    check.skipped = e.what();
    if (warn) warn(std::string("end-to-end check skipped: ") + e.what());
  }
  return check;
}

std::map<std::string, std::string> deployMetadata(const std::string& costSpec, const DeployCheck* check) {
  std::map<std::string, std::string> props{{"tessera.cost", costSpec}};
  if (!check) return props;
  props["tessera.deploy_runtime"] = check->runtime;
  if (!check->skipped.empty()) props["tessera.deploy_check"] = "not timed: " + check->skipped;
  if (!check->outcome) return props;
  const DoNoHarmOutcome& outcome = *check->outcome;
  props["tessera.kept_original"] = outcome.keptOriginal ? "1" : "0";
  if (!outcome.executorMismatch.empty()) props["tessera.deploy_check"] = "not timed: " + outcome.executorMismatch;
  if (!outcome.comparison) return props;
  props["tessera.deploy_device"] = outcome.comparison->device;
  props["tessera.deploy_speedup_pct"] = std::to_string(outcome.returnedSpeedupPct());
  props["tessera.deploy_candidate_speedup"] = outcome.comparison->describeSpeedup();
  return props;
}

std::optional<DeployCheck> exportForRuntime(const Graph& original, SearchResult& result, const std::string& costSpec,
                                            const std::string& runtime, const ExecutorFactory& executors, ResultExport file,
                                            const std::function<void(const std::string&)>& say,
                                            const std::function<void(const std::string&)>& warn) {
  std::optional<DeployCheck> check;
  if (!runtime.empty()) check = checkOnRuntime(original, result, runtime, executors, EndToEndSettings{}, say, warn);
  file.metadata = deployMetadata(costSpec, check ? &*check : nullptr);
  exportResult(original, result, file, say);
  return check;
}

} // namespace tessera
