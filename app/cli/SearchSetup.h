// What `optimize` and `bench` share to set up a search: the rule pack with the user's pins and
// vetoes, strategy parameters from NAME=VALUE, and the recording of a run into a session file.
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

// NAME=VALUE pairs; throws tessera::Error for anything else.
std::map<std::string, std::string> parseParameters(const std::vector<std::string>& pairs);

// Records one run in a session file: the model once, the run's parameters, its events while it
// runs (in transactions, so a killed run leaves a readable session), its candidates and the measured
// op costs it priced with.
class SessionRecording {
public:
  SessionRecording(const std::string& sessionPath, const std::string& modelPath, const Graph& model, EventStream& events);
  ~SessionRecording();
  void begin(const std::string& strategy, const SearchOptions& options, const std::string& costSpec);
  void finish(const SearchResult& result, const CostModel& cost);

private:
  struct State;
  std::unique_ptr<State> state_;
};

} // namespace tessera::cli
