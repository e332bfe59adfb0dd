// A trained rewrite agent played as a search strategy, the same way for every agent (X-RLflow,
// RLFlow): argmax over the agent's policy in the RL environment (rl/RewriteEnvironment.h),
// leaving out rewrites back to a graph already visited, until the agent chooses stop, no rewrite
// is left, `max_steps`, the time limit or the user stops it. Every graph on the way cheaper than all
// before it is a candidate. Parameters: checkpoint (default: the agent's shipped one), max_steps.
// Vetoed rules are never listed; when a pinned rule has candidates the agent chooses among those.
//
// An agent type provides kName, load(path, rules, seed), config() and loadedFrom(); the play
// says how it decides in a real state and what its training counted.
#pragma once

#include "rl/CheckpointFile.h"
#include "rl/DecisionSummary.h"
#include "rl/RewriteEnvironment.h"
#include "rl/TrainedModels.h"
#include "search/RunProtocol.h"
#include "search/SearchClock.h"
#include "search/Strategy.h"
#include "support/Error.h"
#include "xrlflow/XrlflowTraining.h"

#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tessera {

template <class Agent>
struct AgentPlay {
  std::function<std::string()> defaultCheckpoint;
  std::string episodesCounted; // what the checkpoint's episode count counts ("episodes", "dream episodes")
  std::function<AgentDecision(Agent&, const Observation&)> decide;
};

template <class Agent>
class AgentPlayStrategy final : public Strategy {
public:
  explicit AgentPlayStrategy(AgentPlay<Agent> play) : play_(std::move(play)) {}

  std::string_view name() const override { return Agent::kName; }

  void validate(const SearchOptions& options) const override {
    const Parameters parameters = readParameters(options);
    const CheckpointContents contents = readCheckpointFile(parameters.checkpoint); // fails before a run is recorded
    if (contents.header.agent != Agent::kName)
      throw errorInFile(parameters.checkpoint, "holds a '" + contents.header.agent + "' agent, not an " + std::string(Agent::kName) + " one");
  }

  SearchResult run(const SearchInput& input) override {
    const SearchClock clock(input.cost); // the time limit's clock: the cost model's measuring is not counted
    const Parameters parameters = readParameters(input.options);
    Agent agent = Agent::load(parameters.checkpoint, input.rules, input.options.seed);
    const CheckpointHeader& trained = agent.loadedFrom();
    const std::optional<bool> inSample = wasTrainedOn(trained, input.original);
    say(input, std::string(Agent::kName) + ": agent " + parameters.checkpoint + " (trained " + std::to_string(trained.episodes) + " " +
                   play_.episodesCounted + " on " + std::to_string(trained.models.size()) + " models with " + trained.cost + "); " +
                   trainingSetVerdict(inSample));

    SearchResult result;
    result.inSample = inSample;
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
      const AgentDecision decision = play_.decide(agent, environment.observation());
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
        protocol.addCandidate(Candidate{environment.graph(), environment.costMs(), std::string(Agent::kName), step, environment.origins()});
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
    std::snprintf(line, sizeof line, "%s stopped (%s) after %d rewrites, %zu priced, %.2f s%s; speedup %.2f%%", Agent::kName,
                  result.stopReason.c_str(), step, priced, result.searchSeconds, measuringNote(result.measuringSeconds).c_str(),
                  result.speedupPct);
    say(input, line);
    return result;
  }

private:
  struct Parameters {
    std::string checkpoint;
    int maxSteps = kArgmaxMaxSteps;
  };

  Parameters readParameters(const SearchOptions& options) const {
    static constexpr const char* kKnown[] = {"checkpoint", "max_steps"};
    checkParameterNames(options, Agent::kName, kKnown);
    Parameters parameters;
    parameters.checkpoint = textParameter(options, "checkpoint", play_.defaultCheckpoint());
    if (parameters.checkpoint.empty()) throw Error("parameter checkpoint= needs a file");
    const double steps = numericParameter(options, "max_steps", kArgmaxMaxSteps);
    if (!(steps >= 1) || steps != std::floor(steps) || steps > 1e6)
      throw Error("parameter max_steps=" + textParameter(options, "max_steps", "") + " must be a whole number >= 1");
    parameters.maxSteps = static_cast<int>(steps);
    return parameters;
  }

  static void say(const SearchInput& input, const std::string& line) {
    if (input.options.progress) input.options.progress(line);
  }

  // The committed step, with the value the agent saw in the state it left.
  static void publishStep(const SearchInput& input, int step, const std::string& action, const AgentDecision& decision,
                          const RewriteEnvironment& environment) {
    if (input.events.wants(EventKind::StepCommitted))
      input.events.publish(StepCommitted{step, action, 0, 0, decision.value, environment.graph().opCount(), 0});
  }

  AgentPlay<Agent> play_;
};

} // namespace tessera
