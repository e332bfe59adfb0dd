#include "SearchSetup.h"

#include "CommandContext.h"

#include "rewrite/DefaultRules.h"
#include "rewrite/RuleChecker.h"
#include "support/Error.h"

namespace tessera::cli {

ActiveRules loadActiveRules(const RuleChoice& choice) {
  ActiveRules active;
  if (choice.file.empty()) {
    active.set = defaultRules();
  } else {
    RuleSet rules = loadRuleFile(choice.file);
    reportProgress("verifying the " + std::to_string(rules.size()) + " rules of " + choice.file);
    std::vector<RuleCheck> checks = checkRules(rules);
    for (const RuleCheck& check : checks)
      if (!check.verified) reportProgress("rule " + check.name + " fails verification and is not used: " + check.problem);
    active.set = keepVerified(std::move(rules), checks);
  }
  for (const auto& rule : active.set.rules()) active.list.push_back(rule.get());
  return active;
}

void applyRuleChoice(const RuleChoice& choice, const ActiveRules& rules, Control& control) {
  checkRuleNames(rules.list, choice.pins);
  checkRuleNames(rules.list, choice.vetoes);
  for (const std::string& rule : choice.pins) {
    for (const std::string& vetoed : choice.vetoes)
      if (vetoed == rule) throw Error("rule '" + rule + "' is both pinned and vetoed");
    control.pin(rule);
  }
  for (const std::string& rule : choice.vetoes) control.veto(rule);
}

} // namespace tessera::cli
