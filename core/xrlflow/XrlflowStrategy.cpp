#include "xrlflow/XrlflowStrategy.h"

#include "rl/DecisionSummary.h"
#include "rl/RewriteEnvironment.h"
#include "search/RunProtocol.h"
#include "search/SearchClock.h"
#include "support/Error.h"
#include "xrlflow/XrlflowAgent.h"
#include "xrlflow/XrlflowTraining.h"

#include <cmath>
#include <cstdio>
#include <optional>
#include <set>

namespace tessera {

namespace {

struct XrlflowParameters {
  std::string checkpoint;
  int maxSteps = kArgmaxMaxSteps;
};

XrlflowParameters readParameters(const SearchOptions& options) {
  static constexpr const char* kKnown[] = {"checkpoint", "max_steps"};
  checkParameterNames(options, "xrlflow", kKnown);
  XrlflowParameters parameters;
  parameters.checkpoint = textParameter(options, "checkpoint", defaultXrlflowCheckpoint());
  if (parameters.checkpoint.empty()) throw Error("parameter checkpoint= needs a file");
  double steps = numericParameter(options, "max_steps", kArgmaxMaxSteps);
  if (!(steps >= 1) || steps != std::floor(steps) || steps > 1e6)
    throw Error("parameter max_steps=" + textParameter(options, "max_steps", "") + " must be a whole number >= 1");
  parameters.maxSteps = static_cast<int>(steps);
  return parameters;
}

class XrlflowStrategy final : public Strategy {
public:
  std::string_view name() const override { return XrlflowAgent::kName; }

  void validate(const SearchOptions& options) const override {
    XrlflowParameters parameters = readParameters(options);
    readCheckpointFile(parameters.checkpoint); // a missing or malformed file fails before a run is recorded
  }

  SearchResult run(const SearchInput& input) override {
    const SearchClock clock(input.cost); // the time limit's clock: the cost model's measuring is not counted
    const XrlflowParameters parameters = readParameters(input.options);
    XrlflowAgent agent = XrlflowAgent::load(parameters.checkpoint, input.rules, input.options.seed);
    const AgentConfig& config = agent.config();
    say(input, "xrlflow: agent " + parameters.checkpoint + " (trained " + std::to_string(agent.loadedFrom().episodes) + " episodes on " +
                   std::to_string(agent.loadedFrom().models.size()) + " models with " + agent.loadedFrom().cost + ")");

    SearchResult result;
    RunProtocol protocol(input, result);
    protocol.start();
    RewriteEnvironmentOptions options = argmaxOptionsFor(config);
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
      AgentDecision decision = agent.decide(environment.observation(), /*explore=*/false);
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
        protocol.addCandidate(Candidate{environment.graph(), environment.costMs(), "xrlflow", step, environment.origins()});
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
    std::snprintf(line, sizeof line, "xrlflow stopped (%s) after %d rewrites, %zu priced, %.2f s%s; speedup %.2f%%", result.stopReason.c_str(),
                  step, priced, result.searchSeconds, measuringNote(result.measuringSeconds).c_str(), result.speedupPct);
    say(input, line);
    return result;
  }

private:
  static void say(const SearchInput& input, const std::string& line) {
    if (input.options.progress) input.options.progress(line);
  }
  // The committed step, with the value the agent saw in the state it left.
  static void publishStep(const SearchInput& input, int step, const std::string& action, const AgentDecision& decision,
                          const RewriteEnvironment& environment) {
    if (input.events.wants(EventKind::StepCommitted))
      input.events.publish(StepCommitted{step, action, 0, 0, decision.value, environment.graph().opCount(), 0});
  }
};

} // namespace

std::unique_ptr<Strategy> makeXrlflowStrategy() { return std::make_unique<XrlflowStrategy>(); }

void registerXrlflowStrategy() { registerStrategy(XrlflowAgent::kName, makeXrlflowStrategy); }

std::string defaultXrlflowCheckpoint() { return TESSERA_XRLFLOW_DEFAULT_CHECKPOINT; }

} // namespace tessera
