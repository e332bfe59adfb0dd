// The MCTS strategy's knobs, read from SearchOptions::parameters by name, with PACT'24's numbers
// as defaults. Every name and value is checked before the search starts.
#pragma once

#include "search/Strategy.h"

#include <cmath>
#include <string>
#include <string_view>

namespace tessera::mcts {

// How a simulation continues past the tree (see RolloutPolicy.h for what each one does).
enum class RolloutKind { Random, Pruned, Heavy, Lookahead };
std::string_view rolloutKindName(RolloutKind kind);

struct MctsParameters {
  int simulations = 128;                       // per committed step ("simulations")
  int rolloutDepth = 10;                       // rule applications past the tree ("rollout_depth")
  double exploration = 2.0 * std::sqrt(2.0);   // UCT constant c ("exploration")
  double gamma = 0.99;                         // discount per action ("gamma")
  int maxSteps = 200;                          // committed actions ("max_steps")
  RolloutKind rollout = RolloutKind::Heavy;    // ("rollout": random, pruned, heavy, lookahead)
  std::string rewardExtract = "dag";           // extractor pricing states ("reward_extract")
  size_t nodeLimit = 2000;                     // SearchOptions::nodeLimit, 0 meaning this default

  // Throws tessera::Error naming the parameter for unknown names and out-of-range values.
  static MctsParameters from(const SearchOptions& options);
};

} // namespace tessera::mcts
