// The Training tab's self-play chart: PUCT's strength by generation (rl/StrengthCurve.h), the mean
// verified speedup of each generation's games, one colour a way of exploring and one dash a seed.
// Below it: each report's final network.
#pragma once

#include "live/SeriesReportsPanel.h"

namespace tessera::views {

class StrengthCurvesPanel : public SeriesReportsPanel {
  Q_OBJECT
public:
  explicit StrengthCurvesPanel(QWidget* parent = nullptr);
};

} // namespace tessera::views
