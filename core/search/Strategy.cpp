#include "search/Strategy.h"

#include "cost/GraphCost.h"
#include "interp/Verify.h"
#include "search/EqsatStrategy.h"
#include "search/MctsStrategy.h"
#include "search/TasoStrategy.h"
#include "support/Error.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <set>
#include <utility>

namespace tessera {

namespace {

struct RegisteredStrategy {
  std::string name;
  StrategyFactory make;
};

// Registration happens at program start, before any search thread runs; the mutex keeps a late
// registration safe all the same.
std::mutex registryMutex;
std::vector<RegisteredStrategy>& registry() {
  static std::vector<RegisteredStrategy> strategies;
  return strategies;
}

// Optional strategies and what a build needs for them, for a clear error where one is missing.
constexpr std::pair<std::string_view, std::string_view> kOptionalStrategies[] = {
    {"xrlflow", "libtorch (Debian: libtorch-dev; then configure and build again)"},
};

} // namespace

std::vector<std::string> strategyNames() {
  std::vector<std::string> names{"greedy", "taso", "eqsat", "mcts"};
  std::lock_guard lock(registryMutex);
  for (const RegisteredStrategy& strategy : registry()) names.push_back(strategy.name);
  return names;
}

void registerStrategy(std::string name, StrategyFactory factory) {
  std::lock_guard lock(registryMutex);
  for (RegisteredStrategy& strategy : registry())
    if (strategy.name == name) {
      strategy.make = std::move(factory);
      return;
    }
  registry().push_back({std::move(name), std::move(factory)});
}

std::unique_ptr<Strategy> makeStrategy(std::string_view name) {
  if (name == "eqsat") return std::make_unique<EqsatStrategy>();
  if (name == "mcts") return makeMctsStrategy();
  if (name == "taso") return makeTasoStrategy(/*greedy=*/false);
  if (name == "greedy") return makeTasoStrategy(/*greedy=*/true);
  StrategyFactory registered;
  {
    std::lock_guard lock(registryMutex);
    for (const RegisteredStrategy& strategy : registry())
      if (strategy.name == name) registered = strategy.make;
  }
  // Called unlocked: a factory that loads its module registers the module's own factory (Module.h).
  if (registered) return registered();
  for (const auto& [optional, needs] : kOptionalStrategies)
    if (name == optional)
      throw Error("strategy '" + std::string(name) + "' is not available: this build of Tessera was configured without " +
                  std::string(needs));
  std::vector<std::string> names = strategyNames();
  std::string list;
  for (size_t i = 0; i < names.size(); ++i) list += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  throw Error("unknown strategy '" + std::string(name) + "' (use " + list + ")");
}

std::vector<const Rule*> arrangeRules(std::span<const Rule* const> rules, const Control& control) {
  const std::set<std::string> pinned = control.pinned(), vetoed = control.vetoed();
  std::vector<const Rule*> arranged;
  arranged.reserve(rules.size());
  for (const Rule* rule : rules)
    if (pinned.count(rule->name())) arranged.push_back(rule);
  for (const Rule* rule : rules)
    if (!pinned.count(rule->name()) && !vetoed.count(rule->name())) arranged.push_back(rule);
  return arranged;
}

void checkRuleNames(std::span<const Rule* const> rules, const std::vector<std::string>& names) {
  for (const std::string& name : names) {
    bool known = std::any_of(rules.begin(), rules.end(), [&](const Rule* rule) { return rule->name() == name; });
    if (!known) throw Error("unknown rule '" + name + "': the rule pack has no rule of that name (see `tessera-cli rules list`)");
  }
}

void settleBest(SearchResult& result, const Graph& original) {
  // The original is always a valid answer; never hand back something slower.
  if (result.bestCandidate < 0 || result.candidates[result.bestCandidate].costMs >= result.originalCostMs) {
    result.bestCandidate = -1;
    result.best = original.compacted();
    result.bestCostMs = result.originalCostMs;
  } else {
    result.best = result.candidates[result.bestCandidate].graph;
    result.bestCostMs = result.candidates[result.bestCandidate].costMs;
  }
  result.speedupPct =
      result.originalCostMs > 0 ? (result.originalCostMs - result.bestCostMs) / result.originalCostMs * 100.0 : 0.0;
}

void verifySearchResult(const Graph& original, SearchResult& result, int trials, uint64_t seed) {
  auto start = std::chrono::steady_clock::now();
  VerifyOptions verify;
  verify.trials = trials;
  verify.seed = seed;
  VerifyResult check = verifyEquivalent(original, result.best, verify);
  result.verificationRun = true;
  result.verified = check.equivalent;
  result.maxAbsError = check.maxAbsError;
  result.verifyProblem = check.equivalent ? std::string() : check.worst;
  result.verifyMetric = check.metric;
  result.noiseToSignal = check.noiseToSignal;
  result.verifySeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double numericParameter(const SearchOptions& options, const std::string& name, double fallback) {
  auto it = options.parameters.find(name);
  if (it == options.parameters.end()) return fallback;
  char* end = nullptr;
  double value = std::strtod(it->second.c_str(), &end);
  if (it->second.empty() || *end != '\0') throw Error("parameter " + name + "=" + it->second + " is not a number");
  return value;
}

std::string textParameter(const SearchOptions& options, const std::string& name, const std::string& fallback) {
  auto it = options.parameters.find(name);
  return it == options.parameters.end() ? fallback : it->second;
}

void checkParameterNames(const SearchOptions& options, std::string_view strategy, std::span<const char* const> known) {
  for (const auto& parameter : options.parameters) {
    const std::string& name = parameter.first; // clang 14 cannot capture a structured binding
    bool ok = std::any_of(known.begin(), known.end(), [&](const char* k) { return name == k; });
    if (ok) continue;
    std::string list;
    for (const char* k : known) list += (list.empty() ? "" : ", ") + std::string(k);
    throw Error("strategy " + std::string(strategy) + " has no parameter '" + name + "'" +
                (list.empty() ? std::string(" (it takes none)") : " (it takes " + list + ")"));
  }
}

} // namespace tessera
