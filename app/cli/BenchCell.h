// One cell of `bench`: one model, one strategy, one seed, run by core's runModel with the settings
// every cell shares, and the row it gives. A launcher runs cells as shards (locally or under
// Slurm); the command combines the rows of a model and strategy over seeds into its table.
#pragma once

#include "ir/Graph.h"
#include "run/RunModel.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tessera::cli {

struct BenchModel {
  std::string name;
  std::string path;  // the model's file; empty for a model of a built-in suite
  std::string suite; // the built-in suite it was built from ("corrected", "tensat"); empty for a file
  Graph graph;
};

// What every cell of one bench shares: core's defaults unless the command line says otherwise.
struct BenchSettings {
  std::string cost = defaultCostSpec();
  SearchOptions search; // its seed is the first seed; parameters are not used (see `parameters`)
  std::vector<std::string> parameters; // [STRATEGY.]NAME=VALUE
  std::string session; // record every run here; empty: not recorded
  bool verify = true;
  int verifyTrials = 1;
  bool endToEnd = false; // do no harm, as optimize does, on the measured backend
  EndToEndSettings endToEndSettings;
};

// One model and strategy: one run, or the mean over seeds (with the per-seed speedups).
struct BenchRow {
  std::string model, strategy;
  double originalMs = 0, optimizedMs = 0, speedupPct = 0, seconds = 0;
  size_t enodes = 0;
  int steps = 0;
  std::string stopReason;
  bool verificationRun = false, verified = false;
  double noiseToSignal = 0; // the verification's, the largest over seeds
  // With do no harm: the candidate timed against the original in interleaved pairs (medians, paired
  // speedup), and the speedup of what optimize returns (0 when it keeps the original).
  std::optional<double> e2eOriginalMs, e2eCandidateMs, e2eCandidatePct, e2eReturnedPct;
  int keptOriginal = 0;    // runs whose candidate was not faster end to end
  std::string e2eMismatch; // why a run's graphs were not timed (an executor computes one wrong, or none could run)
  std::string error;
  std::vector<double> seedSpeedups; // one per seed, in seed order
  double speedupStd = 0;            // sample standard deviation over seeds (0 for one seed)
  double secondsMax = 0;
  std::optional<bool> inSample; // an agent's or guide's row: whether it trained on the model (SearchResult::inSample)
};

// The plan of one cell: what optimize would run for the same model, strategy, seed and settings.
RunPlan benchPlan(const BenchSettings& settings, const BenchModel& model, const std::string& strategy, uint64_t seed);

// Runs one cell; an error is kept in the row (and marked failed in the session), never thrown.
BenchRow runBenchCell(const BenchSettings& settings, const BenchModel& model, const std::string& strategy, uint64_t seed,
                      const RunBackends& backends);

// The cells of one model and strategy, one per seed, as one row: means, the speedup's spread, the
// slowest run's time; verified only when every run verified; the first error fails the row.
BenchRow combineSeeds(const std::vector<BenchRow>& runs);

// The row as bench --json writes it.
nlohmann::json benchRowJson(const BenchRow& row);
// The inverse, for a cell run as a launched shard (one seed); throws nlohmann::json::exception for
// a row that lacks a key.
BenchRow benchRowFromJson(const nlohmann::json& json);

} // namespace tessera::cli
