// Writing what a view shows to an image: a whole graph scene (not just the visible part) or any
// widget, as PNG or SVG by the file's suffix.
#pragma once

#include <QString>

class QGraphicsScene;
class QWidget;

namespace tessera::views {

// Returns an error message, or an empty string on success. PNGs are capped at 16384 pixels on the
// long side (larger graphs are scaled down); SVG keeps full detail.
QString exportScene(QGraphicsScene* scene, const QString& path);
QString exportWidget(QWidget* widget, const QString& path);

} // namespace tessera::views
