// The overview in a graph view's corner: every node as a coloured box (marks and search matches
// included), with the visible region outlined; click or drag in it to move there. The picture is
// redrawn only when the scene's layout or appearance changes, never on scroll.
#pragma once

#include <QPixmap>
#include <QWidget>

class QGraphicsView;

namespace tessera::views {

class GraphScene;

class MiniMap final : public QWidget {
public:
  MiniMap(QGraphicsView* view, GraphScene* scene);

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
  GraphScene* scene_;
  QPixmap picture_;
  bool dirty_ = true;
};

} // namespace tessera::views
