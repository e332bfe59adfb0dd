#include "run/RulePack.h"

#include "events/Control.h"
#include "rewrite/DefaultRules.h"
#include "rewrite/RuleChecker.h"
#include "search/Strategy.h"
#include "support/ContentHash.h"
#include "support/Error.h"
#include "support/ReadFile.h"

#include <cstdint>

namespace tessera {

namespace {

constexpr uintmax_t kMaxRuleFileBytes = uintmax_t{64} << 20;

} // namespace

ActiveRules loadActiveRules(const RuleChoice& choice, const std::function<void(const std::string&)>& progress) {
  ActiveRules active;
  if (choice.file.empty()) {
    active.set = defaultRules();
    active.source = "built-in";
    active.sourceHash = fnv1aHex(defaultRulesText());
  } else {
    active.sourceHash = fnv1aHex(readFileBytes(choice.file, kMaxRuleFileBytes)); // names the file when it cannot be read
    RuleSet rules = loadRuleFile(choice.file);
    if (progress) progress("verifying the " + std::to_string(rules.size()) + " rules of " + choice.file);
    std::vector<RuleCheck> checks = checkRules(rules);
    for (const RuleCheck& check : checks)
      if (!check.verified && progress) progress("rule " + check.name + " fails verification and is not used: " + check.problem);
    active.set = keepVerified(std::move(rules), checks);
    active.source = choice.file;
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

} // namespace tessera
