#include "CostModelFactory.h"

#include "cost/AnalyticCostModel.h"
#include "cost/CostCache.h"
#include "cost/MeasuredCostModel.h"
#include "cost/TableCostModel.h"
#include "support/Error.h"

#ifdef TESSERA_HAVE_PLUGINS
#include "PluginHost.h"
#endif

#include <cstdio>

namespace tessera::cli {

namespace {

constexpr const char* kFallbackSpec = "analytic:h200";

void warn(const std::string& line) { std::fprintf(stderr, "tessera-cli: %s\n", line.c_str()); }

std::unique_ptr<CostModel> fallBack(const std::string& spec, const std::string& why) {
  warn(spec + " is unavailable: " + why + "; using " + kFallbackSpec + " instead");
  return makeCostModel(kFallbackSpec);
}

#ifdef TESSERA_HAVE_PLUGINS
// The backend's own roofline (a calibration that takes a moment) made only when a first op needs
// an estimate; most runs never do.
class LazyRoofline final : public CostModel {
public:
  explicit LazyRoofline(plugins::Backend& backend) : backend_(backend) {}
  double costMs(const OpSignature& signature) override {
    if (!model_) {
      std::optional<DeviceProfile> profile = backend_.fallbackProfile();
      model_ = profile ? std::make_unique<AnalyticCostModel>(*profile) : makeCostModel(kFallbackSpec);
    }
    return model_->costMs(signature);
  }
  std::string spec() const override { return model_ ? model_->spec() : "a roofline of the " + backend_.name() + " device"; }

private:
  plugins::Backend& backend_;
  std::unique_ptr<CostModel> model_;
};
#endif

} // namespace

std::unique_ptr<CostModel> makeCliCostModel(const std::string& spec) {
  if (spec.rfind("measured:", 0) != 0) return makeCostModel(spec);
  const std::string backendName = spec.substr(std::string("measured:").size());
  if (backendName.empty()) throw Error("cost spec 'measured:' names no backend (use measured:cpu or measured:cuda)");
#ifndef TESSERA_HAVE_PLUGINS
  return fallBack(spec, "this tessera-cli was built without plugin support (Qt 6 Core was not found)");
#else
  plugins::PluginHost& host = plugins::PluginHost::global();
  if (std::string why = host.whyUnusable(backendName); !why.empty()) return fallBack(spec, why);
  plugins::Backend& backend = *host.backend(backendName);
  std::shared_ptr<CostCache> cache;
  try {
    cache = std::make_shared<CostCache>(defaultCostCachePath());
  } catch (const Error& e) {
    warn(std::string("no cost cache (") + e.what() + "); every signature is measured again in each run");
  }
  try {
    return std::make_unique<MeasuredCostModel>(spec, backend.makeProfiler(), cache, std::make_unique<LazyRoofline>(backend), warn);
  } catch (const std::exception& e) {
    return fallBack(spec, e.what());
  }
#endif
}

std::string costModelSummary(const CostModel& model) {
  if (const auto* measured = dynamic_cast<const MeasuredCostModel*>(&model)) return measured->summary();
  if (const auto* table = dynamic_cast<const TableCostModel*>(&model)) return table->summary();
  return {};
}

std::unique_ptr<GraphExecutor> makeCliExecutor(const std::string& backend) {
#ifndef TESSERA_HAVE_PLUGINS
  throw Error("no " + backend + " executor: this tessera-cli was built without plugin support (Qt 6 Core was not found)");
#else
  plugins::PluginHost& host = plugins::PluginHost::global();
  if (std::string why = host.whyUnusable(backend); !why.empty()) throw Error("no " + backend + " executor: " + why);
  try {
    return host.backend(backend)->makeExecutor();
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw Error("no " + backend + " executor: " + e.what());
  }
#endif
}

} // namespace tessera::cli
