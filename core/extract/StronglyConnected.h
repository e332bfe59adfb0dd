// Strongly connected components of a directed graph given in adjacency (CSR) form; used to find
// which e-classes can lie on a cycle. Iterative Tarjan, so deep graphs do not exhaust the stack.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tessera::extract {

struct DirectedGraph {
  std::vector<uint32_t> offsets; // vertex v's successors are targets[offsets[v] .. offsets[v+1])
  std::vector<uint32_t> targets;
  size_t vertexCount() const { return offsets.empty() ? 0 : offsets.size() - 1; }
};

struct Components {
  std::vector<uint32_t> componentOf; // vertex -> component id
  std::vector<uint32_t> sizes;       // component id -> number of vertices
};

Components stronglyConnectedComponents(const DirectedGraph& graph);

// True when v lies on a cycle: its component has several vertices, or v has an edge to itself.
bool onCycle(const DirectedGraph& graph, const Components& components, uint32_t v);

} // namespace tessera::extract
