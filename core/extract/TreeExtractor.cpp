// Tree-cost greedy extraction (egg's Extractor).
#include "extract/TreeExtractor.h"

#include "extract/AcyclicChoice.h"

#include <chrono>
#include <limits>

namespace tessera::extract {

namespace {

struct TreeResult {
  std::vector<double> classCost; // +inf where unknown
  std::vector<int32_t> best;     // class -> node, -1 where unknown
  std::vector<double> nodeCost;  // last tree cost seen per node, +inf where never computable
};

TreeResult computeTreeCosts(const ExtractionProblem& problem, const std::vector<uint32_t>& order) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  TreeResult result{std::vector<double>(problem.classCount(), kInf), std::vector<int32_t>(problem.classCount(), -1),
                    std::vector<double>(problem.nodes.size(), kInf)};
  // Costs are >= 0 and only strict improvements count, so an optimal term never repeats a class on
  // a path and each sweep extends the settled height by at least one: at most |classes|+1 sweeps.
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t eclass : order) {
      for (uint32_t n : problem.classNodes[eclass]) {
        const ExtractionNode& node = problem.nodes[n];
        double total = node.cost;
        bool computable = true;
        for (uint32_t child : node.children) {
          if (result.best[child] < 0) {
            computable = false;
            break;
          }
          total += result.classCost[child];
        }
        if (!computable) continue;
        result.nodeCost[n] = total;
        // `best < 0` admits a first cost even when it overflowed to +inf (huge shared DAGs).
        if (result.best[eclass] >= 0 && !(total < result.classCost[eclass])) continue;
        result.classCost[eclass] = total;
        result.best[eclass] = static_cast<int32_t>(n);
        changed = true;
      }
    }
  }
  return result;
}

} // namespace

std::vector<double> treeCosts(const ExtractionProblem& problem) {
  validateProblem(problem);
  return computeTreeCosts(problem, bottomUpClassOrder(problem)).classCost;
}

Extraction extractTree(const ExtractionProblem& problem) {
  auto start = std::chrono::steady_clock::now();
  validateProblem(problem);
  TreeResult tree = computeTreeCosts(problem, bottomUpClassOrder(problem));
  Extraction result;
  result.method = "tree";
  result.choice = validChoiceFrom(problem, tree.best, tree.nodeCost);
  result.dagCost = dagCost(problem, result.choice);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

std::vector<int32_t> treePreferences(const ExtractionProblem& problem, const std::vector<uint32_t>& order) {
  return computeTreeCosts(problem, order).best;
}

} // namespace tessera::extract
