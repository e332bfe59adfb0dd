#include "search/EqsatStrategy.h"

#include "egraph/GraphConversion.h"
#include "extract/EGraphJson.h"
#include "rewrite/Runner.h"
#include "search/EGraphExtraction.h"
#include "search/Provenance.h"
#include "search/RunProtocol.h"

#include "extract/Extractors.h"
#include "support/Error.h"

#include <cstdio>
#include <limits>

namespace tessera {

namespace {
void say(const SearchOptions& options, const std::string& line) {
  if (options.progress) options.progress(line);
}

std::string seconds(double s) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f s", s);
  return buffer;
}

bool tensatPreset(const SearchOptions& options) { return numericParameter(options, "tensat", 0) != 0; }

// The run's limits: the options' own, the parameters given, and the preset's defaults for the rest.
RunnerLimits runnerLimits(const SearchOptions& options) {
  const bool tensat = tensatPreset(options);
  RunnerLimits limits;
  limits.nodeLimit = options.nodeLimit ? options.nodeLimit : 50000;
  limits.iterationLimit = options.iterationLimit;
  limits.timeLimitSeconds = options.timeLimitSeconds;
  limits.multiIterations = options.multiIterations;
  // egg's Runner has no per-rule match cap; its BackoffScheduler (1,000 matches, 5 iterations) is
  // the default TENSAT ran its single-pattern rules under.
  const double matchLimit = numericParameter(options, "match_limit", tensat ? 0 : 20000);
  limits.matchLimitPerRule = matchLimit > 0 ? static_cast<size_t>(matchLimit) : std::numeric_limits<size_t>::max();
  limits.backoffMatchLimit = static_cast<size_t>(numericParameter(options, "backoff_match_limit", 1000));
  limits.backoffBanLength = static_cast<int>(numericParameter(options, "backoff_ban_length", 5));
  limits.multiSchedule = textParameter(options, "multi_schedule", tensat ? "first" : "late") == "first"
                             ? RunnerLimits::MultiSchedule::First
                             : RunnerLimits::MultiSchedule::Late;
  return limits;
}
} // namespace

void EqsatStrategy::validate(const SearchOptions& options) const {
  static constexpr const char* kParameters[] = {"match_limit", "egraph_json", "backoff_match_limit", "backoff_ban_length",
                                                "multi_schedule", "tensat"};
  checkParameterNames(options, name(), kParameters);
  if (const std::string schedule = textParameter(options, "multi_schedule", "late"); schedule != "late" && schedule != "first")
    throw Error("parameter multi_schedule must be late or first, not '" + schedule + "'");
  for (const char* numeric : {"match_limit", "backoff_match_limit", "backoff_ban_length", "tensat"})
    if (numericParameter(options, numeric, 0) < 0) throw Error(std::string("parameter ") + numeric + " must be >= 0");
  if (!extract::parseExtractionMethod(options.extractMethod))
    throw Error("unknown extraction method '" + options.extractMethod + "' (use tree, ocf, dag or ilp)");
}

SearchResult EqsatStrategy::run(const SearchInput& input) {
  const SearchOptions& options = input.options;
  validate(options);

  SearchResult result;
  RunProtocol protocol(input, result);
  protocol.start();

  EGraph egraph;
  ProvenanceRecorder provenance(input.events);
  egraph.setListener(&provenance);
  SeededGraph seed = seedEGraph(egraph, input.original);
  provenance.originalSeeded();

  const RunnerLimits limits = runnerLimits(options);
  ENodeCoster coster(input.cost);
  if (tensatPreset(options))
    say(options, "TENSAT's settings: multi-pattern rules in the first " + std::to_string(limits.multiIterations) +
                     " iteration(s), " + std::to_string(limits.nodeLimit) + " e-nodes, " + std::to_string(limits.iterationLimit) +
                     " iterations, egg's backoff scheduler, no match cap");

  int step = 0;
  RunnerHooks hooks;
  hooks.stopRequested = [&] { return input.control.stopRequested(); };
  hooks.beforeIteration = [&](int iteration) {
    step = iteration;
    return protocol.beforeStep(step);
  };
  hooks.arrangeRules = [&](std::span<const Rule* const> rules) { return arrangeRules(rules, input.control); };
  hooks.ruleApplied = [&](const Rule& rule, const RuleMatch& match, const RuleApplication& application) {
    provenance.ruleApplied(rule, match, application, step);
  };
  // Each later round of multi-pattern rules starts with a candidate of the rounds before it, so that
  // a second round's cycle filtering cannot cost the graph the first found (TENSAT's run does not).
  double snapshotSeconds = 0;
  hooks.beforeMultiRound = [&](int round) {
    if (round == 0 || tensatPreset(options)) return;
    ExtractedGraph snapshot = extractGraph(egraph, seed, coster, options.extractMethod, options.extractTimeLimitSeconds);
    snapshotSeconds += snapshot.seconds;
    say(options, "extracted the graph of multi-pattern round " + std::to_string(round) + " with " + options.extractMethod +
                     " in " + seconds(snapshot.seconds));
    protocol.addCandidate(provenance.candidate(egraph, std::move(snapshot), input.cost, step));
  };
  hooks.iterationDone = [&](const IterationReport& it) {
    input.events.publish(StepCommitted{it.index, "iteration", 0, 0, 0, it.enodes, it.eclasses});
    say(options, "iteration " + std::to_string(it.index + 1) + ": " + std::to_string(it.enodes) + " e-nodes (" +
                     std::to_string(it.liveEnodes()) + " live, " + std::to_string(it.filteredEnodes) + " filtered), " +
                     std::to_string(it.eclasses) + " e-classes, " + std::to_string(it.applied) + " rewrites (" +
                     std::to_string(it.multiApplied) + " multi-pattern), " + std::to_string(it.filtered) + " newly filtered");
  };
  RunReport run = runSaturation(egraph, seed.outputs, input.rules, limits, hooks);
  egraph.setListener(nullptr);
  result.searchSeconds = run.seconds - snapshotSeconds;
  result.extractionSeconds = snapshotSeconds;
  result.steps = static_cast<int>(run.iterations.size());
  result.rulesApplied = run.rulesApplied;
  result.enodes = egraph.numNodes();
  result.enodesFiltered = egraph.numFiltered();
  result.eclasses = egraph.numClasses();
  say(options, "saturation stopped (" + std::string(stopReasonName(run.stopReason)) + ") after " + seconds(result.searchSeconds));

  if (std::string path = textParameter(options, "egraph_json", ""); !path.empty()) {
    extract::writeEGraphJson(toExtractionProblem(egraph, seed.outputs, coster).problem, path);
    say(options, "wrote the e-graph to " + path);
  }
  ExtractedGraph extracted = extractGraph(egraph, seed, coster, options.extractMethod, options.extractTimeLimitSeconds);
  result.extractionSeconds += extracted.seconds;
  say(options, "extracted with " + options.extractMethod + " in " + seconds(extracted.seconds));
  protocol.addCandidate(provenance.candidate(egraph, std::move(extracted), input.cost, result.steps));
  protocol.finish(run.stopReason);
  return result;
}

} // namespace tessera
