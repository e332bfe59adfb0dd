#include "search/taso/SeenGraphs.h"

#include "ir/GraphHash.h"

namespace tessera {

bool SeenGraphs::insert(std::shared_ptr<const Graph> graph, size_t hash) {
  if (contains(*graph, hash)) return false;
  byHash_.emplace(hash, std::move(graph));
  return true;
}

bool SeenGraphs::contains(const Graph& graph, size_t hash) const {
  auto [first, last] = byHash_.equal_range(hash);
  for (auto it = first; it != last; ++it)
    if (structurallyEqual(*it->second, graph)) return true;
  return false;
}

void SeenGraphs::erase(const Graph* graph, size_t hash) {
  auto [first, last] = byHash_.equal_range(hash);
  for (auto it = first; it != last; ++it) {
    if (it->second.get() != graph) continue;
    byHash_.erase(it);
    return;
  }
}

} // namespace tessera
