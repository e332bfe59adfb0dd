// The XGBoost cost model (MetaSchedule's XGBModel) through XGBoost's C API: gradient-boosted
// trees regressing normalised throughput on the feature vector, retrained from scratch on every
// fit(). Built only when libxgboost-dev was found; CostModel.h's factory says when it was not.
#pragma once

#include "tune/CostModel.h"

#include <cstdint>

namespace tessera::tune {

struct XGBoostOptions {
  // MetaSchedule's defaults (up to 10,000 boosting rounds, stopped once the training set's rmse
  // has not improved for 50), except the weighting: MetaSchedule weights each sample's squared
  // error by its score (PackSum's objective), so failures and slow kernels count for nothing; on
  // this tuner's records (six 200-trial random runs, trained on the first 16-144, ranking the
  // rest) that lowered the held-out Spearman from 0.45-0.62 to 0.39-0.47 and put fewer of the
  // best 10 % into the predicted top 16, and an evolutionary search then breeds from kernels the
  // model never learned were slow. weightByScore turns it on.
  int maxDepth = 10;
  double gamma = 0.001;
  double minChildWeight = 0;
  double eta = 0.2;
  int maxRounds = 10000;
  int earlyStoppingRounds = 50;
  bool weightByScore = false;
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
  // Boosting rounds of the last fit(), where early stopping ended it.
  int lastRounds() const { return lastRounds_; }

private:
  XGBoostOptions options_;
  void* booster_ = nullptr; // BoosterHandle, kept out of this header
  size_t columns_ = 0;
  int lastRounds_ = 0;
};

} // namespace tessera::tune
