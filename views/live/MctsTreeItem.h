// Paints a laid-out MCTS tree in one item (hundreds of nodes and labels, one paint call) and finds
// the node under a point for selection and context menus.
#pragma once

#include "MctsTreeLayout.h"
#include "OpStyle.h"
#include "replay/MctsTreeMirror.h"

#include <QFont>
#include <QGraphicsItem>

#include <optional>

namespace tessera::views {

class MctsTreeItem final : public QGraphicsItem {
public:
  enum { Type = UserType + 42 };

  explicit MctsTreeItem(Theme theme, QFont font);
  int type() const override { return Type; }

  // The tree must outlive the next setTree call.
  void setTree(const MctsTreeMirror* tree, const MctsTreeLayout* layout);
  void setSelected(std::optional<uint32_t> id);
  std::optional<uint32_t> nodeAt(QPointF pos) const;
  double radius(const MirrorMctsNode& node) const;
  // Mean value mapped to a colour between the smallest and largest mean on screen.
  QColor valueColor(double mean) const;

  // PUCT's prior as written under a node ("P 23%") and in the details ("23%").
  static QString priorPercent(double prior);
  QColor overruledColor() const { return theme_.changed; }

  QRectF boundingRect() const override { return bounds_; }
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
  void paintPrior(QPainter* painter, uint32_t id, const QRectF& box, Qt::Alignment alignment) const;
  void paintBeside(QPainter* painter, uint32_t id, QPointF p, double r) const;

  const MctsTreeMirror* tree_ = nullptr;
  const MctsTreeLayout* layout_ = nullptr;
  std::optional<uint32_t> selected_;
  Theme theme_;
  QFont font_;
  QRectF bounds_;
  double minMean_ = 0;
  double maxMean_ = 0;
};

} // namespace tessera::views
