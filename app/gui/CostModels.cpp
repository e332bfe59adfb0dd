#include "CostModels.h"

#ifdef TESSERA_HAVE_PLUGINS
#include "BackendCostModels.h"
#endif

#include "cost/DeviceProfile.h"
#include "run/CostResolution.h"
#include "support/Error.h"

#include <algorithm>
#include <map>
#include <mutex>

namespace tessera::gui {

namespace {

constexpr const char* kMeasuredPrefix = "measured:";

// One model behind a mutex: measured models keep state (their answers, the device) that two
// threads must not touch at once, and two threads timing ops together would distort both.
class SynchronizedCostModel final : public CostModel {
public:
  explicit SynchronizedCostModel(std::unique_ptr<CostModel> model) : model_(std::move(model)) {}
  double costMs(const OpSignature& signature) override {
    std::lock_guard lock(mutex_);
    return model_->costMs(signature);
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

private:
  mutable std::mutex mutex_;
  std::unique_ptr<CostModel> model_;
};

struct Registry {
  std::mutex mutex;
  std::map<std::string, std::shared_ptr<CostModel>> models;
  std::map<std::string, std::string> notes;

  static Registry& global() {
    static Registry registry;
    return registry;
  }
};

// Plugins load only when a measured spec asks for one (loading cuDNN takes seconds from a cold disk).
MeasuredCostFactory measuredCostFactory() {
#ifdef TESSERA_HAVE_PLUGINS
  return [](const std::string& backend) { return plugins::makeMeasuredCostModel(plugins::PluginHost::global(), backend, {}); };
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

std::shared_ptr<CostModel> sharedCostModel(const std::string& spec) {
  Registry& registry = Registry::global();
  std::lock_guard lock(registry.mutex);
  if (auto it = registry.models.find(spec); it != registry.models.end()) return it->second;
  ResolvedCost resolved = resolveCostSpec(spec, measuredCostFactory());
  auto model = std::make_shared<SynchronizedCostModel>(std::move(resolved.model));
  if (!resolved.fallbackNote.empty()) registry.notes[spec] = resolved.fallbackNote;
  return registry.models[spec] = model;
}

std::string fallbackNote(const std::string& spec) {
  Registry& registry = Registry::global();
  std::lock_guard lock(registry.mutex);
  auto it = registry.notes.find(spec);
  return it == registry.notes.end() ? std::string() : it->second;
}

} // namespace tessera::gui
