// Shared by the tuner tests: a CPU tuning context that measures quickly (one short repeat).
#pragma once

#include "tune/Tuner.h"

namespace tessera::tune::test {

inline CpuTuneSettings quickSettings() {
  CpuTuneSettings settings;
  settings.run.warmup = 0;
  settings.run.repeats = 1;
  settings.run.minRepeatMs = 0;
  return settings;
}

} // namespace tessera::tune::test
