#include "AxisEnd.h"

#include <cmath>
#include <initializer_list>

namespace tessera::views {

double axisEndAtOrAbove(double value) {
  const double magnitude = std::pow(10.0, std::floor(std::log10(value)));
  for (double step : {1.0, 2.0, 5.0})
    if (value <= step * magnitude) return step * magnitude;
  return 10 * magnitude;
}

} // namespace tessera::views
