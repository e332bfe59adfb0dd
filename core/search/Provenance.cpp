#include "search/Provenance.h"

#include "cost/GraphCost.h"

#include <unordered_map>

namespace tessera {

namespace {
ENode canonical(const EGraph& egraph, ENode node) {
  for (EClassId& child : node.children) child = egraph.find(child);
  return node;
}
} // namespace

void ProvenanceRecorder::nodeAdded(const ENode& node, EClassId eclass) {
  pending_.push_back(node);
  if (!events_.wants(EventKind::ENodeAdded)) return;
  if (rebasing_) held_.push_back(ENodeAdded{eclass, node});
  else events_.publish(ENodeAdded{eclass, node});
}

void ProvenanceRecorder::beginRebase() {
  rebasing_ = true;
  pending_.clear();
  held_.clear();
}

void ProvenanceRecorder::finishRebase(int step, const SeededGraph& seed, const std::vector<NodeOrigin>& origins) {
  std::unordered_map<ENode, NodeOrigin, ENodeHash> originOf;
  for (NodeId id = 0; id < seed.enodesOf.size() && id < origins.size(); ++id)
    if (!origins[id].rule.empty())
      for (const ENode& enode : seed.enodesOf[id]) originOf.try_emplace(enode, origins[id]);
  recorded_.clear(); // the old e-graph's nodes are gone
  seeded_.clear();
  EGraphRebased rebased{step, {}};
  for (ENode& node : pending_) {
    auto it = originOf.find(node);
    const NodeOrigin origin = it == originOf.end() ? NodeOrigin{} : it->second;
    rebased.seed.push_back(SeedOrigin{origin.rule, origin.rule.empty() ? -1 : origin.step});
    if (!origin.rule.empty()) seeded_.emplace_back(std::move(node), origin);
  }
  pending_.clear();
  rebasing_ = false;
  if (events_.wants(EventKind::EGraphRebased)) events_.publish(std::move(rebased));
  for (ENodeAdded& added : held_) events_.publish(std::move(added));
  held_.clear();
}

void ProvenanceRecorder::classesMerged(EClassId kept, EClassId absorbed) {
  if (events_.wants(EventKind::ClassesMerged)) events_.publish(ClassesMerged{kept, absorbed});
}

void ProvenanceRecorder::ruleApplied(const Rule& rule, const RuleMatch& match, const RuleApplication& application,
                                     int step) {
  const auto newNodes = static_cast<uint32_t>(pending_.size());
  for (ENode& node : pending_) recorded_.emplace_back(std::move(node), NodeOrigin{rule.name(), step});
  pending_.clear();
  if (events_.wants(EventKind::RuleApplied)) events_.publish(RuleApplied{rule.name(), step, match.roots, application.results, newNodes});
}

std::vector<NodeOrigin> ProvenanceRecorder::originsOf(const EGraph& egraph, const std::vector<ENode>& nodes) const {
  // The first application that created a node (as it is canonically now) is its origin.
  std::unordered_map<ENode, const NodeOrigin*, ENodeHash> byNode;
  for (const auto& [node, origin] : recorded_) byNode.try_emplace(canonical(egraph, node), &origin);
  std::unordered_map<ENode, const NodeOrigin*, ENodeHash> bySeed;
  for (const auto& [node, origin] : seeded_) bySeed.try_emplace(canonical(egraph, node), &origin);
  std::vector<NodeOrigin> origins;
  origins.reserve(nodes.size());
  for (const ENode& node : nodes) {
    if (node.isLeaf()) {
      origins.emplace_back();
      continue;
    }
    // A rebased seed's nodes are original to this e-graph but came from rules of earlier epochs.
    const ENode key = canonical(egraph, node);
    if (auto seeded = bySeed.find(key); seeded != bySeed.end()) {
      origins.push_back(*seeded->second);
      continue;
    }
    if (egraph.isOriginal(node)) {
      origins.emplace_back();
      continue;
    }
    auto it = byNode.find(key);
    origins.push_back(it == byNode.end() ? NodeOrigin{} : *it->second);
  }
  return origins;
}

Candidate ProvenanceRecorder::candidate(const EGraph& egraph, ExtractedGraph extracted, CostModel& cost, int step) const {
  Candidate candidate;
  candidate.costMs = graphCost(extracted.graph, cost).totalMs;
  candidate.method = extracted.method;
  candidate.step = step;
  candidate.origins = originsOf(egraph, extracted.sources);
  candidate.graph = std::move(extracted.graph);
  return candidate;
}

} // namespace tessera
