#include "run/RunChoices.h"

#include "cost/CostModel.h"
#include "cost/DeviceProfile.h"
#include "extract/Extractors.h"
#include "run/CostResolution.h"
#include "search/Strategy.h"

#include <map>

namespace tessera {

std::vector<RunChoice> strategyChoices() {
  static const std::map<std::string, std::string> described = {
      {"eqsat", "Equality saturation (TENSAT)"},
      {"mcts", "MCTS-guided e-graph construction (PACT'24)"},
      {"taso", "Backtracking search (TASO)"},
      {"greedy", "Greedy sequential rewriting"},
      {"xrlflow", "X-RLflow: a PPO-trained graph-attention agent"},
      {"rlflow", "RLflow: a model-based agent trained in a learned world model"},
  };
  std::vector<RunChoice> choices;
  for (const std::string& name : strategyNames()) {
    auto it = described.find(name);
    choices.push_back({name, it == described.end() ? name : it->second});
  }
  return choices;
}

std::vector<std::string> extractionMethods() { return extract::extractionMethodNames(); }

std::vector<RunChoice> extractionChoices() {
  static const std::map<std::string, std::string> described = {
      {"dag", "Greedy on DAG cost (shared subgraphs counted once)"},
      {"ocf", "PACT'24 greedy with shared-subgraph costs"},
      {"tree", "egg's tree-cost greedy (over-counts shared subgraphs)"},
      {"ilp", "Exact ILP (CBC) with acyclicity; slowest"},
  };
  std::vector<RunChoice> choices;
  const std::string first = SearchOptions{}.extractMethod;
  choices.push_back({first, described.at(first)});
  for (const std::string& name : extractionMethods()) {
    if (name == first) continue;
    auto it = described.find(name);
    choices.push_back({name, it == described.end() ? name : it->second});
  }
  return choices;
}

std::string costSpecHelp() {
  std::vector<std::string> devices;
  for (const DeviceProfile& device : deviceProfiles()) devices.push_back(device.name);
  std::string analytic;
  for (const std::string& device : devices) analytic += (analytic.empty() ? "" : "|") + device;
  return std::string(kAutoCostSpec) + " (measured:cuda where a GPU is usable, else measured:cpu), analytic:<" + analytic + ">, " +
         kMeasuredPrefix + "<cpu|cuda|ort>, table:FILE (default " + kAutoCostSpec + ", or $" + kCostSpecVariable + " when set)";
}

std::string costSpecHeadline(const std::string& spec) {
  const std::string_view analytic = "analytic:";
  if (spec.rfind(analytic, 0) != 0) return spec;
  const DeviceProfile* device = findDeviceProfile(std::string_view(spec).substr(analytic.size()));
  if (!device) return spec;
  return spec + ", a prediction for " + device->description + ", not a measurement on this machine";
}

std::string listText(const std::vector<std::string>& names, const std::string& last) {
  std::string text;
  for (size_t i = 0; i < names.size(); ++i) text += (i == 0 ? "" : i + 1 == names.size() ? " " + last + " " : ", ") + names[i];
  return text;
}

} // namespace tessera
