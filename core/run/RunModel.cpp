#include "run/RunModel.h"

#include "cost/GraphCost.h"
#include "events/Control.h"
#include "events/EventSink.h"
#include "run/DeployCheck.h"
#include "run/ResultExport.h"
#include "run/SharedCostModels.h"
#include "support/Error.h"

#include <exception>
#include <map>
#include <utility>

namespace tessera {

namespace {

std::shared_ptr<CostModel> resolveCost(const std::string& spec, const RunBackends& backends, std::string& fallbackNote) {
  if (backends.costs) {
    std::shared_ptr<CostModel> model = backends.costs->model(spec);
    fallbackNote = backends.costs->fallbackNote(spec);
    return model;
  }
  ResolvedCost resolved = resolveCostSpec(spec, {});
  fallbackNote = resolved.fallbackNote;
  return std::shared_ptr<CostModel>(std::move(resolved.model));
}

// The session side of a run. With `required` false a session that cannot be written is kept as
// the outcome's recordingError and the run goes on unrecorded.
class Recording {
public:
  Recording(const RunPlan& plan, const Graph& original, std::string& error) : required_(plan.recordingRequired), error_(error) {
    if (plan.sessionPath.empty()) return;
    try {
      recording_.emplace(plan.sessionPath, plan.recordedModel, original);
    } catch (const std::exception& e) {
      if (required_) throw;
      error_ = e.what();
    }
  }
  void begin(RunInfo info) {
    attempt([&] { recording_->begin(std::move(info)); });
  }
  EventSink* sink() { return recording_ ? &recording_->sink() : nullptr; }
  int64_t modelId() const { return recording_ ? recording_->modelId() : 0; }
  int64_t runId() const { return recording_ ? recording_->runId() : 0; }
  std::vector<int64_t> finish(const SearchResult& result, const CostModel& cost) {
    std::vector<int64_t> ids;
    attempt([&] { ids = recording_->finish(result, cost); });
    return ids;
  }
  void finishFailed(const std::string& why) {
    if (!recording_) return;
    try {
      recording_->finishFailed(why);
    } catch (const std::exception& e) { // the run's own error is the one to report
      if (error_.empty()) error_ = e.what();
    }
  }

private:
  template <typename Step> void attempt(Step step) {
    if (!recording_) return;
    try {
      step();
    } catch (const std::exception& e) {
      if (required_) throw;
      if (error_.empty()) error_ = e.what();
      recording_.reset();
    }
  }

  bool required_;
  std::string& error_;
  std::optional<RunRecording> recording_;
};

} // namespace

RunOutcome runModel(const Graph& original, const RunPlan& plan, const RunBackends& backends, Control& control, EventSink* sink,
                    const RunObserver& observer) {
  auto say = [&](const std::string& line) {
    if (observer.progress) observer.progress(line);
  };
  RunOutcome outcome;
  // Everything that can be refused is refused before a session records anything.
  std::unique_ptr<Strategy> strategy = makeStrategy(plan.request.strategy);
  SearchOptions search = plan.request.search;
  search.progress = say;
  strategy->validate(search);
  if (plan.verifyTrials < 1) throw Error("verification needs at least one trial, got " + std::to_string(plan.verifyTrials));
  ActiveRules rules = loadActiveRules(plan.rules, say);
  applyRuleChoice(plan.rules, rules, control);
  outcome.rulesUsed = rules.list.size();
  outcome.rulesHash = rules.sourceHash;
  outcome.cost = resolveCost(plan.request.costSpec, backends, outcome.costFallbackNote);
  if (!outcome.costFallbackNote.empty() && backends.warn) backends.warn(outcome.costFallbackNote);
  CostModel& cost = *outcome.cost;
  const std::string endToEndBackend = plan.endToEnd.enabled ? endToEndBackendOf(plan, cost.spec()) : std::string();

  Recording recording(plan, original, outcome.recordingError);
  recording.begin(runInfoFor(plan, cost.spec(), rules, 0));
  outcome.modelId = recording.modelId();
  outcome.runId = recording.runId();
  try {
    RunStarted started{outcome.modelId, outcome.runId, cost.spec(), graphCost(original, cost).totalMs, rules.list.size()};
    if (observer.started) observer.started(started);
    say(plan.request.strategy + " with " + std::to_string(rules.list.size()) + " rules, cost " + cost.spec());
    EventStream events;
    events.attach(sink);
    events.attach(recording.sink());
    outcome.result = strategy->run(SearchInput{original, rules.list, cost, control, events, search});

    SearchResult& result = outcome.result;
    const bool verify = plan.request.verify;
    // What is verified is what is returned: the written file read back when there is one.
    if (verify && plan.exportPath.empty()) {
      say("verifying against the original");
      verifySearchResult(original, result, plan.verifyTrials, search.seed);
    }
    if (!endToEndBackend.empty())
      outcome.deployCheck = checkOnRuntime(original, result, endToEndBackend, backends.executor, plan.endToEnd, say, backends.warn);
    if (!plan.exportPath.empty()) {
      ResultExport file{plan.exportPath, plan.modelPath, verify, plan.verifyTrials, search.seed,
                        deployMetadata(cost.spec(), outcome.deployCheck ? &*outcome.deployCheck : nullptr)};
      outcome.freeDims = exportResult(original, result, file, say);
    }
    if (result.verificationRun) say(std::string(result.verified ? "verified" : "VERIFICATION FAILED") + " against the original");
  } catch (const std::exception& e) {
    recording.finishFailed(e.what()); // the session says why, then the error goes on
    throw;
  }
  outcome.candidateIds = recording.finish(outcome.result, cost);
  return outcome;
}

} // namespace tessera
