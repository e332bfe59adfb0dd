#include "support/HostLoad.h"

#include "support/Error.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace tessera {

namespace {

int processorCount() {
  const unsigned processors = std::thread::hardware_concurrency();
  return processors > 0 ? static_cast<int>(processors) : 1;
}

} // namespace

std::optional<double> hostLoadOverride() {
  const char* text = std::getenv(kHostLoadVariable);
  if (!text) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const double load = std::strtod(text, &end);
  if (end == text || *end != '\0' || errno != 0 || !std::isfinite(load) || load < 0)
    throw Error(std::string(kHostLoadVariable) + "='" + text + "' is not a load average (a number of at least 0, such as 0.5)");
  return load;
}

std::optional<HostLoad> hostLoad() {
  try {
    if (const std::optional<double> load = hostLoadOverride()) return HostLoad{*load, processorCount()};
  } catch (const Error&) { // refused where it can be reported (the measured backends); the system's reading stands
  }
#if defined(__unix__) || defined(__APPLE__)
  double load = 0;
  if (getloadavg(&load, 1) != 1) return std::nullopt;
  return HostLoad{load, processorCount()};
#else
  return std::nullopt;
#endif
}

std::string busyHostNote(const HostLoad& load) {
  if (!load.busy()) return {};
  char text[320];
  std::snprintf(text, sizeof text,
                "the machine is busy (load %.1f on %d processors): CPU timings taken now are unreliable, so they are used "
                "for this run only and not kept in the cost cache; measure when it is quiet, or price with --cost analytic:h200",
                load.loadAverage, load.processors);
  return text;
}

} // namespace tessera
