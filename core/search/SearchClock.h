// A search's clock: wall time since the search began, less the time its cost model spent timing
// ops on the device meanwhile. Time limits read this clock. A measured cost model times each
// signature once per device and caches it, so with a cold cache the measuring could use up a
// time-limited search before it had searched; with this clock a cold cache lengthens the run
// instead, and the same limit buys the same search on a cold cache as on a warm one.
#pragma once

#include "cost/CostModel.h"

#include <chrono>
#include <string>

namespace tessera {

class SearchClock {
public:
  explicit SearchClock(const CostModel& cost);

  // Search time: wall seconds since construction, less measuring seconds.
  double seconds() const;
  // Of the wall time since construction, the seconds the cost model spent measuring.
  double measuringSeconds() const;
  // Wall seconds since construction, measuring included.
  double wallSeconds() const;
  // Whether a limit (<= 0: none) is used up.
  bool reached(double limitSeconds) const { return limitSeconds > 0 && seconds() >= limitSeconds; }

private:
  const CostModel& cost_;
  std::chrono::steady_clock::time_point start_;
  double measuringAtStart_;
};

// ", 12.3 s of it measuring op costs" for a strategy's closing line; empty when nothing was measured.
std::string measuringNote(double measuringSeconds);

} // namespace tessera
