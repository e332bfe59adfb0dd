// Single-swap hill climbing over a valid extraction.
#include "extract/LocalImprovement.h"

#include "extract/Dominance.h"
#include "extract/Extraction.h"

#include <cassert>
#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace tessera::extract {

namespace {

class SwapSearch {
public:
  SwapSearch(const ExtractionProblem& problem, std::vector<int32_t> choice, const std::vector<int32_t>& background,
             uint64_t budget, std::vector<int32_t> dominators)
      : problem_(problem), current_(std::move(choice)), budget_(budget), entered_(problem.classCount(), 0),
        finished_(problem.classCount(), 0),
        dominator_(dominators.empty() ? findDominators(problem) : std::move(dominators)) {
    assert(current_.size() == problem.classCount() && background.size() == problem.classCount() && "one entry per class");
    // Classes outside the extraction take the background's node, so a swap can pull them in.
    for (uint32_t c = 0; c < current_.size(); ++c)
      if (current_[c] < 0) current_[c] = background[c];
    cost_ = walk(UINT32_MAX, 0, std::numeric_limits<double>::infinity());
  }

  std::vector<int32_t> run() {
    for (bool improved = true; improved && budget_ > 0;) {
      improved = false;
      for (uint32_t eclass = 0; eclass < problem_.classCount(); ++eclass) {
        if (!used_[eclass]) continue;
        for (uint32_t node : problem_.classNodes[eclass]) {
          if (static_cast<int32_t>(node) == current_[eclass] || dominator_[node] >= 0) continue;
          if (budget_ == 0) break;
          // Strictly better by more than rounding, or the climb could cycle between equal choices.
          double bound = cost_ - 1e-12 * std::max(1.0, std::abs(cost_));
          double cost = walk(eclass, node, bound);
          if (!(cost < bound)) continue;
          current_[eclass] = static_cast<int32_t>(node);
          cost_ = walk(UINT32_MAX, 0, std::numeric_limits<double>::infinity()); // refreshes used_
          improved = true;
          if (!used_[eclass]) break; // the swap made this class unnecessary
        }
      }
    }
    return restrictToReachable(problem_, current_);
  }

private:
  int32_t chosen(uint32_t eclass) const { return eclass == swapClass_ ? static_cast<int32_t>(swapNode_) : current_[eclass]; }

  // DAG cost of the extraction with `eclass` switched to `node` (UINT32_MAX: no switch); +inf on a
  // missing choice, a cycle, or once the sum reaches `bound`. An unbounded walk also records which
  // classes the current extraction uses.
  double walk(uint32_t eclass, uint32_t node, double bound) {
    swapClass_ = eclass;
    swapNode_ = node;
    const bool record = eclass == UINT32_MAX;
    if (record) used_.assign(problem_.classCount(), 0);
    // Visit stamps instead of clearing per walk: most walks stop after a few classes.
    if (++epoch_ == 0) {
      std::fill(entered_.begin(), entered_.end(), 0);
      std::fill(finished_.begin(), finished_.end(), 0);
      epoch_ = 1;
    }
    double sum = 0;
    double result = std::numeric_limits<double>::infinity();
    stack_.clear();
    auto enter = [&](uint32_t c) {
      entered_[c] = epoch_;
      stack_.push_back({c, 0});
      if (record) used_[c] = 1;
      if (budget_ > 0) --budget_;
      sum += problem_.nodes[chosen(c)].cost;
    };
    for (uint32_t root : problem_.roots) {
      if (entered_[root] == epoch_) continue;
      if (chosen(root) < 0) return result;
      enter(root);
      while (!stack_.empty()) {
        if (sum >= bound) return result;
        auto& [c, next] = stack_.back();
        const std::vector<uint32_t>& children = problem_.nodes[chosen(c)].children;
        if (next == children.size()) {
          finished_[c] = epoch_;
          stack_.pop_back();
          continue;
        }
        uint32_t child = children[next++];
        if (finished_[child] == epoch_) continue;
        if (entered_[child] == epoch_ || chosen(child) < 0) return result; // on the path: a cycle
        enter(child);
      }
    }
    return sum;
  }

  const ExtractionProblem& problem_;
  std::vector<int32_t> current_;
  double cost_ = 0;
  uint64_t budget_;
  std::vector<uint32_t> entered_, finished_; // visit stamps of the current walk
  uint32_t epoch_ = 0;
  std::vector<uint8_t> used_;
  std::vector<int32_t> dominator_;
  std::vector<std::pair<uint32_t, size_t>> stack_;
  uint32_t swapClass_ = UINT32_MAX, swapNode_ = 0;
};

} // namespace

std::vector<int32_t> improveBySwaps(const ExtractionProblem& problem, std::vector<int32_t> choice,
                                    const std::vector<int32_t>& background, uint64_t workBudget,
                                    std::vector<int32_t> dominators) {
  return SwapSearch(problem, std::move(choice), background, workBudget, std::move(dominators)).run();
}

} // namespace tessera::extract
