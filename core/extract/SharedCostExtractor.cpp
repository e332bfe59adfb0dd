// PACT'24 shared-subgraph greedy (OCF).
#include "extract/SharedCostExtractor.h"

#include "extract/AcyclicChoice.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <utility>

namespace tessera::extract {

namespace {

using History = std::vector<std::pair<uint32_t, double>>; // sorted by class id

const double* find(const History& history, uint32_t eclass) {
  auto it = std::lower_bound(history.begin(), history.end(), eclass,
                             [](const std::pair<uint32_t, double>& entry, uint32_t id) { return entry.first < id; });
  return it != history.end() && it->first == eclass ? &it->second : nullptr;
}

struct ClassState {
  int32_t best = -1;
  double cost = std::numeric_limits<double>::infinity();
  History history;
};

// The history of the node being evaluated: dense arrays with visit stamps, so building it costs
// O(entries touched) with no hashing and no clearing.
class ScratchHistory {
public:
  explicit ScratchHistory(size_t classes) : stamp_(classes, 0), value_(classes, 0) {}
  void clear() {
    members_.clear();
    if (++epoch_ != 0) return;
    std::fill(stamp_.begin(), stamp_.end(), 0); // wrapped after 4 billion evaluations
    epoch_ = 1;
  }
  bool empty() const { return members_.empty(); }
  bool contains(uint32_t eclass) const { return stamp_[eclass] == epoch_; }
  bool insert(uint32_t eclass, double value) { // false (and no change) when already present
    if (contains(eclass)) return false;
    stamp_[eclass] = epoch_;
    value_[eclass] = value;
    members_.push_back(eclass);
    return true;
  }
  void set(uint32_t eclass, double value) {
    if (!insert(eclass, value)) value_[eclass] = value;
  }
  History sorted() const {
    History result;
    result.reserve(members_.size());
    for (uint32_t eclass : members_) result.push_back({eclass, value_[eclass]});
    std::sort(result.begin(), result.end());
    return result;
  }

private:
  std::vector<uint32_t> stamp_;
  std::vector<double> value_;
  std::vector<uint32_t> members_;
  uint32_t epoch_ = 1;
};

// The node's shared-subgraph cost, its history left in `history`; false when a child has no cost
// yet or the node would depend on its own class.
bool evaluate(const ExtractionProblem& problem, const std::vector<ClassState>& classes, uint32_t n, double& cost,
              ScratchHistory& history) {
  const ExtractionNode& node = problem.nodes[n];
  history.clear();
  cost = node.cost;
  for (uint32_t child : node.children) {
    const ClassState& state = classes[child];
    if (state.best < 0 || child == node.eclass || find(state.history, node.eclass)) return false;
  }
  for (uint32_t child : node.children) {
    const ClassState& state = classes[child];
    double contribution = 0;
    if (history.empty()) {
      for (const auto& [eclass, value] : state.history) history.insert(eclass, value);
      contribution = state.cost;
    } else if (history.contains(child)) {
      contribution = 0;
    } else {
      double largestShared = 0;
      for (const auto& [eclass, value] : state.history)
        if (!history.insert(eclass, value)) largestShared = std::max(largestShared, value);
      contribution = std::max(state.cost - largestShared, 0.0);
    }
    if (contribution > 0) history.set(child, contribution);
    cost += contribution;
  }
  return true;
}

} // namespace

Extraction extractSharedCost(const ExtractionProblem& problem) {
  auto start = std::chrono::steady_clock::now();
  validateProblem(problem);
  std::vector<ClassState> classes(problem.classCount());
  std::vector<double> nodeScore(problem.nodes.size(), std::numeric_limits<double>::infinity());
  std::vector<uint32_t> order = bottomUpClassOrder(problem);
  ScratchHistory history(problem.classCount());
  const size_t maxSweeps = problem.classCount() + 2;
  bool changed = true;
  for (size_t sweep = 0; changed && sweep < maxSweeps; ++sweep) {
    changed = false;
    for (uint32_t eclass : order) {
      ClassState& state = classes[eclass];
      for (uint32_t n : problem.classNodes[eclass]) {
        double cost = 0;
        if (!evaluate(problem, classes, n, cost, history)) continue;
        nodeScore[n] = cost;
        if (state.best >= 0 && !(cost < state.cost)) continue;
        state.best = static_cast<int32_t>(n);
        state.cost = cost;
        state.history = history.sorted();
        changed = true;
      }
    }
  }

  std::vector<int32_t> preferred(problem.classCount(), -1);
  for (uint32_t c = 0; c < classes.size(); ++c) preferred[c] = classes[c].best;
  Extraction result;
  result.method = "ocf";
  result.choice = validChoiceFrom(problem, preferred, nodeScore);
  result.dagCost = dagCost(problem, result.choice);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

} // namespace tessera::extract
