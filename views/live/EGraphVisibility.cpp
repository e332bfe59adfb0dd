#include "EGraphVisibility.h"

#include <algorithm>
#include <deque>

namespace tessera::views {

bool EGraphFilter::matches(const EGraphMirror& egraph, const MirrorNode& node) const {
  if (!op.empty() && opName(node.node.op) != op) return false;
  if (rule.empty()) return true;
  const std::string& origin = egraph.ruleOf(node);
  return rule == kOriginalRule ? origin.empty() : origin == rule;
}

namespace {
// Neighbours of a class along child edges of its nodes and parent edges into it.
struct Adjacency {
  std::unordered_map<EClassId, std::vector<EClassId>> edges;

  explicit Adjacency(const EGraphMirror& egraph) {
    for (const MirrorClass* eclass : egraph.classes())
      for (MirrorNodeId id : eclass->nodes)
        for (EClassId child : egraph.nodes()[id].node.children) {
          const EClassId target = egraph.find(child);
          if (target == eclass->id) continue;
          edges[eclass->id].push_back(target);
          edges[target].push_back(eclass->id);
        }
  }
  const std::vector<EClassId>& of(EClassId id) const {
    static const std::vector<EClassId> none;
    auto it = edges.find(id);
    return it == edges.end() ? none : it->second;
  }
};

std::unordered_set<EClassId> neighbourhood(const Adjacency& adjacency, EClassId focus, int depth) {
  std::unordered_set<EClassId> seen{focus};
  std::deque<std::pair<EClassId, int>> queue{{focus, 0}};
  while (!queue.empty()) {
    auto [id, distance] = queue.front();
    queue.pop_front();
    if (distance >= depth) continue;
    for (EClassId next : adjacency.of(id))
      if (seen.insert(next).second) queue.emplace_back(next, distance + 1);
  }
  return seen;
}
} // namespace

std::unordered_set<EClassId> weightOnlyClasses(const EGraphMirror& egraph) {
  std::unordered_set<EClassId> weights;
  const std::vector<const MirrorClass*> classes = egraph.classes();
  auto isWeightOnly = [&](const ENode& node) {
    if (node.op == OpKind::Weight) return true;
    if (node.children.empty() || node.op == OpKind::Input) return false;
    return std::all_of(node.children.begin(), node.children.end(), [&](EClassId child) { return weights.count(egraph.find(child)) != 0; });
  };
  // Children are nearly always seen before their parents, so the first pass finds almost all; a
  // merge can put a parent first, which the next pass settles.
  for (int pass = 0; pass < 8; ++pass) {
    bool grew = false;
    for (const MirrorClass* eclass : classes) {
      if (weights.count(eclass->id)) continue;
      for (MirrorNodeId id : eclass->nodes)
        if (isWeightOnly(egraph.nodes()[id].node)) {
          weights.insert(eclass->id);
          grew = true;
          break;
        }
    }
    if (!grew) break;
  }
  return weights;
}

EGraphVisibility computeVisibility(const EGraphMirror& egraph, const EGraphFilter& filter) {
  EGraphVisibility out;
  const std::vector<const MirrorClass*> classes = egraph.classes();
  out.totalClasses = classes.size();
  if (!filter.showWeights) out.weightOnly = weightOnlyClasses(egraph);
  const bool focused = filter.focus && egraph.hasClass(*filter.focus);
  // Adjacency costs one pass over the edges; only build it when someone needs neighbours.
  std::optional<Adjacency> adjacency;
  std::unordered_set<EClassId> around;
  if (focused) {
    adjacency.emplace(egraph);
    around = neighbourhood(*adjacency, egraph.find(*filter.focus), std::max(0, filter.focusDepth));
  }
  for (const MirrorClass* eclass : classes) {
    if (focused && !around.count(eclass->id)) {
      ++out.hiddenByFocus;
      continue;
    }
    // In the focus a weight shows in full; elsewhere it is a count on its consumer.
    if (!focused && out.weightOnly.count(eclass->id)) {
      ++out.hiddenAsWeights;
      continue;
    }
    if (filter.filtersNodes()) {
      bool any = false;
      for (MirrorNodeId id : eclass->nodes) any = any || filter.matches(egraph, egraph.nodes()[id]);
      // The focused class itself always shows, so focusing never yields an empty view.
      if (!any && !(focused && eclass->id == egraph.find(*filter.focus))) {
        ++out.hiddenByFilter;
        continue;
      }
    }
    if (out.shown.size() >= filter.classBudget) {
      ++out.hiddenByBudget;
      continue;
    }
    out.shown.push_back(eclass->id);
    out.shownSet.insert(eclass->id);
  }
  if (out.hidden() == 0) return out;
  if (!adjacency) adjacency.emplace(egraph);
  for (EClassId id : out.shown) {
    std::unordered_set<EClassId> hidden, weights;
    for (EClassId next : adjacency->of(id)) {
      if (out.shownSet.count(next)) continue;
      (out.weightOnly.count(next) ? weights : hidden).insert(next);
    }
    if (!hidden.empty()) out.hiddenNeighbours[id] = static_cast<uint32_t>(hidden.size());
    if (!weights.empty()) out.weightInputs[id] = static_cast<uint32_t>(weights.size());
  }
  return out;
}

} // namespace tessera::views
