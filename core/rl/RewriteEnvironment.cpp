#include "rl/RewriteEnvironment.h"

#include "cost/GraphCost.h"
#include "ir/GraphHash.h"
#include "search/taso/GraphRewriter.h"

#include <algorithm>
#include <cassert>
#include <optional>
#include <unordered_map>

namespace tessera {

namespace {

// A match priced but not yet built.
struct PricedRewrite {
  size_t ruleIndex = 0;
  RuleMatch match;
  double costMs = 0;
};

// The graphs already listed in this state (and the state itself): equal graphs are one action.
class ListedGraphs {
public:
  explicit ListedGraphs(const Graph& current) : current_(current), currentHash_(structuralHash(current)) {}

  bool contains(const Graph& graph, size_t hash, const std::vector<RewriteCandidate>& listed) const {
    if (hash == currentHash_ && structurallyEqual(graph, current_)) return true;
    auto [first, last] = byHash_.equal_range(hash);
    return std::any_of(first, last, [&](const auto& entry) { return structurallyEqual(graph, listed[entry.second].graph); });
  }
  void add(size_t hash, size_t index) { byHash_.emplace(hash, index); }

private:
  const Graph& current_;
  size_t currentHash_;
  std::unordered_multimap<size_t, size_t> byHash_;
};

} // namespace

RewriteEnvironment::RewriteEnvironment(std::span<const Rule* const> rules, CostModel& cost, RewriteEnvironmentOptions options)
    : rules_(rules.begin(), rules.end()), cost_(cost), options_(std::move(options)) {}

void RewriteEnvironment::reset(const Graph& graph) {
  graph_ = graph.compacted();
  origins_.assign(graph_.size(), NodeOrigin{});
  opLimit_ = options_.opLimit ? options_.opLimit : 2 * graph_.opCount();
  costMs_ = initialCostMs_ = graphCost(graph_, cost_).totalMs;
  steps_ = 0;
  done_ = false;
  previewedInEpisode_ = 0;
  listCandidates();
}

StepOutcome RewriteEnvironment::step(size_t action) {
  assert(!done_ && "step after the episode ended");
  assert(action <= stopAction() && "action out of range");
  ++steps_;
  if (action == stopAction()) {
    done_ = true;
    candidates_.clear();
    observe();
    return {0.0, true};
  }
  RewriteCandidate chosen = std::move(candidates_[action]);
  const double previous = costMs_;
  graph_ = std::move(chosen.graph);
  origins_ = std::move(chosen.origins);
  costMs_ = chosen.costMs;
  listCandidates();
  const double scale = initialCostMs_ > 0 ? 100.0 / initialCostMs_ : 0.0;
  return {(previous - costMs_) * scale, done_};
}

void RewriteEnvironment::listCandidates() {
  candidates_.clear();
  previewed_ = 0;
  if (steps_ >= options_.horizon) {
    done_ = true;
    observe();
    return;
  }

  GraphRewriter rewriter(graph_, origins_, cost_);
  std::vector<PricedRewrite> priced;
  auto keepNone = [](const Graph&) { return false; };
  for (size_t r = 0; r < rules_.size(); ++r) {
    const Rule& rule = *rules_[r];
    if (options_.allowed && !options_.allowed(rule)) continue;
    for (RuleMatch& match : rewriter.matches(rule, options_.matchLimitPerRule)) {
      std::optional<double> costMs;
      auto price = [&](const RewritePreview& preview) {
        if (preview.ops <= opLimit_) costMs = preview.costMs;
        return false; // priced only: most rewrites are never built
      };
      rewriter.rewrite(rule, match, steps_, price, keepNone);
      ++previewed_;
      if (costMs) priced.push_back({r, std::move(match), *costMs});
    }
  }
  previewedInEpisode_ += previewed_;
  // Cheapest first; ties keep rule and match order, so the list is deterministic.
  std::stable_sort(priced.begin(), priced.end(), [](const PricedRewrite& a, const PricedRewrite& b) { return a.costMs < b.costMs; });

  ListedGraphs listed(graph_);
  auto any = [](const RewritePreview&) { return true; };
  for (const PricedRewrite& rewrite : priced) {
    if (candidates_.size() >= options_.maxCandidates) break;
    size_t hash = 0;
    auto unlisted = [&](const Graph& graph) {
      hash = structuralHash(graph);
      return !listed.contains(graph, hash, candidates_);
    };
    std::optional<RewrittenGraph> built = rewriter.rewrite(*rules_[rewrite.ruleIndex], rewrite.match, steps_, any, unlisted);
    if (!built) continue;
    listed.add(hash, candidates_.size());
    RewriteCandidate candidate;
    candidate.ruleIndex = rewrite.ruleIndex;
    candidate.location = rewriter.matchedNodes(rewrite.match);
    candidate.graph = std::move(built->graph);
    candidate.costMs = built->costMs;
    candidate.origins = std::move(built->origins);
    candidate.newNodes = built->newNodes;
    candidates_.push_back(std::move(candidate));
  }
  if (candidates_.empty()) done_ = true;
  observe();
}

void RewriteEnvironment::observe() {
  const double scale = initialCostMs_ > 0 ? 100.0 / initialCostMs_ : 0.0;
  // Listed cheapest first: the first candidate saves most.
  const double largestDrop = candidates_.empty() ? 0.0 : (costMs_ - candidates_.front().costMs) * scale;
  EpisodeProgress progress{initialCostMs_, candidates_.size(), options_.maxCandidates, largestDrop};
  std::vector<int32_t> rowOfNode;
  observation_.graph = observeGraph(graph_, graphCost(graph_, cost_), progress, rowOfNode);
  observation_.candidates.clear();
  const double ops = static_cast<double>(graph_.opCount());
  for (const RewriteCandidate& candidate : candidates_) {
    CandidateObservation seen;
    seen.rule = static_cast<int32_t>(candidate.ruleIndex);
    for (NodeId node : candidate.location)
      if (node < rowOfNode.size() && rowOfNode[node] >= 0) seen.rows.push_back(rowOfNode[node]);
    seen.costDeltaPct = static_cast<float>((candidate.costMs - costMs_) * scale);
    seen.opDelta = static_cast<float>(static_cast<double>(candidate.graph.opCount()) - ops);
    observation_.candidates.push_back(std::move(seen));
  }
}

} // namespace tessera
