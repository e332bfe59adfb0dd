// One e-class of the live e-graph view: a rounded cluster holding chips for its e-nodes (up to
// kMaxChips, then an explicit "+N more" line), with a badge for neighbours that are not shown.
// Painting reads everything from the item, so a batch update is a few setters and one update().
#pragma once

#include "egraph/ENode.h"
#include "replay/EGraphMirror.h"
#include "OpStyle.h"

#include <QFont>
#include <QGraphicsItem>
#include <QString>

#include <vector>

namespace tessera::views {

struct EGraphStyle {
  Theme theme;
  QFont titleFont;
  QFont chipFont;
};

struct ENodeChip {
  MirrorNodeId node = 0;
  QString op;
  OpCategory category = OpCategory::Misc;
  bool leaf = false;
  bool dimmed = false;      // does not match the op/rule filter
  bool highlighted = false; // part of the highlighted candidate / selection
  bool fresh = false;       // added by the latest step
};

class EClassItem final : public QGraphicsItem {
public:
  enum { Type = UserType + 40 };
  static constexpr int kMaxChips = 6;
  static constexpr int kChipsPerRow = 3;
  // Semantic zoom: below kSummaryZoom a class is drawn as one label, below kLabelZoom as a colour.
  static constexpr double kSummaryZoom = 0.62;
  static constexpr double kLabelZoom = 0.14;

  EClassItem(const EGraphStyle* style, EClassId eclass, QSizeF size);

  int type() const override { return Type; }
  EClassId eclass() const { return eclass_; }

  // `chips` are every node of the class (in order); only the first kMaxChips are drawn.
  void setNodes(std::vector<ENodeChip> chips);
  void setHiddenNeighbours(uint32_t count);
  void setWeightInputs(uint32_t count); // weight-only child classes not drawn
  void setCollapsed(bool collapsed);
  void setFlash(double strength); // 0..1, a merge that just happened
  void setFocused(bool focused);

  bool collapsed() const { return collapsed_; }
  size_t nodeCount() const { return chips_.size(); }
  size_t chipsShown() const { return collapsed_ ? 0 : std::min<size_t>(chips_.size(), kMaxChips); }
  size_t nodesNotShown() const { return chips_.size() - chipsShown(); }
  uint32_t hiddenNeighbours() const { return hiddenNeighbours_; }
  uint32_t weightInputs() const { return weightInputs_; }
  double flash() const { return flash_; }

  // Scene positions for edges: where a chip's edge leaves (top centre) and where edges into the
  // class arrive (bottom centre).
  QPointF chipAnchor(size_t index) const;
  QPointF inboundAnchor() const;
  // The node under a scene position, or -1.
  int chipAt(QPointF scenePos) const;
  const std::vector<ENodeChip>& chips() const { return chips_; }
  // The colour the class reads as from afar (its leading operator's category).
  QColor summaryColor() const;
  // Holds a node added by the latest step.
  bool hasFreshNode() const;

  QRectF boundingRect() const override;
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
  QRectF chipRect(size_t index) const;
  const ENodeChip* leadingChip() const;
  void paintSummary(QPainter* painter, double lod);

  const EGraphStyle* style_;
  EClassId eclass_;
  QSizeF size_;
  std::vector<ENodeChip> chips_;
  uint32_t hiddenNeighbours_ = 0;
  uint32_t weightInputs_ = 0;
  bool collapsed_ = false;
  bool focused_ = false;
  double flash_ = 0;
};

} // namespace tessera::views
