// Tuning records in SQLite (a tuning database file, or in memory): one row per measured
// candidate, keyed by workload and target and deduplicated by the kernel's structural hash, with
// everything an evolutionary search and a cost model need later (the trace with its decisions,
// each repeat's time, the outcome). Exportable as JSON lines, one record a line. It also keeps,
// per op signature, whether the CPU backend timed the tuned kernel faster than its library's op
// (the choice the cost model priced and the executor follows).
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
  std::string target;   // the machine, thread count and runner (cpuTarget) the times belong to
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

// One op signature's two timings on a target: its best tuned kernel (by hash) against the op the
// backend runs otherwise (oneDNN's primitive, or the interpreter's kernel).
struct KernelChoice {
  std::string target;
  std::string signature; // OpSignature::key()
  std::string hash;      // the tuned kernel's structural hash
  double tunedMs = 0;
  double libraryMs = 0;
  bool tunedFaster() const { return tunedMs < libraryMs; }
};

class TuningDatabase {
public:
  static constexpr int64_t kApplicationId = 0x5454554E; // "TTUN"
  // 1: records; 2: kernel choices.
  static constexpr int64_t kSchemaVersion = 2;

  // ":memory:" for a database that lives as long as the object; a file's directory is created. A
  // file of another application or a newer schema is refused with tessera::Error naming the file.
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
  // The targets with verified records, sorted.
  std::vector<std::string> targets() const;
  // The fastest verified record of each workload tuned on `target`, by workload.
  std::vector<TuningRecord> bestRecords(const std::string& target) const;

  // Replaces the choice for (target, signature, hash).
  void storeChoice(const KernelChoice& choice);
  std::optional<KernelChoice> choice(const std::string& target, const std::string& signature, const std::string& hash) const;
  // Every choice on `target` (empty: all), by signature.
  std::vector<KernelChoice> choices(const std::string& target = {}) const;
  // One JSON object per line (keys as TuningRecord's fields, the trace as an object).
  std::string exportJsonLines(const std::string& workload = {}) const;

private:
  std::unique_ptr<sql::Database> db_;
};

// Where tuning records live unless a command is told otherwise: $TESSERA_TUNING_DB, else
// tuning.sqlite in the cost cache's directory (defaultCostCachePath(): ~/.cache/tessera by
// default), so what `tessera-cli tune` finds is what measured:cpu prices and runs.
std::string defaultTuningDatabasePath();

} // namespace tessera::tune
