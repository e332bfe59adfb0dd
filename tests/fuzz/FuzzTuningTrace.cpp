// libFuzzer target for tuning traces (tune/Trace: traceFromJson, replaySchedule); see
// CheckTuningTrace.h for what an input goes through and the contract it checks.
#include "CheckTuningTrace.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tessera::fuzz::FuzzOutcome outcome = tessera::fuzz::checkTuningTrace(tessera::fuzz::inputBytes(data, size));
  return tessera::fuzz::endOfInput(outcome);
}
