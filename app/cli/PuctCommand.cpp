// `tessera-cli rl train --agent puct --models M... [--games N] [--simulations S] [--seed S]
// [--launcher local|slurm --work-dir D --games-per-shard N] --out CKPT [--json F]` (issue #37):
// trains the PUCT agent, MCTS's learned prior and value, by self-play (core/puct) and writes its
// checkpoint for `optimize --strategy mcts --param prior=CKPT`. With --launcher the games are played
// by launched shards (PuctGameShards.h), with the same results. A progress line per game and
// generation on stderr; the JSON report logs each generation's strength (the mean verified speedup
// of its games) for a chart. Needs a build with libtorch.
#include "RlTrainOptions.h"

#include "CostModelFactory.h"
#include "run/RulePack.h"
#include "support/Error.h"

#if TESSERA_HAVE_TORCH
#include "PuctGameShards.h"
#include "puct/PuctSelfPlay.h"
#include "rl/RulePackFingerprint.h"
#include "rl/TrainedModels.h"
#endif

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <memory>

namespace tessera::cli {

#if TESSERA_HAVE_TORCH

namespace {

// --param KEY=VALUE of rl train --agent puct, each checked.
void readParameters(const std::vector<std::string>& pairs, SelfPlayOptions& options) {
  for (const std::string& pair : pairs) {
    const size_t equals = pair.find('=');
    if (equals == std::string::npos) throw Error("--param " + pair + ": expected KEY=VALUE");
    const std::string key = pair.substr(0, equals), value = pair.substr(equals + 1);
    if (key == "games_per_generation") options.gamesPerGeneration = static_cast<int>(trainParameterNumber(key, value, 1, 1e6));
    else if (key == "max_steps") options.maxSteps = static_cast<int>(trainParameterNumber(key, value, 1, 1e6));
    else if (key == "node_limit") options.nodeLimit = static_cast<size_t>(trainParameterNumber(key, value, 10, 1e8));
    else if (key == "game_seconds") options.gameSeconds = trainParameterNumber(key, value, 0.1, 1e6);
    else if (key == "value_mix") options.valueMix = trainParameterNumber(key, value, 0, 1);
    else if (key == "root_noise") options.rootNoise = trainParameterNumber(key, value, 0, 1);
    else if (key == "policy_target") options.policyTarget = mcts::parsePolicyTarget(value);
    else if (key == "updates") options.updatesPerGeneration = static_cast<int>(trainParameterNumber(key, value, 0, 1e6));
    else if (key == "batch") options.batch = static_cast<int>(trainParameterNumber(key, value, 1, 1e5));
    else
      throw Error("--param " + key + ": unknown (puct takes " + kPuctTrainParameters + ")");
  }
}

nlohmann::json gameJson(const SelfPlayGame& game) {
  return {{"generation", game.generation < 0 ? nlohmann::json("final") : nlohmann::json(game.generation + 1)},
          {"model", game.model},
          {"speedup_pct", game.speedupPct},
          {"verified", game.verified},
          {"steps", game.steps},
          {"targets", game.samples},
          {"seconds", game.seconds}};
}

} // namespace

int runPuctTrain(const RlTrainOptions& options) {
  SelfPlayOptions selfPlay;
  selfPlay.games = options.puct.games;
  selfPlay.simulations = options.puct.simulations;
  selfPlay.seed = options.seed;
  selfPlay.progress = reportProgress;
  readParameters(options.rlflow.parameters, selfPlay);
  if (selfPlay.games < 1) throw Error("--games must be at least 1");
  if (selfPlay.simulations < 1) throw Error("--simulations must be at least 1");

  std::unique_ptr<CostModel> cost = makeCliCostModel(options.cost);
  ActiveRules rules = loadActiveRules(RuleChoice{options.rules, {}, {}}, reportProgress);
  std::vector<NamedGraph> models;
  std::vector<Graph> graphs = options.shapes.importEach(options.models);
  for (size_t i = 0; i < graphs.size(); ++i) models.push_back({modelLabel(options.models[i], options.models), std::move(graphs[i])});

  if (!options.puct.gameShard.empty()) return writeGameShard(options, models, rules.list, *cost, selfPlay);

  CheckpointHeader header;
  header.rulePack = rulePackFingerprint(rules.list);
  header.cost = cost->spec();
  recordTrainedModels(header, models);
  header.episodes = selfPlay.games;
  header.seed = options.seed;
  if (options.rlflow.launcher.enabled()) selfPlay.play = playGamesOnShards(options, selfPlay, header);
  PuctAgent agent(rules.list.size(), options.seed);
  reportProgress("training a puct agent by self-play on " + std::to_string(models.size()) + " models: " + std::to_string(selfPlay.games) +
                 " games of " + std::to_string(selfPlay.simulations) + " simulations a step, " + std::to_string(selfPlay.gamesPerGeneration) +
                 " a generation, policy target " + mcts::policyTargetName(selfPlay.policyTarget) + ", seed " + std::to_string(options.seed) +
                 ", cost " + cost->spec());
  SelfPlayReport report = trainBySelfPlay(agent, models, rules.list, *cost, selfPlay);

  const std::filesystem::path parent = std::filesystem::path(options.out).parent_path();
  std::error_code ec;
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  agent.save(options.out, header);

  std::printf("agent           puct, %d games in %zu generations, %.1f s\n", selfPlay.games, report.generations.size(), report.seconds);
  for (const SelfPlayGeneration& g : report.generations)
    std::printf("  generation %-3d mean speedup %.3f %% (policy loss %.3f, value loss %.2f)\n", g.generation + 1, g.meanSpeedupPct,
                g.losses.policy, g.losses.value);
  std::printf("final network   mean speedup %.3f %%\n", report.finalMeanSpeedupPct);
  std::printf("wrote           %s\n", options.out.c_str());
  if (options.json.empty()) return 0;
  nlohmann::json generations = nlohmann::json::array(), games = nlohmann::json::array(), final = nlohmann::json::object();
  for (const SelfPlayGeneration& g : report.generations)
    generations.push_back({{"generation", g.generation + 1},
                           {"mean_speedup_pct", g.meanSpeedupPct},
                           {"policy_loss", g.losses.policy},
                           {"value_loss", g.losses.value},
                           {"buffer_targets", g.bufferSamples},
                           {"seconds", g.seconds}});
  for (const SelfPlayGame& game : report.games) {
    games.push_back(gameJson(game));
    if (game.generation < 0) final[game.model] = game.speedupPct;
  }
  nlohmann::json json{{"agent", "puct"},
                      {"models", options.models},
                      {"games", selfPlay.games},
                      {"games_per_generation", selfPlay.gamesPerGeneration},
                      {"simulations", selfPlay.simulations},
                      {"node_limit", selfPlay.nodeLimit},
                      {"max_steps", selfPlay.maxSteps},
                      {"value_mix", selfPlay.valueMix},
                      {"root_noise", selfPlay.rootNoise},
                      {"policy_target", mcts::policyTargetName(selfPlay.policyTarget)},
                      {"updates_per_generation", selfPlay.updatesPerGeneration},
                      {"batch", selfPlay.batch},
                      {"seed", options.seed},
                      {"cost", cost->spec()},
                      {"rule_pack", header.rulePack},
                      // Its file name: a report travels with its checkpoint (resources/agents), and the
                      // scratch folder a run wrote it to would name nothing there.
                      {"checkpoint", options.checkpointName()},
                      {"seconds", report.seconds},
                      {"generations", generations},
                      {"games_played", games},
                      {"final_speedup_pct", final},
                      {"final_mean_speedup_pct", report.finalMeanSpeedupPct}};
  writeJsonReport(json, options.json);
  return 0;
}

#else

int runPuctTrain(const RlTrainOptions&) {
  throw Error("rl train --agent puct is not available: this build of Tessera was configured without libtorch (Debian: libtorch-dev; "
              "then configure and build again)");
}

#endif

void addPuctTrainOptions(CLI::App* train, PuctTrainSettings& settings) {
  train->add_option("--games", settings.games, "puct: self-play games (model g mod n plays game g)")->capture_default_str();
  train->add_option("--simulations", settings.simulations, "puct: MCTS simulations per step in self-play")->capture_default_str();
  train->add_option("--games-per-shard", settings.gamesPerShard, "puct with --launcher: self-play games a shard plays")->capture_default_str();
  // internal: what `--launcher` gives each shard
  train->add_option("--game-shard", settings.gameShard, "A launched shard: play self-play games FIRST:COUNT into --out")->group("");
  train->add_option("--shard-network", settings.shardNetwork, "A launched shard: the network that plays its games")->group("");
}

} // namespace tessera::cli
