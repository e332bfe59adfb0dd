#include "rewrite/CycleFilter.h"

#include <algorithm>
#include <unordered_map>

namespace tessera {

size_t filterCycles(EGraph& egraph, std::span<const EClassId> roots) {
  enum class Mark : uint8_t { OnStack, Done };
  std::unordered_map<EClassId, Mark> marks;
  struct Frame {
    EClassId eclass;
    size_t node = 0;
    size_t child = 0;
  };
  std::vector<ENode> toFilter;
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
      bool skip = egraph.isFiltered(node) ||
                  std::find(toFilter.begin(), toFilter.end(), node) != toFilter.end();
      if (skip || frame.child == node.children.size()) {
        ++frame.node;
        frame.child = 0;
        continue;
      }
      EClassId child = egraph.find(node.children[frame.child++]);
      auto mark = marks.find(child);
      if (mark == marks.end()) {
        marks[child] = Mark::OnStack;
        stack.push_back({child});
      } else if (mark->second == Mark::OnStack) {
        toFilter.push_back(node); // this node closes a cycle
        ++frame.node;
        frame.child = 0;
      }
    }
  }
  for (const ENode& node : toFilter) egraph.filterNode(node);
  return toFilter.size();
}

} // namespace tessera
