// PACT'24 shared-subgraph greedy (OCF).
#include "extract/SharedCostExtractor.h"

#include "extract/AcyclicChoice.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <unordered_map>
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

// The node's shared-subgraph cost and the history it would give its class; false when a child has
// no cost yet or the node would depend on its own class.
bool evaluate(const ExtractionProblem& problem, const std::vector<ClassState>& classes, uint32_t n, double& cost,
              std::unordered_map<uint32_t, double>& history) {
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
      history.insert(state.history.begin(), state.history.end());
      contribution = state.cost;
    } else if (history.count(child)) {
      contribution = 0;
    } else {
      double largestShared = 0;
      for (const auto& [eclass, value] : state.history) {
        bool inserted = history.insert({eclass, value}).second;
        if (!inserted) largestShared = std::max(largestShared, value);
      }
      contribution = std::max(state.cost - largestShared, 0.0);
    }
    if (contribution > 0) history[child] = contribution;
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
  std::unordered_map<uint32_t, double> history;
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
        state.history.assign(history.begin(), history.end());
        std::sort(state.history.begin(), state.history.end());
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
