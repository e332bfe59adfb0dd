// One interface for every search (TASO's backtracking, greedy rewriting, equality saturation,
// MCTS-guided e-graph construction): a strategy takes the model, the rules, a cost model, limits,
// a Control it polls between steps and an EventStream it reports to, and returns the best graph
// it found with every candidate it extracted on the way. Deterministic for a given seed.
#pragma once

#include "cost/CostModel.h"
#include "search/Candidate.h"
#include "events/Control.h"
#include "events/EventSink.h"
#include "ir/Graph.h"
#include "rewrite/Rule.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tessera {

struct SearchOptions {
  uint64_t seed = 1;
  size_t nodeLimit = 0;           // e-nodes (eqsat, mcts) or ops (taso); 0: the strategy's default
  double timeLimitSeconds = 60;   // the whole search, less the cost model's measuring (SearchClock);
                                  // mcts and taso include their final extraction
  int iterationLimit = 15;        // eqsat iterations
  // eqsat: iterations that apply multi-pattern rules (TENSAT's k_multi). TENSAT's default is 1, which
  // merges pairs only; a second round merges the merged ops again, which is what pays end to end on
  // a CPU (README, "Speedups on a real device").
  int multiIterations = 2;
  std::string extractMethod = "dag"; // final extraction for e-graph strategies: tree, ocf, dag, ilp
  double extractTimeLimitSeconds = 60;
  // Strategy-specific knobs by name (e.g. mcts: "simulations", "rollout"; taso: "alpha", "budget").
  // A strategy throws tessera::Error for a name it does not know.
  std::map<std::string, std::string> parameters;
  std::function<void(const std::string&)> progress; // one line per phase, for people
};

struct SearchInput {
  const Graph& original;
  std::span<const Rule* const> rules; // the pack; the strategy applies Control's pins and vetoes
  CostModel& cost;
  Control& control;
  EventStream& events;
  SearchOptions options;
};

struct SearchResult {
  Graph best;                    // never costlier than the original
  double originalCostMs = 0;
  double bestCostMs = 0;
  double speedupPct = 0;         // (original - best) / original x 100
  int bestCandidate = -1;        // index into candidates; -1 when the original is best
  std::vector<Candidate> candidates;
  std::string stopReason;        // saturated, node_limit, iteration_limit, time_limit, stopped_by_user, budget, steps
  int steps = 0;
  size_t enodes = 0;             // final e-graph size (graphs explored, for taso/greedy)
  size_t enodesFiltered = 0;     // of `enodes`, those the cycle filter set aside (eqsat)
  size_t eclasses = 0;
  std::map<std::string, size_t> rulesApplied; // rule name -> applications that changed something
  double searchSeconds = 0;      // wall time, measuring included
  double measuringSeconds = 0;   // of searchSeconds, the cost model timing ops (not counted by the time limit)
  double extractionSeconds = 0;
  // A learned agent's or guide's run: whether the model is in its training set (in-sample);
  // empty for other strategies and for checkpoints that cannot tell (rl/TrainedModels.h).
  std::optional<bool> inSample;
  // Filled by verifySearchResult.
  bool verificationRun = false;
  bool verified = false;
  double maxAbsError = 0;
  std::string verifyProblem;
  std::string verifyMetric; // what "verified" meant (VerifyResult::metric)
  double noiseToSignal = 0;  // VerifyResult::noiseToSignal: how sharp the check was
  double verifySeconds = 0;
};

class Strategy {
public:
  virtual ~Strategy() = default;
  virtual std::string_view name() const = 0;
  // Throws tessera::Error for parameters or options the strategy cannot run with, before anything
  // (a session record, a worker thread) is started on the strength of them. run() checks again.
  virtual void validate(const SearchOptions& options) const = 0;
  virtual SearchResult run(const SearchInput& input) = 0;
};

std::vector<std::string> strategyNames(); // greedy, taso, eqsat, mcts, then the registered ones
// Throws tessera::Error naming the known strategies for an unknown name, and saying what the
// build lacks for an optional strategy that was not built (xrlflow without libtorch).
std::unique_ptr<Strategy> makeStrategy(std::string_view name);

// Strategies of areas above search (core/xrlflow, built only with libtorch) register here when
// their program starts; makeStrategy and strategyNames then know them. Registering a name again
// replaces its factory.
using StrategyFactory = std::function<std::unique_ptr<Strategy>()>;
void registerStrategy(std::string name, StrategyFactory factory);

// Rules in the order a search must try them right now: pinned first (in pack order), then the
// rest, vetoed rules left out.
std::vector<const Rule*> arrangeRules(std::span<const Rule* const> rules, const Control& control);

// Throws tessera::Error naming the unknown rule and the pack, before a search starts.
void checkRuleNames(std::span<const Rule* const> rules, const std::vector<std::string>& names);

// Fills the result's cost fields from `best` and never lets a costlier graph through.
void settleBest(SearchResult& result, const Graph& original);

// Runs the original and the best graph on the same random inputs and weights.
void verifySearchResult(const Graph& original, SearchResult& result, int trials, uint64_t seed);

// Reads a numeric strategy parameter, with a clear error for junk.
double numericParameter(const SearchOptions& options, const std::string& name, double fallback);
std::string textParameter(const SearchOptions& options, const std::string& name, const std::string& fallback);
// Throws for parameters the strategy does not know.
void checkParameterNames(const SearchOptions& options, std::string_view strategy, std::span<const char* const> known);

} // namespace tessera
