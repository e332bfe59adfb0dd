// TASO's backtracking search and greedy sequential rewriting over whole graphs.
//
// taso: a queue of graphs by cost (ties: first queued first). Each pop expands the cheapest graph
// by every match of every rule; a rewritten graph is queued when it is acyclic, new, within the op
// cap and cheaper than alpha x the best cost. The best is updated as soon as a cheaper graph is
// built. Stops after `budget` pops, on the time limit, on a stop request, or when the queue empties.
// Only the `budget - pops` cheapest queued graphs can ever be popped, so the queue is trimmed to
// that many, and graphs that would rank after a full queue are not built: the search is the
// same, its memory bounded.
//
// greedy: from the current graph, take the cheapest rewrite that improves on it (ties: rule and
// match order) and continue from there; stop when none improves. A pinned rule's improvement is
// taken before any unpinned rule is tried.
//
// SearchResult: steps = pops (greedy: steps), enodes = rewritten graphs explored (acyclic ones, costed),
// rulesApplied = the rewrites on the path from the original to the best graph.
#include "search/TasoStrategy.h"

#include "cost/GraphCost.h"
#include "ir/GraphHash.h"
#include "search/RunProtocol.h"
#include "search/SearchClock.h"
#include "search/taso/GraphRewriter.h"
#include "search/taso/SeenGraphs.h"
#include "support/Error.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <set>

namespace tessera {

namespace {

constexpr size_t kMatchLimitPerRule = 10000;
constexpr double kTasoAlpha = 1.05;
constexpr double kDefaultBudget = 1000;

// A graph reached by the search, with how it got there.
struct Reached {
  std::shared_ptr<const Graph> graph;
  std::vector<NodeOrigin> origins;
  double costMs = 0;
  size_t hash = 0;
  uint64_t order = 0;             // when it was queued: breaks cost ties
  std::vector<std::string> path;  // rules applied from the original, in order
  uint32_t newNodes = 0;          // nodes the last rewrite on the path added
};

struct CheaperFirst {
  bool operator()(const Reached& a, const Reached& b) const {
    return a.costMs != b.costMs ? a.costMs < b.costMs : a.order < b.order;
  }
};

struct TasoParameters {
  double alpha = kTasoAlpha;
  int budget = 0;
};

TasoParameters readTasoParameters(const SearchOptions& options, bool greedy) {
  static constexpr const char* kTaso[] = {"alpha", "budget"};
  static constexpr const char* kGreedy[] = {"budget"};
  const char* method = greedy ? "greedy" : "taso";
  if (greedy) checkParameterNames(options, method, kGreedy);
  else checkParameterNames(options, method, kTaso);
  TasoParameters parameters;
  parameters.alpha = greedy ? 1.0 : numericParameter(options, "alpha", kTasoAlpha);
  if (!(parameters.alpha >= 1.0) || !std::isfinite(parameters.alpha))
    throw Error("parameter alpha=" + textParameter(options, "alpha", "") + " must be a number >= 1");
  double budget = numericParameter(options, "budget", kDefaultBudget);
  if (!(budget >= 1) || budget != std::floor(budget) || budget > 1e9)
    throw Error("parameter budget=" + textParameter(options, "budget", "") + " must be a whole number >= 1");
  parameters.budget = static_cast<int>(budget);
  return parameters;
}

class TasoSearch {
public:
  TasoSearch(const SearchInput& input, bool greedy) : input_(input), greedy_(greedy), method_(greedy ? "greedy" : "taso") {}

  SearchResult run() {
    readParameters();
    size_t originalOps = input_.original.opCount();
    opCap_ = input_.options.nodeLimit ? input_.options.nodeLimit : 2 * originalOps;
    protocol_.start();

    Reached original;
    original.graph = std::make_shared<const Graph>(input_.original);
    original.costMs = result_.originalCostMs;
    original.hash = structuralHash(input_.original);
    if (greedy_) runGreedy(std::move(original));
    else runBacktracking(std::move(original));

    result_.measuringSeconds = clock_.measuringSeconds();
    result_.searchSeconds = clock_.wallSeconds();
    result_.steps = steps_;
    result_.enodes = explored_;
    result_.eclasses = 0;
    for (const std::string& rule : bestPath_) ++result_.rulesApplied[rule];
    protocol_.finish(stop_.value_or(StopReason::Saturated));
    say(method_ + " stopped (" + result_.stopReason + ") after " + std::to_string(steps_) + " steps, " +
        std::to_string(explored_) + " graphs, " + seconds(result_.searchSeconds) + measuringNote(result_.measuringSeconds) +
        "; speedup " + percent(result_.speedupPct));
    return std::move(result_);
  }

private:
  void readParameters() {
    TasoParameters parameters = readTasoParameters(input_.options, greedy_);
    alpha_ = parameters.alpha;
    budget_ = parameters.budget;
  }

  // ---- taso ----

  void runBacktracking(Reached original) {
    seen_.insert(original.graph, original.hash);
    original.order = nextOrder_++;
    queue_.insert(std::move(original));
    while (!stop_) {
      if (steps_ >= budget_) { stop_ = StopReason::Budget; break; } // first: trimming empties the queue
      if (queue_.empty()) { stop_ = StopReason::Saturated; break; }
      if (!proceed()) break;
      Reached popped = std::move(queue_.extract(queue_.begin()).value());
      int step = steps_++;
      commitStep(popped, step);
      expand(popped, step, [&](Reached child) {
        seen_.insert(child.graph, child.hash);
        child.order = nextOrder_++;
        queue_.insert(std::move(child));
      });
      trimQueue();
    }
  }

  // Graphs beyond the remaining pops can never be popped: forget them (they may be rebuilt later).
  void trimQueue() {
    auto capacity = static_cast<size_t>(budget_ - steps_);
    while (queue_.size() > capacity) {
      auto last = std::prev(queue_.end());
      seen_.erase(last->graph.get(), last->hash);
      queue_.erase(last);
    }
  }

  // A graph that ranks after a full queue's last entry (ties go to the earlier) is trimmed at the
  // end of the pop anyway: not building it saves most of the work once the queue has filled.
  bool wouldBeTrimmed(double costMs) const {
    auto capacity = static_cast<size_t>(budget_ - steps_);
    return queue_.size() >= capacity && !queue_.empty() && costMs >= std::prev(queue_.end())->costMs;
  }

  // Builds every rewrite of `parent` worth queuing and hands it to `queue`.
  template <typename Queue>
  void expand(const Reached& parent, int step, Queue&& queue) {
    GraphRewriter rewriter(*parent.graph, parent.origins, input_.cost);
    for (const Rule* rule : arrangeRules(input_.rules, input_.control)) {
      for (const RuleMatch& match : rewriter.matches(*rule, kMatchLimitPerRule)) {
        if (interrupted()) return;
        auto withinAlpha = [&](const RewritePreview& preview) {
          ++explored_;
          return preview.ops <= opCap_ && preview.costMs < alpha_ * protocol_.bestCostMs() && !wouldBeTrimmed(preview.costMs);
        };
        size_t hash = 0;
        auto unseen = [&](const Graph& graph) {
          hash = structuralHash(graph);
          return !seen_.contains(graph, hash);
        };
        std::optional<RewrittenGraph> rewritten = rewriter.rewrite(*rule, match, step, withinAlpha, unseen);
        if (!rewritten) continue;
        Reached child = reached(parent, *rule, std::move(*rewritten), hash);
        announce(child, step);
        if (child.costMs < protocol_.bestCostMs()) recordBest(child, step);
        queue(std::move(child));
      }
    }
  }

  // ---- greedy ----

  void runGreedy(Reached current) {
    while (!stop_) {
      if (steps_ >= budget_) { stop_ = StopReason::Budget; break; }
      if (!proceed()) break;
      int step = steps_++;
      commitStep(current, step);
      std::optional<Reached> next = bestImprovement(current, step);
      if (!next) {
        if (!stop_) stop_ = StopReason::Saturated;
        break;
      }
      announce(*next, step);
      recordBest(*next, step);
      current = std::move(*next);
    }
  }

  // The cheapest rewrite of `current` that is cheaper than it, pinned rules first.
  std::optional<Reached> bestImprovement(const Reached& current, int step) {
    GraphRewriter rewriter(*current.graph, current.origins, input_.cost);
    std::optional<Reached> best;
    std::vector<const Rule*> rules = arrangeRules(input_.rules, input_.control);
    const std::set<std::string> pinned = input_.control.pinned();
    size_t pinnedCount = 0; // arrangeRules puts them first
    while (pinnedCount < rules.size() && pinned.count(rules[pinnedCount]->name())) ++pinnedCount;
    for (size_t i = 0; i < rules.size(); ++i) {
      if (i == pinnedCount && best) break;
      const Rule& rule = *rules[i];
      for (const RuleMatch& match : rewriter.matches(rule, kMatchLimitPerRule)) {
        if (interrupted()) return best;
        auto improves = [&](const RewritePreview& preview) {
          ++explored_;
          return preview.ops <= opCap_ && preview.costMs < (best ? best->costMs : current.costMs);
        };
        auto any = [](const Graph&) { return true; };
        std::optional<RewrittenGraph> rewritten = rewriter.rewrite(rule, match, step, improves, any);
        if (rewritten) best = reached(current, rule, std::move(*rewritten), 0);
      }
    }
    return best;
  }

  // ---- shared ----

  Reached reached(const Reached& parent, const Rule& rule, RewrittenGraph rewritten, size_t hash) {
    Reached child;
    child.newNodes = rewritten.newNodes;
    child.graph = std::make_shared<const Graph>(std::move(rewritten.graph));
    child.origins = std::move(rewritten.origins);
    child.costMs = rewritten.costMs;
    child.hash = hash;
    child.path = parent.path;
    child.path.push_back(rule.name());
    return child;
  }

  // The rewrite that made `graph` was accepted. Graph-level rewrites match no lasting e-class.
  void announce(const Reached& graph, int step) {
    if (input_.events.wants(EventKind::RuleApplied))
      input_.events.publish(RuleApplied{graph.path.back(), step, {}, {}, graph.newNodes});
  }

  void recordBest(const Reached& graph, int step) {
    Candidate candidate;
    candidate.graph = *graph.graph;
    candidate.costMs = graph.costMs;
    candidate.method = method_;
    candidate.step = step;
    candidate.origins = graph.origins;
    protocol_.addCandidate(std::move(candidate));
    bestPath_ = graph.path;
  }

  void commitStep(const Reached& graph, int step) {
    if (input_.events.wants(EventKind::StepCommitted))
      input_.events.publish(StepCommitted{step, graph.path.empty() ? std::string() : graph.path.back(), 0, 0, 0,
                                       graph.graph->opCount(), 0});
    if (step % 50 == 0)
      say("step " + std::to_string(step) + ": best " + std::to_string(protocol_.bestCostMs()) + " ms, " + std::to_string(explored_) +
          " graphs built, " + seconds(clock_.seconds()));
  }

  // Between steps: records decisions, blocks while paused, and says whether to go on.
  bool proceed() {
    const bool go = protocol_.beforeStep(steps_);
    if (!go) stop_ = StopReason::StoppedByUser;
    return go;
  }

  // Within a step: the time limit and stop requests cut an expansion short.
  bool interrupted() {
    if (input_.control.stopRequested()) {
      stop_ = StopReason::StoppedByUser;
      return true;
    }
    if (clock_.reached(input_.options.timeLimitSeconds)) {
      stop_ = StopReason::TimeLimit;
      return true;
    }
    return false;
  }


  void say(const std::string& line) const {
    if (input_.options.progress) input_.options.progress(line);
  }
  static std::string seconds(double s) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.2f s", s);
    return buffer;
  }
  static std::string percent(double p) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.2f%%", p);
    return buffer;
  }

  const SearchInput& input_;
  const bool greedy_;
  const std::string method_;
  double alpha_ = kTasoAlpha;
  int budget_ = 0;
  size_t opCap_ = 0;
  SearchClock clock_{input_.cost}; // the time limit's clock: the cost model's measuring is not counted
  SearchResult result_;
  RunProtocol protocol_{input_, result_};
  std::optional<StopReason> stop_; // set once: the loops end
  std::vector<std::string> bestPath_;
  int steps_ = 0;
  size_t explored_ = 0;
  uint64_t nextOrder_ = 0;
  std::set<Reached, CheaperFirst> queue_;
  SeenGraphs seen_;
};

class TasoStrategy final : public Strategy {
public:
  explicit TasoStrategy(bool greedy) : greedy_(greedy) {}
  std::string_view name() const override { return greedy_ ? "greedy" : "taso"; }
  void validate(const SearchOptions& options) const override { readTasoParameters(options, greedy_); }
  SearchResult run(const SearchInput& input) override { return TasoSearch(input, greedy_).run(); }

private:
  bool greedy_;
};

} // namespace

std::unique_ptr<Strategy> makeTasoStrategy(bool greedy) { return std::make_unique<TasoStrategy>(greedy); }

} // namespace tessera
