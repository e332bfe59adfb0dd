// DAG cost and validity of a choice: walks the chosen sub-DAG from the roots without recursion.
#include "extract/Extraction.h"

#include <limits>
#include <utility>

namespace tessera::extract {

namespace {

// The node `eclass` chooses, or -1 when the entry is missing, out of range or in another class.
int64_t chosenNode(const ExtractionProblem& problem, const std::vector<int32_t>& choice, uint32_t eclass) {
  if (eclass >= choice.size()) return -1;
  int32_t node = choice[eclass];
  if (node < 0 || static_cast<size_t>(node) >= problem.nodes.size()) return -1;
  if (problem.nodes[node].eclass != eclass) return -1;
  return node;
}

// Classes reachable from the roots through the choice (roots included); stops descending at
// classes without a valid choice and reports whether it met one.
std::vector<uint8_t> reachable(const ExtractionProblem& problem, const std::vector<int32_t>& choice, bool* complete) {
  std::vector<uint8_t> seen(problem.classCount(), 0);
  std::vector<uint32_t> stack;
  if (complete) *complete = true;
  for (uint32_t root : problem.roots) {
    if (root >= seen.size() || seen[root]) continue;
    seen[root] = 1;
    stack.push_back(root);
  }
  while (!stack.empty()) {
    uint32_t eclass = stack.back();
    stack.pop_back();
    int64_t node = chosenNode(problem, choice, eclass);
    if (node < 0) {
      if (complete) *complete = false;
      continue;
    }
    for (uint32_t child : problem.nodes[node].children) {
      if (child >= seen.size() || seen[child]) continue;
      seen[child] = 1;
      stack.push_back(child);
    }
  }
  return seen;
}

} // namespace

double dagCost(const ExtractionProblem& problem, const std::vector<int32_t>& choice) {
  bool complete = true;
  std::vector<uint8_t> seen = reachable(problem, choice, &complete);
  if (!complete) return std::numeric_limits<double>::infinity();
  double total = 0;
  for (uint32_t c = 0; c < seen.size(); ++c)
    if (seen[c]) total += problem.nodes[chosenNode(problem, choice, c)].cost;
  return total;
}

std::string choiceDefect(const ExtractionProblem& problem, const std::vector<int32_t>& choice) {
  const size_t classes = problem.classCount();
  if (choice.size() != classes)
    return "the choice has " + std::to_string(choice.size()) + " entries for " + std::to_string(classes) + " classes";
  for (uint32_t root : problem.roots)
    if (root >= classes) return "root class " + std::to_string(root) + " does not exist";

  enum : uint8_t { kUnseen, kOnPath, kDone };
  std::vector<uint8_t> state(classes, kUnseen);
  std::vector<std::pair<uint32_t, size_t>> path; // (class, next child position): the DFS stack
  for (uint32_t root : problem.roots) {
    if (state[root] != kUnseen) continue;
    state[root] = kOnPath;
    path.push_back({root, 0});
    while (!path.empty()) {
      auto& [eclass, next] = path.back();
      int32_t raw = choice[eclass];
      int64_t node = chosenNode(problem, choice, eclass);
      if (node < 0) {
        if (raw < 0) return "class " + problem.className(eclass) + " is needed but has no chosen node";
        if (static_cast<size_t>(raw) >= problem.nodes.size())
          return "class " + problem.className(eclass) + " chooses node " + std::to_string(raw) + ", which does not exist";
        return "class " + problem.className(eclass) + " chooses node " + problem.nodeName(raw) + " of class " +
               problem.className(problem.nodes[raw].eclass);
      }
      const std::vector<uint32_t>& children = problem.nodes[node].children;
      if (next == children.size()) {
        state[eclass] = kDone;
        path.pop_back();
        continue;
      }
      uint32_t child = children[next++];
      if (state[child] == kDone) continue;
      if (state[child] == kOnPath) {
        std::string cycle;
        size_t start = 0;
        while (path[start].first != child) ++start;
        for (size_t i = start; i < path.size(); ++i) cycle += problem.className(path[i].first) + " -> ";
        return "the choice has a cycle through classes " + cycle + problem.className(child);
      }
      state[child] = kOnPath;
      path.push_back({child, 0});
    }
  }
  return {};
}

std::vector<int32_t> restrictToReachable(const ExtractionProblem& problem, const std::vector<int32_t>& choice) {
  std::vector<uint8_t> seen = reachable(problem, choice, nullptr);
  std::vector<int32_t> result(problem.classCount(), -1);
  for (uint32_t c = 0; c < seen.size() && c < choice.size(); ++c)
    if (seen[c]) result[c] = choice[c];
  return result;
}

} // namespace tessera::extract
