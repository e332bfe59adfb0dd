// Measured op costs kept in SQLite, keyed by device and op signature, so each signature is
// measured once per device (TASO). A cached model answers from the cache and measures only misses.
// Each device may also have a latency calibration (LatencyCalibration.h) fitted to its op costs.
#pragma once

#include "cost/CostModel.h"
#include "cost/LatencyCalibration.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tessera {

namespace sql {
class Database;
}

class CostCache {
public:
  // Opens or creates the cache file. Throws tessera::Error if it is not a Tessera cost cache or
  // was written by a newer version.
  explicit CostCache(const std::string& path);
  ~CostCache();

  std::optional<double> lookup(const std::string& device, const std::string& signature);
  void store(const std::string& device, const std::string& signature, double ms);
  // Several measurements in one transaction (an imported table).
  void storeAll(const std::string& device, const std::vector<std::pair<std::string, double>>& costs);
  size_t size(const std::string& device);
  // Every signature measured on `device` with its cost, sorted by signature.
  std::vector<std::pair<std::string, double>> entries(const std::string& device);
  // The devices with measurements, sorted.
  std::vector<std::string> devices();
  const std::string& path() const;

  // What forget() removed.
  struct Forgotten {
    size_t opCosts = 0;
    bool calibration = false;
  };
  // Removes `device`'s op costs measured before `before` (a UTC date or time as SQLite reads it:
  // "2026-11-28", "2026-11-28 14:00"), or all of them without it, and its latency calibration if it
  // was fitted before then: a calibration is fitted to the op costs, so it goes with them. Timings
  // taken while a machine was busy (before the guard kept them out) are what this is for. Throws
  // tessera::Error naming the cache for a device it does not hold or a time it cannot read.
  Forgotten forget(const std::string& device, const std::optional<std::string>& before);

  std::optional<LatencyCalibration> calibration(const std::string& device);
  // Replaces the device's calibration.
  void storeCalibration(const std::string& device, const LatencyCalibration& calibration);

  // 1: op costs; 2: latency calibrations.
  static constexpr int kSchemaVersion = 2;

private:
  std::unique_ptr<sql::Database> db_;
};

// The default location: $TESSERA_COST_CACHE, else $XDG_CACHE_HOME/tessera/costs.sqlite, else
// ~/.cache/tessera/costs.sqlite.
std::string defaultCostCachePath();

class CachedCostModel final : public CostModel {
public:
  // `device` keys the cache (e.g. "cuda:NVIDIA H200"); `measured` answers the misses.
  CachedCostModel(std::unique_ptr<CostModel> measured, std::shared_ptr<CostCache> cache, std::string device);
  double costMs(const OpSignature& signature) override;
  std::string spec() const override { return measured_->spec(); }
  bool foldedIntoProducer(const OpSignature& producer, const OpSignature& op) const override {
    return measured_->foldedIntoProducer(producer, op);
  }
  bool slicesContiguousSplits() const override { return measured_->slicesContiguousSplits(); }
  double measuringSeconds() const override { return measured_->measuringSeconds(); }
  size_t hits() const { return hits_; }
  size_t misses() const { return misses_; }

private:
  std::unique_ptr<CostModel> measured_;
  std::shared_ptr<CostCache> cache_;
  std::string device_;
  size_t hits_ = 0;
  size_t misses_ = 0;
};

} // namespace tessera
