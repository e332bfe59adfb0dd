// A cost model that times ops on a device (TASO): each distinct signature is measured once per
// device and kept in the cost cache, so a later run measures nothing. Ops the backend cannot run,
// and every op after the device fails, are estimated by a fallback model; the counts say how many.
// Only views are free (runsAsView: data views, and contiguous splits where the backend slices them):
// layout ops that copy (Transpose, Concat, other splits, ...) are timed as the backend runs them.
// When the cache holds a latency calibration for the device, costMs is the
// calibrated figure (measured op + its share of dispatch and data movement in a whole graph).
// A timing taken while the host is busy (support/HostLoad.h) is used for this run only, never kept
// in the cache, where every later run would reuse it.
#pragma once

#include "cost/CostModel.h"
#include "cost/LatencyCalibration.h"
#include "cost/OpProfiler.h"
#include "support/HostLoad.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace tessera {

class CostCache;

struct MeasurementStats {
  size_t cacheHits = 0;
  size_t measured = 0;
  size_t estimated = 0;           // answered by the fallback model
  double measureSeconds = 0;      // wall time spent measuring
  size_t keptOutOfCache = 0;      // measured while the host was busy: used for this run only
  std::map<std::string, size_t> estimatedOps; // op name -> estimated signatures
  std::string deviceFailure;      // why measuring stopped, empty while the device works
};

class MeasuredCostModel final : public CostModel {
public:
  using Warning = std::function<void(const std::string&)>;

  // `cache` may be null (measure every signature once per process). `warn` hears, once, that the
  // device failed and the fallback takes over.
  MeasuredCostModel(std::string spec, std::unique_ptr<OpProfiler> profiler, std::shared_ptr<CostCache> cache,
                    std::unique_ptr<CostModel> fallback, Warning warn = {});
  ~MeasuredCostModel() override;

  double costMs(const OpSignature& signature) override;
  std::string spec() const override { return spec_; }
  // The op's own timing (or the fallback's estimate), without the calibration.
  double measuredMs(const OpSignature& signature);

  const std::optional<LatencyCalibration>& calibration() const { return calibration_; }
  // Replaces the calibration loaded from the cache (nullopt: plain op timings) for this model only.
  void setCalibration(std::optional<LatencyCalibration> calibration) { calibration_ = std::move(calibration); }

  // Reads how busy the host is when a timing is taken: a busy host's timing stays out of the cache,
  // and `warn` hears that once (at once when the host is busy already). Unset (the default, and a
  // GPU's backend): the host's load does not decide what is cached.
  using HostLoadReading = std::function<std::optional<HostLoad>()>;
  void setHostLoadReading(HostLoadReading reading);

  // Hears, every couple of seconds while signatures are being measured (a first run on a machine,
  // before the cost cache holds them), how many are done: a long measuring phase shows progress.
  void setProgress(std::function<void(const std::string&)> progress) { progress_ = std::move(progress); }

  const std::string& device() const { return device_; }
  const MeasurementStats& stats() const { return stats_; }
  // The device's figures this model answered with (measured now or found in the cache); estimates
  // are left out. A session stores them next to the run that used them.
  DeviceCosts deviceCosts() const override { return {device_, deviceCosts_}; }
  double measuringSeconds() const override { return stats_.measureSeconds; }
  bool wouldTime(const OpSignature& signature) override;
  bool foldedIntoProducer(const OpSignature& producer, const OpSignature& op) const override {
    return profiler_->foldedIntoProducer(producer, op);
  }
  bool slicesContiguousSplits() const override { return profiler_->slicesContiguousSplits(); }
  const CostModel& fallback() const { return *fallback_; }
  // One line: "measured:cpu on cpu:X: 12 measured in 3.1 s, 30 cache hits, 2 estimated by ... (Erf 1, Gather 1)".
  std::string summary() const;

private:
  double estimate(const OpSignature& signature);
  // The figure this model answered before or the cost cache holds (taken into its answers), if any.
  std::optional<double> knownMs(const std::string& key);
  // Whether a timing taken now may go to the cache; says once why not.
  bool hostQuietEnoughToCache();

  std::string spec_;
  std::unique_ptr<OpProfiler> profiler_;
  std::shared_ptr<CostCache> cache_;
  std::unique_ptr<CostModel> fallback_;
  Warning warn_;
  std::function<void(const std::string&)> progress_;
  HostLoadReading hostLoad_;
  bool busyHostSaid_ = false;
  double reportedAtSeconds_ = 0; // stats_.measureSeconds at the last progress line
  std::string device_;
  // Answers of this process, so repeated signatures stay deterministic without a cache.
  std::map<std::string, double> answered_;
  std::map<std::string, double> deviceCosts_;
  MeasurementStats stats_;
  std::optional<LatencyCalibration> calibration_;
};

} // namespace tessera
