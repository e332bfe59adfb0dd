// Tuning records in SQLite (a tuning database file, or in memory): one row per measured
// candidate, keyed by workload and target and deduplicated by the kernel's structural hash, with
// everything an evolutionary search and a cost model need later (the trace with its decisions,
// each repeat's time, the outcome). Exportable as JSON lines, one record a line.
#pragma once

#include "tune/TrialStatus.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tessera::sql {
class Database;
}

namespace tessera::tune {

struct TuningRecord {
  std::string workload; // Workload::key()
  std::string target;   // the machine and thread count the times belong to
  std::string trace;    // traceToJson
  std::string hash;     // structural hash of the generated kernel
  TrialStatus status = TrialStatus::Ok;
  std::string error;
  double latencyMs = 0; // median of the repeats (Ok only)
  std::vector<double> runMs;
  double gflops = 0;
  double maxAbsError = 0;
  std::string search; // the strategy that proposed it
  uint64_t seed = 0;
  int64_t trial = 0; // 1-based position in its tuning run
  double buildSeconds = 0;
};

class TuningDatabase {
public:
  static constexpr int64_t kApplicationId = 0x5454554E; // "TTUN"
  static constexpr int64_t kSchemaVersion = 1;

  // ":memory:" for a database that lives as long as the object. A file of another application or
  // a newer schema is refused with tessera::Error naming the file.
  explicit TuningDatabase(const std::string& path);
  ~TuningDatabase();
  TuningDatabase(const TuningDatabase&) = delete;
  TuningDatabase& operator=(const TuningDatabase&) = delete;

  // False (and nothing stored) when a record with the same workload, target and hash exists.
  bool add(const TuningRecord& record);
  bool contains(const std::string& workload, const std::string& target, const std::string& hash) const;
  // In insertion order; an empty workload or target matches all.
  std::vector<TuningRecord> records(const std::string& workload = {}, const std::string& target = {}) const;
  // The workloads that have records, in the order their first record was added.
  std::vector<std::string> workloads() const;
  // The fastest verified record.
  std::optional<TuningRecord> best(const std::string& workload, const std::string& target) const;
  // One JSON object per line (keys as TuningRecord's fields, the trace as an object).
  std::string exportJsonLines(const std::string& workload = {}) const;

private:
  std::unique_ptr<sql::Database> db_;
};

} // namespace tessera::tune
