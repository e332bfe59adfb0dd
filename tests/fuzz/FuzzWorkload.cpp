// libFuzzer target for the tuner's workload strings (tune/Workload: parseWorkload); see
// CheckWorkload.h for what an input goes through and the contract it checks.
#include "CheckWorkload.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tessera::fuzz::FuzzOutcome outcome = tessera::fuzz::checkWorkload(tessera::fuzz::inputBytes(data, size));
  return tessera::fuzz::endOfInput(outcome);
}
