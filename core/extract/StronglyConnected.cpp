// Iterative Tarjan's algorithm.
#include "extract/StronglyConnected.h"

#include <algorithm>
#include <limits>

namespace tessera::extract {

Components stronglyConnectedComponents(const DirectedGraph& graph) {
  constexpr uint32_t kUnvisited = std::numeric_limits<uint32_t>::max();
  const size_t n = graph.vertexCount();
  Components result;
  result.componentOf.assign(n, kUnvisited);
  std::vector<uint32_t> index(n, kUnvisited), lowlink(n, 0);
  std::vector<uint8_t> onStack(n, 0);
  std::vector<uint32_t> tarjanStack;
  struct Frame {
    uint32_t vertex;
    uint32_t nextEdge;
  };
  std::vector<Frame> callStack;
  uint32_t counter = 0;

  for (uint32_t start = 0; start < n; ++start) {
    if (index[start] != kUnvisited) continue;
    callStack.push_back({start, graph.offsets[start]});
    index[start] = lowlink[start] = counter++;
    tarjanStack.push_back(start);
    onStack[start] = 1;
    while (!callStack.empty()) {
      Frame& frame = callStack.back();
      uint32_t v = frame.vertex;
      if (frame.nextEdge < graph.offsets[v + 1]) {
        uint32_t w = graph.targets[frame.nextEdge++];
        if (index[w] == kUnvisited) {
          index[w] = lowlink[w] = counter++;
          tarjanStack.push_back(w);
          onStack[w] = 1;
          callStack.push_back({w, graph.offsets[w]}); // invalidates `frame`; the loop re-reads it
        } else if (onStack[w]) {
          lowlink[v] = std::min(lowlink[v], index[w]);
        }
        continue;
      }
      if (lowlink[v] == index[v]) {
        uint32_t id = static_cast<uint32_t>(result.sizes.size());
        uint32_t size = 0;
        uint32_t w = 0;
        do {
          w = tarjanStack.back();
          tarjanStack.pop_back();
          onStack[w] = 0;
          result.componentOf[w] = id;
          ++size;
        } while (w != v);
        result.sizes.push_back(size);
      }
      callStack.pop_back();
      if (!callStack.empty()) {
        uint32_t parent = callStack.back().vertex;
        lowlink[parent] = std::min(lowlink[parent], lowlink[v]);
      }
    }
  }
  return result;
}

bool onCycle(const DirectedGraph& graph, const Components& components, uint32_t v) {
  if (components.sizes[components.componentOf[v]] > 1) return true;
  for (uint32_t e = graph.offsets[v]; e < graph.offsets[v + 1]; ++e)
    if (graph.targets[e] == v) return true;
  return false;
}

} // namespace tessera::extract
