// What `tessera-cli rl train` is asked for, shared by the agents' trainers (RlCommand.cpp for
// X-RLflow, RlflowCommand.cpp for RLFlow), and the RLFlow parts of the rl command.
#pragma once

#include "CommandContext.h"
#include "cost/CostModel.h"
#include "LauncherOptions.h"
#include "ModelLabel.h"
#include "ModelShapeOptions.h"

#include <CLI/CLI.hpp>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace tessera::cli {

struct RlflowTrainSettings {
  int worldModelEpisodes = 60;
  int dreamEpisodes = 2200;
  std::vector<std::string> parameters; // KEY=VALUE
  LauncherOptions launcher;            // rlflow's world-model episodes, puct's self-play games on launched shards
  int episodesPerShard = 10;
  std::string episodeShard;            // FIRST:COUNT: this process is a launched shard of those episodes
};

struct PuctTrainSettings {
  int games = 12;
  int simulations = 16;
  int gamesPerShard = 2;     // with --launcher
  std::string gameShard;     // FIRST:COUNT: this process is a launched shard playing those games
  std::string shardNetwork;  // the shard's network: the generation's checkpoint the driver wrote
};

struct RlTrainOptions {
  std::string agent = "xrlflow";
  std::vector<std::string> models;
  int episodes = 1000;
  uint64_t seed = 1;
  std::string cost = kPredictionCostSpec; // rewards that do not move with the machine's load
  std::string out;
  std::string json;
  std::string rules; // empty: the built-in pack
  int evaluateEvery = 2;
  int maxCandidates = 0; // 0: the agent's default
  int horizon = 0;
  ModelShapeOptions shapes;
  RlflowTrainSettings rlflow;
  PuctTrainSettings puct;

  // The checkpoint as a training report names it: its file's name, not the folder a run wrote it
  // to (a shipped report lies beside its checkpoint).
  std::string checkpointName() const { return std::filesystem::path(out).filename().string(); }
};

// The number an agent's `--param KEY=VALUE` gives, in [low, high]; throws tessera::Error naming the pair.
double trainParameterNumber(const std::string& key, const std::string& value, double low, double high);

// `rl train --agent rlflow`; throws tessera::Error in a build without libtorch.
int runRlflowTrain(const RlTrainOptions& options);
void addRlflowTrainOptions(CLI::App* train, RlflowTrainSettings& settings);
// `rl train --agent puct` (PuctCommand.cpp); throws tessera::Error in a build without libtorch.
int runPuctTrain(const RlTrainOptions& options);
// The keys `--param` takes for puct, as --help lists them and an unknown key's error names them.
inline constexpr const char* kPuctTrainParameters =
    "games_per_generation=N (default 4), max_steps=N (MCTS steps a game, 20), node_limit=N (2000), game_seconds=S (60), "
    "value_mix=L (0.5), root_noise=E (share of Dirichlet noise in root priors, 0), policy_target=completed_q|visits (the "
    "prior's target: Gumbel MuZero's completed-Q policy, or the root's visit shares; completed_q), updates=N (minibatch steps a "
    "generation, 40), batch=N (32)";
void addPuctTrainOptions(CLI::App* train, PuctTrainSettings& settings);
// `rl world-model eval CKPT --models M...`.
void addWorldModelCommand(CLI::App* rl, CommandContext& context);

} // namespace tessera::cli
