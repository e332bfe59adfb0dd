// The MCTS strategy's run loop: seed the e-graph, then per step obey the Control, plan with
// simulations, commit the best child's rule for good (with provenance and events), and re-plan
// from the committed state. A full e-graph is rebased: the best graph so far seeds a fresh one and
// the search goes on, while each such epoch finds something cheaper. Finally extract with the
// requested method and settle the best graph.
#include "search/MctsStrategy.h"

#include "egraph/GraphConversion.h"
#include "search/EGraphExtraction.h"
#include "search/Provenance.h"
#include "search/RunProtocol.h"
#include "search/SearchClock.h"
#include "search/mcts/MctsParameters.h"
#include "search/mcts/MctsPlanner.h"
#include "search/mcts/MctsTree.h"
#include "search/mcts/PathCache.h"
#include "search/mcts/PriorModel.h"
#include "search/mcts/RolloutPolicy.h"
#include "search/mcts/RuleAction.h"
#include "search/mcts/StateCoster.h"
#include "support/Error.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <random>

namespace tessera {

namespace {
using namespace mcts;
using Clock = std::chrono::steady_clock;

double secondsBetween(Clock::time_point from, Clock::time_point to) { return std::chrono::duration<double>(to - from).count(); }

std::string format(const char* pattern, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, pattern, value);
  return buffer;
}

class MctsStrategy : public Strategy {
public:
  explicit MctsStrategy(std::shared_ptr<PriorModel> guide) : guide_(std::move(guide)) {}
  std::string_view name() const override { return "mcts"; }
  void validate(const SearchOptions& options) const override { MctsParameters::from(options); }
  SearchResult run(const SearchInput& input) override;

private:
  std::shared_ptr<PriorModel> guide_;
};

// One run's state; run() of the strategy is stateless and re-entrant.
class MctsRun {
public:
  MctsRun(const SearchInput& input, std::shared_ptr<PriorModel> guide);
  SearchResult run();

private:
  bool outOfTime() const { return clock_.seconds() >= searchBudget_; }
  bool shouldStop() const { return input_.control.stopRequested() || outOfTime(); }
  void say(const std::string& line) const {
    if (input_.options.progress) input_.options.progress(line);
  }
  const ActionSpace& actions();
  // The allowed actions with a match in the committed state, pinned first then shuffled.
  std::vector<uint16_t> rootActions();
  // Whether a stop was asked for or the time is up, as the stop reason it gives.
  StopReason stopReasonNow() const { return input_.control.stopRequested() ? StopReason::StoppedByUser : StopReason::TimeLimit; }
  // Applies `action` to the committed e-graph with the provenance recorder listening.
  ActionOutcome commitAction(uint16_t action, int step);
  // After a commit: a candidate when the committed state is the cheapest so far.
  void noteCommittedState(double stateCost, int step);
  // The e-graph is full: extracts the best graph, and when it is cheaper than the graph this epoch
  // started from, seeds a fresh e-graph with it and commits a rebase step. False: stop.
  bool rebase(int step);
  // PUCT: counts every rule's matches in the state the e-graph holds into the node, unless they
  // were counted when it was expanded. Watches the clock between rules: false when the search
  // must stop first (on a large e-graph one count of the whole pack takes seconds).
  bool countMatches(uint32_t node);
  // PUCT: the guide's view of the node's state, which the e-graph holds, `path` below the committed root.
  SearchState guideState(uint32_t node, const ActionPath& path);
  // PUCT: the guide reads the node's state, or its reading of the same state in an earlier step's
  // tree is reused; false, and no evaluation, when the search must stop first.
  bool askGuide(uint32_t node, const ActionPath& path);
  // prior_floor: every action that can act keeps at least e / (their number) of the node's prior.
  void floorPriors(MctsNode& node);

  const SearchInput& input_;
  MctsParameters params_;
  SearchClock clock_;   // the time limit's clock: the cost model's measuring is not counted
  double budget_;       // the time limit, final extraction included
  double searchBudget_; // what of it the search may use
  std::mt19937_64 rng_;
  EGraph egraph_;
  ProvenanceRecorder recorder_;
  SeededGraph seed_;
  StateCoster coster_;
  RolloutPolicy rollout_;
  MctsTree tree_;
  ActionSpace space_;
  uint64_t rulesVersion_ = 0;
  SearchResult result_;
  RunProtocol protocol_{input_, result_};
  double bestStateCost_ = 0;
  double epochStartCost_ = 0; // the cost of the graph the current e-graph was seeded with
  int rebases_ = 0;
  uint32_t root_ = 0;
  std::shared_ptr<PriorModel> guide_;  // null: plain UCT
  std::vector<uint32_t> timesApplied_; // per action, committed applications that changed the e-graph
  std::vector<uint32_t> guideTimes_;   // scratch: timesApplied_ plus a simulated path
  // PUCT: what the guide read of each state below the committed root, with the matches it was
  // given, kept across commits as the state costs are (the root is read anew each step).
  struct GuideReading {
    std::vector<uint32_t> ruleMatches;
    Guidance guidance; // as the guide gave it, before prior_floor
  };
  PathCache<GuideReading> guideReadings_;
};

MctsRun::MctsRun(const SearchInput& input, std::shared_ptr<PriorModel> guide)
    : input_(input), params_(MctsParameters::from(input.options)), clock_(input.cost), budget_(input.options.timeLimitSeconds),
      rng_(input.options.seed),
      recorder_(input.events),
      coster_(input.cost, *extract::parseExtractionMethod(params_.rewardExtract)),
      rollout_(params_.rollout, input.rules.size()), guide_(std::move(guide)), timesApplied_(input.rules.size(), 0) {
  if (input.rules.size() >= kRebaseTreeAction) throw Error("mcts: a rule pack of " + std::to_string(input.rules.size()) + " rules is too large");
  // The time limit covers the final extraction: keep a slice for it (the ILP gets a fixed share).
  searchBudget_ = budget_ - (params_.finalExtract == "ilp" ? 0.3 : 0.05) * budget_;
  rulesVersion_ = input.control.rulesVersion();
  space_ = ActionSpace::arrange(input.rules, input.control);
  if (!guide_ && !params_.prior.empty()) guide_ = loadPriorModel(params_.prior, input.rules);
  if (guide_) coster_.keepExtractions(); // the guide reads each new leaf's graph from its pricing
}

bool MctsRun::countMatches(uint32_t id) {
  if (!tree_.node(id).ruleMatches.empty()) return true;
  std::vector<uint32_t> matches(input_.rules.size());
  for (size_t r = 0; r < matches.size(); ++r) {
    if (shouldStop()) return false;
    matches[r] = static_cast<uint32_t>(countRuleMatches(egraph_, *input_.rules[r]));
  }
  tree_.node(id).ruleMatches = std::move(matches);
  return true;
}

SearchState MctsRun::guideState(uint32_t id, const ActionPath& path) {
  guideTimes_ = timesApplied_;
  for (uint16_t action : path) ++guideTimes_[action];
  const MctsNode& node = tree_.node(id);
  return SearchState{egraph_, seed_, actions(), coster_.enodeCoster(), input_.cost, guideTimes_, node.ruleMatches,
                     node.depth, params_.maxSteps, params_.nodeLimit, result_.originalCostMs, path.empty()};
}

void MctsRun::floorPriors(MctsNode& node) {
  const ActionSpace& space = actions();
  auto canAct = [&](size_t a) { return space.allowed[a] && node.ruleMatches[a] > 0; };
  size_t acting = 0;
  for (size_t a = 0; a < node.actionPriors.size(); ++a) acting += canAct(a);
  if (acting == 0) return;
  const double floor = params_.priorFloor / static_cast<double>(acting);
  for (size_t a = 0; a < node.actionPriors.size(); ++a)
    node.actionPriors[a] = static_cast<float>((1 - params_.priorFloor) * node.actionPriors[a] + (canAct(a) ? floor : 0.0));
}

bool MctsRun::askGuide(uint32_t id, const ActionPath& path) {
  const GuideReading* known = path.empty() ? nullptr : guideReadings_.find(path);
  Guidance guidance;
  if (known) {
    if (shouldStop()) return false;
    tree_.node(id).ruleMatches = known->ruleMatches;
    guidance = known->guidance;
  } else {
    if (!countMatches(id) || shouldStop()) return false;
    // A new leaf was just priced (MctsPlanner::expand): the guide reads that extraction's graph.
    std::optional<ExtractedGraph> extraction = path.empty() ? std::nullopt : coster_.lastExtraction(egraph_, seed_, path);
    SearchState state = guideState(id, path);
    state.extraction = extraction ? &*extraction : nullptr;
    guidance = guide_->evaluate(state);
    if (!path.empty()) guideReadings_.insert(path, GuideReading{tree_.node(id).ruleMatches, guidance});
  }
  MctsNode& node = tree_.node(id);
  node.guideValue = guidance.value;
  node.actionPriors = std::move(guidance.prior);
  if (node.actionPriors.size() != input_.rules.size()) throw Error("mcts: the guide gave priors of another action space");
  if (params_.priorFloor > 0) floorPriors(node);
  std::stable_sort(node.untried.begin(), node.untried.end(),
                   [&](uint16_t a, uint16_t b) { return node.actionPriors[a] > node.actionPriors[b]; });
  return true;
}

const ActionSpace& MctsRun::actions() {
  const uint64_t version = input_.control.rulesVersion();
  if (version != rulesVersion_) {
    rulesVersion_ = version;
    space_ = ActionSpace::arrange(input_.rules, input_.control);
    guideReadings_.clear(); // the guide reads which rules are allowed
  }
  return space_;
}

std::vector<uint16_t> MctsRun::rootActions() {
  const ActionSpace& space = actions();
  const std::vector<uint32_t>& counted = tree_.node(root_).ruleMatches; // PUCT counted them already
  std::vector<uint16_t> pinned, rest;
  for (uint16_t action : space.order) {
    if (counted.empty() ? !ruleMatches(egraph_, space.rule(action)) : counted[action] == 0) continue;
    (space.pinned[action] ? pinned : rest).push_back(action);
  }
  std::shuffle(rest.begin(), rest.end(), rng_);
  pinned.insert(pinned.end(), rest.begin(), rest.end());
  return pinned;
}

ActionOutcome MctsRun::commitAction(uint16_t action, int step) {
  const Rule& rule = space_.rule(action);
  egraph_.setListener(&recorder_);
  ActionOutcome outcome = applyRuleAction(egraph_, seed_.outputs, rule, params_.nodeLimit,
                                          [&](const RuleMatch& match, const RuleApplication& application) {
                                            recorder_.ruleApplied(rule, match, application, step);
                                          });
  egraph_.setListener(nullptr);
  if (outcome.applied) result_.rulesApplied[rule.name()] += outcome.applied;
  if (outcome.changed()) ++timesApplied_[action];
  return outcome;
}

void MctsRun::noteCommittedState(double stateCost, int step) {
  if (!(stateCost < bestStateCost_)) return;
  bestStateCost_ = stateCost;
  ExtractedGraph extracted = extractGraph(egraph_, seed_, coster_.enodeCoster(), params_.rewardExtract);
  protocol_.addCandidate(recorder_.candidate(egraph_, std::move(extracted), input_.cost, step));
}

bool MctsRun::rebase(int step) {
  // The best graph of this e-graph, by the final method when there is time for it (an ILP is
  // warm-started from the greedy, so it is never worse).
  const double left = searchBudget_ - clock_.seconds();
  if (left <= 0) return false;
  ExtractedGraph extracted = extractGraph(egraph_, seed_, coster_.enodeCoster(), params_.finalExtract,
                                          std::min(input_.options.extractTimeLimitSeconds, 0.2 * left));
  Candidate best = recorder_.candidate(egraph_, std::move(extracted), input_.cost, step);
  if (!(best.costMs < epochStartCost_ * (1 - 1e-9))) return false; // this epoch found nothing cheaper
  epochStartCost_ = best.costMs;
  protocol_.addCandidate(std::move(best));
  const Candidate& seed = result_.candidates.back(); // nothing is added to the list until the seeding is done

  egraph_ = EGraph();
  recorder_.beginRebase();
  egraph_.setListener(&recorder_);
  seed_ = seedEGraph(egraph_, seed.graph);
  egraph_.rebuild();
  egraph_.setListener(nullptr);
  recorder_.finishRebase(step, seed_, seed.origins);
  coster_.forgetStates();
  guideReadings_.clear();
  bestStateCost_ = coster_.price(egraph_, seed_);
  ++rebases_;

  const uint32_t rebased = tree_.addChild(root_, kRebaseTreeAction, egraph_.numNodes());
  tree_.node(rebased).stateCost = bestStateCost_;
  if (input_.events.wants(EventKind::MctsNodeCreated))
    input_.events.publish(MctsNodeCreated{rebased, root_, std::string(kRebaseAction), tree_.node(rebased).depth, egraph_.numNodes()});
  input_.events.publish(StepCommitted{step, std::string(kRebaseAction), rebased, 0, 0, egraph_.numNodes(), egraph_.numClasses()});
  root_ = rebased;
  result_.steps = step + 1;
  say("step " + std::to_string(step + 1) + ": rebase " + std::to_string(rebases_) + " onto the best graph (" +
      format("%.4f ms", epochStartCost_) + "), " + std::to_string(egraph_.numNodes()) + " e-nodes");
  return true;
}

SearchResult MctsRun::run() {
  const SearchOptions& options = input_.options;
  protocol_.start();
  if (guide_) {
    result_.inSample = guide_->trainedOn(input_.original); // hashes the model: once a run
    if (const std::string guide = guide_->describe(result_.inSample); !guide.empty()) say("mcts: guided by " + guide);
  }

  egraph_.setListener(&recorder_);
  seed_ = seedEGraph(egraph_, input_.original);
  recorder_.originalSeeded();
  egraph_.rebuild();
  egraph_.setListener(nullptr);
  bestStateCost_ = coster_.price(egraph_, seed_);
  epochStartCost_ = result_.originalCostMs;
  root_ = tree_.addRoot(egraph_.numNodes());
  tree_.node(root_).stateCost = bestStateCost_;
  if (input_.events.wants(EventKind::MctsNodeCreated))
    input_.events.publish(MctsNodeCreated{root_, root_, "", 0, egraph_.numNodes()});

  MctsPlanner planner(PlanContext{egraph_, seed_, tree_, coster_, rollout_, rng_, input_.events, params_,
                                  result_.originalCostMs > 0 ? 100.0 / result_.originalCostMs : 0.0,
                                  [this]() -> const ActionSpace& { return actions(); },
                                  [this] { return shouldStop(); },
                                  guide_ ? std::function<bool(uint32_t, const ActionPath&)>(
                                               [this](uint32_t node, const ActionPath& path) { return askGuide(node, path); })
                                         : nullptr});
  StopReason stopReason = StopReason::Saturated;
  for (int step = 0;; ++step) {
    if (!protocol_.beforeStep(step)) {
      stopReason = StopReason::StoppedByUser;
      break;
    }
    if (step >= params_.maxSteps) {
      stopReason = StopReason::StepLimit;
      break;
    }
    if (egraph_.numNodes() >= params_.nodeLimit) {
      if (params_.rebase && rebase(step)) continue;
      stopReason = StopReason::NodeLimit;
      break;
    }
    if (outOfTime()) {
      stopReason = StopReason::TimeLimit;
      break;
    }

    // Re-plan from the committed state; a pinned rule that changes it is committed outright.
    if (guide_ && !countMatches(root_)) {
      stopReason = stopReasonNow();
      break;
    }
    tree_.replanFrom(root_, rootActions());
    if (guide_ && !askGuide(root_, {})) {
      stopReason = stopReasonNow();
      break;
    }
    const std::vector<uint16_t> candidates = tree_.node(root_).untried;
    if (candidates.empty()) {
      stopReason = StopReason::Saturated;
      break;
    }
    uint32_t chosen = MctsTree::kNone;
    ActionOutcome outcome;
    for (uint16_t action : candidates) {
      if (!actions().pinned[action]) break; // pinned actions lead
      outcome = commitAction(action, step);
      if (!outcome.changed()) continue;
      chosen = tree_.addChild(root_, action, egraph_.numNodes());
      tree_.node(chosen).full = egraph_.numNodes() >= params_.nodeLimit;
      if (input_.events.wants(EventKind::MctsNodeCreated)) {
        MctsNodeCreated created{chosen, root_, space_.rule(action).name(), tree_.node(chosen).depth, egraph_.numNodes()};
        if (const std::vector<float>& priors = tree_.node(root_).actionPriors; !priors.empty()) created.prior = priors[action];
        input_.events.publish(std::move(created));
      }
      break;
    }
    int simulations = 0;
    const auto stepStart = Clock::now();
    if (chosen == MctsTree::kNone) {
      simulations = planner.plan(root_);
      if (guide_ && simulations > 0) {
        const MctsNode& planned = tree_.node(root_);
        PlannedRoot root;
        root.visits.assign(input_.rules.size(), 0);
        root.meanValues.assign(input_.rules.size(), 0.0);
        for (uint32_t child : planned.children) {
          const MctsNode& node = tree_.node(child);
          if (node.action >= root.visits.size()) continue; // a rebase's root has no rule
          root.visits[node.action] = node.visits;
          root.meanValues[node.action] = node.meanValue();
        }
        root.priors = planned.actionPriors;
        root.value = planned.guideValue;
        guide_->planned(guideState(root_, {}), root);
      }
      if (input_.control.stopRequested()) {
        stopReason = StopReason::StoppedByUser;
        break;
      }
      if (outOfTime()) {
        stopReason = StopReason::TimeLimit;
        break;
      }
      chosen = tree_.bestChild(root_, [this](uint16_t action) { return actions().allowed[action]; });
      if (chosen == MctsTree::kNone) {
        stopReason = StopReason::Saturated;
        break;
      }
      outcome = commitAction(tree_.node(chosen).action, step);
    }
    const uint16_t action = tree_.node(chosen).action;
    coster_.commit(action);
    guideReadings_.commit(action);
    MctsNode& committed = tree_.node(chosen);
    if (std::isnan(committed.stateCost)) committed.stateCost = coster_.price(egraph_, seed_);
    const double stateCost = committed.stateCost;
    input_.events.publish(StepCommitted{step, space_.rule(action).name(), chosen, committed.visits, committed.meanValue(),
                                     egraph_.numNodes(), egraph_.numClasses()});
    result_.steps = step + 1;
    say("step " + std::to_string(step + 1) + ": " + space_.rule(action).name() + " (" + std::to_string(outcome.applied) +
        " rewrites, " + std::to_string(simulations) + " simulations, mean reward " + format("%.3f", committed.meanValue()) +
        "), " + std::to_string(egraph_.numNodes()) + " e-nodes, cost " + format("%.4f ms", stateCost) + ", " +
        format("%.2f s", secondsBetween(stepStart, Clock::now())));
    noteCommittedState(stateCost, step);
    root_ = chosen;
  }
  result_.enodes = egraph_.numNodes();
  result_.eclasses = egraph_.numClasses();
  const double searched = clock_.seconds();
  result_.measuringSeconds = clock_.measuringSeconds();
  result_.searchSeconds = clock_.wallSeconds();
  say("mcts stopped (" + std::string(stopReasonName(stopReason)) + ") after " + format("%.2f s", result_.searchSeconds) +
      measuringNote(result_.measuringSeconds) + ", " + std::to_string(coster_.extractions()) + " reward extractions, " +
      std::to_string(coster_.cacheHits()) + " cached");

  // Final extraction, inside what is left of the time limit.
  const double left = std::max(0.1, budget_ - searched);
  ExtractedGraph extracted = extractGraph(egraph_, seed_, coster_.enodeCoster(), params_.finalExtract,
                                          std::min(options.extractTimeLimitSeconds, left));
  result_.extractionSeconds = extracted.seconds;
  say("extracted with " + params_.finalExtract + " in " + format("%.2f s", extracted.seconds));
  protocol_.addCandidate(recorder_.candidate(egraph_, std::move(extracted), input_.cost, result_.steps));
  protocol_.finish(stopReason);
  return std::move(result_);
}

SearchResult MctsStrategy::run(const SearchInput& input) { return MctsRun(input, guide_).run(); }
} // namespace

std::unique_ptr<Strategy> makeMctsStrategy(std::shared_ptr<PriorModel> guide) { return std::make_unique<MctsStrategy>(std::move(guide)); }

} // namespace tessera
