// Stable positions for the e-classes of a growing e-graph: a class gets a layer (one more than its
// deepest child class, graph inputs and weights just above their first consumer) and the free slot
// of that layer nearest its children the first time it is seen, and keeps it. Growth never moves a
// class that is already on screen; merged classes keep the kept side's place.
#pragma once

#include "replay/EGraphMirror.h"

#include <QPointF>
#include <QSizeF>

#include <set>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace tessera::views {

class EGraphLayout {
public:
  static constexpr double kClassWidth = 196;
  static constexpr double kClassHeight = 74;
  static constexpr double kColumnGap = 28;
  static constexpr double kLayerGap = 46;

  // Places every class of `egraph` not placed yet, in the order they were first seen, except those
  // in `unplaced` (classes not drawn: they take no room until they are). Cheap: O(classes + new
  // classes x their children), so it runs on every batch even at 50,000 e-nodes.
  void update(const EGraphMirror& egraph, const std::unordered_set<EClassId>& unplaced = {});
  void clear();

  bool placed(EClassId eclass) const { return slots_.count(eclass) != 0; }
  // Top-left corner of the class's box; (0, 0) for a class never placed.
  QPointF position(EClassId eclass) const;
  int layer(EClassId eclass) const;
  size_t placedCount() const { return slots_.size(); }
  QSizeF classSize() const { return {kClassWidth, kClassHeight}; }

private:
  struct Slot {
    int layer = 0;
    int column = 0;
  };
  void place(EClassId eclass, int layer, double desiredColumn);
  int freeColumnNear(int layer, double desired);
  double meanColumn(const EGraphMirror& egraph, const MirrorClass& eclass) const;
  int layerFor(const EGraphMirror& egraph, const MirrorClass& eclass) const;

  std::unordered_map<EClassId, Slot> slots_; // by canonical id at the time it was placed
  std::vector<std::set<int>> occupied_;      // per layer
  std::unordered_set<EClassId> waitingLeaves_; // inputs and weights waiting for a consumer (within one update)
};

} // namespace tessera::views
