// The join behind a multi-pattern rule (TENSAT's MultiPatterns): the matches of its two source
// patterns, paired where their shared variables agree, found through a hash index on those
// variables and handed out one pair at a time. Pairs of one class with itself are skipped, a
// symmetric rule uses each unordered pair of classes once, and TENSAT's pre-check rejects a pair
// when a matched class is, or lies below, one of the pair's inputs (merging would close a cycle).
#pragma once

#include "egraph/EGraph.h"
#include "rewrite/Rule.h"

#include <functional>
#include <memory>
#include <span>
#include <vector>

namespace tessera {

constexpr EClassId kUnboundClass = ~EClassId(0);
constexpr uint32_t kUnboundAttribute = ~uint32_t(0);

// The matches of one source pattern, flattened so that collecting them allocates per batch, not
// per match: match i binds variables [i * variableCount, (i + 1) * variableCount) of `bindings`
// (kUnboundClass for the other source's variables), and likewise for attribute variables.
struct SideMatches {
  size_t variableCount = 0;
  size_t attributeCount = 0;
  std::vector<EClassId> roots;
  std::vector<EClassId> bindings;
  std::vector<uint32_t> attributes;

  size_t size() const { return roots.size(); }
  void add(EClassId root, std::span<const EClassId> matchBindings, std::span<const uint32_t> matchAttributes);
  std::span<const EClassId> bindingsOf(size_t i) const { return {bindings.data() + i * variableCount, variableCount}; }
  std::span<const uint32_t> attributesOf(size_t i) const { return {attributes.data() + i * attributeCount, attributeCount}; }
};

// Which of a set of target classes lie strictly below a class (through e-nodes that are not
// filtered). TENSAT's descendant map, kept to the targets that matter (the matched roots) as one
// bitset per class, computed at construction for `sources` and everything below them, so the
// e-graph may change afterwards.
class DescendantIndex {
public:
  DescendantIndex(const EGraph& egraph, std::span<const EClassId> targets, std::span<const EClassId> sources);
  ~DescendantIndex();
  DescendantIndex(const DescendantIndex&) = delete;
  DescendantIndex& operator=(const DescendantIndex&) = delete;

  // Is `target` a descendant of `eclass` (one of the sources)? Both canonical when the index was built.
  bool isBelow(EClassId target, EClassId eclass) const;

private:
  struct State;
  std::unique_ptr<State> state_;
};

struct JoinSettings {
  bool symmetric = false;      // each unordered pair of root classes once
  bool checkDescendants = true; // TENSAT's pre-check
  // A last test on the combined match (a rule's type guards); empty accepts all.
  std::function<bool(const RuleMatch&)> accept;
};

// Pairs `first` with `second` on the variables both bind. The e-graph must be clean now; it may
// grow while the stream is read (the pairs and the pre-check refer to the state at this call).
std::unique_ptr<MatchStream> joinSideMatches(const EGraph& egraph, SideMatches first, SideMatches second, JoinSettings settings);

} // namespace tessera
