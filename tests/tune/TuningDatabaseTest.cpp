// The tuning database: records keyed by workload and target, deduplicated by hash, the best
// verified record (per workload too), JSON lines, kernel choices, the migration from schema 1, and
// files it must refuse.
#include "tune/TuningDatabase.h"

#include "support/Database.h"
#include "support/Error.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <sstream>

namespace tessera::tune {
namespace {

TuningRecord record(const std::string& hash, TrialStatus status, double latencyMs) {
  TuningRecord r;
  r.workload = "matmul:8x8x8";
  r.target = "cpu:test x2";
  r.trace = R"({"version":1,"workload":"matmul:8x8x8","instructions":[]})";
  r.hash = hash;
  r.status = status;
  r.latencyMs = latencyMs;
  r.runMs = {latencyMs, latencyMs * 1.1};
  r.gflops = status == TrialStatus::Ok ? 1024.0 / (latencyMs * 1e6) : 0;
  r.error = status == TrialStatus::Ok ? "" : "boom";
  r.search = "random";
  r.seed = 3;
  return r;
}

std::string temporaryFile(const std::string& name) {
  auto path = std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + ".db");
  std::filesystem::remove(path);
  return path.string();
}

TEST(TuningDatabase, StoresDeduplicatesAndRanks) {
  TuningDatabase db(":memory:");
  EXPECT_TRUE(db.add(record("a", TrialStatus::Ok, 2.0)));
  EXPECT_TRUE(db.add(record("b", TrialStatus::Ok, 1.0)));
  EXPECT_TRUE(db.add(record("c", TrialStatus::CompileError, 0)));
  EXPECT_FALSE(db.add(record("a", TrialStatus::Ok, 0.5))); // same kernel again
  EXPECT_TRUE(db.contains("matmul:8x8x8", "cpu:test x2", "a"));
  EXPECT_FALSE(db.contains("matmul:8x8x8", "cpu:other x2", "a"));
  std::vector<TuningRecord> all = db.records();
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].hash, "a");
  EXPECT_EQ(all[0].runMs, (std::vector<double>{2.0, 2.2}));
  EXPECT_EQ(all[2].status, TrialStatus::CompileError);
  EXPECT_EQ(all[2].error, "boom");
  std::optional<TuningRecord> best = db.best("matmul:8x8x8", "cpu:test x2");
  ASSERT_TRUE(best.has_value());
  EXPECT_EQ(best->hash, "b");
  EXPECT_FALSE(db.best("matmul:9x9x9", "cpu:test x2").has_value());
}

TEST(TuningDatabase, ListsTheWorkloadsThatHaveRecords) {
  TuningDatabase db(":memory:");
  EXPECT_TRUE(db.workloads().empty());
  db.add(record("a", TrialStatus::Ok, 2.0));
  TuningRecord conv = record("b", TrialStatus::Ok, 1.0);
  conv.workload = "conv2d:1x8x9x9,16x8x3x3,s1,p1";
  db.add(conv);
  db.add(record("c", TrialStatus::Crashed, 0));
  EXPECT_EQ(db.workloads(), (std::vector<std::string>{"matmul:8x8x8", "conv2d:1x8x9x9,16x8x3x3,s1,p1"}));
}

TEST(TuningDatabase, ExportsJsonLines) {
  TuningDatabase db(":memory:");
  db.add(record("a", TrialStatus::Ok, 2.0));
  db.add(record("c", TrialStatus::Crashed, 0));
  std::istringstream lines(db.exportJsonLines());
  std::string line;
  std::vector<nlohmann::json> rows;
  while (std::getline(lines, line)) rows.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0]["status"], "ok");
  EXPECT_EQ(rows[0]["trace"]["workload"], "matmul:8x8x8"); // the trace is an object, not a string
  EXPECT_EQ(rows[1]["status"], "crashed");
  EXPECT_EQ(rows[1]["error"], "boom");
  for (const char* key : {"workload", "target", "hash", "latency_ms", "run_ms", "gflops", "search", "seed", "trial"})
    EXPECT_TRUE(rows[0].contains(key)) << key;
}

TEST(TuningDatabase, PersistsInAFile) {
  const std::string path = temporaryFile("tessera-tune-db");
  {
    TuningDatabase db(path);
    db.add(record("a", TrialStatus::Ok, 2.0));
  }
  TuningDatabase again(path);
  EXPECT_EQ(again.records().size(), 1u);
  std::filesystem::remove(path);
}

TEST(TuningDatabase, RefusesOtherFiles) {
  const std::string foreign = temporaryFile("tessera-tune-foreign");
  {
    sql::Database db(foreign, sql::Database::Mode::Create);
    db.execute("CREATE TABLE other(x)");
  }
  EXPECT_THROW(TuningDatabase{foreign}, Error);
  const std::string newer = temporaryFile("tessera-tune-newer");
  {
    TuningDatabase db(newer);
  }
  {
    sql::Database db(newer, sql::Database::Mode::ReadWrite);
    db.execute("PRAGMA user_version=99");
  }
  try {
    TuningDatabase db(newer);
    ADD_FAILURE() << "a newer schema was opened";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("newer"), std::string::npos) << e.what();
  }
  std::filesystem::remove(foreign);
  std::filesystem::remove(newer);
}

TEST(TuningDatabase, BestRecordOfEachWorkloadOnATarget) {
  TuningDatabase db(":memory:");
  db.add(record("a", TrialStatus::Ok, 2.0));
  db.add(record("b", TrialStatus::Ok, 1.0));
  TuningRecord other = record("c", TrialStatus::Ok, 5.0);
  other.workload = "matmul:4x4x4";
  db.add(other);
  TuningRecord failed = record("d", TrialStatus::WrongResult, 0);
  failed.workload = "matmul:2x2x2";
  db.add(failed); // no verified record: no tuned kernel
  TuningRecord elsewhere = record("e", TrialStatus::Ok, 0.1);
  elsewhere.target = "cpu:test x1";
  db.add(elsewhere);
  const std::vector<TuningRecord> best = db.bestRecords("cpu:test x2");
  ASSERT_EQ(best.size(), 2u);
  EXPECT_EQ(best[0].workload, "matmul:4x4x4");
  EXPECT_EQ(best[0].hash, "c");
  EXPECT_EQ(best[1].workload, "matmul:8x8x8");
  EXPECT_EQ(best[1].hash, "b");
  EXPECT_EQ(db.targets(), (std::vector<std::string>{"cpu:test x1", "cpu:test x2"}));
}

TEST(TuningDatabase, KeepsKernelChoicesPerSignatureAndKernel) {
  TuningDatabase db(":memory:");
  db.storeChoice({"cpu:test x2", "MatMul|sig", "a", 1.0, 2.0});
  db.storeChoice({"cpu:test x2", "MatMul|sig", "b", 3.0, 2.0});
  db.storeChoice({"cpu:test x2", "MatMul|sig", "a", 2.5, 2.0}); // timed again: replaces
  std::optional<KernelChoice> a = db.choice("cpu:test x2", "MatMul|sig", "a");
  ASSERT_TRUE(a.has_value());
  EXPECT_DOUBLE_EQ(a->tunedMs, 2.5);
  EXPECT_FALSE(a->tunedFaster());
  EXPECT_FALSE(db.choice("cpu:test x1", "MatMul|sig", "a").has_value());
  EXPECT_FALSE(db.choice("cpu:test x2", "Conv|sig", "a").has_value());
  EXPECT_EQ(db.choices("cpu:test x2").size(), 2u);
  EXPECT_TRUE(KernelChoice({"t", "s", "h", 1.0, 2.0}).tunedFaster());
}

TEST(TuningDatabase, MigratesASchemaOneFileKeepingItsRecords) {
  const std::string path = temporaryFile("tessera-tune-v1");
  {
    TuningDatabase db(path);
    db.add(record("a", TrialStatus::Ok, 2.0));
  }
  {
    sql::Database db(path, sql::Database::Mode::ReadWrite); // back to what version 1 wrote
    db.execute("DROP TABLE kernel_choice; PRAGMA user_version=1");
  }
  {
    TuningDatabase db(path);
    EXPECT_EQ(db.records().size(), 1u);
    db.storeChoice({"cpu:test x2", "MatMul|sig", "a", 1.0, 2.0});
  }
  sql::Database raw(path, sql::Database::Mode::ReadOnly);
  EXPECT_EQ(raw.queryInt("PRAGMA user_version"), TuningDatabase::kSchemaVersion);
  std::filesystem::remove(path);
}

TEST(TuningDatabase, CreatesTheDirectoryOfItsFile) {
  const std::filesystem::path dir = std::filesystem::path(temporaryFile("tessera-tune-dir")).replace_extension("");
  std::filesystem::remove_all(dir);
  const std::string path = (dir / "nested" / "tuning.sqlite").string();
  {
    TuningDatabase db(path);
    db.add(record("a", TrialStatus::Ok, 2.0));
  }
  EXPECT_TRUE(std::filesystem::exists(path));
  std::filesystem::remove_all(dir);
}

} // namespace
} // namespace tessera::tune
