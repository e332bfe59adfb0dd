// The XGBoost model: RAII around the C API's DMatrix and Booster handles, every call checked.
#include "tune/XGBoostModel.h"

#include "support/Error.h"

#include <xgboost/c_api.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

namespace tessera::tune {

namespace {

void check(int status, const char* call) {
  if (status != 0) throw Error(std::string("xgboost: ") + call + " failed: " + XGBGetLastError());
}

struct MatrixDeleter {
  void operator()(void* handle) const { XGDMatrixFree(handle); }
};
using Matrix = std::unique_ptr<void, MatrixDeleter>;

struct BoosterDeleter {
  void operator()(void* handle) const { XGBoosterFree(handle); }
};
using Booster = std::unique_ptr<void, BoosterDeleter>;

Matrix toMatrix(const FeatureRows& rows, size_t columns) {
  std::vector<float> dense;
  dense.reserve(rows.size() * columns);
  for (const std::vector<float>& row : rows) {
    if (row.size() != columns)
      throw Error("xgboost: a feature row has " + std::to_string(row.size()) + " values, expected " + std::to_string(columns));
    dense.insert(dense.end(), row.begin(), row.end());
  }
  DMatrixHandle handle = nullptr;
  // NaN marks a missing value; the features never are.
  check(XGDMatrixCreateFromMat(dense.data(), rows.size(), columns, std::numeric_limits<float>::quiet_NaN(), &handle),
        "XGDMatrixCreateFromMat");
  return Matrix(handle);
}

} // namespace

XGBoostModel::XGBoostModel(XGBoostOptions options) : options_(options) {}

XGBoostModel::~XGBoostModel() {
  if (booster_) XGBoosterFree(booster_);
}

void XGBoostModel::fit(const FeatureRows& features, const std::vector<float>& scores) {
  if (features.empty()) throw Error("xgboost: nothing to fit");
  if (features.size() != scores.size())
    throw Error("xgboost: " + std::to_string(features.size()) + " feature rows but " + std::to_string(scores.size()) + " scores");
  const size_t columns = features.front().size();
  Matrix train = toMatrix(features, columns);
  check(XGDMatrixSetFloatInfo(train.get(), "label", scores.data(), scores.size()), "XGDMatrixSetFloatInfo");
  if (options_.weightByScore) check(XGDMatrixSetFloatInfo(train.get(), "weight", scores.data(), scores.size()), "XGDMatrixSetFloatInfo");
  DMatrixHandle matrices[] = {train.get()};
  BoosterHandle raw = nullptr;
  check(XGBoosterCreate(matrices, 1, &raw), "XGBoosterCreate");
  Booster booster(raw);
  auto set = [&](const char* name, const std::string& value) { check(XGBoosterSetParam(raw, name, value.c_str()), "XGBoosterSetParam"); };
  set("objective", "reg:squarederror");
  set("max_depth", std::to_string(options_.maxDepth));
  set("gamma", std::to_string(options_.gamma));
  set("min_child_weight", std::to_string(options_.minChildWeight));
  set("eta", std::to_string(options_.eta));
  set("seed", std::to_string(options_.seed));
  // One thread: the tuner's measurements own the other cores, and a fit is then reproducible.
  set("nthread", "1");
  set("verbosity", "0");
  // Early stopping on the training set's rmse, as MetaSchedule's callback does (XGBoost caches
  // the training matrix's predictions, so each check costs one tree's worth).
  double bestRmse = std::numeric_limits<double>::infinity();
  int bestRound = 0, round = 0;
  for (; round < options_.maxRounds; ++round) {
    check(XGBoosterUpdateOneIter(raw, round, train.get()), "XGBoosterUpdateOneIter");
    bst_ulong length = 0;
    const float* predicted = nullptr;
    check(XGBoosterPredict(raw, train.get(), 0, 0, 1, &length, &predicted), "XGBoosterPredict");
    double squared = 0;
    for (size_t i = 0; i < scores.size(); ++i) squared += (predicted[i] - scores[i]) * (predicted[i] - scores[i]);
    const double rmse = std::sqrt(squared / static_cast<double>(scores.size()));
    if (rmse < bestRmse) {
      bestRmse = rmse;
      bestRound = round;
    } else if (round - bestRound >= options_.earlyStoppingRounds) {
      break;
    }
  }
  lastRounds_ = std::min(round + 1, options_.maxRounds);
  if (booster_) XGBoosterFree(booster_);
  booster_ = booster.release();
  columns_ = columns;
}

std::vector<float> XGBoostModel::predict(const FeatureRows& features) const {
  if (!booster_) return std::vector<float>(features.size(), 0.0f);
  if (features.empty()) return {};
  Matrix matrix = toMatrix(features, columns_);
  bst_ulong length = 0;
  const float* result = nullptr;
  check(XGBoosterPredict(booster_, matrix.get(), 0, 0, 0, &length, &result), "XGBoosterPredict");
  if (length != features.size())
    throw Error("xgboost: " + std::to_string(length) + " predictions for " + std::to_string(features.size()) + " rows");
  return std::vector<float>(result, result + length);
}

bool xgboostAvailable() { return true; }

std::unique_ptr<CostModel> makeXGBoostModel(uint64_t seed) {
  XGBoostOptions options;
  options.seed = seed;
  return std::make_unique<XGBoostModel>(options);
}

} // namespace tessera::tune
