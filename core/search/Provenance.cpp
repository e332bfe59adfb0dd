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
  if (events_.wants(EventKind::ENodeAdded)) events_.publish(ENodeAdded{eclass, node});
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
  std::vector<NodeOrigin> origins;
  origins.reserve(nodes.size());
  for (const ENode& node : nodes) {
    if (node.isLeaf() || egraph.isOriginal(node)) {
      origins.emplace_back();
      continue;
    }
    auto it = byNode.find(canonical(egraph, node));
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
