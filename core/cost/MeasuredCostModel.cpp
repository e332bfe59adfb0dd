#include "cost/MeasuredCostModel.h"

#include "cost/CostCache.h"
#include "cost/GraphCost.h"
#include "support/Error.h"

#include <chrono>
#include <cstdio>

namespace tessera {

MeasuredCostModel::MeasuredCostModel(std::string spec, std::unique_ptr<OpProfiler> profiler, std::shared_ptr<CostCache> cache,
                                     std::unique_ptr<CostModel> fallback, Warning warn)
    : spec_(std::move(spec)), profiler_(std::move(profiler)), cache_(std::move(cache)), fallback_(std::move(fallback)),
      warn_(std::move(warn)), device_(profiler_->device()) {
  if (cache_) calibration_ = cache_->calibration(device_);
}

MeasuredCostModel::~MeasuredCostModel() = default;

double MeasuredCostModel::estimate(const OpSignature& signature) {
  ++stats_.estimated;
  ++stats_.estimatedOps[std::string(opName(signature.kind))];
  return fallback_->costMs(signature);
}

namespace {
constexpr double kProgressEverySeconds = 2.0;
} // namespace

void MeasuredCostModel::setHostLoadReading(HostLoadReading reading) {
  hostLoad_ = std::move(reading);
  (void)hostQuietEnoughToCache(); // a run that starts on a busy host says so before it measures
}

bool MeasuredCostModel::hostQuietEnoughToCache() {
  if (!hostLoad_) return true;
  const std::optional<HostLoad> load = hostLoad_();
  if (!load || !load->busy()) return true;
  if (!busyHostSaid_ && warn_) warn_(spec_ + ": " + busyHostNote(*load));
  busyHostSaid_ = true;
  return false;
}

double MeasuredCostModel::costMs(const OpSignature& signature) {
  if (runsAsView(*this, signature)) return 0.0; // the executor aliases the input's buffer
  const double ms = measuredMs(signature);
  return calibration_ ? calibration_->opCostMs(ms, signature) : ms;
}

double MeasuredCostModel::measuredMs(const OpSignature& signature) {
  if (runsAsView(*this, signature)) return 0.0;
  std::string key = signature.key();
  if (std::optional<double> known = knownMs(key)) return *known;
  if (!stats_.deviceFailure.empty() || !profiler_->canMeasure(signature)) return answered_[key] = estimate(signature);

  const auto start = std::chrono::steady_clock::now();
  auto countTime = [&] { stats_.measureSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  double ms = 0;
  try {
    ms = profiler_->measureMs(signature);
  } catch (const Error& e) {
    countTime();
    stats_.deviceFailure = e.what();
    if (warn_) warn_(spec_ + ": device " + device_ + " failed (" + stats_.deviceFailure + "); estimating every further op with " + fallback_->spec());
    return answered_[key] = estimate(signature);
  }
  countTime();
  ++stats_.measured;
  const bool cacheable = cache_ && hostQuietEnoughToCache();
  if (cache_ && !cacheable) ++stats_.keptOutOfCache;
  if (progress_ && stats_.measureSeconds - reportedAtSeconds_ >= kProgressEverySeconds) {
    reportedAtSeconds_ = stats_.measureSeconds;
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.0f", stats_.measureSeconds);
    progress_(spec_ + ": " + std::to_string(stats_.measured) + " op signatures measured in " + seconds +
              (cacheable ? " s (a first run on this machine: the cost cache keeps them for later runs)"
                         : " s (the machine is busy: they are used for this run only)"));
  }
  if (cacheable) cache_->store(device_, key, ms);
  deviceCosts_[key] = ms;
  return answered_[key] = ms;
}

std::optional<double> MeasuredCostModel::knownMs(const std::string& key) {
  if (auto it = answered_.find(key); it != answered_.end()) return it->second;
  if (!cache_) return std::nullopt;
  std::optional<double> cached = cache_->lookup(device_, key);
  if (cached) {
    ++stats_.cacheHits;
    deviceCosts_[key] = *cached;
    answered_[key] = *cached;
  }
  return cached;
}

bool MeasuredCostModel::wouldTime(const OpSignature& signature) {
  if (runsAsView(*this, signature) || knownMs(signature.key())) return false; // a cached figure is kept: costMs reads it next
  return stats_.deviceFailure.empty() && profiler_->canMeasure(signature);
}

std::string MeasuredCostModel::summary() const {
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.1f", stats_.measureSeconds);
  std::string line = spec_ + " on " + device_ + ": " + std::to_string(stats_.measured) + " signatures measured in " + seconds +
                     " s, " + std::to_string(stats_.cacheHits) + " cache hits, " + std::to_string(stats_.estimated) +
                     " estimated by " + fallback_->spec();
  if (!stats_.estimatedOps.empty()) {
    line += " (";
    bool first = true;
    for (const auto& [op, count] : stats_.estimatedOps) {
      line += (first ? "" : ", ") + op + " " + std::to_string(count);
      first = false;
    }
    line += ")";
  }
  if (stats_.keptOutOfCache > 0)
    line += "; " + std::to_string(stats_.keptOutOfCache) + " measured on a busy machine, kept out of the cost cache";
  if (!stats_.deviceFailure.empty()) line += "; device failed: " + stats_.deviceFailure;
  if (calibration_) line += "; calibrated to whole graphs: " + calibration_->describe();
  return line;
}

} // namespace tessera
