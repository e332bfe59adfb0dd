// How the graph looks: colours and outline shapes per op category for light and dark palettes,
// the cost heat-map ramp and the compare marks. One place, so the graph, minimap and legends agree.
#pragma once

#include "ir/Op.h"

#include <QColor>

#include <cstdint>

class QPalette;

namespace tessera::views {

enum class NodeShape : uint8_t { RoundedBox, Box, Pill, Ellipse, Hexagon };

// Colours derived from the application palette, so that the graph follows the system's light or
// dark appearance.
struct Theme {
  bool dark = false;
  QColor background;
  QColor edge;
  QColor edgeHighlight;
  QColor text;       // on the background
  QColor mutedText;
  QColor selection;
  QColor searchMatch;
  QColor added;
  QColor removed;
  QColor changed;

  static Theme fromPalette(const QPalette& palette);
};

QColor categoryColor(OpCategory category, bool dark);
QColor inputColor(bool dark);   // graph inputs and outputs
QColor weightColor(bool dark);
NodeShape categoryShape(OpCategory category);

// The heat map: `fraction` in [0, 1] of the most expensive node's cost (already scaled).
QColor heatColor(double fraction, bool dark);
// Ops that cost nothing (layout views, precomputable weight ops) in heat-map mode.
QColor freeOpColor(bool dark);

// Black or white, whichever reads better on `fill`.
QColor textColorOn(const QColor& fill);

} // namespace tessera::views
