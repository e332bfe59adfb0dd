#include "ChangedRegions.h"

#include <algorithm>
#include <numeric>

namespace tessera::views {

namespace {

// Union-find over the nodes of both graphs: before nodes are [0, nb), after nodes [nb, nb + na).
struct Components {
  std::vector<size_t> parent;
  explicit Components(size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), size_t{0}); }
  size_t find(size_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  }
  void join(size_t a, size_t b) { parent[find(a)] = find(b); }
};

void joinChangedEdges(const Graph& graph, const std::vector<DiffStatus>& marks, size_t offset, Components& components) {
  for (NodeId node = 0; node < graph.size() && node < marks.size(); ++node) {
    if (marks[node] == DiffStatus::Same) continue;
    for (const ValueRef& input : graph.node(node).inputs)
      if (input.node < marks.size() && marks[input.node] != DiffStatus::Same) components.join(offset + node, offset + input.node);
  }
}

} // namespace

std::vector<ChangedRegion> changedRegions(const GraphDiff& diff, const GraphSnapshot& before, const GraphSnapshot& after,
                                          const std::vector<NodeOrigin>& afterOrigins) {
  if (!before.graph || !after.graph) return {};
  const size_t nb = diff.before.size(), na = diff.after.size();
  Components components(nb + na);
  joinChangedEdges(*before.graph, diff.before, 0, components);
  joinChangedEdges(*after.graph, diff.after, nb, components);
  for (NodeId node = 0; node < nb && node < diff.beforeToAfter.size(); ++node)
    if (diff.before[node] == DiffStatus::Changed && diff.beforeToAfter[node]) components.join(node, nb + *diff.beforeToAfter[node]);

  std::map<size_t, ChangedRegion> byRoot;
  for (NodeId node = 0; node < nb; ++node) {
    if (diff.before[node] == DiffStatus::Same) continue;
    ChangedRegion& region = byRoot[components.find(node)];
    region.before.push_back(node);
    region.beforeMs += before.costOf(node);
  }
  for (NodeId node = 0; node < na; ++node) {
    if (diff.after[node] == DiffStatus::Same) continue;
    ChangedRegion& region = byRoot[components.find(nb + node)];
    region.after.push_back(node);
    region.afterMs += after.costOf(node);
    if (node < afterOrigins.size() && !afterOrigins[node].rule.empty()) ++region.rules[afterOrigins[node].rule];
  }
  std::vector<ChangedRegion> regions;
  regions.reserve(byRoot.size());
  for (auto& [root, region] : byRoot) regions.push_back(std::move(region));
  std::stable_sort(regions.begin(), regions.end(), [](const ChangedRegion& a, const ChangedRegion& b) { return a.deltaMs() < b.deltaMs(); });
  return regions;
}

} // namespace tessera::views
