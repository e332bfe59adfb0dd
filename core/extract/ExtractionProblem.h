// The generic extraction problem every extractor solves: e-nodes with a cost, grouped into
// e-classes, children given as classes. Nothing here knows about tensors or core/egraph.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace tessera::extract {

struct ExtractionNode {
  std::string op;                 // for display and round trips only
  double cost = 0;                // finite and >= 0 (the greedy fixpoints rely on it)
  uint32_t eclass = 0;            // the class this node belongs to
  std::vector<uint32_t> children; // class ids, in operand order, duplicates allowed
};

struct ExtractionProblem {
  std::vector<ExtractionNode> nodes;             // node index = position
  std::vector<std::vector<uint32_t>> classNodes; // class id -> node indices
  std::vector<uint32_t> roots;                   // classes every extraction must compute
  // Optional external names (egraph-serialize ids) for messages and round trips; empty = use index.
  std::vector<std::string> nodeNames;
  std::vector<std::string> classNames;

  size_t classCount() const { return classNodes.size(); }
  std::string nodeName(uint32_t node) const;
  std::string className(uint32_t eclass) const;
};

// Builds classNodes from each node's `eclass` (classes numbered 0..max). Convenience for tests and
// for converters that only fill `nodes` and `roots`.
void indexClasses(ExtractionProblem& problem);

// Throws tessera::Error("<source>: ...") when indices are out of range, a class is empty, a node
// sits in the wrong class list, a cost is negative or not finite, or there is no root.
// Every extractor calls this first, so a malformed problem is an error, never a crash.
void validateProblem(const ExtractionProblem& problem, const std::string& source = "extraction problem");

// For each class, the distinct nodes that have it as a child (parent pointers for worklists), in
// one flat array: the parents of class c are nodes[offsets[c] .. offsets[c+1]).
struct ParentIndex {
  std::vector<uint32_t> offsets;
  std::vector<uint32_t> nodes;
  std::span<const uint32_t> of(uint32_t eclass) const {
    return {nodes.data() + offsets[eclass], nodes.data() + offsets[eclass + 1]};
  }
};
ParentIndex parentIndex(const ExtractionProblem& problem);

// The view the hot loops walk: per node its cost, class and distinct child classes, in flat arrays
// (ExtractionNode's string and vector cost a cache miss each).
struct FlatProblem {
  std::vector<double> cost;
  std::vector<uint32_t> eclass;
  std::vector<uint32_t> childOffsets; // node n's distinct child classes: children[childOffsets[n] .. [n+1])
  std::vector<uint32_t> children;
  std::span<const uint32_t> childrenOf(uint32_t node) const {
    return {children.data() + childOffsets[node], children.data() + childOffsets[node + 1]};
  }
};
FlatProblem flatten(const ExtractionProblem& problem);

// The classes reachable from the roots through any node, children before parents wherever the
// class graph is acyclic (DFS post-order). Greedy passes in this order converge in few sweeps, and
// classes no root can need are never visited.
std::vector<uint32_t> bottomUpClassOrder(const ExtractionProblem& problem);

// A node's child classes without duplicates (order unspecified).
std::vector<uint32_t> distinctChildren(const ExtractionNode& node);

} // namespace tessera::extract
