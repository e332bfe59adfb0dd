// Which e-classes the e-graph view draws: the op and rule filters, the focus neighbourhood, the
// weights (summarised on their consumers unless asked for) and the item budget decide, and every
// class left out is counted by reason, so the view can say exactly how much it does not show
// (never a silent truncation).
#pragma once

#include "replay/EGraphMirror.h"

#include <cstddef>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace tessera::views {

struct EGraphFilter {
  std::string op;                 // op name (opName); empty: every op
  std::string rule;               // rule name, or kOriginalRule for the model's own nodes; empty: every rule
  std::optional<EClassId> focus;  // show only this class and its neighbourhood
  int focusDepth = 2;             // hops along child and parent edges
  size_t classBudget = 1500;      // the most classes drawn at once
  // Weight-only classes (weights, and what computes from weights alone: the concatenated and
  // transposed weights rewrites make by the hundred) are drawn only when asked for or in the
  // focus; otherwise they are a count on their consumers. They made the picture a strip.
  bool showWeights = false;
  static constexpr const char* kOriginalRule = "(original)";

  bool filtersNodes() const { return !op.empty() || !rule.empty(); }
  bool matches(const EGraphMirror& egraph, const MirrorNode& node) const;
};

struct EGraphVisibility {
  std::vector<EClassId> shown;             // canonical ids, in first-seen order
  std::unordered_set<EClassId> shownSet;
  size_t totalClasses = 0;
  size_t hiddenByFilter = 0;
  size_t hiddenByFocus = 0;
  size_t hiddenByBudget = 0;
  size_t hiddenAsWeights = 0;
  // For each shown class, how many of its child or parent classes are not shown.
  std::unordered_map<EClassId, uint32_t> hiddenNeighbours;
  // For each shown class, how many of its child classes are weight-only classes not drawn.
  std::unordered_map<EClassId, uint32_t> weightInputs;
  std::unordered_set<EClassId> weightOnly; // every weight-only class (canonical ids)

  size_t hidden() const { return hiddenByFilter + hiddenByFocus + hiddenByBudget + hiddenAsWeights; }
};

// Canonical ids of the classes that hold a weight or compute from weight-only classes alone.
std::unordered_set<EClassId> weightOnlyClasses(const EGraphMirror& egraph);

EGraphVisibility computeVisibility(const EGraphMirror& egraph, const EGraphFilter& filter);

} // namespace tessera::views
