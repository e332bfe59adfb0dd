// A device's measured op costs as a portable JSON file, so measurements move between machines:
// `tessera-cli costs export` writes one from the cost cache, `costs import` puts one back and
// `--cost table:FILE` answers from it directly (for users without the device).
//
//   {"format": "tessera-cost-table", "schema_version": 1, "device": "cpu:...",
//    "fallback_profile": {...},   (optional: a roofline for the device, for signatures not in the table)
//    "costs": {"<OpSignature::key()>": ms, ...}}
#pragma once

#include "cost/DeviceProfile.h"

#include <map>
#include <optional>
#include <string>

namespace tessera {

class CostCache;

struct CostTable {
  static constexpr int kSchemaVersion = 1;
  static constexpr const char* kFormat = "tessera-cost-table";

  std::string device;
  std::optional<DeviceProfile> fallbackProfile;
  std::map<std::string, double> costs; // signature key -> milliseconds
};

// Throws tessera::Error naming the file: unreadable, not JSON, not a cost table, another schema
// version, or a cost that is not a finite non-negative number.
CostTable readCostTable(const std::string& path);
// Throws tessera::Error naming the file when it cannot be written.
void writeCostTable(const CostTable& table, const std::string& path);

// Everything the cache holds for `device` (empty costs when it holds nothing).
CostTable costTableFromCache(CostCache& cache, const std::string& device);
// Stores every cost under the table's device, replacing earlier values; returns how many.
size_t importCostTable(CostCache& cache, const CostTable& table);

} // namespace tessera
