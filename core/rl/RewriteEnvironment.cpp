#include "rl/RewriteEnvironment.h"

#include "cost/GraphCost.h"
#include "ir/GraphHash.h"
#include "search/taso/GraphRewriter.h"
#include "support/Error.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <unordered_map>

namespace tessera {

namespace {

// A match priced but not yet built.
struct PricedRewrite {
  size_t ruleIndex = 0;
  RuleMatch match;
  RewritePreview preview;
};

// Graph costs are sums in different orders (a rewrite's preview, graphCost): equal graphs may
// differ in the last bits.
constexpr double kCostTolerance = 1e-9;

} // namespace

struct RewriteEnvironment::Listing {
  RuleMatch match;
  std::optional<RewrittenGraph> built;
};

RewriteEnvironment::RewriteEnvironment(std::span<const Rule* const> rules, CostModel& cost, RewriteEnvironmentOptions options)
    : rules_(rules.begin(), rules.end()), cost_(cost), options_(std::move(options)) {}

RewriteEnvironment::~RewriteEnvironment() = default;
RewriteEnvironment::RewriteEnvironment(RewriteEnvironment&&) noexcept = default;

bool RewriteEnvironment::sameCost(double a, double b) const {
  return std::abs(a - b) <= kCostTolerance * std::max({std::abs(a), std::abs(b), initialCostMs_, 1e-300});
}

void RewriteEnvironment::reset(const Graph& graph) {
  graph_ = graph.compacted();
  origins_.assign(graph_.size(), NodeOrigin{});
  lastNewNodes_ = 0;
  opLimit_ = options_.opLimit ? options_.opLimit : 2 * graph_.opCount();
  costMs_ = initialCostMs_ = graphCost(graph_, cost_).totalMs;
  steps_ = 0;
  done_ = false;
  visited_.clear();
  visited_.emplace_back(costMs_, graph_);
  listCandidates();
}

StepOutcome RewriteEnvironment::step(size_t action) {
  assert(!done_ && "step after the episode ended");
  assert(action <= stopAction() && "action out of range");
  if (action == stopAction()) {
    ++steps_;
    done_ = true;
    candidates_.clear();
    listings_.clear();
    observe();
    return {0.0, true};
  }
  RewrittenGraph chosen = std::move(build(action)); // its new nodes are stamped with this step
  ++steps_;
  const double previous = costMs_;
  graph_ = std::move(chosen.graph);
  origins_ = std::move(chosen.origins);
  lastNewNodes_ = chosen.newNodes;
  costMs_ = chosen.costMs;
  visited_.emplace_back(costMs_, graph_);
  listCandidates();
  const double scale = initialCostMs_ > 0 ? 100.0 / initialCostMs_ : 0.0;
  return {(previous - costMs_) * scale, done_};
}

RewrittenGraph& RewriteEnvironment::build(size_t index) {
  Listing& listing = listings_[index];
  if (listing.built) return *listing.built;
  auto any = [](const RewritePreview&) { return true; };
  auto keep = [](const Graph&) { return true; };
  listing.built = rewriter_->rewrite(*rules_[candidates_[index].ruleIndex], listing.match, steps_, any, keep);
  if (!listing.built) throw Error("rule " + rules_[candidates_[index].ruleIndex]->name() + " priced a rewrite it then could not build");
  return *listing.built;
}

const Graph& RewriteEnvironment::candidateGraph(size_t index) { return build(index).graph; }

bool RewriteEnvironment::leadsBack(size_t index) {
  const RewriteCandidate& candidate = candidates_[index];
  for (const auto& [costMs, graph] : visited_)
    if (sameCost(costMs, candidate.costMs) && structurallyEqual(candidateGraph(index), graph)) return true;
  return false;
}

void RewriteEnvironment::listCandidates() {
  candidates_.clear();
  listings_.clear();
  previewed_ = 0;
  if (steps_ >= options_.horizon) {
    done_ = true;
    observe();
    return;
  }

  rewriter_ = std::make_unique<GraphRewriter>(graph_, origins_, cost_);
  std::vector<PricedRewrite> priced;
  auto keepNone = [](const Graph&) { return false; };
  for (size_t r = 0; r < rules_.size(); ++r) {
    const Rule& rule = *rules_[r];
    if (options_.allowed && !options_.allowed(rule)) continue;
    for (RuleMatch& match : rewriter_->matches(rule, options_.matchLimitPerRule)) {
      std::optional<RewritePreview> preview;
      auto price = [&](const RewritePreview& seen) {
        if (seen.ops <= opLimit_) preview = seen;
        return false; // priced only: most rewrites are never built
      };
      rewriter_->rewrite(rule, match, steps_, price, keepNone);
      ++previewed_;
      if (preview) priced.push_back({r, std::move(match), *preview});
    }
  }
  // Cheapest first; ties keep rule and match order, so the list is deterministic.
  std::stable_sort(priced.begin(), priced.end(),
                   [](const PricedRewrite& a, const PricedRewrite& b) { return a.preview.costMs < b.preview.costMs; });

  // Equal graphs have equal preview hashes: a rewrite whose hash is the current graph's or
  // another rewrite's is built and compared in full; the others are distinct without a look.
  std::unordered_map<size_t, size_t> rewritesByHash;
  for (const PricedRewrite& rewrite : priced) ++rewritesByHash[rewrite.preview.hash];
  const size_t currentHash = rewriter_->previewSeeded().hash;
  std::unordered_multimap<size_t, size_t> builtByHash; // listed candidates that were built, by preview hash
  for (size_t i = 0; i < priced.size() && candidates_.size() < options_.maxCandidates; ++i) {
    PricedRewrite& rewrite = priced[i];
    const size_t hash = rewrite.preview.hash;
    const size_t index = candidates_.size();
    candidates_.push_back({rewrite.ruleIndex, rewriter_->matchedNodes(rewrite.match), rewrite.preview.costMs, rewrite.preview.ops});
    listings_.push_back({std::move(rewrite.match), std::nullopt});
    if (hash != currentHash && rewritesByHash[hash] == 1) continue;
    const Graph& built = candidateGraph(index);
    bool repeat = hash == currentHash && structurallyEqual(built, graph_);
    auto [first, last] = builtByHash.equal_range(hash);
    for (auto it = first; it != last && !repeat; ++it) repeat = structurallyEqual(built, listings_[it->second].built->graph);
    if (repeat) {
      candidates_.pop_back();
      listings_.pop_back();
      continue;
    }
    builtByHash.emplace(hash, index);
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
    seen.opDelta = static_cast<float>(static_cast<double>(candidate.ops) - ops);
    observation_.candidates.push_back(std::move(seen));
  }
}

} // namespace tessera
