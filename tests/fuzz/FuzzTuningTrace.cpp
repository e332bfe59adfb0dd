// libFuzzer target for tuning traces (tune/Trace: traceFromJson, replaySchedule); see
// CheckTuningTrace.h for what an input goes through and the contract it checks.
#include "CheckTuningTrace.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tessera::fuzz::FuzzOutcome outcome = tessera::fuzz::checkTuningTrace(std::string_view(reinterpret_cast<const char*>(data), size));
  if (outcome.defect.empty()) return 0;
  std::fprintf(stderr, "%s\n", outcome.defect.c_str());
  std::abort();
}
