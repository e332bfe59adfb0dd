#include "cost/CostCache.h"

#include "support/Database.h"
#include "support/Error.h"

#include <cstdlib>
#include <filesystem>

namespace tessera {

namespace {
constexpr int64_t kApplicationId = 0x54455343; // "TESC"
} // namespace

CostCache::CostCache(const std::string& path) {
  std::error_code ec;
  auto parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  db_ = std::make_unique<sql::Database>(path, sql::Database::Mode::Create);
  int64_t applicationId = db_->queryInt("PRAGMA application_id");
  int64_t version = db_->queryInt("PRAGMA user_version");
  bool empty = db_->queryInt("SELECT count(*) FROM sqlite_master") == 0;
  if (!empty && applicationId != kApplicationId) throw errorInFile(path, "is not a Tessera cost cache");
  if (version > kSchemaVersion)
    throw errorInFile(path, "was written by a newer Tessera (cost cache schema " + std::to_string(version) + ", this build knows " +
                                std::to_string(kSchemaVersion) + ")");
  if (version == kSchemaVersion) return;
  // Each migration with its version bump in one transaction.
  if (version < 1) {
    sql::Transaction transaction(*db_);
    db_->execute("CREATE TABLE IF NOT EXISTS op_cost (device TEXT NOT NULL, signature TEXT NOT NULL, ms REAL NOT NULL,"
                 " measured_at TEXT NOT NULL DEFAULT (datetime('now')), PRIMARY KEY (device, signature))");
    db_->execute("PRAGMA application_id=" + std::to_string(kApplicationId));
    db_->execute("PRAGMA user_version=1");
    transaction.commit();
  }
  if (version < 2) {
    sql::Transaction transaction(*db_);
    db_->execute("CREATE TABLE IF NOT EXISTS latency_calibration (device TEXT PRIMARY KEY, op_scale REAL NOT NULL,"
                 " per_op_ms REAL NOT NULL, per_mib_ms REAL NOT NULL, graphs INTEGER NOT NULL, mape_pct REAL NOT NULL,"
                 " fitted_at TEXT NOT NULL DEFAULT (datetime('now')))");
    db_->execute("PRAGMA user_version=2");
    transaction.commit();
  }
}

std::optional<LatencyCalibration> CostCache::calibration(const std::string& device) {
  sql::Statement query(*db_, "SELECT op_scale, per_op_ms, per_mib_ms, graphs, mape_pct FROM latency_calibration WHERE device = ?");
  query.bind(1, device);
  if (!query.step()) return std::nullopt;
  return LatencyCalibration{query.columnDouble(0), query.columnDouble(1), query.columnDouble(2),
                            static_cast<size_t>(query.columnInt(3)), query.columnDouble(4)};
}

void CostCache::storeCalibration(const std::string& device, const LatencyCalibration& c) {
  sql::Statement insert(*db_, "INSERT OR REPLACE INTO latency_calibration (device, op_scale, per_op_ms, per_mib_ms, graphs, mape_pct)"
                              " VALUES (?, ?, ?, ?, ?, ?)");
  insert.bind(1, device).bind(2, c.opScale).bind(3, c.perOpMs).bind(4, c.perMiBMs).bind(5, static_cast<int64_t>(c.graphs))
      .bind(6, c.mapePct).run();
}

CostCache::~CostCache() = default;

const std::string& CostCache::path() const { return db_->path(); }

std::optional<double> CostCache::lookup(const std::string& device, const std::string& signature) {
  sql::Statement query(*db_, "SELECT ms FROM op_cost WHERE device = ? AND signature = ?");
  query.bind(1, device).bind(2, signature);
  if (!query.step()) return std::nullopt;
  return query.columnDouble(0);
}

void CostCache::store(const std::string& device, const std::string& signature, double ms) {
  sql::Statement insert(*db_, "INSERT OR REPLACE INTO op_cost (device, signature, ms) VALUES (?, ?, ?)");
  insert.bind(1, device).bind(2, signature).bind(3, ms).run();
}

void CostCache::storeAll(const std::string& device, const std::vector<std::pair<std::string, double>>& costs) {
  sql::Transaction transaction(*db_);
  sql::Statement insert(*db_, "INSERT OR REPLACE INTO op_cost (device, signature, ms) VALUES (?, ?, ?)");
  for (const auto& [signature, ms] : costs) {
    insert.bind(1, device).bind(2, signature).bind(3, ms).run(); // run() resets for the next row
  }
  transaction.commit();
}

std::vector<std::pair<std::string, double>> CostCache::entries(const std::string& device) {
  sql::Statement query(*db_, "SELECT signature, ms FROM op_cost WHERE device = ? ORDER BY signature");
  query.bind(1, device);
  std::vector<std::pair<std::string, double>> rows;
  while (query.step()) rows.emplace_back(query.columnText(0), query.columnDouble(1));
  return rows;
}

std::vector<std::string> CostCache::devices() {
  sql::Statement query(*db_, "SELECT DISTINCT device FROM op_cost ORDER BY device");
  std::vector<std::string> names;
  while (query.step()) names.push_back(query.columnText(0));
  return names;
}

size_t CostCache::size(const std::string& device) {
  sql::Statement query(*db_, "SELECT count(*) FROM op_cost WHERE device = ?");
  query.bind(1, device);
  query.step();
  return static_cast<size_t>(query.columnInt(0));
}

CostCache::Forgotten CostCache::forget(const std::string& device, const std::optional<std::string>& before) {
  const bool known = size(device) > 0 || calibration(device).has_value();
  if (!known) {
    std::string held;
    for (const std::string& d : devices()) held += "\n  " + d;
    throw errorInFile(path(), "holds no costs for device '" + device + "'" + (held.empty() ? std::string(" (it is empty)") : ":" + held));
  }
  // SQLite's own reading of the time, so what is compared is what measured_at holds.
  std::string cutoff = "9999-12-31 23:59:59";
  if (before) {
    sql::Statement normalised(*db_, "SELECT datetime(?)");
    normalised.bind(1, *before);
    normalised.step();
    if (normalised.columnIsNull(0))
      throw errorInFile(path(), "cannot forget costs before '" + *before + "': expected a UTC date or time such as 2026-11-28 or 2026-11-28 14:00");
    cutoff = normalised.columnText(0);
  }
  sql::Transaction transaction(*db_);
  Forgotten forgotten;
  sql::Statement costs(*db_, "DELETE FROM op_cost WHERE device = ? AND measured_at < ?");
  costs.bind(1, device).bind(2, cutoff).run();
  forgotten.opCosts = static_cast<size_t>(db_->changes());
  sql::Statement fitted(*db_, "DELETE FROM latency_calibration WHERE device = ? AND fitted_at < ?");
  fitted.bind(1, device).bind(2, cutoff).run();
  forgotten.calibration = db_->changes() > 0;
  transaction.commit();
  return forgotten;
}

std::string defaultCostCachePath() {
  if (const char* explicitPath = std::getenv("TESSERA_COST_CACHE"); explicitPath && *explicitPath) return explicitPath;
  std::filesystem::path base;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    base = xdg;
  else if (const char* home = std::getenv("HOME"); home && *home)
    base = std::filesystem::path(home) / ".cache";
  else
    base = std::filesystem::temp_directory_path();
  return (base / "tessera" / "costs.sqlite").string();
}

CachedCostModel::CachedCostModel(std::unique_ptr<CostModel> measured, std::shared_ptr<CostCache> cache, std::string device)
    : measured_(std::move(measured)), cache_(std::move(cache)), device_(std::move(device)) {}

double CachedCostModel::costMs(const OpSignature& signature) {
  std::string key = signature.key();
  if (std::optional<double> cached = cache_->lookup(device_, key)) {
    ++hits_;
    return *cached;
  }
  ++misses_;
  double ms = measured_->costMs(signature);
  cache_->store(device_, key, ms);
  return ms;
}

} // namespace tessera
