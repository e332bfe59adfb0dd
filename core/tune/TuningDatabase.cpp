// The tuning database's schema, migrations and queries.
#include "tune/TuningDatabase.h"

#include "cost/CostCache.h"
#include "support/Database.h"
#include "support/Error.h"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>

namespace tessera::tune {

namespace {

// Version 1. Records are looked up by (workload, target) and ranked by latency; the unique hash
// index is the deduplication.
constexpr const char* kSchemaV1 = R"SQL(
CREATE TABLE workload (
  id INTEGER PRIMARY KEY,
  key TEXT NOT NULL UNIQUE
);
CREATE TABLE record (
  id INTEGER PRIMARY KEY,
  workload_id INTEGER NOT NULL REFERENCES workload(id),
  target TEXT NOT NULL,
  trace TEXT NOT NULL,
  hash TEXT NOT NULL,
  status TEXT NOT NULL,
  error TEXT NOT NULL DEFAULT '',
  latency_ms REAL,
  run_ms TEXT NOT NULL DEFAULT '[]',
  gflops REAL,
  max_abs_err REAL,
  search TEXT NOT NULL DEFAULT '',
  seed INTEGER NOT NULL DEFAULT 0,
  trial INTEGER NOT NULL DEFAULT 0,
  build_seconds REAL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE UNIQUE INDEX record_by_hash ON record(workload_id, target, hash);
CREATE INDEX record_by_latency ON record(workload_id, target, status, latency_ms);
)SQL";

// Version 2: per op signature, the tuned kernel's time against the library op's, which the CPU
// backend measured together; keyed by the kernel so a better record is timed afresh.
constexpr const char* kSchemaV2 = R"SQL(
CREATE TABLE kernel_choice (
  target TEXT NOT NULL,
  signature TEXT NOT NULL,
  hash TEXT NOT NULL,
  tuned_ms REAL NOT NULL,
  library_ms REAL NOT NULL,
  measured_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (target, signature, hash)
);
)SQL";

std::filesystem::path parentOf(const std::string& path) { return std::filesystem::path(path).parent_path(); }

TuningRecord readRecord(sql::Statement& row) {
  TuningRecord r;
  r.workload = row.columnText(0);
  r.target = row.columnText(1);
  r.trace = row.columnText(2);
  r.hash = row.columnText(3);
  r.status = statusFromName(row.columnText(4)).value_or(TrialStatus::RuntimeError);
  r.error = row.columnText(5);
  r.latencyMs = row.columnIsNull(6) ? 0 : row.columnDouble(6);
  nlohmann::json runs = nlohmann::json::parse(row.columnText(7), nullptr, false);
  if (runs.is_array())
    for (const auto& v : runs)
      if (v.is_number()) r.runMs.push_back(v.get<double>());
  r.gflops = row.columnIsNull(8) ? 0 : row.columnDouble(8);
  r.maxAbsError = row.columnIsNull(9) ? 0 : row.columnDouble(9);
  r.search = row.columnText(10);
  r.seed = static_cast<uint64_t>(row.columnInt(11));
  r.trial = row.columnInt(12);
  r.buildSeconds = row.columnIsNull(13) ? 0 : row.columnDouble(13);
  return r;
}

constexpr const char* kSelect =
    "SELECT w.key, r.target, r.trace, r.hash, r.status, r.error, r.latency_ms, r.run_ms, r.gflops, r.max_abs_err, "
    "r.search, r.seed, r.trial, r.build_seconds FROM record r JOIN workload w ON w.id = r.workload_id ";

// The directory first: the default path's may not exist yet.
std::string withDirectory(const std::string& path) {
  if (path == ":memory:" || parentOf(path).empty()) return path;
  std::error_code ec;
  std::filesystem::create_directories(parentOf(path), ec);
  if (ec) throw errorInFile(path, "cannot create its directory: " + ec.message());
  return path;
}

} // namespace

TuningDatabase::TuningDatabase(const std::string& path)
    : db_(std::make_unique<sql::Database>(withDirectory(path), sql::Database::Mode::Create)) {
  const int64_t applicationId = db_->queryInt("PRAGMA application_id");
  const int64_t version = db_->queryInt("PRAGMA user_version");
  if (version == 0 && applicationId == 0 && db_->queryInt("SELECT count(*) FROM sqlite_master") > 0)
    throw errorInFile(path, "is not a Tessera tuning database (it holds other tables)");
  if (applicationId != 0 && applicationId != kApplicationId)
    throw errorInFile(path, "is not a Tessera tuning database (SQLite application_id " + std::to_string(applicationId) + ")");
  if (version > kSchemaVersion)
    throw errorInFile(path, "was written by a newer Tessera (tuning schema " + std::to_string(version) + " > " +
                                std::to_string(kSchemaVersion) + ")");
  // Each migration with its version bump in one transaction, checked again inside it: another
  // process may have migrated the file meanwhile.
  if (version < 1) {
    sql::Transaction transaction(*db_);
    if (db_->queryInt("PRAGMA user_version") < 1) {
      db_->execute(kSchemaV1);
      db_->execute("PRAGMA application_id=" + std::to_string(kApplicationId));
      db_->execute("PRAGMA user_version=1");
    }
    transaction.commit();
  }
  if (version < 2) {
    sql::Transaction transaction(*db_);
    if (db_->queryInt("PRAGMA user_version") < 2) {
      db_->execute(kSchemaV2);
      db_->execute("PRAGMA user_version=2");
    }
    transaction.commit();
  }
}

TuningDatabase::~TuningDatabase() = default;

bool TuningDatabase::add(const TuningRecord& record) {
  sql::Transaction transaction(*db_);
  sql::Statement(*db_, "INSERT OR IGNORE INTO workload(key) VALUES (?)").bind(1, record.workload).run();
  sql::Statement insert(*db_,
                        "INSERT OR IGNORE INTO record(workload_id, target, trace, hash, status, error, latency_ms, run_ms, "
                        "gflops, max_abs_err, search, seed, trial, build_seconds) "
                        "SELECT id, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM workload WHERE key = ?");
  const bool ok = record.status == TrialStatus::Ok;
  insert.bind(1, record.target).bind(2, record.trace).bind(3, record.hash).bind(4, statusName(record.status)).bind(5, record.error);
  if (ok) insert.bind(6, record.latencyMs).bind(8, record.gflops);
  else insert.bindNull(6).bindNull(8);
  insert.bind(7, nlohmann::json(record.runMs).dump()).bind(9, record.maxAbsError).bind(10, record.search);
  insert.bind(11, static_cast<int64_t>(record.seed)).bind(12, record.trial).bind(13, record.buildSeconds).bind(14, record.workload);
  insert.run();
  const bool added = db_->changes() > 0;
  transaction.commit();
  return added;
}

bool TuningDatabase::contains(const std::string& workload, const std::string& target, const std::string& hash) const {
  sql::Statement query(*db_, "SELECT 1 FROM record r JOIN workload w ON w.id = r.workload_id WHERE w.key = ? AND r.target = ? AND r.hash = ?");
  query.bind(1, workload).bind(2, target).bind(3, hash);
  return query.step();
}

std::vector<TuningRecord> TuningDatabase::records(const std::string& workload, const std::string& target) const {
  sql::Statement query(*db_, std::string(kSelect) + "WHERE (?1 = '' OR w.key = ?1) AND (?2 = '' OR r.target = ?2) ORDER BY r.id");
  query.bind(1, workload).bind(2, target);
  std::vector<TuningRecord> result;
  while (query.step()) result.push_back(readRecord(query));
  return result;
}

std::vector<std::string> TuningDatabase::workloads() const {
  sql::Statement query(*db_, "SELECT key FROM workload WHERE EXISTS (SELECT 1 FROM record WHERE workload_id = workload.id) ORDER BY id");
  std::vector<std::string> keys;
  while (query.step()) keys.push_back(query.columnText(0));
  return keys;
}

std::optional<TuningRecord> TuningDatabase::best(const std::string& workload, const std::string& target) const {
  sql::Statement query(*db_, std::string(kSelect) + "WHERE w.key = ? AND r.target = ? AND r.status = 'ok' ORDER BY r.latency_ms LIMIT 1");
  query.bind(1, workload).bind(2, target);
  if (!query.step()) return std::nullopt;
  return readRecord(query);
}

std::vector<std::string> TuningDatabase::targets() const {
  sql::Statement query(*db_, "SELECT DISTINCT target FROM record WHERE status = 'ok' ORDER BY target");
  std::vector<std::string> result;
  while (query.step()) result.push_back(query.columnText(0));
  return result;
}

std::vector<TuningRecord> TuningDatabase::bestRecords(const std::string& target) const {
  std::vector<TuningRecord> result;
  sql::Statement workloads(*db_, "SELECT DISTINCT w.key FROM record r JOIN workload w ON w.id = r.workload_id "
                                 "WHERE r.target = ? AND r.status = 'ok' ORDER BY w.key");
  workloads.bind(1, target);
  while (workloads.step())
    if (std::optional<TuningRecord> record = best(workloads.columnText(0), target)) result.push_back(std::move(*record));
  return result;
}

void TuningDatabase::storeChoice(const KernelChoice& c) {
  sql::Statement(*db_, "INSERT OR REPLACE INTO kernel_choice(target, signature, hash, tuned_ms, library_ms) VALUES (?, ?, ?, ?, ?)")
      .bind(1, c.target)
      .bind(2, c.signature)
      .bind(3, c.hash)
      .bind(4, c.tunedMs)
      .bind(5, c.libraryMs)
      .run();
}

namespace {

constexpr const char* kSelectChoice = "SELECT target, signature, hash, tuned_ms, library_ms FROM kernel_choice ";

KernelChoice readChoice(sql::Statement& row) {
  return {row.columnText(0), row.columnText(1), row.columnText(2), row.columnDouble(3), row.columnDouble(4)};
}

} // namespace

std::optional<KernelChoice> TuningDatabase::choice(const std::string& target, const std::string& signature,
                                                   const std::string& hash) const {
  sql::Statement query(*db_, std::string(kSelectChoice) + "WHERE target = ? AND signature = ? AND hash = ?");
  query.bind(1, target).bind(2, signature).bind(3, hash);
  if (!query.step()) return std::nullopt;
  return readChoice(query);
}

std::vector<KernelChoice> TuningDatabase::choices(const std::string& target) const {
  sql::Statement query(*db_, std::string(kSelectChoice) + "WHERE ?1 = '' OR target = ?1 ORDER BY signature, target");
  query.bind(1, target);
  std::vector<KernelChoice> result;
  while (query.step()) result.push_back(readChoice(query));
  return result;
}

std::string TuningDatabase::exportJsonLines(const std::string& workload) const {
  std::string lines;
  for (const TuningRecord& r : records(workload)) {
    nlohmann::json trace = nlohmann::json::parse(r.trace, nullptr, false);
    nlohmann::json line{{"workload", r.workload},   {"target", r.target},     {"trace", trace.is_discarded() ? nlohmann::json(r.trace) : trace},
                        {"hash", r.hash},           {"status", statusName(r.status)}, {"error", r.error},
                        {"latency_ms", r.latencyMs}, {"run_ms", r.runMs},      {"gflops", r.gflops},
                        {"max_abs_err", r.maxAbsError}, {"search", r.search}, {"seed", r.seed},
                        {"trial", r.trial},         {"build_seconds", r.buildSeconds}};
    lines += line.dump() + "\n";
  }
  return lines;
}

std::string defaultTuningDatabasePath() {
  if (const char* explicitPath = std::getenv("TESSERA_TUNING_DB"); explicitPath && *explicitPath) return explicitPath;
  std::filesystem::path directory = parentOf(defaultCostCachePath());
  if (directory.empty()) directory = "."; // a cost cache named without a directory is in the working one
  return (directory / "tuning.sqlite").string();
}

} // namespace tessera::tune
