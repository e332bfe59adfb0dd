// Which MCTS nodes the tree view draws and where: the committed path always, then the most visited
// children of each shown node (latest committed state first) up to a budget; everything else is
// counted under the shown parent it hangs from, so the view can say "+N more". Tidy layout: leaves
// side by side in depth-first order, parents centred over their children, one row per depth.
#pragma once

#include "replay/MctsTreeMirror.h"

#include <QPointF>

#include <unordered_map>
#include <vector>

namespace tessera::views {

struct MctsTreeLayoutOptions {
  size_t budget = 400;      // nodes drawn at most
  size_t maxChildren = 6;   // children drawn per node, most visited first
  double columnWidth = 92; // room for a rule name under each node
  double rowHeight = 86;
};

struct MctsTreeLayout {
  std::vector<uint32_t> shown;                      // ids, parents before children
  std::unordered_map<uint32_t, QPointF> position;   // centre of each shown node
  std::unordered_map<uint32_t, size_t> hiddenUnder; // shown id -> descendants not drawn
  size_t total = 0;
  double columnWidth = 0;
  size_t hidden() const { return total - shown.size(); }
};

MctsTreeLayout layoutMctsTree(const MctsTreeMirror& tree, const MctsTreeLayoutOptions& options = {});

} // namespace tessera::views
