#include "MctsTreeLayout.h"

#include <algorithm>
#include <deque>
#include <functional>
#include <unordered_set>

namespace tessera::views {

namespace {
// Subtree sizes of every node, iteratively (MCTS trees can be deep).
std::unordered_map<uint32_t, size_t> subtreeSizes(const MctsTreeMirror& tree, uint32_t root) {
  std::unordered_map<uint32_t, size_t> sizes;
  std::vector<std::pair<uint32_t, bool>> stack{{root, false}};
  std::unordered_set<uint32_t> entered;
  while (!stack.empty()) {
    auto [id, done] = stack.back();
    stack.pop_back();
    const MirrorMctsNode* node = tree.node(id);
    if (!node) continue;
    if (done) {
      size_t size = 1;
      for (uint32_t child : node->children) size += sizes[child];
      sizes[id] = size;
      continue;
    }
    if (!entered.insert(id).second) continue; // a damaged log with a cycle
    stack.emplace_back(id, true);
    for (uint32_t child : node->children) stack.emplace_back(child, false);
  }
  return sizes;
}
} // namespace

MctsTreeLayout layoutMctsTree(const MctsTreeMirror& tree, const MctsTreeLayoutOptions& options) {
  MctsTreeLayout out;
  out.columnWidth = options.columnWidth;
  if (tree.empty() || !tree.node(tree.root())) return out;
  const uint32_t root = tree.root();
  const auto sizes = subtreeSizes(tree, root);
  out.total = sizes.count(root) ? sizes.at(root) : 0;

  std::unordered_set<uint32_t> shown;
  auto show = [&](uint32_t id) {
    if (shown.size() >= options.budget || !shown.insert(id).second) return false;
    out.shown.push_back(id);
    return true;
  };
  show(root);
  for (uint32_t id : tree.committedPath()) show(id);
  // Expand around the newest committed state first: that is where the search is looking.
  std::deque<uint32_t> queue;
  for (auto it = tree.committedPath().rbegin(); it != tree.committedPath().rend(); ++it) queue.push_back(*it);
  queue.push_back(root);
  while (!queue.empty()) {
    const uint32_t id = queue.front();
    queue.pop_front();
    const MirrorMctsNode* node = tree.node(id);
    if (!node) continue;
    std::vector<uint32_t> children = node->children;
    std::stable_sort(children.begin(), children.end(), [&](uint32_t a, uint32_t b) {
      const MirrorMctsNode* x = tree.node(a);
      const MirrorMctsNode* y = tree.node(b);
      return (x ? x->visits : 0) > (y ? y->visits : 0);
    });
    size_t taken = 0;
    for (uint32_t child : children) {
      if (shown.count(child)) {
        queue.push_back(child);
        ++taken;
        continue;
      }
      if (taken >= options.maxChildren || !show(child)) continue;
      ++taken;
      queue.push_back(child);
    }
  }
  // Whatever hangs below a shown node without being shown is counted there.
  for (uint32_t id : out.shown) {
    size_t hidden = 0;
    for (uint32_t child : tree.node(id)->children)
      if (!shown.count(child)) hidden += sizes.count(child) ? sizes.at(child) : 1;
    if (hidden) out.hiddenUnder[id] = hidden;
  }

  // Tidy layout over the shown nodes, children in id order (creation order, so stable as it grows).
  double nextLeaf = 0;
  std::vector<std::pair<uint32_t, bool>> stack{{root, false}};
  std::unordered_set<uint32_t> placed;
  while (!stack.empty()) {
    auto [id, done] = stack.back();
    stack.pop_back();
    const MirrorMctsNode* node = tree.node(id);
    std::vector<uint32_t> children;
    for (uint32_t child : node->children)
      if (shown.count(child)) children.push_back(child);
    std::sort(children.begin(), children.end());
    const double y = node->depth * options.rowHeight;
    if (!done) {
      if (!placed.insert(id).second) continue;
      if (children.empty()) {
        out.position[id] = QPointF(nextLeaf++ * options.columnWidth, y);
        continue;
      }
      stack.emplace_back(id, true);
      for (auto it = children.rbegin(); it != children.rend(); ++it) stack.emplace_back(*it, false);
      continue;
    }
    double first = out.position.count(children.front()) ? out.position[children.front()].x() : 0;
    double last = out.position.count(children.back()) ? out.position[children.back()].x() : first;
    out.position[id] = QPointF((first + last) / 2, y);
  }
  return out;
}

} // namespace tessera::views
