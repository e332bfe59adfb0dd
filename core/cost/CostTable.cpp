#include "cost/CostTable.h"

#include "cost/CostCache.h"
#include "support/Error.h"
#include "support/ReadFile.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>

namespace tessera {

namespace {

constexpr uintmax_t kMaxTableBytes = uintmax_t{1} << 28;

nlohmann::json profileJson(const DeviceProfile& p) {
  return {{"name", p.name},
          {"description", p.description},
          {"peak_gflops", p.peakGflops},
          {"bandwidth_gbs", p.bandwidthGBs},
          {"launch_overhead_us", p.launchOverheadUs},
          {"compute_efficiency", p.computeEfficiency},
          {"memory_efficiency", p.memoryEfficiency}};
}

DeviceProfile profileFromJson(const nlohmann::json& json, const std::string& path) {
  auto positive = [&](const char* key) {
    if (!json.contains(key) || !json[key].is_number() || !(json[key].get<double>() > 0))
      throw errorInFile(path, std::string("fallback_profile needs a positive number \"") + key + "\"");
    return json[key].get<double>();
  };
  if (!json.is_object() || !json.contains("name") || !json["name"].is_string())
    throw errorInFile(path, "fallback_profile needs a \"name\"");
  if (json.contains("description") && !json["description"].is_string())
    throw errorInFile(path, "fallback_profile's \"description\" is not a string");
  return {json["name"].get<std::string>(), json.value("description", ""), positive("peak_gflops"), positive("bandwidth_gbs"),
          positive("launch_overhead_us"), positive("compute_efficiency"), positive("memory_efficiency")};
}

} // namespace

CostTable readCostTable(const std::string& path) {
  std::string text = readFileBytes(path, kMaxTableBytes);
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) { // a parse error, or a number too large for a double
    throw errorInFile(path, std::string("is not JSON: ") + e.what());
  }
  if (!json.is_object() || !json.contains("format") || json["format"] != CostTable::kFormat)
    throw errorInFile(path, std::string("is not a Tessera cost table (no \"format\": \"") + CostTable::kFormat + "\")");
  if (!json.contains("schema_version") || !json["schema_version"].is_number_integer())
    throw errorInFile(path, "has no integer schema_version");
  const int version = json["schema_version"].get<int>();
  if (version != CostTable::kSchemaVersion)
    throw errorInFile(path, "is cost table schema " + std::to_string(version) + ", this build reads schema " +
                                std::to_string(CostTable::kSchemaVersion) + " (export it again with a matching tessera-cli)");
  if (!json.contains("device") || !json["device"].is_string() || json["device"].get<std::string>().empty())
    throw errorInFile(path, "names no device");
  if (!json.contains("costs") || !json["costs"].is_object()) throw errorInFile(path, "has no \"costs\" object");

  CostTable table;
  table.device = json["device"].get<std::string>();
  if (json.contains("fallback_profile")) table.fallbackProfile = profileFromJson(json["fallback_profile"], path);
  for (const auto& [signature, ms] : json["costs"].items()) {
    if (!ms.is_number() || !std::isfinite(ms.get<double>()) || ms.get<double>() < 0)
      throw errorInFile(path, "cost of '" + signature + "' is not a non-negative number of milliseconds");
    table.costs[signature] = ms.get<double>();
  }
  return table;
}

void writeCostTable(const CostTable& table, const std::string& path) {
  nlohmann::json json;
  json["format"] = CostTable::kFormat;
  json["schema_version"] = CostTable::kSchemaVersion;
  json["device"] = table.device;
  if (table.fallbackProfile) json["fallback_profile"] = profileJson(*table.fallbackProfile);
  json["costs"] = table.costs;
  std::ofstream out(path);
  out << json.dump(1) << '\n';
  out.close();
  if (!out) throw errorInFile(path, "cannot be written");
}

CostTable costTableFromCache(CostCache& cache, const std::string& device) {
  CostTable table;
  table.device = device;
  for (auto& [signature, ms] : cache.entries(device)) table.costs.emplace(std::move(signature), ms);
  return table;
}

size_t importCostTable(CostCache& cache, const CostTable& table) {
  cache.storeAll(table.device, {table.costs.begin(), table.costs.end()});
  return table.costs.size();
}

} // namespace tessera
