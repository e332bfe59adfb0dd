// What the PUCT agent's network reads of one MCTS state, as plain numbers (no tensor library): the
// current best extraction's graph, observed as the RL agents observe theirs (rl/Observation.h), and
// per rule its matches in the e-graph, the times it was applied and whether it can act, with the
// e-graph's fill and the step budget left.
#pragma once

#include "rl/Observation.h"
#include "search/mcts/PriorModel.h"

#include <cstdint>
#include <vector>

namespace tessera {

inline constexpr int kPuctRuleFeatures = 3;  // log matches, log times applied, can act
inline constexpr int kPuctStateFeatures = 2; // e-graph size over the node limit, step budget left

struct PuctInput {
  Observation observation;          // the best extraction's graph (no candidates)
  std::vector<float> ruleFeatures;  // rules x kPuctRuleFeatures, row-major
  std::vector<float> stateFeatures; // kPuctStateFeatures
  std::vector<uint8_t> canAct;      // per rule: allowed and matching, so the prior may go to it
  double stateSpeedupPct = 0;       // the extraction's speedup over the original: values count from it
};

// Reads the state's best graph (DAG greedy, as MCTS prices its states: the search's extraction
// when it gives one, SearchState::extraction, else a fresh one); the rules' matches are the
// search's counts (SearchState::matches).
PuctInput observeSearchState(const mcts::SearchState& state);

} // namespace tessera
