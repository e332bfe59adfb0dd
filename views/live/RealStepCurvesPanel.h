// The Training tab's sample-efficiency chart: reward against real environment steps for the
// training reports of X-RLflow and RLFlow (rl/RealStepCurve.h), one colour an agent and one dash a
// seed. Below it: what each agent's points are.
#pragma once

#include "live/SeriesReportsPanel.h"

namespace tessera::views {

class RealStepCurvesPanel : public SeriesReportsPanel {
  Q_OBJECT
public:
  explicit RealStepCurvesPanel(QWidget* parent = nullptr);
};

} // namespace tessera::views
