// What `optimize` and `bench` share to set up a search: the rule pack with the user's pins and
// vetoes. Strategy parameters and session recording are core's (run/RunRequest.h, run/RunRecording.h),
// shared with the explorer.
#pragma once

#include "events/Control.h"
#include "events/EventSink.h"
#include "ir/Graph.h"
#include "rewrite/RuleSet.h"
#include "search/Strategy.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tessera::cli {

struct RuleChoice {
  std::string file; // empty: the built-in pack
  std::vector<std::string> pins;
  std::vector<std::string> vetoes;
};

struct ActiveRules {
  RuleSet set;
  std::vector<const Rule*> list;
};

// The built-in pack, or a rule file minus the rules that fail numeric verification. The built-in
// pack is verified by the test suite (every rule must pass), so only files are checked here.
ActiveRules loadActiveRules(const RuleChoice& choice);

// Checks every pinned and vetoed name against the pack (unknown names throw tessera::Error),
// then hands them to the control channel, which records them as decisions.
void applyRuleChoice(const RuleChoice& choice, const ActiveRules& rules, Control& control);

} // namespace tessera::cli
