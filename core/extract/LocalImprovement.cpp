// Single-swap hill climbing over a valid extraction, priced incrementally with reference counts.
#include "extract/LocalImprovement.h"

#include "extract/Dominance.h"
#include "extract/Extraction.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <utility>

namespace tessera::extract {

namespace {

// The extraction is kept as reference counts: refs[c] = number of chosen nodes (plus roots) that
// use class c; c is in the extraction iff refs[c] > 0. A swap at class c from node a to node b adds
// b's child classes (a class whose count leaves 0 joins with its node's children, recursively) and
// then removes a's (a class whose count drops to 0 leaves with its node's children). The cost
// change is the sum over the classes that joined minus those that left, found in time
// proportional to the part of the extraction that changes, not to its size. Every count change is
// logged so a rejected swap is undone exactly.
class SwapSearch {
public:
  SwapSearch(const ExtractionProblem& problem, std::vector<int32_t> choice, const std::vector<int32_t>& background,
             uint64_t budget, std::vector<int32_t> dominators, const FlatProblem* flat)
      : problem_(problem), ownFlat_(flat ? FlatProblem{} : flatten(problem)), flat_(flat ? *flat : ownFlat_),
        current_(std::move(choice)), budget_(budget), refs_(problem.classCount(), 0),
        position_(problem.classCount(), 0), joined_(problem.classCount(), 0), seen_(problem.classCount(), 0),
        dominator_(dominators.empty() ? findDominators(problem) : std::move(dominators)) {
    assert(current_.size() == problem.classCount() && background.size() == problem.classCount() && "one entry per class");
    // Classes outside the extraction take the background's node, so a swap can pull them in.
    for (uint32_t c = 0; c < current_.size(); ++c)
      if (current_[c] < 0) current_[c] = background[c];
    original_ = current_;
    for (uint32_t root : problem_.roots) add(root);
    log_.clear();
    assert(!failed_ && "the starting choice must be complete");
    refresh();
    if (failed_) cost_ = dagCost(problem_, original_);
  }

  std::vector<int32_t> run() {
    if (failed_) return restrictToReachable(problem_, original_); // incomplete start: leave it be
    for (bool improved = true; improved && budget_ > 0;) {
      improved = false;
      for (uint32_t eclass = 0; eclass < problem_.classCount() && budget_ > 0; ++eclass) {
        for (uint32_t node : problem_.classNodes[eclass]) {
          if (refs_[eclass] == 0) break; // an earlier swap made this class unnecessary
          if (static_cast<int32_t>(node) == current_[eclass] || dominator_[node] >= 0) continue;
          if (!trySwap(eclass, node)) continue;
          improved = true;
        }
      }
    }
    std::vector<int32_t> result(problem_.classCount(), -1);
    for (uint32_t c = 0; c < result.size(); ++c)
      if (refs_[c] > 0) result[c] = current_[c];
    return result;
  }

  double cost() const { return cost_; }

private:
  // Counts one more use of `eclass`; a class entering the extraction brings its node's children.
  void add(uint32_t eclass) {
    stack_.assign(1, eclass);
    while (!stack_.empty()) {
      uint32_t c = stack_.back();
      stack_.pop_back();
      log_.push_back({c, +1});
      if (refs_[c]++ > 0) continue;
      if (budget_ > 0) --budget_;
      joined_[c] = trial_;
      if (current_[c] < 0) { // no term known for this class: the swap cannot be priced
        failed_ = true;
        continue;
      }
      delta_ += flat_.cost[current_[c]];
      for (uint32_t child : flat_.childrenOf(current_[c])) stack_.push_back(child);
    }
  }

  // Counts one use less of `eclass`; a class leaving the extraction releases its node's children.
  void remove(uint32_t eclass) {
    stack_.assign(1, eclass);
    while (!stack_.empty()) {
      uint32_t c = stack_.back();
      stack_.pop_back();
      log_.push_back({c, -1});
      assert(refs_[c] > 0 && "removing a class the extraction does not use");
      if (--refs_[c] > 0) continue;
      if (budget_ > 0) --budget_;
      delta_ -= flat_.cost[current_[c]];
      for (uint32_t child : flat_.childrenOf(current_[c])) stack_.push_back(child);
    }
  }

  // Would `node`, chosen for `eclass`, reach `eclass` again? Classes that were in the extraction
  // before this swap and sit earlier in its post-order cannot reach it (they are not its ancestors).
  bool closesCycle(uint32_t eclass, uint32_t node) {
    ++walk_;
    stack_.clear();
    for (uint32_t child : flat_.childrenOf(node)) stack_.push_back(child);
    while (!stack_.empty()) {
      uint32_t c = stack_.back();
      stack_.pop_back();
      if (c == eclass) return true;
      if (seen_[c] == walk_) continue;
      seen_[c] = walk_;
      if (budget_ > 0) --budget_;
      bool old = joined_[c] != trial_;
      if (old && position_[c] < position_[eclass]) continue;
      if (current_[c] < 0) continue;
      for (uint32_t child : flat_.childrenOf(current_[c])) stack_.push_back(child);
    }
    return false;
  }

  bool trySwap(uint32_t eclass, uint32_t node) {
    const uint32_t previous = static_cast<uint32_t>(current_[eclass]);
    ++trial_;
    delta_ = flat_.cost[node] - flat_.cost[previous];
    failed_ = false;
    log_.clear();
    for (uint32_t child : flat_.childrenOf(node)) add(child); // first, so shared classes never leave
    if (failed_ || closesCycle(eclass, node)) {
      undo();
      return false;
    }
    for (uint32_t child : flat_.childrenOf(previous)) remove(child);
    // Strictly better by more than rounding, or the climb could cycle between equal choices.
    if (!(delta_ < -1e-12 * std::max(1.0, std::abs(cost_)))) {
      undo();
      return false;
    }
    current_[eclass] = static_cast<int32_t>(node);
    refresh();
    return true;
  }

  void undo() {
    for (auto it = log_.rbegin(); it != log_.rend(); ++it) refs_[it->first] -= it->second;
    log_.clear();
  }

  // Exact cost and post-order positions of the extraction, after it changed (iterative DFS).
  void refresh() {
    ++walk_;
    cost_ = 0;
    uint32_t next = 0;
    std::vector<std::pair<uint32_t, uint32_t>> frames; // (class, next child position)
    for (uint32_t root : problem_.roots) {
      if (seen_[root] == walk_) continue;
      seen_[root] = walk_;
      frames.push_back({root, 0});
      while (!frames.empty()) {
        auto& [c, at] = frames.back();
        std::span<const uint32_t> children = flat_.childrenOf(current_[c]);
        if (at < children.size()) {
          uint32_t child = children[at++];
          if (seen_[child] == walk_) continue;
          seen_[child] = walk_;
          frames.push_back({child, 0}); // invalidates c and at; the loop re-reads them
          continue;
        }
        cost_ += flat_.cost[current_[c]];
        position_[c] = next++;
        frames.pop_back();
      }
    }
  }

  const ExtractionProblem& problem_;
  FlatProblem ownFlat_; // only when the caller has none
  const FlatProblem& flat_;
  std::vector<int32_t> current_; // the extraction's node per class, the background's elsewhere
  std::vector<int32_t> original_;
  uint64_t budget_;
  std::vector<uint32_t> refs_;
  std::vector<uint32_t> position_; // post-order position in the extraction (children first)
  std::vector<uint32_t> joined_;   // == trial_: joined during the current swap
  std::vector<uint32_t> seen_;     // == walk_: visited by the current walk
  std::vector<int32_t> dominator_;
  std::vector<std::pair<uint32_t, int>> log_;
  std::vector<uint32_t> stack_;
  uint32_t trial_ = 0, walk_ = 0;
  double cost_ = 0, delta_ = 0;
  bool failed_ = false;
};

} // namespace

std::vector<int32_t> improveBySwaps(const ExtractionProblem& problem, std::vector<int32_t> choice,
                                    const std::vector<int32_t>& background, uint64_t workBudget,
                                    std::vector<int32_t> dominators, const FlatProblem* flat, double* finalCost) {
  SwapSearch search(problem, std::move(choice), background, workBudget, std::move(dominators), flat);
  std::vector<int32_t> result = search.run();
  if (finalCost) *finalCost = search.cost();
  return result;
}

} // namespace tessera::extract
