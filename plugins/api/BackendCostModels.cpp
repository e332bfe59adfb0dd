#include "BackendCostModels.h"

#include "cost/AnalyticCostModel.h"
#include "cost/CostCache.h"
#include "cost/MeasuredCostModel.h"
#include "support/Error.h"
#include "support/HostLoad.h"

#include <optional>

namespace tessera::plugins {

namespace {

// The backend's own roofline (a calibration that takes a moment) made only when a first op needs
// an estimate; most runs never do.
class LazyRoofline final : public CostModel {
public:
  explicit LazyRoofline(Backend& backend) : backend_(backend) {}
  double costMs(const OpSignature& signature) override {
    if (!model_) {
      std::optional<DeviceProfile> profile = backend_.fallbackProfile();
      model_ = profile ? std::make_unique<AnalyticCostModel>(*profile) : makeCostModel(kPredictionCostSpec);
    }
    return model_->costMs(signature);
  }
  std::string spec() const override { return model_ ? model_->spec() : "a roofline of the " + backend_.name() + " device"; }

private:
  Backend& backend_;
  std::unique_ptr<CostModel> model_;
};

} // namespace

std::unique_ptr<CostModel> makeMeasuredCostModel(PluginHost& host, const std::string& backendName, const CostWarning& warn,
                                                 const CostWarning& progress) {
  if (std::string why = host.whyUnusable(backendName); !why.empty()) throw Error(why);
  Backend& backend = *host.backend(backendName);
  std::shared_ptr<CostCache> cache;
  try {
    cache = std::make_shared<CostCache>(defaultCostCachePath());
  } catch (const Error& e) {
    if (warn) warn(std::string("no cost cache (") + e.what() + "); every signature is measured again in each run");
  }
  const bool timesOnTheHost = backendTimesOnTheHost(backendName);
  if (timesOnTheHost) (void)hostLoadOverride(); // a malformed $TESSERA_HOST_LOAD is refused by name
  try {
    auto model = std::make_unique<MeasuredCostModel>("measured:" + backendName, backend.makeProfiler(), cache,
                                                     std::make_unique<LazyRoofline>(backend), warn);
    model->setProgress(progress);
    if (timesOnTheHost) model->setHostLoadReading(hostLoad);
    return model;
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw Error(e.what());
  }
}

std::unique_ptr<GraphExecutor> makeBackendExecutor(PluginHost& host, const std::string& backendName) {
  if (std::string why = host.whyUnusable(backendName); !why.empty()) throw Error("no " + backendName + " executor: " + why);
  try {
    return host.backend(backendName)->makeExecutor();
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw Error("no " + backendName + " executor: " + e.what());
  }
}

} // namespace tessera::plugins
