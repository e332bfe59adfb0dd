#include "MiniMap.h"

#include <QGraphicsView>
#include <QMouseEvent>
#include <QPainter>

#include <algorithm>

namespace tessera::views {

namespace {
constexpr int kMaxSide = 190;
constexpr int kMinSide = 36;
constexpr int kMargin = 12;
constexpr int kInset = 4;
} // namespace

MiniMap::MiniMap(QGraphicsView* view, MiniMapSource source) : QWidget(view), view_(view), source_(std::move(source)) {
  setCursor(Qt::PointingHandCursor);
  setToolTip(tr("Overview: click or drag to move the view"));
  hide();
}

void MiniMap::invalidate() {
  dirty_ = true;
  update();
}

void MiniMap::updateGeometryInView() {
  QRectF bounds = source_.bounds();
  if (bounds.isEmpty()) {
    hide();
    return;
  }
  double scale = std::min(kMaxSide / bounds.width(), kMaxSide / bounds.height());
  int width = std::clamp(static_cast<int>(bounds.width() * scale), kMinSide, kMaxSide) + 2 * kInset;
  int height = std::clamp(static_cast<int>(bounds.height() * scale), kMinSide, kMaxSide) + 2 * kInset;
  QRect viewport = view_->viewport()->geometry();
  QRect area(viewport.right() - width - kMargin, viewport.bottom() - height - kMargin, width, height);
  if (area != geometry()) {
    setGeometry(area);
    dirty_ = true;
  }
}

QRectF MiniMap::mapRect() const {
  QRectF bounds = source_.bounds();
  QRectF inner = QRectF(rect()).adjusted(kInset, kInset, -kInset, -kInset);
  if (bounds.isEmpty()) return inner;
  double scale = std::min(inner.width() / bounds.width(), inner.height() / bounds.height());
  QSizeF size = bounds.size() * scale;
  return QRectF(inner.center() - QPointF(size.width() / 2, size.height() / 2), size);
}

void MiniMap::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  const Theme theme = source_.theme();
  QColor frame = theme.background;
  frame.setAlpha(235);
  painter.setPen(QPen(theme.mutedText, 1));
  painter.setBrush(frame);
  painter.drawRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5));
  QRectF target = mapRect();
  if (dirty_ || picture_.size() != (target.size() * devicePixelRatioF()).toSize()) {
    picture_ = QPixmap((target.size() * devicePixelRatioF()).toSize());
    picture_.setDevicePixelRatio(devicePixelRatioF());
    picture_.fill(Qt::transparent);
    // Boxes only: at this scale edges are a grey haze, and rendering thousands of them through the
    // scene stalled the UI for a tenth of a second on every layout of a large model.
    QPainter render(&picture_);
    QRectF bounds = source_.bounds();
    double scale = target.width() / bounds.width();
    source_.boxes([&](const QRectF& item, const QColor& color) {
      const QRectF box((item.topLeft() - bounds.topLeft()) * scale, (item.size() * scale).expandedTo(QSizeF(1.5, 1.5)));
      render.fillRect(box, color);
    });
    dirty_ = false;
  }
  painter.drawPixmap(target.topLeft(), picture_);

  // The visible part of the scene.
  QRectF visible = view_->mapToScene(view_->viewport()->rect()).boundingRect();
  QRectF bounds = source_.bounds();
  double scale = target.width() / bounds.width();
  QRectF shown((visible.left() - bounds.left()) * scale + target.left(), (visible.top() - bounds.top()) * scale + target.top(),
               visible.width() * scale, visible.height() * scale);
  shown = shown.intersected(QRectF(rect()).adjusted(1, 1, -1, -1));
  QColor fill = theme.selection;
  fill.setAlpha(50);
  painter.setPen(QPen(theme.selection, 1.5));
  painter.setBrush(fill);
  painter.drawRect(shown);
}

void MiniMap::centerViewAt(QPointF widgetPoint) {
  QRectF target = mapRect();
  QRectF bounds = source_.bounds();
  if (target.isEmpty() || bounds.isEmpty()) return;
  double scale = bounds.width() / target.width();
  view_->centerOn(bounds.left() + (widgetPoint.x() - target.left()) * scale, bounds.top() + (widgetPoint.y() - target.top()) * scale);
}

void MiniMap::mousePressEvent(QMouseEvent* event) { centerViewAt(event->position()); }

void MiniMap::mouseMoveEvent(QMouseEvent* event) {
  if (event->buttons() & Qt::LeftButton) centerViewAt(event->position());
}

} // namespace tessera::views
