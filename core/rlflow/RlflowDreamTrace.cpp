#include "rlflow/RlflowDreamTrace.h"

#include "rl/RewriteEnvironment.h"
#include "xrlflow/XrlflowAgent.h"
#include "xrlflow/XrlflowTraining.h"

#include <algorithm>
#include <memory>

namespace tessera {

namespace {

struct MaskCounts {
  int rules = 0;
  int actions = 0;
};

MaskCounts countsOf(const ActionMask& mask) {
  MaskCounts counts;
  for (int locations : mask.locations) {
    counts.rules += locations > 0 ? 1 : 0;
    counts.actions += locations;
  }
  return counts;
}

double presenceAgreement(const ActionMask& dreamt, const ActionMask& real) {
  if (real.locations.empty()) return 1.0;
  size_t right = 0;
  for (size_t r = 0; r < real.locations.size(); ++r) right += (dreamt.locations[r] > 0) == (real.locations[r] > 0) ? 1 : 0;
  return static_cast<double>(right) / static_cast<double>(real.locations.size());
}

} // namespace

DreamTrace traceDream(RlflowAgent& agent, RewriteEnvironment& environment, const Graph& start, const DreamTraceOptions& options) {
  const int rules = agent.config().rules;
  DreamTrace trace;
  environment.reset(start);
  trace.initialCostMs = environment.initialCostMs();

  Latent dreamtZ = agent.encode(environment.observation());
  DreamMemory dreamtMemory = agent.dreamStart(), realMemory = agent.dreamStart();
  bool stopped = false;
  while (!environment.done() && static_cast<int>(trace.steps.size()) < options.maxSteps) {
    const Observation& observation = environment.observation();
    const size_t chosen = options.choose ? options.choose(environment) : argmaxAction(agent.decideReal(observation), environment);
    ++trace.realSteps;
    if (chosen == environment.stopAction()) {
      environment.step(chosen);
      stopped = true;
      break;
    }
    DreamTraceStep step;
    step.step = static_cast<int>(trace.steps.size());
    step.action = actionOf(observation, chosen, rules);
    step.rule = environment.rule(environment.candidates()[chosen].ruleIndex).name();
    const ActionMask real = maskOf(observation, rules), dreamt = agent.predictMask(dreamtZ);
    const MaskCounts realCounts = countsOf(real), dreamtCounts = countsOf(dreamt);
    step.realRules = realCounts.rules;
    step.realActions = realCounts.actions;
    step.dreamtRules = dreamtCounts.rules;
    step.dreamtActions = dreamtCounts.actions;
    step.maskAgreement = presenceAgreement(dreamt, real);
    step.actionInDream = offers(dreamt, step.action);

    const Latent realZ = agent.encode(observation);
    const DreamStep oneStep = agent.dream(realMemory, realZ, step.action, options.temperature);
    DreamStep imagined = agent.dream(dreamtMemory, dreamtZ, step.action, options.temperature);
    const StepOutcome outcome = environment.step(chosen);
    step.realReward = outcome.reward;
    step.realDone = outcome.done || environment.done();
    step.dreamtReward = imagined.reward;
    step.dreamtDone = imagined.done;
    step.oneStepReward = oneStep.reward;
    dreamtZ = std::move(imagined.next);

    trace.realReturn += step.realReward;
    trace.dreamtReturn += step.dreamtReward;
    trace.oneStepReturn += step.oneStepReward;
    if (trace.firstDeparture < 0 && !step.actionInDream) trace.firstDeparture = step.step;
    if (options.onStep) options.onStep(step);
    trace.steps.push_back(std::move(step));
  }
  trace.finalCostMs = environment.costMs();
  if (stopped) trace.stopReason = "stop chosen";
  else if (environment.done() && environment.candidates().empty()) trace.stopReason = "no rewrite left";
  else trace.stopReason = "step limit";
  return trace;
}

std::function<size_t(RewriteEnvironment&)> dreamTracePolicy(const std::string& name, std::span<const Rule* const> rules) {
  if (name == "rlflow") return {};
  if (name == "greedy")
    return [](RewriteEnvironment& environment) {
      const bool saves = !environment.candidates().empty() && environment.candidates().front().costMs < environment.costMs();
      return saves ? size_t{0} : environment.stopAction(); // listed cheapest first
    };
  auto xrlflow = std::make_shared<XrlflowAgent>(XrlflowAgent::load(name, rules, 1));
  return [xrlflow](RewriteEnvironment& environment) {
    return argmaxAction(xrlflow->decide(environment.observation(), /*explore=*/false), environment);
  };
}

} // namespace tessera
