// Where a chart's value axis ends: a round number at or above the data, so its ticks read 0, 20,
// 40, ... rather than 0, 17.3, 34.6, ...
#pragma once

namespace tessera::views {

// The first of 1, 2, 5 x 10^k at or above `value` (> 0).
double axisEndAtOrAbove(double value);

} // namespace tessera::views
