#include "search/SearchClock.h"

#include <cstdio>

namespace tessera {

SearchClock::SearchClock(const CostModel& cost)
    : cost_(cost), start_(std::chrono::steady_clock::now()), measuringAtStart_(cost.measuringSeconds()) {}

double SearchClock::measuringSeconds() const { return cost_.measuringSeconds() - measuringAtStart_; }

double SearchClock::wallSeconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }

double SearchClock::seconds() const { return wallSeconds() - measuringSeconds(); }

std::string measuringNote(double measuringSeconds) {
  if (measuringSeconds <= 0) return {};
  char note[64];
  std::snprintf(note, sizeof note, ", %.1f s of it measuring op costs", measuringSeconds);
  return note;
}

} // namespace tessera
