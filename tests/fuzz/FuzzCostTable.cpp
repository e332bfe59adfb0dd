// libFuzzer target for device cost tables (cost/CostTable: readCostTable); see CheckCostTable.h for
// what an input goes through and the contract it checks.
#include "CheckCostTable.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string scratch = tessera::fuzz::fuzzScratchPath("costs.json");
  tessera::fuzz::FuzzOutcome outcome = tessera::fuzz::checkCostTable(std::string(reinterpret_cast<const char*>(data), size), scratch);
  if (outcome.defect.empty()) return 0;
  std::fprintf(stderr, "%s\n", outcome.defect.c_str());
  std::abort();
}
