// One MCTS action: apply one rule everywhere it matches (egg's Runner with an iteration limit of 1
// over that rule alone), stop adding at the node limit, then rebuild and filter cycles, so the
// e-graph is clean and extractable after every action.
#pragma once

#include "egraph/EGraph.h"
#include "events/Control.h"
#include "rewrite/Rule.h"

#include <vector>

#include <functional>
#include <span>

namespace tessera::mcts {

// The actions a search may take right now, by index into the rule pack: `order` holds the
// allowed ones, pinned first (Strategy.h's arrangeRules), and vetoed rules are in none of them.
struct ActionSpace {
  std::span<const Rule* const> rules;
  std::vector<uint16_t> order;
  std::vector<bool> allowed; // by action
  std::vector<bool> pinned;  // by action

  static ActionSpace arrange(std::span<const Rule* const> rules, const Control& control);
  const Rule& rule(uint16_t action) const { return *rules[action]; }
};

struct ActionOutcome {
  size_t matches = 0;
  size_t applied = 0;        // applications that changed the e-graph
  bool hitNodeLimit = false; // matches were left unapplied because the e-graph is full
  bool changed() const { return applied > 0; }
};

// Called after every type-checked application (the committed step feeds provenance from it).
using MatchObserver = std::function<void(const RuleMatch&, const RuleApplication&)>;

// The e-graph must be clean. A rule with no match, or whose matches are all already merged,
// leaves it unchanged: the rule is saturated in this state.
ActionOutcome applyRuleAction(EGraph& egraph, std::span<const EClassId> roots, const Rule& rule, size_t nodeLimit,
                              const MatchObserver& observer = {});

// Whether the rule has at least one match.
bool ruleMatches(const EGraph& egraph, const Rule& rule);
// How many matches one action of the rule would find (a learned guide's feature).
size_t countRuleMatches(const EGraph& egraph, const Rule& rule);

} // namespace tessera::mcts
