// What a cost-table fuzz input goes through: the bytes written as a file and read as a device's
// cost table (cost/CostTable: what `costs import` and `--cost table:FILE` read from another
// machine). The contract (CostTable.h): an accepted table has finite, non-negative costs and a
// positive roofline, and written out it reads back the same; anything else is a tessera::Error
// naming the file, never a crash or the JSON library's own exception. Shared by fuzz_cost_table and
// tests/plugins' corpus replay.
#pragma once

#include "FuzzSupport.h"

#include "cost/CostTable.h"
#include "support/Error.h"

#include <cmath>
#include <filesystem>
#include <string>

namespace tessera::fuzz {

inline std::string costTableDefect(const CostTable& table) {
  for (const auto& [signature, ms] : table.costs)
    if (!std::isfinite(ms) || ms < 0) return "an accepted table has the cost " + std::to_string(ms) + " for '" + signature + "'";
  if (const auto& p = table.fallbackProfile)
    for (double value : {p->peakGflops, p->bandwidthGBs, p->launchOverheadUs, p->computeEfficiency, p->memoryEfficiency})
      if (!std::isfinite(value) || !(value > 0)) return "an accepted table's fallback profile has the value " + std::to_string(value);
  return {};
}

// Writes `bytes` to `scratch`, reads it, and for an accepted table writes it back out and reads it again.
inline FuzzOutcome checkCostTable(const std::string& bytes, const std::string& scratch) {
  writeBytes(scratch, bytes);
  FuzzOutcome outcome;
  try {
    const CostTable table = readCostTable(scratch);
    outcome.accepted = true;
    outcome.defect = costTableDefect(table);
    if (outcome.defect.empty()) {
      writeCostTable(table, scratch);
      const CostTable again = readCostTable(scratch);
      if (again.device != table.device || again.costs != table.costs || again.fallbackProfile.has_value() != table.fallbackProfile.has_value())
        outcome.defect = "the table written back reads as another table";
    }
  } catch (const Error& e) {
    if (std::string(e.what()).rfind(scratch + ": ", 0) != 0) outcome.defect = std::string("the error does not name the file: ") + e.what();
  }
  std::filesystem::remove(scratch);
  return outcome;
}

} // namespace tessera::fuzz
