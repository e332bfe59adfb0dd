// The MCTS strategy's knobs, read from SearchOptions::parameters by name. Every name and value is
// checked before the search starts. PACT'24 used 128 simulations of up to 10 rollout steps; here
// each action applies a rule everywhere on one live e-graph, and multi-pattern rules add hundreds
// of e-nodes per action, so the defaults are tuned for time: 16 simulations with 2-step rollouts
// already find the rewrites that pay on the nine benchmark models (tessera_mcts_compare: +9 points
// of mean speedup over eqsat at the same node limit, in 3-20 s per model), and more only adds time.
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
  int simulations = 16;                        // per committed step ("simulations")
  int rolloutDepth = 2;                        // rule applications past the tree ("rollout_depth")
  double exploration = 2.0 * std::sqrt(2.0);   // UCT constant c ("exploration")
  double gamma = 0.99;                         // discount per action ("gamma")
  int maxSteps = 200;                          // committed actions ("max_steps")
  RolloutKind rollout = RolloutKind::Heavy;    // ("rollout": random, pruned, heavy, lookahead)
  // PACT'24's "main/final" pair: the extraction pricing states inside the search ("extract_main",
  // or its older name "reward_extract") and the one giving the result ("extract_final", default the
  // search's --extract). PACT'24 ran OCF/ILP, ILP/ILP and DAG/DAG.
  std::string rewardExtract = "dag";
  std::string finalExtract;
  // SearchOptions::nodeLimit, 0 meaning this default. PACT'24 ran 2,000 e-nodes, which one
  // application of a matmul-merge rule fills before a second round of merges can pay.
  size_t nodeLimit = 10000;
  // When the e-graph reaches the node limit, continue in a fresh e-graph seeded with the best graph
  // so far, as long as each such epoch finds something cheaper ("rebase": 1 or 0). The node limit
  // bounds the e-graph's memory, not the search's work; 0 stops at the first full e-graph (PACT'24).
  bool rebase = true;
  // PUCT (AlphaZero): a learned guide's checkpoint ("prior"; empty: plain UCT, as PACT'24), its
  // exploration constant ("c_puct") in selection Q + c_puct P sqrt(N) / (1 + n), and the share of
  // a leaf's value taken from the guide's value head rather than the rollout ("value_mix", lambda
  // of AlphaGo: 0 rollouts only, 1 no rollouts). Rewards are points of the original cost, as UCT's.
  // value_mix 1 by measurement: with the shipped guide it matched or beat 0.5 on both suites at 128
  // simulations and at equal wall time (resources/doc/rl-agents.md).
  std::string prior;
  double cPuct = 2.0 * std::sqrt(2.0);
  double valueMix = 1.0;
  // Candidates to keep a poor prior from hurting (issue #37), off by default: MuZero's min-max
  // normalisation of Q in selection ("q_norm": 1 or 0), and a floor under the prior,
  // P' = (1 - e) P + e / (actions that can act) ("prior_floor": e in [0, 1)).
  bool normaliseQ = false;
  double priorFloor = 0;

  // Throws tessera::Error naming the parameter for unknown names and out-of-range values.
  static MctsParameters from(const SearchOptions& options);
};

} // namespace tessera::mcts
