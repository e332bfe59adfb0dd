// Self-play training of the PUCT agent (AlphaZero's loop, on e-graph construction): generations of
// MCTS games guided by the current network, whose root visit distributions (policy targets) and
// final verified speedups (value targets, as the gain still reached below each root) fill a replay
// buffer; after each generation, minibatch steps on the buffer. Each generation's strength is the
// mean verified speedup of its games; a last round plays every model once with the final network
// (without root noise). Each game's random streams (root noise, rollouts) come from (seed, game
// number) alone, so games played elsewhere with the same network (launched shards, app/cli) are
// the games played here, bit for bit.
#pragma once

#include "cost/CostModel.h"
#include "puct/PuctAgent.h"
#include "puct/SelfPlayGame.h"
#include "rl/GraphEpisodes.h"
#include "search/mcts/PolicyTarget.h"

#include <functional>
#include <span>
#include <string>
#include <vector>

namespace tessera {

// Plays games [first, first + count) of a run with the network `agent` holds now (generation -1:
// the final round) and returns them in game order.
using SelfPlayGamePlayer = std::function<std::vector<PlayedGame>(PuctAgent& agent, int generation, int first, int count)>;

struct SelfPlayOptions {
  int games = 12;               // self-play games in all; game g plays model g mod n
  int gamesPerGeneration = 4;
  int simulations = 16;         // per MCTS step
  size_t nodeLimit = 2000;
  int maxSteps = 20;            // committed MCTS steps per game
  double gameSeconds = 60;      // each game's time limit
  double valueMix = 0.5;        // lambda while playing (mcts/MctsParameters.h)
  // AlphaZero's exploration: this share of each root prior is Dirichlet(0.3) noise over the rules
  // that can act (AlphaZero: 0.25). 0 plays the network's priors as they are.
  double rootNoise = 0;
  // The prior's target at each planned root (mcts/PolicyTarget.h): Gumbel MuZero's completed-Q
  // policy, or AlphaZero's visit shares, which at a few simulations a step teach zero to every rule
  // the search did not reach (measured in rl-agents.md: the guide lost strength after its first
  // generation in every such run).
  mcts::PolicyTarget policyTarget = mcts::PolicyTarget::CompletedQ;
  int updatesPerGeneration = 40;
  int batch = 32;
  size_t replayCapacity = 4000; // samples kept, the oldest dropped first
  uint64_t seed = 1;
  std::function<void(const std::string&)> progress;
  // Where the games are played; they must be what playSelfPlayGames gives. Default: here.
  SelfPlayGamePlayer play;
};

struct SelfPlayGeneration {
  int generation = 0;
  double meanSpeedupPct = 0;    // of this generation's games, played by the network before its updates
  PuctLosses losses;            // mean over the generation's updates
  size_t bufferSamples = 0;
  double seconds = 0;
};

struct SelfPlayReport {
  std::vector<SelfPlayGame> games;
  std::vector<SelfPlayGeneration> generations;
  double finalMeanSpeedupPct = 0; // the trained network, one game a model
  double seconds = 0;
};

// Games [first, first + count) of a run with these options, played here with `agent`'s network;
// each game's line goes to options.progress.
std::vector<PlayedGame> playSelfPlayGames(PuctAgent& agent, std::span<const NamedGraph> models, std::span<const Rule* const> rules,
                                          CostModel& cost, const SelfPlayOptions& options, int first, int count);

// A game's progress line, as the training prints it wherever the game was played.
std::string selfPlayGameLine(const SelfPlayGame& game, const SelfPlayOptions& options);

// Throws tessera::Error for options that cannot train (no models, no games).
SelfPlayReport trainBySelfPlay(PuctAgent& agent, std::span<const NamedGraph> models, std::span<const Rule* const> rules,
                               CostModel& cost, const SelfPlayOptions& options);

} // namespace tessera
