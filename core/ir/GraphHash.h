// Structural identity of graphs: a hash for fast dedup and an exact comparison for when hashes
// collide, so that distinct graphs are never dropped as duplicates (TASO's mistake).
#pragma once

#include "ir/Graph.h"

#include <cstddef>
#include <functional>
#include <unordered_map>
#include <vector>

namespace tessera {

// Hash of what the graph computes: ops, attributes, wiring, inputs and weights by name and type.
// Node ids and op names do not matter.
size_t structuralHash(const Graph& graph);

// True when both graphs compute the same thing by the same structure (isomorphic from the outputs).
bool structurallyEqual(const Graph& a, const Graph& b);

// A set of graphs keyed by structural hash, comparing on collision.
class GraphSet {
public:
  using HashFunction = std::function<size_t(const Graph&)>;
  explicit GraphSet(HashFunction hash = structuralHash) : hash_(std::move(hash)) {}

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
