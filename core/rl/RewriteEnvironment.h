// X-RLflow's environment over Tessera's whole-graph rewriter (the one taso and greedy use). The
// state is the current graph; the actions are its distinct rewrites, one per (rule, location),
// each a candidate graph, and stop. Every match of every rule is priced first (no graph built);
// candidates are then built cheapest first, deduplicated by structural hash (equal graphs
// compared in full, so none is dropped on a collision; a rewrite that gives the current graph
// back is not an action), until `maxCandidates` are listed. Reward: 100 x (previous cost - new
// cost) / initial cost, from any cost model. An episode ends on stop, when no candidate is left,
// or at the horizon.
#pragma once

#include "cost/CostModel.h"
#include "rewrite/Rule.h"
#include "rl/Environment.h"
#include "search/Candidate.h"

#include <functional>
#include <span>
#include <string>
#include <vector>

namespace tessera {

struct RewriteEnvironmentOptions {
  size_t maxCandidates = 64;
  int horizon = 100;
  size_t opLimit = 0;               // candidates with more ops are not listed; 0: twice the start graph's (TASO's cap)
  size_t matchLimitPerRule = 10000;
  std::function<bool(const Rule&)> allowed; // rules that may be listed now (a person's vetoes); empty: all
};

// One action: a graph one rewrite away from the current one.
struct RewriteCandidate {
  size_t ruleIndex = 0;            // in the environment's pack
  std::vector<NodeId> location;    // the current graph's ops the rule matched
  Graph graph;
  double costMs = 0;
  std::vector<NodeOrigin> origins; // by NodeId of `graph`; the rewrite's nodes get {rule, step}
  uint32_t newNodes = 0;
};

class RewriteEnvironment final : public Environment {
public:
  // `rules` is the pack the rule indices of observations refer to; it and `cost` must outlive
  // the environment.
  RewriteEnvironment(std::span<const Rule* const> rules, CostModel& cost, RewriteEnvironmentOptions options = {});

  // Starts an episode from `graph`. Throws tessera::Error when it does not type-check.
  void reset(const Graph& graph);

  const Observation& observation() const override { return observation_; }
  StepOutcome step(size_t action) override;
  bool done() const override { return done_; }

  const Graph& graph() const { return graph_; }
  const std::vector<NodeOrigin>& origins() const { return origins_; }
  double costMs() const { return costMs_; }
  double initialCostMs() const { return initialCostMs_; }
  int steps() const { return steps_; }
  const std::vector<RewriteCandidate>& candidates() const { return candidates_; }
  size_t stopAction() const { return candidates_.size(); }
  const Rule& rule(size_t index) const { return *rules_[index]; }
  // Rewrites priced while listing the current candidates, and rewrites tried in all.
  size_t previewed() const { return previewed_; }
  size_t previewedInEpisode() const { return previewedInEpisode_; }

private:
  void listCandidates();
  void observe();

  std::vector<const Rule*> rules_;
  CostModel& cost_;
  RewriteEnvironmentOptions options_;
  size_t opLimit_ = 0;
  Graph graph_;
  std::vector<NodeOrigin> origins_;
  double costMs_ = 0;
  double initialCostMs_ = 0;
  int steps_ = 0;
  bool done_ = true;
  size_t previewed_ = 0;
  size_t previewedInEpisode_ = 0;
  std::vector<RewriteCandidate> candidates_;
  Observation observation_;
};

} // namespace tessera
