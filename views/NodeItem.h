// One node of a graph scene: an op, a graph input, a weight or a graph output, drawn by category
// colour and shape with its caption; knows its edges so selection can emphasise them.
#pragma once

#include "GraphDiff.h"
#include "OpStyle.h"

#include "ir/Graph.h"

#include <QGraphicsItem>
#include <QPainterPath>
#include <QStaticText>

#include <optional>
#include <vector>

namespace tessera::views {

struct SceneStyle;
class EdgeItem;

enum class NodeRole : uint8_t { Op, Input, Weight, Output };

class NodeItem final : public QGraphicsItem {
public:
  enum { Type = UserType + 1 };

  // `node` is the graph node id; for a graph output it is the index of the output. `size` is the
  // caption's size (sizeFor).
  NodeItem(const SceneStyle* style, NodeRole role, OpCategory category, NodeId node, QString title, QString detail,
           QSizeF size);

  // The size a node's caption needs, and the size of its outline around that (ellipses and
  // hexagons lose their corners, so they are wider): the size the layout reserves.
  static QSizeF sizeFor(const SceneStyle& style, NodeRole role, const QString& title, const QString& detail);
  static QSizeF outlineSize(NodeShape shape, QSizeF captionSize);
  static NodeShape shapeFor(NodeRole role, OpCategory category);

  int type() const override { return Type; }
  NodeId nodeId() const { return node_; }
  NodeRole role() const { return role_; }
  OpCategory category() const { return category_; }
  QString title() const { return title_.text(); }
  QSizeF size() const { return rect_.size(); }

  QRectF boundingRect() const override;
  QPainterPath shape() const override;
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

  // Heat-map value: fraction of the costliest node in [0, 1]; `free` ops cost nothing.
  void setHeat(double fraction, bool free);
  void setDiffStatus(std::optional<DiffStatus> status);
  std::optional<DiffStatus> diffStatus() const { return diff_; }
  void setSearchMatch(bool match);
  bool isSearchMatch() const { return searchMatch_; }
  void addEdge(EdgeItem* edge) { edges_.push_back(edge); }
  const std::vector<EdgeItem*>& edges() const { return edges_; }
  QColor fillColor() const;

protected:
  QVariant itemChange(GraphicsItemChange change, const QVariant& value) override;

private:
  void paintBadge(QPainter* painter, const QColor& color, QChar symbol) const;

  const SceneStyle* style_;
  NodeRole role_;
  OpCategory category_;
  NodeId node_;
  QRectF rect_;
  QPainterPath outline_;
  QStaticText title_;
  QStaticText detail_;
  double titleHeight_ = 0;
  double detailHeight_ = 0;
  double heat_ = 0;
  bool free_ = false;
  bool searchMatch_ = false;
  std::optional<DiffStatus> diff_;
  std::vector<EdgeItem*> edges_;
};

} // namespace tessera::views
