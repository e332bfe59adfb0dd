#include "rlflow/RlflowStrategy.h"

#include "rl/DecisionSummary.h"
#include "rl/RewriteEnvironment.h"
#include "rlflow/RlflowAgent.h"
#include "search/RunProtocol.h"
#include "search/SearchClock.h"
#include "support/Error.h"
#include "xrlflow/XrlflowTraining.h"

#include <cmath>
#include <cstdio>
#include <optional>

namespace tessera {

namespace {

struct RlflowParameters {
  std::string checkpoint;
  int maxSteps = kArgmaxMaxSteps;
};

RlflowParameters readParameters(const SearchOptions& options) {
  static constexpr const char* kKnown[] = {"checkpoint", "max_steps"};
  checkParameterNames(options, RlflowAgent::kName, kKnown);
  RlflowParameters parameters;
  parameters.checkpoint = textParameter(options, "checkpoint", defaultRlflowCheckpoint());
  if (parameters.checkpoint.empty()) throw Error("parameter checkpoint= needs a file");
  const double steps = numericParameter(options, "max_steps", kArgmaxMaxSteps);
  if (!(steps >= 1) || steps != std::floor(steps) || steps > 1e6)
    throw Error("parameter max_steps=" + textParameter(options, "max_steps", "") + " must be a whole number >= 1");
  parameters.maxSteps = static_cast<int>(steps);
  return parameters;
}

class RlflowStrategy final : public Strategy {
public:
  std::string_view name() const override { return RlflowAgent::kName; }

  void validate(const SearchOptions& options) const override {
    const RlflowParameters parameters = readParameters(options);
    const CheckpointContents contents = readCheckpointFile(parameters.checkpoint); // fails before a run is recorded
    if (contents.header.agent != RlflowAgent::kName)
      throw errorInFile(parameters.checkpoint, "holds a '" + contents.header.agent + "' agent, not an rlflow one");
  }

  SearchResult run(const SearchInput& input) override {
    const SearchClock clock(input.cost); // the time limit's clock: the cost model's measuring is not counted
    const RlflowParameters parameters = readParameters(input.options);
    RlflowAgent agent = RlflowAgent::load(parameters.checkpoint, input.rules, input.options.seed);
    const CheckpointHeader& trained = agent.loadedFrom();
    say(input, "rlflow: agent " + parameters.checkpoint + " (" + std::to_string(trained.episodes) + " dream episodes on " +
                   std::to_string(trained.models.size()) + " models with " + trained.cost + ")");

    SearchResult result;
    RunProtocol protocol(input, result);
    protocol.start();
    RewriteEnvironmentOptions options = argmaxOptionsFor(agent.config());
    options.horizon = parameters.maxSteps;
    options.opLimit = input.options.nodeLimit;
    options.allowed = [&input](const Rule& rule) { return !input.control.vetoed().count(rule.name()); };
    RewriteEnvironment environment(input.rules, input.cost, options);
    environment.reset(input.original);
    const OriginalOps originalOps(input.original);

    std::optional<StopReason> stop;
    std::vector<std::string> path, bestPath;
    size_t priced = environment.previewed();
    int step = 0;
    while (!environment.done()) {
      if (!protocol.beforeStep(step)) {
        stop = StopReason::StoppedByUser;
        break;
      }
      if (clock.reached(input.options.timeLimitSeconds)) {
        stop = StopReason::TimeLimit;
        break;
      }
      const AgentDecision decision = agent.decideReal(environment.observation());
      const size_t action = argmaxAction(decision, environment, input.control.pinned());
      if (input.events.wants(EventKind::AgentDecided))
        input.events.publish(summarizeDecision(step, decision.value, decision.probabilities, action, environment, originalOps));
      if (action == environment.stopAction()) {
        publishStep(input, step, "stop", decision, environment);
        environment.step(action);
        stop = StopReason::Saturated;
        break;
      }
      const std::string rule = environment.rule(environment.candidates()[action].ruleIndex).name();
      environment.step(action);
      priced += environment.previewed();
      path.push_back(rule);
      if (input.events.wants(EventKind::RuleApplied)) input.events.publish(RuleApplied{rule, step, {}, {}, environment.lastNewNodes()});
      publishStep(input, step, rule, decision, environment);
      if (environment.costMs() < protocol.bestCostMs()) {
        protocol.addCandidate(Candidate{environment.graph(), environment.costMs(), RlflowAgent::kName, step, environment.origins()});
        bestPath = path;
      }
      ++step;
    }
    if (!stop) stop = environment.steps() >= options.horizon ? StopReason::StepLimit : StopReason::Saturated;

    result.measuringSeconds = clock.measuringSeconds();
    result.searchSeconds = clock.wallSeconds();
    result.steps = step;
    result.enodes = priced;
    for (const std::string& rule : bestPath) ++result.rulesApplied[rule];
    protocol.finish(*stop);
    char line[224];
    std::snprintf(line, sizeof line, "rlflow stopped (%s) after %d rewrites, %zu priced, %.2f s%s; speedup %.2f%%", result.stopReason.c_str(), step,
                  priced, result.searchSeconds, measuringNote(result.measuringSeconds).c_str(), result.speedupPct);
    say(input, line);
    return result;
  }

private:
  static void say(const SearchInput& input, const std::string& line) {
    if (input.options.progress) input.options.progress(line);
  }
  static void publishStep(const SearchInput& input, int step, const std::string& action, const AgentDecision& decision,
                          const RewriteEnvironment& environment) {
    if (input.events.wants(EventKind::StepCommitted))
      input.events.publish(StepCommitted{step, action, 0, 0, decision.value, environment.graph().opCount(), 0});
  }
};

} // namespace

std::unique_ptr<Strategy> makeRlflowStrategy() { return std::make_unique<RlflowStrategy>(); }

void registerRlflowStrategy() { registerStrategy(RlflowAgent::kName, makeRlflowStrategy); }

std::string defaultRlflowCheckpoint() { return TESSERA_RLFLOW_DEFAULT_CHECKPOINT; }

} // namespace tessera
