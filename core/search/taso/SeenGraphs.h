// The graphs a TASO search has already queued or expanded: looked up by structural hash and
// compared in full on a collision, so a distinct graph is never dropped as a duplicate. Graphs
// are shared with the queue, and a graph trimmed from the queue can be forgotten again.
#pragma once

#include "ir/Graph.h"

#include <memory>
#include <unordered_map>

namespace tessera {

class SeenGraphs {
public:
  // Inserts unless a structurally equal graph is present; returns whether it was inserted.
  bool insert(std::shared_ptr<const Graph> graph, size_t hash);
  bool contains(const Graph& graph, size_t hash) const;
  // Forgets this very graph (by identity); a no-op when it is not held.
  void erase(const Graph* graph, size_t hash);
  size_t size() const { return byHash_.size(); }

private:
  std::unordered_multimap<size_t, std::shared_ptr<const Graph>> byHash_;
};

} // namespace tessera
