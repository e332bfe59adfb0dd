// Equality saturation (egg's Runner, TENSAT's settings): search every rule, apply every match,
// rebuild, filter cycles; repeat until saturated or a limit is hit. Multi-pattern rules run as
// TENSAT's hook runs them: at the start of each of their k_multi iterations, all of them searched
// on the clean e-graph and each pair applied as the join yields it, outside the backoff scheduler
// and the per-rule match cap, until the e-graph reaches the node limit. Their iterations are the
// first ones (TENSAT), or the ones after the single-pattern rules reach a fixpoint. Every run says
// why it stopped and reports each iteration.
#pragma once

#include "egraph/EGraph.h"
#include "rewrite/Rule.h"
#include "rewrite/StopReason.h"

#include <functional>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tessera {


struct RunnerLimits {
  size_t nodeLimit = 50000;
  int iterationLimit = 15;
  double timeLimitSeconds = 60;
  int multiIterations = 1;        // TENSAT's k_multi
  // When the k_multi iterations of multi-pattern rules happen. TENSAT spends them first, before any
  // single-pattern rewrite has run, so a multi-pattern rule never sees what a single rewrite makes
  // (a conv fused with its relu, a reassociated matmul). Late spends them once the single-pattern
  // rules change nothing more (or in the last k_multi iterations the iteration limit allows, if
  // they never settle), then goes on with the single rules.
  enum class MultiSchedule { First, Late };
  MultiSchedule multiSchedule = MultiSchedule::First;
  size_t matchLimitPerRule = 20000; // single-pattern rules; SIZE_MAX: none (TENSAT)
  // egg's BackoffScheduler: a rule whose matches exceed backoffMatchLimit << (times banned) is
  // banned for backoffBanLength << (times banned) iterations and its matches dropped, so a few
  // explosive rules cannot fill the node budget before the useful ones run. 0 turns it off
  // (TENSAT's simple scheduling).
  size_t backoffMatchLimit = 0;
  int backoffBanLength = 5;
};

struct IterationReport {
  int index = 0;
  size_t enodes = 0;              // all e-nodes, filtered ones included (egg's total_size)
  size_t filteredEnodes = 0;      // of those, filtered by the cycle filter so far
  size_t eclasses = 0;
  size_t matches = 0;             // single-pattern matches found plus multi-pattern pairs taken
  size_t applied = 0;             // applications that changed the e-graph
  size_t multiMatches = 0;        // multi-pattern pairs taken from the joins
  size_t multiApplied = 0;        // of the applications, multi-pattern ones
  size_t filtered = 0;            // e-nodes filtered to break cycles in this iteration
  size_t banned = 0;              // rules the backoff scheduler skipped this iteration
  double multiSeconds = 0;        // multi-pattern search and application
  double searchSeconds = 0;
  double applySeconds = 0;
  double rebuildSeconds = 0;

  size_t liveEnodes() const { return enodes - filteredEnodes; }
};

struct RunReport {
  StopReason stopReason = StopReason::Saturated;
  std::vector<IterationReport> iterations;
  std::map<std::string, size_t> rulesApplied; // rule name -> applications that changed the e-graph
  double seconds = 0;
};

// Hooks for observers (event log, views); all optional.
struct RunnerHooks {
  std::function<bool()> stopRequested;
  // Called before each iteration; false stops the run (StoppedByUser). A search's Control blocks
  // here while paused.
  std::function<bool(int iteration)> beforeIteration;
  // The rules for one iteration, in order (pins first, vetoes out); default: `rules` as given.
  std::function<std::vector<const Rule*>(std::span<const Rule* const> rules)> arrangeRules;
  std::function<void(const Rule&, const RuleMatch&, const RuleApplication&)> ruleApplied;
  std::function<void(const IterationReport&)> iterationDone;
  // Called before each iteration that applies multi-pattern rules, with its round (0 .. k_multi-1),
  // on the clean e-graph the earlier rounds left. A later round can lose a graph an earlier one
  // made: its merges close cycles, and the cycle filter breaks them by dropping e-nodes.
  std::function<void(int round)> beforeMultiRound;
};

// Runs `rules` (in this order: put pinned rules first, leave vetoed ones out) on `egraph`.
RunReport runSaturation(EGraph& egraph, std::span<const EClassId> roots, std::span<const Rule* const> rules,
                        const RunnerLimits& limits, const RunnerHooks& hooks = {});

} // namespace tessera
