#include "rewrite/CycleFilter.h"

#include <algorithm>
#include <unordered_map>

namespace tessera {

namespace {

// One depth-first pass; returns the nodes it decided to filter.
std::vector<ENode> findCycleBreakers(const EGraph& egraph, std::span<const EClassId> roots) {
  enum class Mark : uint8_t { OnStack, Done };
  std::unordered_map<EClassId, Mark> marks;
  struct Frame {
    EClassId eclass;
    size_t node = 0;
    size_t child = 0;
  };
  std::vector<ENode> toFilter;
  auto filtered = [&](const ENode& node) {
    return egraph.isFiltered(node) || std::find(toFilter.begin(), toFilter.end(), node) != toFilter.end();
  };
  std::vector<Frame> stack;
  for (EClassId root : roots) {
    root = egraph.find(root);
    if (marks.count(root)) continue;
    marks[root] = Mark::OnStack;
    stack.push_back({root});
    while (!stack.empty()) {
      Frame& frame = stack.back();
      const auto& nodes = egraph.eclass(frame.eclass).nodes;
      if (frame.node == nodes.size()) {
        marks[frame.eclass] = Mark::Done;
        stack.pop_back();
        continue;
      }
      const ENode& node = nodes[frame.node];
      if (filtered(node) || frame.child == node.children.size()) {
        ++frame.node;
        frame.child = 0;
        continue;
      }
      EClassId child = egraph.find(node.children[frame.child++]);
      auto mark = marks.find(child);
      if (mark == marks.end()) {
        marks[child] = Mark::OnStack;
        stack.push_back({child});
        continue;
      }
      if (mark->second != Mark::OnStack) continue;
      // A cycle: the frames from `child` up to here. Filter the latest node on it that is not
      // part of the original model (there is one: the model itself is acyclic).
      for (size_t i = stack.size(); i-- > 0;) {
        const Frame& f = stack[i];
        const ENode& candidate = egraph.eclass(f.eclass).nodes[f.node];
        if (!egraph.isOriginal(candidate)) {
          toFilter.push_back(candidate);
          break;
        }
        if (f.eclass == child) break;
      }
      if (filtered(node)) {
        ++frame.node;
        frame.child = 0;
      }
    }
  }
  return toFilter;
}

} // namespace

size_t filterCycles(EGraph& egraph, std::span<const EClassId> roots) {
  // A pass may break a cycle other than the one it found; repeat until a pass finds none.
  size_t total = 0;
  for (;;) {
    std::vector<ENode> breakers = findCycleBreakers(egraph, roots);
    if (breakers.empty()) return total;
    for (const ENode& node : breakers) egraph.filterNode(node);
    total += breakers.size();
  }
}

} // namespace tessera
