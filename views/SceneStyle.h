// The drawing settings every item of one graph scene reads when it paints (owned by the scene,
// so a theme or mode change is one assignment plus an update, not a walk over the items).
#pragma once

#include "OpStyle.h"

#include <QFont>

namespace tessera::views {

struct SceneStyle {
  Theme theme;
  QFont titleFont;
  QFont detailFont;
  QFont edgeLabelFont;
  bool heatMap = false;
  bool showShapes = false;   // tensor shapes on edges
  bool dimUnchanged = false; // compare mode: nodes with a same counterpart fade back
};

} // namespace tessera::views
