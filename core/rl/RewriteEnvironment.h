// X-RLflow's environment over Tessera's whole-graph rewriter (the one taso and greedy use). The
// state is the current graph; the actions are its distinct rewrites, one per (rule, location),
// each a candidate graph, and stop. Every match of every rule is priced (no graph built) and the
// cheapest `maxCandidates` distinct ones are listed. Distinct means as graphs: two rewrites that
// give one graph are one action, and a rewrite that gives the current graph back is none. The
// pricing hashes the graph a rewrite would build (equal graphs hash equal), so only rewrites whose
// hash is another's (or the current graph's) are built, and compared in full (never dropped on a
// collision); other candidates are built when chosen. Reward: 100 x (previous cost - new cost) / initial
// cost, from any cost model. An episode ends on stop, when no candidate is left, or at the horizon.
#pragma once

#include "cost/CostModel.h"
#include "rewrite/Rule.h"
#include "rl/Environment.h"
#include "search/Candidate.h"

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace tessera {

class GraphRewriter;
struct RewrittenGraph;

struct RewriteEnvironmentOptions {
  size_t maxCandidates = 64;
  int horizon = 100;
  size_t opLimit = 0;               // candidates with more ops are not listed; 0: twice the start graph's (TASO's cap)
  size_t matchLimitPerRule = 10000;
  std::function<bool(const Rule&)> allowed; // rules that may be listed now (a person's vetoes); empty: all
};

// One action: a graph one rewrite away from the current one.
struct RewriteCandidate {
  size_t ruleIndex = 0;         // in the environment's pack
  std::vector<NodeId> location; // the current graph's ops the rule matched
  double costMs = 0;            // graphCost of its graph
  size_t ops = 0;
};

class RewriteEnvironment final : public Environment {
public:
  // `rules` is the pack the rule indices of observations refer to; it and `cost` must outlive
  // the environment.
  RewriteEnvironment(std::span<const Rule* const> rules, CostModel& cost, RewriteEnvironmentOptions options = {});
  ~RewriteEnvironment() override;
  RewriteEnvironment(RewriteEnvironment&&) noexcept;

  // Starts an episode from `graph`. Throws tessera::Error when it does not type-check.
  void reset(const Graph& graph);

  const Observation& observation() const override { return observation_; }
  StepOutcome step(size_t action) override;
  bool done() const override { return done_; }

  const Graph& graph() const { return graph_; }
  const std::vector<NodeOrigin>& origins() const { return origins_; } // by NodeId; rewritten nodes get {rule, step}
  uint32_t lastNewNodes() const { return lastNewNodes_; }            // nodes the last step's rewrite added
  double costMs() const { return costMs_; }
  double initialCostMs() const { return initialCostMs_; }
  int steps() const { return steps_; }
  const std::vector<RewriteCandidate>& candidates() const { return candidates_; }
  size_t stopAction() const { return candidates_.size(); }
  const Rule& rule(size_t index) const { return *rules_[index]; }
  // The graph candidate `index` leads to (built on first use).
  const Graph& candidateGraph(size_t index);
  // Whether candidate `index` leads back to a graph this episode has already been in.
  bool leadsBack(size_t index);
  // Rewrites priced while listing the current candidates.
  size_t previewed() const { return previewed_; }

private:
  struct Listing; // a candidate's match and, once built, its graph

  void listCandidates();
  RewrittenGraph& build(size_t index);
  void observe();
  bool sameCost(double a, double b) const;

  std::vector<const Rule*> rules_;
  CostModel& cost_;
  RewriteEnvironmentOptions options_;
  size_t opLimit_ = 0;
  Graph graph_;
  std::vector<NodeOrigin> origins_;
  uint32_t lastNewNodes_ = 0;
  double costMs_ = 0;
  double initialCostMs_ = 0;
  int steps_ = 0;
  bool done_ = true;
  size_t previewed_ = 0;
  std::unique_ptr<GraphRewriter> rewriter_; // of the current graph: candidates are built with it
  std::vector<RewriteCandidate> candidates_;
  std::vector<Listing> listings_;           // one per candidate
  std::vector<std::pair<double, Graph>> visited_; // the episode's graphs, with their costs
  Observation observation_;
};

} // namespace tessera
