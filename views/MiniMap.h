// The overview in a graph view's corner: every item as a coloured box (the graph view's nodes with
// their marks, the e-graph view's classes), with the visible region outlined; click or drag in it
// to move there. The picture is redrawn only when the scene's layout or appearance changes, never
// on scroll.
#pragma once

#include "OpStyle.h"

#include <QPixmap>
#include <QWidget>

#include <functional>

class QGraphicsView;

namespace tessera::views {

// What an overview shows, in scene coordinates.
struct MiniMapSource {
  using BoxSink = std::function<void(const QRectF& box, const QColor& color)>;
  std::function<QRectF()> bounds;              // the whole picture; empty: nothing to show
  std::function<void(const BoxSink&)> boxes;   // every item worth a box
  std::function<Theme()> theme;
};

class MiniMap final : public QWidget {
public:
  MiniMap(QGraphicsView* view, MiniMapSource source);

  void invalidate();           // the scene changed: re-render on the next paint
  void updateGeometryInView(); // size from the graph's aspect ratio, placed bottom-right

protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;

private:
  QRectF mapRect() const; // where the graph is drawn inside the widget
  void centerViewAt(QPointF widgetPoint);

  QGraphicsView* view_;
  MiniMapSource source_;
  QPixmap picture_;
  bool dirty_ = true;
};

} // namespace tessera::views
