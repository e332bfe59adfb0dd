#include "replay/Explanation.h"

#include <algorithm>
#include <unordered_set>

namespace tessera {

namespace {
// The RuleApplied that claimed a node is the first one logged after the node was added.
const RuleApplied* claimingApplication(const std::vector<Event>& events, uint64_t nodeSequence, uint64_t* sequence) {
  auto it = std::upper_bound(events.begin(), events.end(), nodeSequence,
                             [](uint64_t s, const Event& event) { return s < event.sequence; });
  for (; it != events.end(); ++it)
    if (auto* applied = std::get_if<RuleApplied>(&it->payload)) {
      *sequence = it->sequence;
      return applied;
    }
  return nullptr;
}
} // namespace

std::vector<RewriteLink> rewriteChain(const ReplayState& state, const std::vector<Event>& events, MirrorNodeId node,
                                      size_t maxLinks) {
  std::vector<RewriteLink> chain;
  const EGraphMirror& egraph = state.egraph;
  std::unordered_set<MirrorNodeId> seen;
  while (node < egraph.numNodes() && chain.size() < maxLinks && seen.insert(node).second) {
    const MirrorNode& current = egraph.nodes()[node];
    RewriteLink link;
    link.node = node;
    link.rule = egraph.ruleOf(current);
    link.step = current.step;
    if (link.rule.empty()) {
      chain.push_back(std::move(link));
      break;
    }
    const RuleApplied* applied = claimingApplication(events, current.sequence, &link.sequence);
    if (applied) link.matched = applied->matched;
    chain.push_back(link);
    if (!applied || applied->matched.empty()) break;
    // In the class the rewrite matched, the newest earlier rewrite is the one this rewrite built
    // upon (the previous link); without one, the chain ends at the class's original node.
    const MirrorClass* matched = egraph.eclass(applied->matched.front());
    if (!matched) break;
    std::optional<MirrorNodeId> previous;
    std::optional<MirrorNodeId> original;
    for (MirrorNodeId candidate : matched->nodes) {
      const MirrorNode& n = egraph.nodes()[candidate];
      if (n.sequence >= current.sequence || candidate == node) continue;
      if (n.rule < 0) {
        if (!original) original = candidate;
        continue;
      }
      if (!previous || n.sequence > egraph.nodes()[*previous].sequence) previous = candidate;
    }
    if (previous) node = *previous;
    else if (original) node = *original;
    else break;
  }
  return chain;
}

StepExplanation explainStep(const ReplayState& state, const std::vector<Event>& events, int step, const std::string& rule) {
  StepExplanation out;
  out.step = step;
  out.commit = state.committedStep(step);
  out.bestBefore = state.bestBeforeStep(step);
  out.bestAfter = state.bestAfterStep(step);
  for (const Event& event : events) {
    if (event.sequence >= state.nextSequence) break;
    const auto* applied = std::get_if<RuleApplied>(&event.payload);
    if (!applied || applied->step != step) continue;
    ++out.applications;
    out.applicationsOfRule += applied->rule == rule;
  }
  if (!out.commit) return out;
  out.committedNode = state.tree.node(out.commit->commit.mctsNode);
  if (!out.committedNode || out.committedNode->isRoot()) {
    out.committedNode = nullptr;
    return out;
  }
  const MirrorMctsNode* parent = state.tree.node(out.committedNode->parent);
  if (!parent) return out;
  for (uint32_t id : parent->children) {
    const MirrorMctsNode* child = state.tree.node(id);
    if (!child) continue;
    out.alternatives.push_back(Alternative{id, child->action, child->visits, child->meanValue(), id == out.committedNode->id});
  }
  std::stable_sort(out.alternatives.begin(), out.alternatives.end(),
                   [](const Alternative& a, const Alternative& b) { return a.visits > b.visits; });
  return out;
}

} // namespace tessera
