// Cost tables (export/import format, schema version) and the table:FILE cost model.
#include "cost/CostCache.h"
#include "cost/CostTable.h"
#include "cost/TableCostModel.h"
#include "support/Database.h"
#include "support/Error.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace tessera;

namespace {

TensorType f32(Shape shape) { return {DType::Float32, std::move(shape)}; }

std::string tempPath(const std::string& name) {
  auto path = std::filesystem::temp_directory_path() / ("tessera-table-" + std::to_string(getpid()) + "-" + name);
  std::filesystem::remove(path);
  return path.string();
}

void writeText(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

std::string errorOf(const std::string& path) {
  try {
    readCostTable(path);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

const OpSignature kRelu{OpKind::Relu, {f32({8, 8})}, {f32({8, 8})}, {}};
const OpSignature kTanh{OpKind::Tanh, {f32({8, 8})}, {f32({8, 8})}, {}};

} // namespace

TEST(CostTable, WritesAndReadsBackDeviceCostsAndProfile) {
  CostTable table;
  table.device = "cpu:Test CPU (2 threads)";
  table.costs = {{kRelu.key(), 0.125}, {kTanh.key(), 2.5}};
  table.fallbackProfile = DeviceProfile{"cpu-calibrated", "test", 100.0, 20.0, 3.0, 1.0, 1.0};
  const std::string path = tempPath("roundtrip.json");
  writeCostTable(table, path);
  const CostTable back = readCostTable(path);
  EXPECT_EQ(back.device, table.device);
  EXPECT_EQ(back.costs, table.costs);
  ASSERT_TRUE(back.fallbackProfile.has_value());
  EXPECT_EQ(back.fallbackProfile->peakGflops, 100.0);
  EXPECT_EQ(back.fallbackProfile->launchOverheadUs, 3.0);
}

TEST(CostTable, RefusesOtherSchemasAndMalformedFilesNamingTheFile) {
  const std::string newer = tempPath("newer.json");
  writeText(newer, R"({"format": "tessera-cost-table", "schema_version": 2, "device": "cpu:x", "costs": {}})");
  EXPECT_NE(errorOf(newer).find(newer), std::string::npos);
  EXPECT_NE(errorOf(newer).find("schema 2"), std::string::npos) << errorOf(newer);

  const std::string notJson = tempPath("garbage.json");
  writeText(notJson, "costs: many");
  EXPECT_NE(errorOf(notJson).find("not JSON"), std::string::npos) << errorOf(notJson);

  const std::string foreign = tempPath("foreign.json");
  writeText(foreign, R"({"device": "cpu:x", "costs": {}})");
  EXPECT_NE(errorOf(foreign).find("not a Tessera cost table"), std::string::npos) << errorOf(foreign);

  const std::string negative = tempPath("negative.json");
  writeText(negative, R"({"format": "tessera-cost-table", "schema_version": 1, "device": "cpu:x", "costs": {"Relu|a|b|": -1}})");
  EXPECT_NE(errorOf(negative).find("Relu|a|b|"), std::string::npos) << errorOf(negative);

  const std::string badProfile = tempPath("profile.json");
  writeText(badProfile, R"({"format": "tessera-cost-table", "schema_version": 1, "device": "cpu:x", "costs": {},
                            "fallback_profile": {"name": "p", "peak_gflops": 0}})");
  EXPECT_NE(errorOf(badProfile).find("fallback_profile"), std::string::npos) << errorOf(badProfile);

  // Fields of the wrong JSON type are named, not reported as a library's type error.
  const std::string numericFormat = tempPath("numeric-format.json");
  writeText(numericFormat, R"({"format": 3, "schema_version": 1, "device": "cpu:x", "costs": {}})");
  EXPECT_NE(errorOf(numericFormat).find("not a Tessera cost table"), std::string::npos) << errorOf(numericFormat);
  const std::string numericDescription = tempPath("numeric-description.json");
  writeText(numericDescription, R"({"format": "tessera-cost-table", "schema_version": 1, "device": "cpu:x", "costs": {},
      "fallback_profile": {"name": "p", "description": 5, "peak_gflops": 1, "bandwidth_gbs": 1, "launch_overhead_us": 1,
                           "compute_efficiency": 1, "memory_efficiency": 1}})");
  EXPECT_NE(errorOf(numericDescription).find("\"description\" is not a string"), std::string::npos) << errorOf(numericDescription);

  EXPECT_NE(errorOf(tempPath("missing.json")).find("missing.json"), std::string::npos);
}

TEST(CostTable, MovesOneDeviceBetweenCaches) {
  const std::string source = tempPath("source.sqlite"), target = tempPath("target.sqlite");
  {
    CostCache cache(source);
    cache.store("dev-a", kRelu.key(), 1.5);
    cache.store("dev-a", kTanh.key(), 2.5);
    cache.store("dev-b", kRelu.key(), 9.0);
    EXPECT_EQ(cache.devices(), (std::vector<std::string>{"dev-a", "dev-b"}));
  }
  CostCache sourceCache(source);
  const CostTable table = costTableFromCache(sourceCache, "dev-a");
  EXPECT_EQ(table.costs.size(), 2u);
  CostCache targetCache(target);
  EXPECT_EQ(importCostTable(targetCache, table), 2u);
  EXPECT_EQ(targetCache.lookup("dev-a", kTanh.key()), 2.5);
  EXPECT_FALSE(targetCache.lookup("dev-b", kRelu.key()).has_value());
  EXPECT_EQ(targetCache.entries("dev-a"), sourceCache.entries("dev-a"));
}

// A device's costs measured before a time go, with a calibration fitted before it; later ones,
// other devices and a later calibration stay. An unknown device or time is an error naming the cache.
TEST(CostCache, ForgetsADevicesCostsMeasuredBeforeATimeAndItsCalibration) {
  const std::string path = tempPath("forget.sqlite");
  {
    CostCache cache(path);
    cache.store("dev-a", kRelu.key(), 1.5);
    cache.store("dev-a", kTanh.key(), 2.5);
    cache.store("dev-b", kRelu.key(), 9.0);
    cache.storeCalibration("dev-a", LatencyCalibration{1.1, 0.01, 0.002, 4, 12.5});
  }
  {
    // The Relu timing and the calibration were taken in January.
    sql::Database db(path, sql::Database::Mode::ReadWrite);
    db.execute("UPDATE op_cost SET measured_at = '2026-01-05 10:00:00' WHERE device = 'dev-a' AND signature = '" + kRelu.key() + "'");
    db.execute("UPDATE latency_calibration SET fitted_at = '2026-01-05 10:00:00'");
  }
  CostCache cache(path);
  const CostCache::Forgotten none = cache.forget("dev-a", "2026-01-05");
  EXPECT_EQ(none.opCosts, 0u) << "measured after midnight of that day";
  EXPECT_FALSE(none.calibration);
  const CostCache::Forgotten january = cache.forget("dev-a", "2026-02-01 00:00");
  EXPECT_EQ(january.opCosts, 1u);
  EXPECT_TRUE(january.calibration);
  EXPECT_FALSE(cache.lookup("dev-a", kRelu.key()).has_value());
  EXPECT_EQ(cache.lookup("dev-a", kTanh.key()), 2.5);
  EXPECT_EQ(cache.lookup("dev-b", kRelu.key()), 9.0);
  EXPECT_FALSE(cache.calibration("dev-a").has_value());

  auto errorOfForget = [&](const std::string& device, const std::optional<std::string>& before) -> std::string {
    try {
      cache.forget(device, before);
    } catch (const Error& e) {
      return e.what();
    }
    return "no error";
  };
  const std::string unknown = errorOfForget("dev-c", std::nullopt);
  EXPECT_NE(unknown.find(path + ": holds no costs for device 'dev-c':"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("dev-b"), std::string::npos) << "it lists the devices it holds: " << unknown;
  const std::string badTime = errorOfForget("dev-a", "last week");
  EXPECT_NE(badTime.find("cannot forget costs before 'last week'"), std::string::npos) << badTime;
  EXPECT_EQ(cache.lookup("dev-a", kTanh.key()), 2.5) << "a refused call removes nothing";

  EXPECT_EQ(cache.forget("dev-a", std::nullopt).opCosts, 1u);
  EXPECT_EQ(cache.size("dev-a"), 0u);
  EXPECT_EQ(cache.devices(), std::vector<std::string>{"dev-b"});
}

TEST(TableCostModel, AnswersFromTheTableAndEstimatesTheRest) {
  CostTable table;
  table.device = "cpu:Test";
  table.costs = {{kRelu.key(), 0.75}};
  const std::string path = tempPath("model.json");
  writeCostTable(table, path);

  auto model = makeCostModel("table:" + path);
  EXPECT_EQ(model->spec(), "table:" + path);
  auto& tableModel = dynamic_cast<TableCostModel&>(*model);
  EXPECT_EQ(model->costMs(kRelu), 0.75);
  EXPECT_GT(model->costMs(kTanh), 0.0); // not in the table: the roofline's estimate
  EXPECT_EQ(model->costMs({OpKind::Reshape, {f32({8, 8})}, {f32({64})}, {{"shape", std::vector<int64_t>{64}}}}), 0.0);
  EXPECT_EQ(tableModel.hits(), 1u);
  EXPECT_EQ(tableModel.misses(), 1u);
  EXPECT_NE(tableModel.summary().find("Tanh 1"), std::string::npos) << tableModel.summary();
  EXPECT_NE(tableModel.summary().find("analytic:h200"), std::string::npos) << tableModel.summary();
}

TEST(TableCostModel, SpecErrorsAreClear) {
  EXPECT_THROW(makeCostModel("table:"), Error);
  try {
    makeCostModel("measured:cpu");
    FAIL() << "core alone cannot measure";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("plugin"), std::string::npos) << e.what();
  }
}
