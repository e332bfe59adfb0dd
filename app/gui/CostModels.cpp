#include "CostModels.h"

#include "MeasuringPause.h"

#ifdef TESSERA_HAVE_PLUGINS
#include "BackendCostModels.h"
#endif

#include "cost/DeviceProfile.h"
#include "run/CostResolution.h"
#include "run/SharedCostModels.h"
#include "support/Error.h"

#include <algorithm>
#include <functional>
#include <mutex>

namespace tessera::gui {

namespace {

std::mutex progressMutex;
std::function<void(const std::string&)> progressSink;

void reportMeasuring(const std::string& line) {
  std::function<void(const std::string&)> sink;
  {
    std::lock_guard lock(progressMutex);
    sink = progressSink;
  }
  if (sink) sink(line);
}

// Plugins load only when a measured spec asks for one (loading cuDNN takes seconds from a cold disk).
MeasuredCostFactory measuredCostFactory() {
#ifdef TESSERA_HAVE_PLUGINS
  return [](const std::string& backend) {
    return plugins::makeMeasuredCostModel(plugins::PluginHost::global(), backend, reportMeasuring, reportMeasuring);
  };
#else
  return {};
#endif
}

} // namespace

std::vector<CostChoice> analyticCostChoices() {
  std::vector<CostChoice> choices;
  for (const DeviceProfile& device : deviceProfiles()) choices.push_back({"analytic:" + device.name, device.description, {}});
  return choices;
}

std::vector<CostChoice> measuredCostChoices() {
  std::vector<CostChoice> choices;
#ifdef TESSERA_HAVE_PLUGINS
  for (const plugins::PluginRecord& plugin : plugins::PluginHost::global().plugins()) {
    if (!plugin.loaded || plugin.name.empty()) continue;
    if (std::any_of(choices.begin(), choices.end(), [&](const CostChoice& c) { return c.spec == kMeasuredPrefix + plugin.name; }))
      continue; // a second copy of a backend is ignored by the host too
    CostChoice choice{kMeasuredPrefix + plugin.name, "Measured on " + (plugin.available ? plugin.device : plugin.name), {}};
    if (!plugin.available) choice.unavailable = plugin.problem;
    choices.push_back(std::move(choice));
  }
#endif
  return choices;
}

void setMeasuringProgress(std::function<void(const std::string&)> progress) {
  std::lock_guard lock(progressMutex);
  progressSink = std::move(progress);
}

std::shared_ptr<SharedCostModels> sharedCostModels() {
  static const std::shared_ptr<SharedCostModels> models = std::make_shared<SharedCostModels>(
      measuredCostFactory(), [](const std::string& spec) { waitForOwnSearch("pricing with " + spec); });
  return models;
}

ExecutorFactory backendExecutors() {
#ifdef TESSERA_HAVE_PLUGINS
  return [](const std::string& backend) { return plugins::makeBackendExecutor(plugins::PluginHost::global(), backend); };
#else
  return {};
#endif
}

std::shared_ptr<CostModel> sharedCostModel(const std::string& spec) { return sharedCostModels()->model(spec); }

std::string fallbackNote(const std::string& spec) { return sharedCostModels()->fallbackNote(spec); }

} // namespace tessera::gui
