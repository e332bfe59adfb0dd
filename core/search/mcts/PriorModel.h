// A learned guide for MCTS (PUCT, as in AlphaZero): for one search state, a prior over the rule
// actions and a value, the speedup still reachable from it. The search only sees this interface;
// the network behind it lives in an area with libtorch (core/puct), which registers a loader so
// `--param prior=CKPT` works wherever that area is linked.
#pragma once

#include "egraph/GraphConversion.h"
#include "search/EGraphExtraction.h"
#include "search/mcts/PolicyTarget.h"
#include "search/mcts/RuleAction.h"

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace tessera::mcts {

// One state of the search as a guide may read it. The e-graph holds the state while the guide runs.
struct SearchState {
  const EGraph& egraph;
  const SeededGraph& seed;
  const ActionSpace& space;
  ENodeCoster& enodeCoster;          // prices e-nodes for the guide's own extraction
  CostModel& cost;
  std::span<const uint32_t> timesApplied; // per action: how often it was applied on the way here
  std::span<const uint32_t> matches;      // per action: its matches in this state, allowed or not (the search counts them once per state)
  int step = 0;                      // actions from the original model
  int maxSteps = 1;
  size_t nodeLimit = 1;
  double originalCostMs = 0;
  bool root = false;                 // the committed state a step plans from (self-play adds noise there)
  // The state's DAG greedy extraction (by enodeCoster) when the search already ran it to price the
  // state, so the guide need not extract the same e-graph again; null: extract it yourself.
  const ExtractedGraph* extraction = nullptr;
};

struct Guidance {
  std::vector<float> prior; // per action, summing to 1 over the actions the guide thinks can act
  double value = 0;         // percentage points of the original cost still to gain below this state
};

class PriorModel {
public:
  virtual ~PriorModel() = default;
  // A function of the state: the search asks once about each state below the committed root and
  // keeps the answer while the state stays below it (later steps reuse it); a root is asked anew
  // each step.
  virtual Guidance evaluate(const SearchState& state) = 0;
  // After a step's simulations, before its commit: the root's state and what its search found per
  // action. Self-play training records a policy target from it (mcts/PolicyTarget.h); a plain
  // search ignores it.
  virtual void planned(const SearchState&, const PlannedRoot& /*root*/) {}
  // Whether `model` is in the guide's training set; empty when it cannot tell (or was not loaded).
  virtual std::optional<bool> trainedOn(const Graph& /*model*/) const { return std::nullopt; }
  // What a run's log says of the guide before searching a model, given trainedOn's answer for it:
  // where it was loaded from and whether the model is in its training set. Empty for a guide not
  // loaded from a file (self-play).
  virtual std::string describe(std::optional<bool> /*trainedOnModel*/) const { return {}; }
};

// Loads the guide a checkpoint holds for `rules`; throws tessera::Error naming the file when it is
// missing, not a guide, or was trained on another rule pack.
using PriorModelLoader = std::function<std::unique_ptr<PriorModel>(const std::string& path, std::span<const Rule* const> rules)>;
void registerPriorModelLoader(PriorModelLoader loader);
// Throws tessera::Error when no loader was registered (a build without libtorch).
std::unique_ptr<PriorModel> loadPriorModel(const std::string& path, std::span<const Rule* const> rules);

} // namespace tessera::mcts
