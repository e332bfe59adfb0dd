// DAG-cost greedy extraction with a parent-driven worklist.
#include "extract/DagGreedyExtractor.h"

#include "extract/AcyclicChoice.h"
#include "extract/Dominance.h"
#include "extract/LocalImprovement.h"
#include "extract/TreeExtractor.h"

#include <algorithm>
#include <cassert>
#include <chrono>
#include <cmath>
#include <deque>
#include <limits>

namespace tessera::extract {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Re-summing a term after unrelated changes visits its classes in another order, so equal costs
// can differ in the last bits; changes below this do not count (no churn between equal terms).
bool sameCost(double a, double b) {
  if (a == b) return true;
  if (std::isinf(a) || std::isinf(b)) return false;
  return std::abs(a - b) <= 1e-12 * std::max({1.0, std::abs(a), std::abs(b)});
}

class DagGreedy {
public:
  DagGreedy(const ExtractionProblem& problem, const FlatProblem& flat, const std::vector<int32_t>& dominators,
            const std::vector<uint32_t>& order)
      : problem_(problem), flat_(flat), order_(order), choice_(problem.classCount(), -1), total_(problem.classCount(), kInf),
        stamp_(problem.classCount(), 0), relevant_(problem.classCount(), 0), queued_(problem.nodes.size(), 0),
        parents_(parentIndex(problem)), dominator_(dominators), forced_(problem.classCount(), 0) {}

  std::vector<int32_t> run() {
    findForcedClasses(order_);
    for (uint32_t eclass : order_) {
      relevant_[eclass] = 1;
      for (uint32_t n : problem_.classNodes[eclass]) enqueue(n);
    }
    // Generous: converging runs re-evaluate each node a handful of times.
    size_t budget = 32 * problem_.nodes.size() + 1024;
    while (!queue_.empty() && budget-- > 0) {
      uint32_t n = queue_.front();
      queue_.pop_front();
      queued_[n] = 0;
      process(n);
    }
    return choice_;
  }

private:
  // In an acyclic class graph no choice can close a cycle, so a class with a single undominated
  // node has nothing to decide: it takes that node without pricing it (most classes of a network's
  // e-graph are like this). Acyclic iff every edge points earlier in the DFS post-order.
  void findForcedClasses(const std::vector<uint32_t>& order) {
    std::vector<uint32_t> position(problem_.classCount(), UINT32_MAX);
    for (uint32_t i = 0; i < order.size(); ++i) position[order[i]] = i;
    for (uint32_t eclass : order)
      for (uint32_t n : problem_.classNodes[eclass])
        for (uint32_t child : flat_.childrenOf(n))
          if (position[child] >= position[eclass]) return; // a back edge: keep pricing everything
    for (uint32_t eclass : order) {
      uint32_t undominated = 0;
      for (uint32_t n : problem_.classNodes[eclass]) undominated += dominator_[n] < 0;
      forced_[eclass] = undominated == 1;
    }
  }

  void enqueue(uint32_t n) {
    if (queued_[n] || dominator_[n] >= 0) return; // a dominated node is never the better choice
    queued_[n] = 1;
    queue_.push_back(n);
  }

  void changed(uint32_t eclass) {
    for (uint32_t parent : parents_.of(eclass))
      if (relevant_[flat_.eclass[parent]]) enqueue(parent);
  }

  void process(uint32_t n) {
    uint32_t eclass = flat_.eclass[n];
    if (forced_[eclass]) {
      // First time: take the node once its children have choices; later: something below
      // changed, which the ancestors must hear about.
      if (choice_[eclass] < 0) {
        for (uint32_t child : flat_.childrenOf(n))
          if (choice_[child] < 0) return;
        choice_[eclass] = static_cast<int32_t>(n);
      }
      changed(eclass);
      return;
    }
    if (choice_[eclass] == static_cast<int32_t>(n)) {
      // Something below the current choice changed: refresh the class's cost.
      double now = cost(n, kInf);
      if (sameCost(now, total_[eclass])) return;
      bool worse = now > total_[eclass];
      total_[eclass] = now;
      changed(eclass);
      if (worse) // another node of the class may now be the better one
        for (uint32_t sibling : problem_.classNodes[eclass]) enqueue(sibling);
      return;
    }
    double candidate = cost(n, total_[eclass]);
    if (!(candidate < total_[eclass]) || sameCost(candidate, total_[eclass])) return;
    choice_[eclass] = static_cast<int32_t>(n);
    total_[eclass] = candidate;
    changed(eclass);
  }

  // DAG cost of choosing `n` given the current choices below it; +inf when a child has no choice
  // yet, when the term would reach n's own class (a cycle), or as soon as it reaches `bound`.
  double cost(uint32_t n, double bound) {
    const uint32_t own = flat_.eclass[n];
    if (++epoch_ == 0) { // wrapped: clear the stamps once every 4 billion evaluations
      std::fill(stamp_.begin(), stamp_.end(), 0);
      epoch_ = 1;
    }
    double sum = flat_.cost[n];
    stack_.clear();
    for (uint32_t child : flat_.childrenOf(n)) {
      if (choice_[child] < 0 || child == own) return kInf;
      stamp_[child] = epoch_;
      stack_.push_back(child);
    }
    while (!stack_.empty()) {
      uint32_t eclass = stack_.back();
      stack_.pop_back();
      const uint32_t chosen = static_cast<uint32_t>(choice_[eclass]);
      sum += flat_.cost[chosen];
      if (sum >= bound) return kInf;
      for (uint32_t child : flat_.childrenOf(chosen)) {
        if (child == own) return kInf;
        if (stamp_[child] == epoch_) continue;
        stamp_[child] = epoch_;
        stack_.push_back(child);
      }
    }
    return sum;
  }

  const ExtractionProblem& problem_;
  const FlatProblem& flat_;
  const std::vector<uint32_t>& order_; // bottomUpClassOrder()
  std::vector<int32_t> choice_; // acyclic at all times: adoption checks reachability of the own class
  std::vector<double> total_;   // DAG cost of each class's current term when last evaluated
  std::vector<uint32_t> stamp_;
  uint32_t epoch_ = 0;
  std::vector<uint8_t> relevant_;
  std::vector<uint8_t> queued_;
  ParentIndex parents_;
  const std::vector<int32_t>& dominator_;
  std::vector<uint8_t> forced_; // class has one undominated node and the class graph is acyclic
  std::deque<uint32_t> queue_;
  std::vector<uint32_t> stack_;
};

} // namespace

uint64_t defaultSwapWorkBudget(const ExtractionProblem& problem) {
  return 200 * static_cast<uint64_t>(problem.nodes.size()) + 1000000;
}

Extraction extractDagGreedy(const ExtractionProblem& problem, const DagGreedyOptions& options) {
  auto start = std::chrono::steady_clock::now();
  validateProblem(problem);
  std::vector<int32_t> dominators = findDominators(problem);
  FlatProblem flat = flatten(problem);
  std::vector<uint32_t> order = bottomUpClassOrder(problem);
  std::vector<int32_t> greedy = DagGreedy(problem, flat, dominators, order).run(); // every class with a term
  std::vector<double> nodeScore(problem.nodes.size());
  for (uint32_t n = 0; n < problem.nodes.size(); ++n) nodeScore[n] = problem.nodes[n].cost;
  Extraction result;
  result.method = "dag";
  result.choice = validChoiceFrom(problem, greedy, nodeScore); // throws when a root has no term
  result.dagCost = dagCost(problem, result.choice);
  // The tree greedy is cheap and occasionally shares better by accident; keep the better of both.
  std::vector<int32_t> tree = restrictToReachable(problem, treePreferences(problem, order));
  assert(isValidChoice(problem, tree) && "tree preferences are acyclic (TreeExtractor.h)");
  double treeCost = dagCost(problem, tree);
  if (treeCost < result.dagCost) {
    result.choice = std::move(tree);
    result.dagCost = treeCost;
  }
  result.choice = improveBySwaps(problem, std::move(result.choice), greedy,
                                 options.swapWorkBudget > 0 ? options.swapWorkBudget : defaultSwapWorkBudget(problem),
                                 std::move(dominators), &flat, &result.dagCost);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

} // namespace tessera::extract
