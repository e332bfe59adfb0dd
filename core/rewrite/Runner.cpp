#include "rewrite/Runner.h"

#include "rewrite/CycleFilter.h"

#include <chrono>
#include <functional>
#include <memory>
#include <unordered_map>

namespace tessera {

namespace {
using Clock = std::chrono::steady_clock;
double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

enum class MultiPhaseEnd { Done, NodeLimit, Interrupted };

// TENSAT's hook: every multi-pattern rule searched on the clean e-graph first, then each pair
// applied as its join yields it, until the e-graph holds `nodeLimit` e-nodes. Leaves it clean.
MultiPhaseEnd applyMultiPatternRules(EGraph& egraph, std::span<const EClassId> roots, const std::vector<const Rule*>& active,
                                     const RunnerLimits& limits, const RunnerHooks& hooks, const std::function<bool()>& interrupted,
                                     IterationReport& it, RunReport& report) {
  const auto start = Clock::now();
  std::vector<std::pair<const Rule*, std::unique_ptr<MatchStream>>> streams;
  for (const Rule* rule : active)
    if (rule->isMulti()) streams.emplace_back(rule, rule->stream(egraph));
  MultiPhaseEnd end = MultiPhaseEnd::Done;
  RuleMatch match;
  for (auto& [rule, stream] : streams) {
    while (end == MultiPhaseEnd::Done && stream->next(match)) {
      if (egraph.numNodes() >= limits.nodeLimit) {
        end = MultiPhaseEnd::NodeLimit;
        break;
      }
      ++it.multiMatches;
      RuleApplication application = rule->apply(egraph, match);
      if (application.changed) {
        ++it.multiApplied;
        ++report.rulesApplied[rule->name()];
      }
      if (hooks.ruleApplied && application.typeChecked) hooks.ruleApplied(*rule, match, application);
      if (it.multiMatches % 256 == 0 && interrupted()) end = MultiPhaseEnd::Interrupted;
    }
    if (end != MultiPhaseEnd::Done) break;
  }
  streams.clear();
  egraph.rebuild();
  it.filtered += filterCycles(egraph, roots);
  it.matches += it.multiMatches;
  it.applied += it.multiApplied;
  it.multiSeconds = secondsSince(start);
  return end;
}
} // namespace

RunReport runSaturation(EGraph& egraph, std::span<const EClassId> roots, std::span<const Rule* const> rules,
                        const RunnerLimits& limits, const RunnerHooks& hooks) {
  RunReport report;
  const auto start = Clock::now();
  egraph.rebuild();
  auto outOfTime = [&] { return secondsSince(start) >= limits.timeLimitSeconds; };
  auto stopRequested = [&] { return hooks.stopRequested && hooks.stopRequested(); };
  struct Backoff {
    int timesBanned = 0;
    int bannedUntil = 0; // iteration
  };
  std::unordered_map<const Rule*, Backoff> backoff;
  // The first iteration that may apply multi-pattern rules; -1 while waiting for the single-pattern fixpoint.
  int multiStart = limits.multiSchedule == RunnerLimits::MultiSchedule::First ? 0 : -1;
  auto multiAllowed = [&](int iteration) { return multiStart >= 0 && iteration >= multiStart && iteration < multiStart + limits.multiIterations; };

  for (int iteration = 0;; ++iteration) {
    if (iteration >= limits.iterationLimit) {
      report.stopReason = StopReason::IterationLimit;
      break;
    }
    if (hooks.beforeIteration && !hooks.beforeIteration(iteration)) {
      report.stopReason = StopReason::StoppedByUser;
      break;
    }
    const std::vector<const Rule*> active =
        hooks.arrangeRules ? hooks.arrangeRules(rules) : std::vector<const Rule*>(rules.begin(), rules.end());
    // Late, but not so late that the iteration limit leaves the multi-pattern rules no turn.
    if (multiStart < 0 && limits.multiIterations > 0 && iteration >= limits.iterationLimit - limits.multiIterations)
      multiStart = iteration;
    IterationReport it;
    it.index = iteration;
    const size_t nodesBefore = egraph.numNodes(), classesBefore = egraph.numClasses();

    bool hitNodeLimit = false, interrupted = false;
    if (multiAllowed(iteration)) {
      if (hooks.beforeMultiRound) hooks.beforeMultiRound(iteration - multiStart);
      MultiPhaseEnd end = applyMultiPatternRules(egraph, roots, active, limits, hooks,
                                                 [&] { return outOfTime() || stopRequested(); }, it, report);
      hitNodeLimit = end == MultiPhaseEnd::NodeLimit;
      interrupted = end == MultiPhaseEnd::Interrupted;
    }

    // Search on the clean e-graph; matching never mutates.
    auto phase = Clock::now();
    std::vector<std::pair<const Rule*, std::vector<RuleMatch>>> found;
    for (const Rule* rule : active) {
      if (hitNodeLimit || interrupted) break;
      if (rule->isMulti()) continue;
      Backoff& state = backoff[rule];
      if (limits.backoffMatchLimit && iteration < state.bannedUntil) {
        ++it.banned;
        continue;
      }
      std::vector<RuleMatch> matches = rule->search(egraph, limits.matchLimitPerRule);
      if (limits.backoffMatchLimit && matches.size() > (limits.backoffMatchLimit << state.timesBanned)) {
        state.bannedUntil = iteration + (limits.backoffBanLength << state.timesBanned);
        ++state.timesBanned;
        ++it.banned;
        continue;
      }
      it.matches += matches.size();
      found.emplace_back(rule, std::move(matches));
      if (outOfTime() || stopRequested()) break;
    }
    it.searchSeconds = secondsSince(phase);

    // Apply; stop adding once the node limit is reached.
    phase = Clock::now();
    for (const auto& [rule, matches] : found) {
      for (const RuleMatch& match : matches) {
        if (egraph.numNodes() >= limits.nodeLimit) {
          hitNodeLimit = true;
          break;
        }
        RuleApplication application = rule->apply(egraph, match);
        if (application.changed) {
          ++it.applied;
          ++report.rulesApplied[rule->name()];
        }
        if (hooks.ruleApplied && application.typeChecked) hooks.ruleApplied(*rule, match, application);
      }
      if (hitNodeLimit) break;
    }
    it.applySeconds = secondsSince(phase);

    phase = Clock::now();
    egraph.rebuild();
    it.filtered += filterCycles(egraph, roots);
    it.rebuildSeconds = secondsSince(phase);
    it.enodes = egraph.numNodes();
    it.filteredEnodes = egraph.numFiltered();
    it.eclasses = egraph.numClasses();
    report.iterations.push_back(it);
    if (hooks.iterationDone) hooks.iterationDone(it);

    if (hitNodeLimit || egraph.numNodes() >= limits.nodeLimit) {
      report.stopReason = StopReason::NodeLimit;
      break;
    }
    if (stopRequested()) {
      report.stopReason = StopReason::StoppedByUser;
      break;
    }
    if (outOfTime()) {
      report.stopReason = StopReason::TimeLimit;
      break;
    }
    // Saturated: nothing new, and no multi-pattern iterations left to try.
    bool multiPending = multiStart >= 0 && iteration + 1 < multiStart + limits.multiIterations;
    if (egraph.numNodes() == nodesBefore && egraph.numClasses() == classesBefore && it.applied == 0 && !multiPending) {
      // Nothing changed, but banned rules might still have work: lift the bans and go on (egg).
      bool anyBanned = it.banned > 0;
      for (auto& [rule, state] : backoff)
        if (state.bannedUntil > iteration + 1) {
          state.bannedUntil = iteration + 1;
          anyBanned = true;
        }
      if (anyBanned) continue;
      if (multiStart < 0 && limits.multiIterations > 0) {
        multiStart = iteration + 1; // the single-pattern fixpoint: now the multi-pattern rules
        continue;
      }
      report.stopReason = StopReason::Saturated;
      break;
    }
  }
  report.seconds = secondsSince(start);
  return report;
}

} // namespace tessera
