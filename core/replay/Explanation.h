// "Why this rewrite": the provenance of an e-node or of a candidate graph's node, answered from the
// event log alone. The chain follows the rewrite that created the node back through the class it
// matched to the rewrite that created that class's earliest rewritten node, down to the original
// model; a step is explained by what the search committed there, the MCTS statistics of the choice
// and of the alternatives it passed over, and the best cost before and after.
#pragma once

#include "replay/ReplayState.h"

#include <optional>
#include <string>
#include <vector>

namespace tessera {

struct RewriteLink {
  MirrorNodeId node = 0;      // the e-node this rewrite created
  std::string rule;           // empty: the node is from the original model
  int step = kOriginalStep;
  uint64_t sequence = 0;      // the RuleApplied event (0 for the original model)
  std::vector<EClassId> matched;
};

// From `node` back to the original model, newest rewrite first; at most `maxLinks` (a cycle in a
// damaged log cannot loop).
std::vector<RewriteLink> rewriteChain(const ReplayState& state, const std::vector<Event>& events, MirrorNodeId node,
                                      size_t maxLinks = 12);

struct Alternative {
  uint32_t mctsNode = 0;
  std::string rule;
  uint32_t visits = 0;
  double meanValue = 0;
  bool chosen = false;
};

struct StepExplanation {
  int step = 0;
  const CommittedStep* commit = nullptr;          // null when the log has no commit for the step
  const MirrorMctsNode* committedNode = nullptr;  // MCTS only
  std::vector<Alternative> alternatives;          // the committed node's siblings, most visited first
  uint32_t applications = 0;                      // RuleApplied events at this step
  uint32_t applicationsOfRule = 0;                // ... of `rule`
  std::optional<double> bestBefore;
  std::optional<double> bestAfter;
};

StepExplanation explainStep(const ReplayState& state, const std::vector<Event>& events, int step, const std::string& rule = {});

} // namespace tessera
