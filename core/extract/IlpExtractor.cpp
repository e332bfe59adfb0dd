// DAG-cost-exact extraction with CBC (CbcModel over OsiClpSolverInterface).
#include "extract/IlpExtractor.h"

#include "extract/DagGreedyExtractor.h"
#include "extract/IlpReduction.h"
#include "extract/RequiredClasses.h"
#include "extract/StronglyConnected.h"

#include <CbcHeuristic.hpp>
#include <CbcModel.hpp>
#include <CglClique.hpp>
#include <CglFlowCover.hpp>
#include <CglGomory.hpp>
#include <CglKnapsackCover.hpp>
#include <CglMixedIntegerRounding2.hpp>
#include <CglProbing.hpp>
#include <CglStored.hpp>
#include <CoinPackedMatrix.hpp>
#include <OsiClpSolverInterface.hpp>

#include <algorithm>
#include <cassert>
#include <chrono>
#include <cmath>
#include <limits>

namespace tessera::extract {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// Column layout: one binary per alive node of a model class, then one level per cyclic class.
struct Columns {
  std::vector<int32_t> ofNode;  // node -> column, -1 when not in the model
  std::vector<int32_t> ofLevel; // class -> level column, -1 when the class cannot be on a cycle
  std::vector<uint32_t> component;     // class -> strongly connected component of the class graph
  std::vector<uint32_t> componentSize; // class -> size of its SCC (the big-M)
  int count = 0;
  int nodeColumns = 0;
};

Columns layOutColumns(const ExtractionProblem& problem, const IlpReduction& reduced) {
  const size_t classes = problem.classCount();
  Columns columns;
  columns.ofNode.assign(problem.nodes.size(), -1);
  columns.ofLevel.assign(classes, -1);
  columns.componentSize.assign(classes, 1);
  for (uint32_t c = 0; c < classes; ++c)
    for (uint32_t n : reduced.aliveNodes[c]) columns.ofNode[n] = columns.count++;
  columns.nodeColumns = columns.count;

  DirectedGraph classGraph;
  classGraph.offsets.push_back(0);
  for (uint32_t c = 0; c < classes; ++c) {
    for (uint32_t n : reduced.aliveNodes[c])
      for (uint32_t child : distinctChildren(problem.nodes[n])) classGraph.targets.push_back(child);
    classGraph.offsets.push_back(static_cast<uint32_t>(classGraph.targets.size()));
  }
  Components components = stronglyConnectedComponents(classGraph);
  columns.component = components.componentOf;
  for (uint32_t c = 0; c < classes; ++c) {
    if (!reduced.classInModel[c] || !onCycle(classGraph, components, c)) continue;
    columns.componentSize[c] = components.sizes[components.componentOf[c]];
    columns.ofLevel[c] = columns.count++;
  }
  return columns;
}

// Level of each chosen class in the warm start: its height in the chosen DAG counting only edges
// inside one SCC, so it stays below the SCC's size and satisfies every ordering row.
std::vector<double> warmStartLevels(const ExtractionProblem& problem, const std::vector<int32_t>& choice,
                                    const std::vector<uint32_t>& component) {
  std::vector<double> height(problem.classCount(), 0);
  // Post-order over the (acyclic) choice, iteratively.
  std::vector<uint8_t> state(problem.classCount(), 0);
  std::vector<std::pair<uint32_t, size_t>> stack;
  for (uint32_t root : problem.roots) {
    if (state[root]) continue;
    state[root] = 1;
    stack.push_back({root, 0});
    while (!stack.empty()) {
      auto& [eclass, next] = stack.back();
      const std::vector<uint32_t>& children = problem.nodes[choice[eclass]].children;
      if (next < children.size()) {
        uint32_t child = children[next++];
        if (!state[child]) {
          state[child] = 1;
          stack.push_back({child, 0});
        }
        continue;
      }
      for (uint32_t child : children)
        if (component[child] == component[eclass]) height[eclass] = std::max(height[eclass], height[child] + 1);
      stack.pop_back();
    }
  }
  return height;
}

} // namespace

Extraction extractIlp(const ExtractionProblem& problem, const IlpOptions& options) {
  auto start = Clock::now();
  validateProblem(problem);
  // The ILP is slow anyway: a longer swap search buys a better incumbent and a tighter pruning bound
  // (within a share of the time limit: about 5 million class visits per second of limit).
  uint64_t swapBudget = 10 * defaultSwapWorkBudget(problem);
  if (options.timeLimitSeconds > 0)
    swapBudget = std::max(defaultSwapWorkBudget(problem),
                          std::min(swapBudget, static_cast<uint64_t>(5e6 * options.timeLimitSeconds)));
  Extraction greedy = extractDagGreedy(problem, {swapBudget});
  Extraction result = greedy;
  result.method = "ilp";
  result.provenOptimal = false;
  result.lowerBound = 0;

  const double upperBound = greedy.dagCost;
  IlpReduction reduced = reduceForIlp(problem, upperBound, options.presolve);
  // The warm start with dominated nodes swapped for their dominators: no costlier, no new edge.
  std::vector<int32_t> warm = greedy.choice;
  for (int32_t& node : warm)
    if (node >= 0 && reduced.replacement[node] >= 0) node = reduced.replacement[node];
  warm = restrictToReachable(problem, warm);
  const double warmCost = dagCost(problem, warm);
  if (warmCost < result.dagCost) {
    result.choice = warm;
    result.dagCost = warmCost;
  }
  if (options.timeLimitSeconds > 0 && secondsSince(start) >= options.timeLimitSeconds) {
    result.seconds = secondsSince(start); // no time left for CBC: the incumbent is the answer
    return result;
  }
  Columns columns = layOutColumns(problem, reduced);
  const size_t classes = problem.classCount();

  std::vector<double> columnLower(columns.count, 0.0), columnUpper(columns.count, 1.0), objective(columns.count, 0.0);
  for (uint32_t n = 0; n < problem.nodes.size(); ++n)
    if (columns.ofNode[n] >= 0) objective[columns.ofNode[n]] = problem.nodes[n].cost;
  for (uint32_t c = 0; c < classes; ++c)
    if (columns.ofLevel[c] >= 0) columnUpper[columns.ofLevel[c]] = columns.componentSize[c] - 1.0;

  // Rows in compressed sparse row form (CoinPackedVector's per-insert duplicate checks are slow).
  std::vector<int> rowStarts{0}, rowIndices;
  std::vector<double> rowValues, rowLower, rowUpper;
  auto addRow = [&](double lower, double upper) {
    rowStarts.push_back(static_cast<int>(rowIndices.size()));
    rowLower.push_back(lower);
    rowUpper.push_back(upper);
  };
  auto addTerm = [&](int column, double value) {
    rowIndices.push_back(column);
    rowValues.push_back(value);
  };
  std::vector<uint8_t> isRoot(classes, 0);
  for (uint32_t root : problem.roots) isRoot[root] = 1;
  for (uint32_t c = 0; c < classes; ++c) {
    if (!reduced.classInModel[c]) continue;
    if (!isRoot[c] && reduced.aliveNodes[c].size() < 2) continue; // x <= 1 already
    for (uint32_t n : reduced.aliveNodes[c]) addTerm(columns.ofNode[n], 1.0);
    addRow(isRoot[c] ? 1.0 : -COIN_DBL_MAX, 1.0);
  }
  // One row per (class, child class) pair, over the nodes of the class that use the child: since at
  // most one of them is chosen, their sum is the indicator "c's term uses k". Fewer rows than one
  // per node and a tighter LP (per node, c split over several nodes that all use k paid k only once).
  std::vector<uint32_t> childClasses;
  std::vector<std::vector<int>> users(classes); // child class -> columns of c's nodes that use it
  for (uint32_t c = 0; c < classes; ++c) {
    childClasses.clear();
    for (uint32_t n : reduced.aliveNodes[c])
      for (uint32_t child : distinctChildren(problem.nodes[n])) {
        if (users[child].empty()) childClasses.push_back(child);
        users[child].push_back(columns.ofNode[n]);
      }
    for (uint32_t child : childClasses) {
      // sum_{m in child} x_m - sum_{n in c using child} x_n >= 0 (no self loops: disjoint columns)
      for (uint32_t m : reduced.aliveNodes[child]) addTerm(columns.ofNode[m], 1.0);
      for (int x : users[child]) addTerm(x, -1.0);
      addRow(0.0, COIN_DBL_MAX);
      int parentLevel = columns.ofLevel[c], childLevel = columns.ofLevel[child];
      if (parentLevel >= 0 && childLevel >= 0 && columns.component[c] == columns.component[child]) {
        const double bigM = columns.componentSize[c];
        addTerm(parentLevel, 1.0); // l_c - l_child - M sum_{n using child} x_n >= 1 - M
        addTerm(childLevel, -1.0);
        for (int x : users[child]) addTerm(x, -bigM);
        addRow(1.0 - bigM, COIN_DBL_MAX);
      }
      users[child].clear();
    }
  }
  // y_k >= y_c for the classes k every term of c contains (RequiredClasses.h), where the rows above
  // do not already say so (k a child of every node of c). Without them the LP splits c over
  // alternatives that reach k by different paths (relu(conv) vs the fused conv) and pays k only in
  // part, again at every level below (mobilenet_v2's root bound: 22 % of the optimum without, 78 %
  // with). They go to a cut pool, not the matrix: as rows they slowed CBC's probing and root cuts,
  // which on other e-graphs close the gap at the root (BERT's: 0.02 s as cuts, 10 s as rows).
  CglStored requiredCuts;
  {
    std::vector<std::vector<uint32_t>> required = nearestRequiredClasses(problem, reduced.aliveNodes);
    std::vector<uint32_t> directUses(classes, 0);
    std::vector<int> cutColumns;
    std::vector<double> cutValues;
    for (uint32_t c = 0; c < classes; ++c) {
      if (required[c].empty()) continue;
      for (uint32_t n : reduced.aliveNodes[c])
        for (uint32_t child : distinctChildren(problem.nodes[n])) ++directUses[child];
      for (uint32_t k : required[c]) {
        if (directUses[k] == reduced.aliveNodes[c].size()) continue;
        cutColumns.clear();
        cutValues.clear();
        for (uint32_t m : reduced.aliveNodes[k]) cutColumns.push_back(columns.ofNode[m]), cutValues.push_back(1.0);
        for (uint32_t n : reduced.aliveNodes[c]) cutColumns.push_back(columns.ofNode[n]), cutValues.push_back(-1.0);
        requiredCuts.addCut(0.0, COIN_DBL_MAX, static_cast<int>(cutColumns.size()), cutColumns.data(), cutValues.data());
      }
      for (uint32_t n : reduced.aliveNodes[c])
        for (uint32_t child : distinctChildren(problem.nodes[n])) directUses[child] = 0;
    }
  }
  const int rows = static_cast<int>(rowLower.size());
  std::vector<int> rowLengths(rows);
  for (int r = 0; r < rows; ++r) rowLengths[r] = rowStarts[r + 1] - rowStarts[r];
  CoinPackedMatrix matrix(false, columns.count, rows, static_cast<CoinBigIndex>(rowValues.size()), rowValues.data(),
                          rowIndices.data(), rowStarts.data(), rowLengths.data());

  OsiClpSolverInterface solver;
  solver.messageHandler()->setLogLevel(0);
  solver.loadProblem(matrix, columnLower.data(), columnUpper.data(), objective.data(), rowLower.data(), rowUpper.data());
  for (int column = 0; column < columns.nodeColumns; ++column) solver.setInteger(column);

  CbcModel model(solver);
  model.setLogLevel(0);
  model.messageHandler()->setLogLevel(0);
  model.solver()->messageHandler()->setLogLevel(0);
  model.setNumberThreads(1);
  model.setRandomSeed(1234567);
  model.setUseElapsedTime(true);
  // Costs are milliseconds (often 1e-3 .. 1e-1): CBC's default cutoff increment (1e-5) would hide
  // real improvements, so ask for strict improvement at a much finer grain.
  model.setDblParam(CbcModel::CbcCutoffIncrement, 1e-9);
  model.setAllowableGap(1e-9);
  model.setAllowableFractionGap(1e-9);

  CglProbing probing;
  probing.setUsingObjective(true);
  probing.setMaxPass(1);
  probing.setMaxPassRoot(5);
  probing.setMaxProbe(10);
  probing.setMaxProbeRoot(1000);
  probing.setMaxLook(50);
  probing.setMaxLookRoot(500);
  probing.setRowCuts(3);
  CglGomory gomory;
  gomory.setLimit(300);
  CglKnapsackCover knapsack;
  CglClique clique;
  clique.setStarCliqueReport(false);
  clique.setRowCliqueReport(false);
  CglMixedIntegerRounding2 mixedIntegerRounding;
  CglFlowCover flowCover;
  model.addCutGenerator(&probing, -1, "Probing");
  model.addCutGenerator(&gomory, -1, "Gomory");
  model.addCutGenerator(&knapsack, -1, "Knapsack");
  model.addCutGenerator(&clique, -1, "Clique");
  model.addCutGenerator(&mixedIntegerRounding, -1, "MixedIntegerRounding2");
  model.addCutGenerator(&flowCover, -1, "FlowCover");
  model.addCutGenerator(&requiredCuts, 1, "RequiredClasses"); // every node: they are globally valid
  CbcRounding rounding(model);
  model.addHeuristic(&rounding);

  if (options.warmStart) {
    std::vector<double> incumbent(columns.count, 0.0);
    std::vector<double> level = warmStartLevels(problem, warm, columns.component);
    bool complete = true;
    for (uint32_t c = 0; c < classes; ++c) {
      if (warm[c] < 0) continue;
      assert(columns.ofNode[warm[c]] >= 0 && "the reduction keeps the warm start's nodes");
      complete = complete && columns.ofNode[warm[c]] >= 0;
      if (columns.ofNode[warm[c]] >= 0) incumbent[columns.ofNode[warm[c]]] = 1.0;
      if (columns.ofLevel[c] >= 0) incumbent[columns.ofLevel[c]] = level[c];
    }
    if (complete) model.setBestSolution(incumbent.data(), columns.count, warmCost, true);
  }

  const bool limited = options.timeLimitSeconds > 0;
  auto remaining = [&] { return options.timeLimitSeconds - secondsSince(start); };
  // Neither the root LP nor a root cut round can be interrupted: on e-graphs of ~10k nodes the
  // call can overrun the limit by a second or two.
  model.initialSolve();
  // CBC's clock starts in branchAndBound, so its budget is what is left of the caller's limit.
  if (!limited || remaining() > 0) {
    if (limited) model.setMaximumSeconds(std::max(remaining(), 1e-3));
    model.branchAndBound();
  }

  const double* best = model.bestSolution();
  if (best) { // our warm start counts too (CBC's solution count does not include it)
    std::vector<int32_t> choice(classes, -1);
    for (uint32_t n = 0; n < problem.nodes.size(); ++n)
      if (columns.ofNode[n] >= 0 && best[columns.ofNode[n]] > 0.5) choice[problem.nodes[n].eclass] = static_cast<int32_t>(n);
    choice = restrictToReachable(problem, choice);
    // Keep the ILP's answer only if it really is a valid, cheaper extraction (guards numerics).
    double cost = dagCost(problem, choice);
    if (isValidChoice(problem, choice) && cost < result.dagCost) {
      result.choice = std::move(choice);
      result.dagCost = cost;
    }
  }
  result.provenOptimal = model.isProvenOptimal() && !model.isSecondsLimitReached() && !(limited && remaining() <= 0);
  result.lowerBound = result.provenOptimal ? result.dagCost : std::min(model.getBestPossibleObjValue(), result.dagCost);
  result.seconds = secondsSince(start);
  return result;
}

} // namespace tessera::extract
