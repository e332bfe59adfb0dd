// Structural identity of graphs: a hash for fast dedup and an exact comparison for when hashes
// collide, so that distinct graphs are never dropped as duplicates (TASO's mistake).
#pragma once

#include "ir/Graph.h"

#include <cstddef>
#include <functional>
#include <unordered_map>
#include <vector>

namespace tessera {

// How a hash knows inputs and weights: by name and type (what the graph computes), or by type
// alone (its shape as a graph: what an agent, which never reads names, sees of a model; two exports
// of one model whose weights are named differently hash the same).
enum class LeafIdentity { NameAndType, TypeOnly };

// Hash of what the graph computes: ops, attributes, wiring, and inputs and weights as `leaves`
// says. Node ids and op names do not matter.
size_t structuralHash(const Graph& graph, LeafIdentity leaves = LeafIdentity::NameAndType);

// True when both graphs compute the same thing by the same structure (isomorphic from the outputs).
bool structurallyEqual(const Graph& a, const Graph& b);

// A set of graphs keyed by structural hash, comparing on collision.
class GraphSet {
public:
  using HashFunction = std::function<size_t(const Graph&)>;
  explicit GraphSet(HashFunction hash = [](const Graph& graph) { return structuralHash(graph); }) : hash_(std::move(hash)) {}

  // Inserts unless a structurally equal graph is present; returns whether it was inserted.
  bool insert(const Graph& graph);
  bool contains(const Graph& graph) const;
  size_t size() const { return graphs_.size(); }

private:
  HashFunction hash_;
  std::vector<Graph> graphs_;
  std::unordered_multimap<size_t, size_t> byHash_;
};

} // namespace tessera
