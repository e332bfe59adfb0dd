// libFuzzer target for device cost tables (cost/CostTable: readCostTable); see CheckCostTable.h for
// what an input goes through and the contract it checks.
#include "CheckCostTable.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string scratch = tessera::fuzz::fuzzScratchPath("costs.json");
  tessera::fuzz::FuzzOutcome outcome = tessera::fuzz::checkCostTable(std::string(tessera::fuzz::inputBytes(data, size)), scratch);
  return tessera::fuzz::endOfInput(outcome);
}
