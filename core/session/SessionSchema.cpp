#include "session/SessionSchema.h"

#include "support/Database.h"
#include "support/Error.h"

#include <array>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>

namespace tessera::session_schema {

namespace {

struct Migration {
  int version;
  std::string_view sql;
};

// Blobs are the last column of their rows so that listings which skip them never read the
// overflow pages they live on.
constexpr std::array kMigrations = {
    Migration{1, R"sql(
CREATE TABLE models (
  id INTEGER PRIMARY KEY, name TEXT NOT NULL, source_path TEXT NOT NULL, op_count INTEGER NOT NULL,
  added_at REAL NOT NULL, onnx BLOB NOT NULL);
CREATE TABLE runs (
  id INTEGER PRIMARY KEY, model_id INTEGER NOT NULL REFERENCES models(id) ON DELETE CASCADE,
  strategy TEXT NOT NULL, parameters TEXT NOT NULL, seed INTEGER NOT NULL, cost_spec TEXT NOT NULL,
  started_at REAL NOT NULL, finished_at REAL, stop_reason TEXT, original_cost_ms REAL, best_cost_ms REAL,
  speedup_pct REAL, enodes INTEGER, eclasses INTEGER, steps INTEGER, verified INTEGER);
CREATE TABLE events (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, sequence INTEGER NOT NULL,
  seconds REAL NOT NULL, kind TEXT NOT NULL, payload TEXT NOT NULL,
  PRIMARY KEY (run_id, sequence)) WITHOUT ROWID;
CREATE TABLE candidates (
  id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, idx INTEGER NOT NULL,
  cost_ms REAL NOT NULL, method TEXT NOT NULL, step INTEGER NOT NULL, op_count INTEGER NOT NULL,
  onnx BLOB NOT NULL, UNIQUE (run_id, idx));
CREATE TABLE node_origins (
  candidate_id INTEGER NOT NULL REFERENCES candidates(id) ON DELETE CASCADE, node_index INTEGER NOT NULL,
  node_name TEXT NOT NULL, rule TEXT NOT NULL, step INTEGER NOT NULL,
  PRIMARY KEY (candidate_id, node_index)) WITHOUT ROWID;
)sql"},
    // Decisions get a table of their own (a v1 file keeps them only in its event log, from which
    // they are copied), and measured op costs travel with the session.
    Migration{2, R"sql(
CREATE TABLE decisions (
  id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  step INTEGER NOT NULL, kind TEXT NOT NULL, rule TEXT NOT NULL, seconds REAL NOT NULL);
CREATE INDEX decisions_by_run ON decisions (run_id);
INSERT INTO decisions (run_id, step, kind, rule, seconds)
  SELECT run_id, json_extract(payload, '$.s'), json_extract(payload, '$.k'), json_extract(payload, '$.r'), seconds
  FROM events WHERE kind = 'user_decision' ORDER BY run_id, sequence;
CREATE TABLE op_costs (
  device TEXT NOT NULL, signature TEXT NOT NULL, ms REAL NOT NULL,
  PRIMARY KEY (device, signature)) WITHOUT ROWID;
)sql"},
    // No table changes: event logs may now hold egraph_rebased events (an MCTS run that rebased a
    // full e-graph), which an older Tessera could not replay, so it must refuse the file up front.
    Migration{3, "-- egraph_rebased events\n"},
    // Whether an agent's (or a guided search's) checkpoint trained on the run's model, so that a
    // reopened session says which figures are in-sample. NULL: not known or not an agent's run.
    Migration{4, "ALTER TABLE runs ADD COLUMN in_sample INTEGER;\n"},
};
static_assert(kMigrations.back().version == kCurrentVersion, "the last migration defines the current version");

constexpr size_t kHeaderSize = 100;
constexpr std::string_view kSqliteMagic{"SQLite format 3\0", 16};

uint32_t bigEndian(const std::string& bytes, size_t offset, size_t width) {
  uint32_t value = 0;
  for (size_t i = 0; i < width; ++i) value = (value << 8) | static_cast<unsigned char>(bytes[offset + i]);
  return value;
}

std::string hex(int64_t value) {
  std::ostringstream out;
  out << "0x" << std::hex << value;
  return out.str();
}

// The checks the 100-byte header allows before SQLite sees the file. With a write-ahead log next
// to the file the header may lag behind the log, so only the read-only connection decides then.
void checkHeader(const std::string& path, bool hasLog) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw errorInFile(path, "no such session file");
  if (std::filesystem::is_directory(path, ec)) throw errorInFile(path, "is a directory, not a session file");
  uintmax_t fileSize = std::filesystem::file_size(path, ec);
  if (ec) throw errorInFile(path, "cannot read: " + ec.message());
  if (fileSize == 0) throw errorInFile(path, "is empty, not a Tessera session");

  std::ifstream in(path, std::ios::binary);
  std::string header(kHeaderSize, '\0');
  if (!in) throw errorInFile(path, "cannot be opened for reading");
  in.read(header.data(), static_cast<std::streamsize>(kHeaderSize));
  if (static_cast<size_t>(in.gcount()) < kHeaderSize || header.compare(0, kSqliteMagic.size(), kSqliteMagic) != 0)
    throw errorInFile(path, "is not a Tessera session (not an SQLite database)");

  uint32_t pageSize = bigEndian(header, 16, 2);
  if (pageSize == 1) pageSize = 65536;
  if (pageSize < 512 || (pageSize & (pageSize - 1)) != 0)
    throw errorInFile(path, "is corrupt (page size " + std::to_string(pageSize) + ")");
  if (hasLog) return;

  uint32_t changeCounter = bigEndian(header, 24, 4);
  uint32_t pageCount = bigEndian(header, 28, 4);
  uint32_t validFor = bigEndian(header, 92, 4);
  uintmax_t expected = static_cast<uintmax_t>(pageSize) * pageCount;
  if (validFor == changeCounter && pageCount > 0 && fileSize < expected)
    throw errorInFile(path, "is truncated (" + std::to_string(fileSize) + " of " + std::to_string(expected) + " bytes)");
  if (fileSize % pageSize != 0) throw errorInFile(path, "is truncated (not a whole number of pages)");

  int64_t applicationId = static_cast<int32_t>(bigEndian(header, 68, 4));
  if (applicationId != kApplicationId)
    throw errorInFile(path, "is not a Tessera session (SQLite application_id " + hex(applicationId) + ")");
}

void checkTag(const std::string& path, int64_t applicationId, int64_t version) {
  if (applicationId != kApplicationId)
    throw errorInFile(path, "is not a Tessera session (SQLite application_id " + hex(applicationId) + ")");
  if (version > kCurrentVersion)
    throw errorInFile(path, "was written by a newer Tessera (schema " + std::to_string(version) + " > " +
                                std::to_string(kCurrentVersion) + ")");
  if (version < 0) throw errorInFile(path, "is corrupt (schema version " + std::to_string(version) + ")");
}

} // namespace

int checkFile(const std::string& path) {
  std::error_code ec;
  bool hasLog = std::filesystem::file_size(path + "-wal", ec) > 0 && !ec;
  checkHeader(path, hasLog);
  sql::Database db(path, sql::Database::Mode::ReadOnly);
  int64_t applicationId = db.queryInt("PRAGMA application_id");
  int64_t version = db.queryInt("PRAGMA user_version");
  checkTag(path, applicationId, version);
  // A damaged page shows here rather than half-way through a replay, and before anything is
  // written next to it. quick_check reads every page once (no index cross-checks): milliseconds.
  sql::Statement check(db, "PRAGMA quick_check");
  if (!check.step()) throw errorInFile(path, "is corrupt (quick_check returned nothing)");
  if (std::string verdict = check.columnText(0); verdict != "ok") throw errorInFile(path, "is corrupt (" + verdict + ")");
  return static_cast<int>(version);
}

void migrate(sql::Database& db, int target) {
  for (const Migration& migration : kMigrations) {
    if (migration.version > target) break;
    sql::Transaction transaction(db);
    // Read inside the write lock: another process may have migrated meanwhile.
    int64_t version = db.queryInt("PRAGMA user_version");
    if (version >= migration.version) continue;
    if (version != migration.version - 1)
      throw errorInFile(db.path(), "cannot migrate from schema " + std::to_string(version));
    db.execute(migration.sql);
    if (migration.version == 1) db.execute("PRAGMA application_id=" + std::to_string(kApplicationId));
    db.execute("PRAGMA user_version=" + std::to_string(migration.version));
    transaction.commit();
  }
}

} // namespace tessera::session_schema
