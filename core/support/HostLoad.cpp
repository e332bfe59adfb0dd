#include "support/HostLoad.h"

#include <cstdio>
#include <cstdlib>
#include <thread>

namespace tessera {

std::optional<HostLoad> hostLoad() {
#if defined(__unix__) || defined(__APPLE__)
  double load = 0;
  if (getloadavg(&load, 1) != 1) return std::nullopt;
  const unsigned processors = std::thread::hardware_concurrency();
  return HostLoad{load, processors > 0 ? static_cast<int>(processors) : 1};
#else
  return std::nullopt;
#endif
}

std::string busyHostNote(const HostLoad& load) {
  if (!load.busy()) return {};
  char text[256];
  std::snprintf(text, sizeof text,
                "the machine is busy (load %.1f on %d processors): CPU timings taken now are unreliable, and the cost "
                "cache keeps them; measure when it is quiet, or price with --cost analytic:h200",
                load.loadAverage, load.processors);
  return text;
}

} // namespace tessera
