// Shared by the tuner tests: a CPU tuning context that measures quickly (one short repeat) and
// waits for slow compiles.
#pragma once

#include "tune/Tuner.h"

namespace tessera::tune::test {

inline CpuTuneSettings quickSettings() {
  CpuTuneSettings settings;
  settings.run.warmup = 0;
  settings.run.repeats = 1;
  settings.run.minRepeatMs = 0;
  // A compile that times out is a failed trial, which these tests would misread: on a loaded
  // machine a heavily unrolled candidate takes a minute.
  settings.build.timeoutSeconds = 600;
  return settings;
}

} // namespace tessera::tune::test
