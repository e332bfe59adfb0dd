// The XGBoost cost model (MetaSchedule's XGBModel) through XGBoost's C API: gradient-boosted
// trees regressing normalised throughput on the feature vector, retrained from scratch on every
// fit(). Built only when libxgboost-dev was found; CostModel.h's factory says when it was not.
#pragma once

#include "tune/CostModel.h"

#include <cstdint>

namespace tessera::tune {

struct XGBoostOptions {
  // MetaSchedule's defaults, except the rounds: it boosts up to 10,000 with early stopping on the
  // training set's rmse; a fixed 100 fits the few hundred samples a tuning run measures.
  int maxDepth = 10;
  double gamma = 0.001;
  double minChildWeight = 0;
  double eta = 0.2;
  int rounds = 100;
  uint64_t seed = 1;
};

class XGBoostModel : public CostModel {
public:
  explicit XGBoostModel(XGBoostOptions options = {});
  ~XGBoostModel() override;
  XGBoostModel(const XGBoostModel&) = delete;
  XGBoostModel& operator=(const XGBoostModel&) = delete;

  std::string name() const override { return "xgboost"; }
  // Throws tessera::Error with XGBoost's message when it fails.
  void fit(const FeatureRows& features, const std::vector<float>& scores) override;
  std::vector<float> predict(const FeatureRows& features) const override;
  bool trained() const override { return booster_ != nullptr; }

private:
  XGBoostOptions options_;
  void* booster_ = nullptr; // BoosterHandle, kept out of this header
  size_t columns_ = 0;
};

} // namespace tessera::tune
