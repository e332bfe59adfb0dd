#include "EGraphLayout.h"

#include <algorithm>
#include <cmath>

namespace tessera::views {

namespace {
bool isLeafClass(const EGraphMirror& egraph, const MirrorClass& eclass) {
  if (eclass.nodes.empty()) return false;
  for (MirrorNodeId id : eclass.nodes)
    if (!egraph.nodes()[id].node.isLeaf()) return false;
  return true;
}
} // namespace

void EGraphLayout::clear() {
  slots_.clear();
  occupied_.clear();
  waitingLeaves_.clear();
}

QPointF EGraphLayout::position(EClassId eclass) const {
  auto it = slots_.find(eclass);
  if (it == slots_.end()) return {};
  return {it->second.column * (kClassWidth + kColumnGap), it->second.layer * (kClassHeight + kLayerGap)};
}

int EGraphLayout::layer(EClassId eclass) const {
  auto it = slots_.find(eclass);
  return it == slots_.end() ? -1 : it->second.layer;
}

int EGraphLayout::freeColumnNear(int layer, double desired) {
  if (static_cast<size_t>(layer) >= occupied_.size()) occupied_.resize(static_cast<size_t>(layer) + 1);
  const std::set<int>& taken = occupied_[static_cast<size_t>(layer)];
  const int start = static_cast<int>(std::lround(desired));
  for (int distance = 0;; ++distance) {
    if (!taken.count(start + distance)) return start + distance;
    if (distance && !taken.count(start - distance)) return start - distance;
  }
}

void EGraphLayout::place(EClassId eclass, int layer, double desiredColumn) {
  const int column = freeColumnNear(layer, desiredColumn);
  occupied_[static_cast<size_t>(layer)].insert(column);
  slots_[eclass] = Slot{layer, column};
}

int EGraphLayout::layerFor(const EGraphMirror& egraph, const MirrorClass& eclass) const {
  int deepest = 0; // children that are waiting leaves count as layer 0
  for (MirrorNodeId id : eclass.nodes)
    for (EClassId child : egraph.nodes()[id].node.children) {
      auto it = slots_.find(egraph.find(child));
      if (it != slots_.end()) deepest = std::max(deepest, it->second.layer);
    }
  return deepest + 1;
}

double EGraphLayout::meanColumn(const EGraphMirror& egraph, const MirrorClass& eclass) const {
  double sum = 0;
  int count = 0;
  for (MirrorNodeId id : eclass.nodes)
    for (EClassId child : egraph.nodes()[id].node.children) {
      auto it = slots_.find(egraph.find(child));
      if (it == slots_.end()) continue;
      sum += it->second.column;
      ++count;
    }
  return count ? sum / count : 0.0;
}

void EGraphLayout::update(const EGraphMirror& egraph, const std::unordered_set<EClassId>& unplaced) {
  // A merge leaves the kept id without a slot when only the absorbed side had one: inherit it.
  for (const MirrorClass* eclass : egraph.classes()) {
    if (slots_.count(eclass->id)) continue;
    for (EClassId member : eclass->members) {
      auto it = slots_.find(member);
      if (it == slots_.end()) continue;
      slots_[eclass->id] = it->second;
      break;
    }
  }
  for (const MirrorClass* eclass : egraph.classes()) {
    if (slots_.count(eclass->id) || unplaced.count(eclass->id)) continue;
    if (isLeafClass(egraph, *eclass)) {
      waitingLeaves_.insert(eclass->id);
      continue;
    }
    const int layer = layerFor(egraph, *eclass);
    const double column = meanColumn(egraph, *eclass);
    place(eclass->id, layer, column);
    // Inputs and weights sit just above their first consumer.
    for (MirrorNodeId id : eclass->nodes)
      for (EClassId child : egraph.nodes()[id].node.children) {
        const EClassId canonical = egraph.find(child);
        if (!waitingLeaves_.erase(canonical)) continue;
        place(canonical, std::max(0, layer - 1), slots_[eclass->id].column);
      }
  }
  // Leaves nobody uses yet go to the top row rather than staying invisible.
  if (waitingLeaves_.empty()) return;
  for (const MirrorClass* eclass : egraph.classes())
    if (waitingLeaves_.count(eclass->id)) place(eclass->id, 0, occupied_.empty() ? 0.0 : static_cast<double>(occupied_[0].size()));
  waitingLeaves_.clear();
}

} // namespace tessera::views
