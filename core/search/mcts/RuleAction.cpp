#include "search/mcts/RuleAction.h"

#include "rewrite/CycleFilter.h"
#include "search/Strategy.h"

#include <set>
#include <string>
#include <unordered_map>

namespace tessera::mcts {

namespace {
// Runner's per-rule cap: a rule matching more often than this in one action is applied to the
// first matches only (they are found in a deterministic order).
constexpr size_t kMatchLimit = 20000;
} // namespace

ActionSpace ActionSpace::arrange(std::span<const Rule* const> rules, const Control& control) {
  ActionSpace space;
  space.rules = rules;
  space.allowed.assign(rules.size(), false);
  space.pinned.assign(rules.size(), false);
  std::unordered_map<const Rule*, uint16_t> index;
  for (size_t i = 0; i < rules.size(); ++i) index.emplace(rules[i], static_cast<uint16_t>(i));
  const std::set<std::string> pinned = control.pinned();
  for (const Rule* rule : arrangeRules(rules, control)) {
    uint16_t action = index.at(rule);
    space.order.push_back(action);
    space.allowed[action] = true;
    space.pinned[action] = pinned.count(rule->name()) > 0;
  }
  return space;
}

ActionOutcome applyRuleAction(EGraph& egraph, std::span<const EClassId> roots, const Rule& rule, size_t nodeLimit,
                              const MatchObserver& observer) {
  ActionOutcome outcome;
  const std::vector<RuleMatch> matches = rule.search(egraph, kMatchLimit);
  outcome.matches = matches.size();
  if (matches.empty()) return outcome;
  for (const RuleMatch& match : matches) {
    if (egraph.numNodes() >= nodeLimit) {
      outcome.hitNodeLimit = true;
      break;
    }
    RuleApplication application = rule.apply(egraph, match);
    if (application.changed) ++outcome.applied;
    if (observer && application.typeChecked) observer(match, application);
  }
  egraph.rebuild();
  if (outcome.applied > 0) filterCycles(egraph, roots);
  return outcome;
}

bool ruleMatches(const EGraph& egraph, const Rule& rule) {
  // Not search(egraph, 1): a multi-pattern rule joins its sides' first matches only, and guards
  // are checked after the limit, so a small limit can miss a rule that does match.
  return countRuleMatches(egraph, rule) > 0;
}

size_t countRuleMatches(const EGraph& egraph, const Rule& rule) { return rule.search(egraph, kMatchLimit).size(); }

} // namespace tessera::mcts
