#include "run/SharedCostModels.h"

#include <utility>

namespace tessera {

namespace {

class SynchronizedCostModel final : public CostModel {
public:
  SynchronizedCostModel(std::unique_ptr<CostModel> model, SharedCostModels::BeforeTiming beforeTiming)
      : model_(std::move(model)), beforeTiming_(std::move(beforeTiming)) {}
  double costMs(const OpSignature& signature) override {
    if (beforeTiming_ && wouldTime(signature)) beforeTiming_(model_->spec()); // waits without holding the model
    std::lock_guard lock(mutex_);
    return model_->costMs(signature);
  }
  bool wouldTime(const OpSignature& signature) override {
    std::lock_guard lock(mutex_);
    return model_->wouldTime(signature);
  }
  std::string spec() const override {
    std::lock_guard lock(mutex_);
    return model_->spec();
  }
  DeviceCosts deviceCosts() const override {
    std::lock_guard lock(mutex_);
    return model_->deviceCosts();
  }
  bool foldedIntoProducer(const OpSignature& producer, const OpSignature& op) const override {
    std::lock_guard lock(mutex_);
    return model_->foldedIntoProducer(producer, op);
  }
  double measuringSeconds() const override {
    std::lock_guard lock(mutex_);
    return model_->measuringSeconds();
  }
  bool slicesContiguousSplits() const override {
    std::lock_guard lock(mutex_);
    return model_->slicesContiguousSplits();
  }

  const CostModel& inner() const { return *model_; }

private:
  mutable std::mutex mutex_;
  std::unique_ptr<CostModel> model_;
  const SharedCostModels::BeforeTiming beforeTiming_;
};

} // namespace

SharedCostModels::SharedCostModels(MeasuredCostFactory measured, BeforeTiming beforeTiming)
    : measured_(std::move(measured)), beforeTiming_(std::move(beforeTiming)) {}

std::shared_ptr<CostModel> SharedCostModels::model(const std::string& spec) {
  std::lock_guard lock(mutex_);
  if (auto it = models_.find(spec); it != models_.end()) return it->second;
  ResolvedCost resolved = resolveCostSpec(spec, measured_);
  if (!resolved.fallbackNote.empty()) notes_[spec] = resolved.fallbackNote;
  auto model = std::make_shared<SynchronizedCostModel>(std::move(resolved.model), beforeTiming_);
  // "auto" and the backend it chose are one model: a run that names the backend itself shares it.
  if (spec == kAutoCostSpec && resolved.fallbackNote.empty()) models_.emplace(model->spec(), model);
  return models_[spec] = model;
}

std::string SharedCostModels::fallbackNote(const std::string& spec) const {
  std::lock_guard lock(mutex_);
  auto it = notes_.find(spec);
  return it == notes_.end() ? std::string() : it->second;
}

const CostModel& innerCostModel(const CostModel& model) {
  const auto* shared = dynamic_cast<const SynchronizedCostModel*>(&model);
  return shared ? shared->inner() : model;
}

} // namespace tessera
