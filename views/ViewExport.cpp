#include "ViewExport.h"

#include <QFileInfo>
#include <QGraphicsScene>
#include <QImage>
#include <QPainter>
#include <QSvgGenerator>
#include <QWidget>

#include <algorithm>

namespace tessera::views {

namespace {
constexpr double kMaxPngSide = 16384;

bool wantsSvg(const QString& path) { return QFileInfo(path).suffix().compare(QStringLiteral("svg"), Qt::CaseInsensitive) == 0; }
} // namespace

QString exportScene(QGraphicsScene* scene, const QString& path) {
  QRectF items = scene->itemsBoundingRect();
  if (items.isEmpty()) return QObject::tr("there is nothing to export");
  QRectF source = items.adjusted(-20, -20, 20, 20);
  if (wantsSvg(path)) {
    QSvgGenerator svg;
    svg.setFileName(path);
    svg.setSize(source.size().toSize());
    svg.setViewBox(QRectF(QPointF(0, 0), source.size()));
    svg.setTitle(QFileInfo(path).completeBaseName());
    QPainter painter;
    if (!painter.begin(&svg)) return QObject::tr("cannot write %1").arg(path);
    painter.fillRect(QRectF(QPointF(0, 0), source.size()), scene->backgroundBrush());
    scene->render(&painter, QRectF(QPointF(0, 0), source.size()), source);
    painter.end();
    return {};
  }
  // Twice the scene's resolution reads well when zoomed; cap the long side for huge graphs.
  double scale = std::min(2.0, kMaxPngSide / std::max(source.width(), source.height()));
  QImage image((source.size() * scale).toSize(), QImage::Format_ARGB32_Premultiplied);
  image.fill(scene->backgroundBrush().color());
  QPainter painter(&image);
  painter.setRenderHint(QPainter::Antialiasing);
  painter.setRenderHint(QPainter::TextAntialiasing);
  scene->render(&painter, QRectF(QPointF(0, 0), image.size()), source);
  painter.end();
  if (!image.save(path)) return QObject::tr("cannot write %1").arg(path);
  return {};
}

QString exportWidget(QWidget* widget, const QString& path) {
  if (wantsSvg(path)) {
    QSvgGenerator svg;
    svg.setFileName(path);
    svg.setSize(widget->size());
    svg.setViewBox(QRect(QPoint(0, 0), widget->size()));
    QPainter painter;
    if (!painter.begin(&svg)) return QObject::tr("cannot write %1").arg(path);
    widget->render(&painter);
    painter.end();
    return {};
  }
  if (!widget->grab().save(path)) return QObject::tr("cannot write %1").arg(path);
  return {};
}

} // namespace tessera::views
