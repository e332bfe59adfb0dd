// What the search learnt about its states, each named by the actions that led to it from the
// committed root: the same action sequence from the same state always builds the same e-graph, so
// an answer about a state (its cost, the guide's reading) holds until the root moves past it.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

namespace tessera::mcts {

using ActionPath = std::vector<uint16_t>; // rule indices, in the order they changed the e-graph

template <typename Value>
class PathCache {
public:
  const Value* find(const ActionPath& path) const {
    auto it = entries_.find(path);
    return it == entries_.end() ? nullptr : &it->second;
  }
  void insert(const ActionPath& path, Value value) { entries_.insert_or_assign(path, std::move(value)); }
  // The committed root moved along `action`: keep the states below it, re-rooted, drop the rest.
  void commit(uint16_t action) {
    std::map<ActionPath, Value> kept;
    for (auto& [path, value] : entries_)
      if (!path.empty() && path.front() == action) kept.emplace(ActionPath(path.begin() + 1, path.end()), std::move(value));
    entries_ = std::move(kept);
  }
  // A new e-graph (a rebase), or answers that no longer hold: forget every state.
  void clear() { entries_.clear(); }
  size_t size() const { return entries_.size(); }

private:
  std::map<ActionPath, Value> entries_; // ordered: commit() walks it deterministically
};

} // namespace tessera::mcts
