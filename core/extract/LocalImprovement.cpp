// Hill climbing over a valid extraction with single-class swaps and joint moves at sharing points,
// priced incrementally with reference counts.
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

// Outside classes a joint move may route through on its way up from a sharing point: enough for
// split_k(split(conv)) and a fused activation above it, small enough to keep a move cheap.
constexpr size_t kMaxRouteClasses = 16;

// The extraction is kept as reference counts: refs[c] = number of chosen nodes (plus roots) that
// use class c; c is in the extraction iff refs[c] > 0. A swap at class c from node a to node b adds
// b's child classes (a class whose count leaves 0 joins with its node's children, recursively) and
// then removes a's (a class whose count drops to 0 leaves with its node's children). The cost
// change is the sum over the classes that joined minus those that left, found in time
// proportional to the part of the extraction that changes, not to its size. Every count change and
// every node change is logged, so a rejected move (one swap or several) is undone exactly.
class SwapSearch {
public:
  SwapSearch(const ExtractionProblem& problem, std::vector<int32_t> choice, const std::vector<int32_t>& background,
             uint64_t budget, std::vector<int32_t> dominators, const FlatProblem* flat)
      : problem_(problem), ownFlat_(flat ? FlatProblem{} : flatten(problem)), flat_(flat ? *flat : ownFlat_),
        current_(std::move(choice)), budget_(budget), refs_(problem.classCount(), 0),
        position_(problem.classCount(), 0), joined_(problem.classCount(), 0), seen_(problem.classCount(), 0),
        onPath_(problem.classCount(), 0), moved_(problem.classCount(), 0),
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
    findSharingPoints();
    for (bool improved = true; improved && budget_ > 0;) {
      improved = swapRound();
      if (!improved && budget_ > 0) improved = jointRound();
    }
    std::vector<int32_t> result(problem_.classCount(), -1);
    for (uint32_t c = 0; c < result.size(); ++c)
      if (refs_[c] > 0) result[c] = current_[c];
    return result;
  }

  double cost() const { return cost_; }

private:
  struct Mark {
    size_t refs, nodes;
  };
  struct Swap {
    double delta;
    uint32_t eclass, node;
  };

  // One round of single swaps: every other undominated node of every used class, first improvement.
  bool swapRound() {
    bool improved = false;
    for (uint32_t eclass = 0; eclass < problem_.classCount() && budget_ > 0; ++eclass) {
      for (uint32_t node : problem_.classNodes[eclass]) {
        if (refs_[eclass] == 0) break; // an earlier swap made this class unnecessary
        if (static_cast<int32_t>(node) == current_[eclass] || dominator_[node] >= 0) continue;
        Mark mark = here();
        double delta = 0;
        beginTrial();
        if (swap(eclass, node, delta) && improves(delta)) {
          commit();
          improved = true;
          continue;
        }
        undoTo(mark);
      }
    }
    return improved;
  }

  // Single swaps cannot pay for a class that only several classes together make worth it: two
  // convolutions sharing an input each rewritten to split_k(split(BIGCONV)) lose alone (a big conv
  // for one output) and win together (one big conv for both). A sharing point is a class outside
  // the extraction that nodes of two or more classes use; for each, the classes of the extraction
  // with a node leading there switch together, cheapest first, and the best prefix is kept.
  bool jointRound() {
    bool improved = false;
    for (uint32_t target : sharingPoints_) {
      if (budget_ == 0) break;
      if (refs_[target] > 0) continue;
      improved = jointMove(target) || improved;
    }
    return improved;
  }

  void findSharingPoints() {
    parents_ = parentIndex(problem_);
    for (uint32_t c = 0; c < problem_.classCount(); ++c) {
      int64_t first = -1;
      for (uint32_t parent : parents_.of(c)) {
        if (dominator_[parent] >= 0) continue;
        if (first < 0) first = flat_.eclass[parent];
        if (flat_.eclass[parent] == first) continue;
        sharingPoints_.push_back(c);
        break;
      }
    }
  }

  bool jointMove(uint32_t target) {
    // Up from the target through outside classes (each routed through the node that leads down
    // to it) to the nodes of used classes that would pull it in: the candidate swaps.
    const Mark routeMark = here();
    ++walk_;
    seen_[target] = walk_;
    route_.assign(1, target);
    candidates_.clear();
    for (size_t i = 0; i < route_.size(); ++i) {
      for (uint32_t parent : parents_.of(route_[i])) {
        if (dominator_[parent] >= 0) continue;
        if (budget_ > 0) --budget_;
        const uint32_t eclass = flat_.eclass[parent];
        if (refs_[eclass] > 0) {
          if (current_[eclass] != static_cast<int32_t>(parent)) candidates_.push_back({0, eclass, parent});
          continue;
        }
        if (seen_[eclass] == walk_ || route_.size() >= kMaxRouteClasses) continue;
        seen_[eclass] = walk_;
        route_.push_back(eclass);
        setNode(eclass, parent);
      }
    }
    size_t classes = 0;
    ++move_;
    for (const Swap& candidate : candidates_) {
      classes += moved_[candidate.eclass] != move_;
      moved_[candidate.eclass] = move_;
    }
    if (classes < 2) {
      undoTo(routeMark);
      return false;
    }
    // Price each swap alone (dropping those that close a cycle); one that pays alone is simply taken.
    size_t kept = 0;
    for (Swap& candidate : candidates_) {
      Mark mark = here();
      double delta = 0;
      beginTrial();
      bool valid = swap(candidate.eclass, candidate.node, delta);
      if (valid && improves(delta)) {
        commitMove(routeMark);
        return true;
      }
      undoTo(mark);
      if (!valid) continue;
      candidate.delta = delta;
      candidates_[kept++] = candidate;
    }
    candidates_.resize(kept);
    std::stable_sort(candidates_.begin(), candidates_.end(), [](const Swap& a, const Swap& b) { return a.delta < b.delta; });
    // Then together, cheapest first, one node per class; the best prefix of two or more is the move.
    ++move_;
    beginTrial();
    double total = 0, best = 0;
    Mark bestMark = here();
    size_t applied = 0;
    for (const Swap& candidate : candidates_) {
      if (budget_ == 0) break;
      if (refs_[candidate.eclass] == 0 || moved_[candidate.eclass] == move_) continue;
      Mark mark = here();
      double delta = 0;
      if (!swap(candidate.eclass, candidate.node, delta)) {
        undoTo(mark);
        continue;
      }
      moved_[candidate.eclass] = move_;
      total += delta;
      if (++applied >= 2 && total < best) {
        best = total;
        bestMark = here();
      }
    }
    undoTo(bestMark);
    if (!improves(best)) {
      undoTo(routeMark);
      return false;
    }
    commitMove(routeMark);
    return true;
  }

  // Routed classes the move did not bring in go back to their node from before it, so later
  // swaps keep pricing against the same background.
  void commitMove(const Mark& routeMark) {
    for (size_t i = routeMark.nodes; i < routeMark.nodes + route_.size() - 1; ++i) {
      auto [eclass, before] = nodeLog_[i];
      if (refs_[eclass] == 0) current_[eclass] = before;
    }
    commit();
  }

  // Strictly better by more than rounding, or the climb could cycle between equal choices.
  bool improves(double delta) const { return delta < -1e-12 * std::max(1.0, std::abs(cost_)); }

  // A trial is one move: a single swap, or the swaps of a joint move one after another.
  void beginTrial() {
    ++trial_;
    swappedBelow_ = UINT32_MAX;
  }

  // Switches `eclass` (a class of the extraction as last refreshed) to `node`, adding the change
  // in DAG cost to `delta`; false when the swap cannot be priced or closes a cycle (the caller
  // undoes what was logged).
  bool swap(uint32_t eclass, uint32_t node, double& delta) {
    const uint32_t previous = static_cast<uint32_t>(current_[eclass]);
    delta_ = flat_.cost[node] - flat_.cost[previous];
    failed_ = false;
    for (uint32_t child : flat_.childrenOf(node)) add(child); // first, so shared classes never leave
    if (failed_ || closesCycle(eclass, node)) return false;
    for (uint32_t child : flat_.childrenOf(previous)) remove(child);
    setNode(eclass, node);
    swappedBelow_ = std::min(swappedBelow_, position_[eclass]);
    delta += delta_;
    return true;
  }

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

  // Does choosing `node` for `eclass` close a cycle? Not only back to `eclass`: the classes that
  // joined in this trial came with their background node, and a joint move re-points outside
  // classes at its route, so those nodes were never checked against each other (a route class
  // above the sharing point whose background term reaches the route again). Depth-first with the
  // path marked; a child on the path closes a cycle. A class that was in the extraction before this
  // trial and sits earlier in its post-order than `eclass` cannot reach it (it is not an ancestor)
  // nor a class that joined (its term is all old classes) unless its term passed through a class
  // swapped earlier in the trial, which sits earlier still: such classes are not walked.
  bool closesCycle(uint32_t eclass, uint32_t node) {
    const uint32_t unchangedBelow = std::min(position_[eclass], swappedBelow_);
    ++walk_;
    seen_[eclass] = walk_;
    onPath_[eclass] = walk_;
    frames_.assign(1, {eclass, 0});
    while (!frames_.empty()) {
      auto& [c, at] = frames_.back();
      std::span<const uint32_t> children = flat_.childrenOf(c == eclass ? node : static_cast<uint32_t>(current_[c]));
      if (at == children.size()) {
        onPath_[c] = 0;
        frames_.pop_back();
        continue;
      }
      const uint32_t child = children[at++];
      if (onPath_[child] == walk_) return true;
      if (seen_[child] == walk_) continue;
      seen_[child] = walk_;
      if (budget_ > 0) --budget_;
      bool old = joined_[child] != trial_;
      if (old && position_[child] < unchangedBelow) continue;
      if (current_[child] < 0) continue;
      onPath_[child] = walk_;
      frames_.push_back({child, 0}); // invalidates c and at; the loop re-reads them
    }
    return false;
  }

  void setNode(uint32_t eclass, uint32_t node) {
    nodeLog_.push_back({eclass, current_[eclass]});
    current_[eclass] = static_cast<int32_t>(node);
  }

  Mark here() const { return {log_.size(), nodeLog_.size()}; }

  void undoTo(const Mark& mark) {
    for (size_t i = log_.size(); i > mark.refs; --i) refs_[log_[i - 1].first] -= log_[i - 1].second;
    for (size_t i = nodeLog_.size(); i > mark.nodes; --i) current_[nodeLog_[i - 1].first] = nodeLog_[i - 1].second;
    log_.resize(mark.refs);
    nodeLog_.resize(mark.nodes);
  }

  // Keeps everything logged: the positions and the cost are taken afresh.
  void commit() {
    log_.clear();
    nodeLog_.clear();
    refresh();
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
  std::vector<uint32_t> joined_;   // == trial_: joined during the current trial
  std::vector<uint32_t> seen_;     // == walk_: visited by the current walk
  std::vector<uint32_t> onPath_;   // == walk_: on the path of closesCycle's depth-first walk
  std::vector<uint32_t> moved_;   // == move_: swapped by the current joint move
  std::vector<int32_t> dominator_;
  ParentIndex parents_;
  std::vector<uint32_t> sharingPoints_;
  std::vector<uint32_t> route_;
  std::vector<Swap> candidates_;
  std::vector<std::pair<uint32_t, int>> log_;         // reference count changes
  std::vector<std::pair<uint32_t, int32_t>> nodeLog_; // (class, node before) per node change
  std::vector<uint32_t> stack_;
  std::vector<std::pair<uint32_t, uint32_t>> frames_; // closesCycle's path: (class, next child)
  uint32_t trial_ = 0, walk_ = 0, move_ = 0;
  uint32_t swappedBelow_ = UINT32_MAX; // lowest position of a class swapped in the current trial
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
