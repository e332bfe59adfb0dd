// Cost models (MetaSchedule's cost_model): learn from measured candidates' features how fast an
// unmeasured one will be, so the search measures only the promising ones. A score is normalised
// throughput: the best latency measured for the workload over the candidate's (1 = as fast as the
// best, 0 = failed or very slow).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tessera::tune {

using FeatureRows = std::vector<std::vector<float>>;

class CostModel {
public:
  virtual ~CostModel() = default;
  virtual std::string name() const = 0;
  // Retrains on all the samples measured so far (rows of equal length, one score each).
  virtual void fit(const FeatureRows& features, const std::vector<float>& scores) = 0;
  // One predicted score per row; meaningless (but valid) before the first fit().
  virtual std::vector<float> predict(const FeatureRows& features) const = 0;
  virtual bool trained() const = 0;
};

// Whether this build has the XGBoost model (Debian's libxgboost-dev at configure time).
bool xgboostAvailable();

// The XGBoost model, seeded; throws tessera::Error saying what is missing when the build has none.
std::unique_ptr<CostModel> makeXGBoostModel(uint64_t seed);

} // namespace tessera::tune
