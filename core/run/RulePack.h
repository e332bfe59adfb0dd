// The rules a run uses: the built-in pack or a rule file (its rules checked numerically, those that
// fail left out), the user's pins and vetoes checked against the rules' names, and a hash of the
// text the rules came from, so a session says exactly which rules a run had.
#pragma once

#include "rewrite/RuleSet.h"

#include <functional>
#include <string>
#include <vector>

namespace tessera {

class Control;

struct RuleChoice {
  std::string file; // empty: the built-in pack
  std::vector<std::string> pins;
  std::vector<std::string> vetoes;
};

struct ActiveRules {
  RuleSet set;
  std::vector<const Rule*> list;
  std::string source;     // "built-in" or the file's path
  std::string sourceHash; // FNV-1a of the text the rules were parsed from, 16 hex digits
};

// The built-in pack (verified by the test suite, so not checked again), or a rule file minus the
// rules that fail numeric verification, each named on `progress`. Throws tessera::Error naming a
// file that cannot be read or parsed.
ActiveRules loadActiveRules(const RuleChoice& choice, const std::function<void(const std::string&)>& progress = {});

// Checks every pinned and vetoed name against the rules (an unknown name, or one both pinned and
// vetoed, throws tessera::Error), then hands them to the control channel, which records them.
void applyRuleChoice(const RuleChoice& choice, const ActiveRules& rules, Control& control);

} // namespace tessera
