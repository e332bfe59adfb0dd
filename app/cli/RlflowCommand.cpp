// `tessera-cli rl train --agent rlflow ...` and `tessera-cli rl world-model eval CKPT --models M...`
// (issue #33): an RLFlow agent's training (core/rlflow) with every real environment step counted,
// and its world model scored on fresh real episodes (a random agent's, on a seed of their own).
#include "RlTrainOptions.h"

#include "CostModelFactory.h"
#include "run/RulePack.h"
#include "support/Error.h"

#if TESSERA_HAVE_TORCH
#include "RlflowEpisodeShards.h"
#include "rl/RulePackFingerprint.h"
#include "rl/TrainedModels.h"
#include "rlflow/RlflowDreamTrace.h"
#include "rlflow/RlflowTraining.h"
#endif

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>

namespace tessera::cli {

double trainParameterNumber(const std::string& key, const std::string& value, double low, double high) {
  size_t used = 0;
  double number = 0;
  try {
    number = std::stod(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != value.size() || !(number >= low && number <= high))
    throw Error("--param " + key + "=" + value + ": must be a number in [" + std::to_string(low) + ", " + std::to_string(high) + "]");
  return number;
}

namespace {

struct WorldModelEvalOptions {
  std::string checkpoint;
  std::vector<std::string> models;
  int episodes = 20;
  uint64_t seed = 1001; // not a training seed: episodes the world model has not seen
  std::string cost = kPredictionCostSpec; // rewards that do not move with the machine's load
  std::string json;
  std::string rules;
  ModelShapeOptions shapes;
  std::string dreamTrace; // write each model's dream trace here
  int dreamSteps = 30;
  std::string dreamPolicy = "rlflow"; // who plays a dream trace's real rollout: rlflow, greedy or an X-RLflow checkpoint
};

#if TESSERA_HAVE_TORCH

// --param KEY=VALUE of rl train --agent rlflow, each checked.
struct RlflowParameters {
  DreamMode dream = DreamMode::Imagined;
  double temperature = 1.0;
  int worldModelUpdates = 200;
  double randomStop = 0.02;
  int evaluateEvery = 50; // controller updates between real argmax evaluations (counted); 0: none
  int branchLength = 5;   // dream=branch: the most imagined steps from a real state
  int format = RlflowAgent::kFormat; // the networks' layout: an older one reproduces its agents
  std::optional<double> greedyPrior;  // the controller's start: how strongly it prefers the best saving
};

RlflowParameters readParameters(const std::vector<std::string>& pairs) {
  RlflowParameters parameters;
  for (const std::string& pair : pairs) {
    const size_t equals = pair.find('=');
    if (equals == std::string::npos) throw Error("--param " + pair + ": expected KEY=VALUE");
    const std::string key = pair.substr(0, equals), value = pair.substr(equals + 1);
    if (key == "dream") parameters.dream = dreamModeNamed(value);
    else if (key == "temperature") parameters.temperature = trainParameterNumber(key, value, 0.01, 100);
    else if (key == "world_model_updates") parameters.worldModelUpdates = static_cast<int>(trainParameterNumber(key, value, 0, 1e6));
    else if (key == "random_stop") parameters.randomStop = trainParameterNumber(key, value, 0, 1);
    else if (key == "evaluate_every") parameters.evaluateEvery = static_cast<int>(trainParameterNumber(key, value, 0, 1e6));
    else if (key == "branch_length") parameters.branchLength = static_cast<int>(trainParameterNumber(key, value, 1, 1e4));
    else if (key == "greedy_prior") parameters.greedyPrior = trainParameterNumber(key, value, 0.01, 100);
    else if (key == "format") parameters.format = static_cast<int>(trainParameterNumber(key, value, 1, RlflowAgent::kFormat));
    else throw Error("--param " + key + ": unknown (rlflow takes dream, temperature, world_model_updates, random_stop, evaluate_every, branch_length, format, greedy_prior)");
  }
  return parameters;
}

std::vector<NamedGraph> importModels(const std::vector<std::string>& paths, const ModelShapeOptions& shapes) {
  std::vector<NamedGraph> models;
  std::vector<Graph> graphs = shapes.importEach(paths);
  for (size_t i = 0; i < graphs.size(); ++i) models.push_back({modelLabel(paths[i], paths), std::move(graphs[i])});
  return models;
}

nlohmann::json byModel(const std::vector<NamedGraph>& models, const std::vector<double>& values) {
  nlohmann::json json = nlohmann::json::object();
  for (size_t i = 0; i < values.size(); ++i) json[models[i].name] = values[i];
  return json;
}

double mean(const std::vector<double>& values) {
  double total = 0;
  for (double v : values) total += v;
  return values.empty() ? 0.0 : total / static_cast<double>(values.size());
}

nlohmann::json scoresJson(const WorldModelScores& s) {
  return {{"transitions", s.transitions},
          {"states", s.states},
          {"latent_nll", s.latentNll},
          {"latent_nll_per_dim", s.latentNll / 32.0},
          {"reward_mae", s.rewardMae},
          {"mean_abs_reward", s.meanAbsReward},
          {"reward_mae_share", s.meanAbsReward > 0 ? s.rewardMae / s.meanAbsReward : 0.0},
          {"listed_rewrites", s.listedRewrites},
          {"listed_reward_mae", s.listedRewardMae},
          {"mean_abs_listed_reward", s.meanAbsListedReward},
          {"done_accuracy", s.doneAccuracy},
          {"mask_accuracy", s.maskAccuracy},
          {"mask_accuracy_of_no_rewrite", s.allAbsentAccuracy},
          {"mask_present_recall", s.presentRecall},
          {"mask_present_precision", s.presentPrecision},
          {"mask_offers_action", s.actionOffered},
          {"imagined_mask_present_recall", s.imaginedRecall},
          {"imagined_mask_present_precision", s.imaginedPrecision},
          {"mask_exact", s.maskExact},
          {"location_accuracy", s.locationAccuracy}};
}

nlohmann::json dreamTraceJson(const std::string& model, const DreamTrace& trace) {
  nlohmann::json steps = nlohmann::json::array();
  for (const DreamTraceStep& s : trace.steps)
    steps.push_back({{"step", s.step + 1},        {"rule", s.rule},
                     {"location", s.action.location}, {"real_reward", s.realReward},
                     {"dreamt_reward", s.dreamtReward}, {"one_step_reward", s.oneStepReward},
                     {"real_valid_actions", s.realActions}, {"dreamt_valid_actions", s.dreamtActions},
                     {"real_rules", s.realRules},   {"dreamt_rules", s.dreamtRules},
                     {"mask_agreement", s.maskAgreement}, {"action_in_dream", s.actionInDream},
                     {"real_done", s.realDone},     {"dreamt_done", s.dreamtDone}});
  return {{"model", model},
          {"initial_cost_ms", trace.initialCostMs},
          {"final_cost_ms", trace.finalCostMs},
          {"stop_reason", trace.stopReason},
          {"real_env_steps", trace.realSteps},
          {"real_return", trace.realReturn},
          {"dreamt_return", trace.dreamtReturn},
          {"one_step_return", trace.oneStepReturn},
          {"first_departure", trace.firstDeparture < 0 ? nlohmann::json(nullptr) : nlohmann::json(trace.firstDeparture + 1)},
          {"steps", steps}};
}

// --dream-trace: from each model's graph, argmax play in the real environment beside the world
// model's dream of the same actions (the explorer's Dream view, as JSON).
void writeDreamTraces(RlflowAgent& agent, const std::vector<NamedGraph>& models, const ActiveRules& rules, CostModel& cost,
                      const WorldModelEvalOptions& options) {
  RewriteEnvironment environment(rules.list, cost, argmaxOptionsFor(agent.config()));
  const std::function<size_t(RewriteEnvironment&)> policy = dreamTracePolicy(options.dreamPolicy, rules.list);
  nlohmann::json traces = nlohmann::json::array();
  for (const NamedGraph& model : models) {
    DreamTraceOptions trace;
    trace.maxSteps = options.dreamSteps;
    trace.choose = policy;
    trace.onStep = [&](const DreamTraceStep& s) {
      reportProgress("dream trace " + model.name + ": step " + std::to_string(s.step + 1) + " " + s.rule + ", real reward " +
                     std::to_string(s.realReward) + ", dreamt " + std::to_string(s.dreamtReward));
    };
    const DreamTrace result = traceDream(agent, environment, model.graph, trace);
    std::printf("dream trace     %-24s %zu steps (%s): return real %.3f, dreamt %.3f, one-step %.3f; the dream's mask first left out the action at %s\n",
                model.name.c_str(), result.steps.size(), result.stopReason.c_str(), result.realReturn, result.dreamtReturn, result.oneStepReturn,
                result.firstDeparture < 0 ? "no step" : ("step " + std::to_string(result.firstDeparture + 1)).c_str());
    traces.push_back(dreamTraceJson(model.name, result));
  }
  writeJsonReport({{"checkpoint", options.checkpoint}, {"cost", cost.spec()}, {"policy", options.dreamPolicy}, {"traces", traces}},
                  options.dreamTrace);
}

int runWorldModelEval(const WorldModelEvalOptions& options) {
  if (options.episodes < 1) throw Error("--episodes must be at least 1");
  if (options.dreamSteps < 1) throw Error("--dream-steps must be at least 1");
  std::unique_ptr<CostModel> cost = makeCliCostModel(options.cost);
  ActiveRules rules = loadActiveRules(RuleChoice{options.rules, {}, {}}, reportProgress);
  RlflowAgent agent = RlflowAgent::load(options.checkpoint, rules.list, options.seed);
  std::vector<NamedGraph> models = importModels(options.models, options.shapes);
  // Models the agent also trained on: by hash; by label only in checkpoints that kept no hashes.
  const CheckpointHeader& trained = agent.loadedFrom();
  std::vector<std::string> seen;
  for (const NamedGraph& model : models)
    if (wasTrainedOn(trained, model.graph).value_or(std::find(trained.models.begin(), trained.models.end(), model.name) != trained.models.end()))
      seen.push_back(model.name);
  GraphEpisodes episodes(std::move(models), rules.list, *cost, environmentOptionsFor(agent.config()));
  std::mt19937_64 random(options.seed);
  size_t realSteps = 0;
  reportProgress("collecting " + std::to_string(options.episodes) + " held-out episodes of a random agent (seed " + std::to_string(options.seed) + ")");
  const std::vector<WorldModelEpisode> data =
      collectRandomEpisodes(episodes, options.episodes, agent.config().rules, 0.02, random, realSteps, reportProgress);
  const WorldModelScores s = agent.scoreWorldModel(data);
  if (!options.dreamTrace.empty()) writeDreamTraces(agent, episodes.models(), rules, *cost, options);
  std::printf("world model     %s (trained on %zu models)\n", options.checkpoint.c_str(), agent.loadedFrom().models.size());
  std::printf("episodes        %d fresh random-agent episodes, seed %llu, %zu transitions, %zu real steps; models also trained on: %zu of %zu\n",
              options.episodes, static_cast<unsigned long long>(options.seed), s.transitions, realSteps, seen.size(), episodes.models().size());
  std::printf("latent NLL      %.3f nats per transition (%.3f per dimension of z)\n", s.latentNll, s.latentNll / 32.0);
  std::printf("reward MAE      %.4f (mean |reward| %.4f: %.1f %%)\n", s.rewardMae, s.meanAbsReward,
              s.meanAbsReward > 0 ? 100.0 * s.rewardMae / s.meanAbsReward : 0.0);
  if (s.listedRewrites > 0)
    std::printf("                over every rewrite the states list (%zu): %.4f (mean |reward| %.4f: %.1f %%)\n", s.listedRewrites,
                s.listedRewardMae, s.meanAbsListedReward, s.meanAbsListedReward > 0 ? 100.0 * s.listedRewardMae / s.meanAbsListedReward : 0.0);
  std::printf("done accuracy   %.2f %%\n", 100.0 * s.doneAccuracy);
  std::printf("mask accuracy   %.2f %% of (state, rule) pairs; %.2f %% of states exact; location counts %.2f %% exact\n", 100.0 * s.maskAccuracy,
              100.0 * s.maskExact, 100.0 * s.locationAccuracy);
  // Most (state, rule) pairs have no rewrite, so the pair accuracy is judged against a mask of none.
  std::printf("                a mask of no rewrite at all scores %.2f %%; rules with a rewrite predicted present: %.2f %% (precision %.2f %%)\n",
              100.0 * s.allAbsentAccuracy, 100.0 * s.presentRecall, 100.0 * s.presentPrecision);
  std::printf("action offered  %.2f %% of transitions: the predicted mask of the state offers the action taken\n", 100.0 * s.actionOffered);
  std::printf("imagined mask   from the predicted next z (what a dream sees): rules with a rewrite predicted present %.2f %% (precision %.2f %%)\n",
              100.0 * s.imaginedRecall, 100.0 * s.imaginedPrecision);
  if (options.json.empty()) return 0;
  nlohmann::json json = scoresJson(s);
  json["checkpoint"] = options.checkpoint;
  json["models"] = options.models;
  json["episodes"] = options.episodes;
  json["seed"] = options.seed;
  json["real_env_steps"] = realSteps;
  json["models_also_trained_on"] = seen;
  json["held_out_episodes"] = true;
  writeJsonReport(json, options.json);
  return 0;
}

#else

int runWorldModelEval(const WorldModelEvalOptions&) {
  throw Error("rl world-model eval is not available: this build of Tessera was configured without libtorch (Debian: libtorch-dev)");
}

#endif

} // namespace

#if TESSERA_HAVE_TORCH

int runRlflowTrain(const RlTrainOptions& options) {
  if (options.rlflow.worldModelEpisodes < 1) throw Error("--world-model-episodes must be at least 1");
  if (options.rlflow.dreamEpisodes < 0) throw Error("--dream-episodes must not be negative");
  const RlflowParameters parameters = readParameters(options.rlflow.parameters);
  std::unique_ptr<CostModel> cost = makeCliCostModel(options.cost);
  ActiveRules rules = loadActiveRules(RuleChoice{options.rules, {}, {}}, reportProgress);
  std::vector<NamedGraph> models = importModels(options.models, options.shapes);

  AgentConfig config = rlflowConfigFor(rules.list.size());
  if (options.maxCandidates > 0) config.maxCandidates = options.maxCandidates;
  if (options.horizon > 0) config.horizon = options.horizon;
  if (parameters.greedyPrior) config.greedyPrior = *parameters.greedyPrior;
  RlflowAgent agent(config, options.seed, parameters.format);
  GraphEpisodes evaluation(models, rules.list, *cost, argmaxOptionsFor(config));
  GraphEpisodes episodes(std::move(models), rules.list, *cost, environmentOptionsFor(config));
  if (!options.rlflow.episodeShard.empty()) return writeEpisodeShard(options, episodes, config.rules, parameters.randomStop);

  reportProgress("greedy's speedups, the baseline of the evaluations");
  const std::vector<double> greedy = greedySpeedups(evaluation.models(), rules.list, *cost);
  size_t realSteps = 0;
  struct Evaluated {
    std::vector<double> speedups, rewards;
  };
  std::vector<Evaluated> evaluated;
  RlflowTrainingOptions training;
  training.worldModelEpisodes = options.rlflow.worldModelEpisodes;
  training.worldModelUpdates = parameters.worldModelUpdates;
  training.randomStopProbability = parameters.randomStop;
  training.dreamEpisodes = options.rlflow.dreamEpisodes;
  training.temperature = parameters.temperature;
  training.dream = parameters.dream;
  training.branchLength = parameters.branchLength;
  training.seed = options.seed;
  training.evaluateEvery = parameters.evaluateEvery;
  training.evaluate = [&](RlflowAgent& candidate) {
    Evaluated e;
    e.speedups = rlflowArgmaxSpeedups(candidate, evaluation, realSteps, &e.rewards);
    evaluated.push_back(e);
    return gainOverBaseline(e.speedups, greedy);
  };
  training.progress = reportProgress;
  if (options.rlflow.launcher.enabled()) training.collect = collectEpisodesOnShards(options);
  reportProgress("training an rlflow agent on " + std::to_string(episodes.models().size()) + " models: " +
                 std::to_string(training.worldModelEpisodes) + " world-model episodes, " + std::to_string(training.dreamEpisodes) + " " +
                 dreamModeName(training.dream) + " dream episodes, seed " + std::to_string(options.seed) + ", cost " + cost->spec());
  const RlflowTrainingReport report = trainRlflow(agent, episodes, training, realSteps);
  Evaluated final;
  final.speedups = rlflowArgmaxSpeedups(agent, evaluation, realSteps, &final.rewards);

  CheckpointHeader header;
  header.rulePack = rulePackFingerprint(rules.list);
  header.cost = cost->spec();
  recordTrainedModels(header, episodes.models());
  header.episodes = static_cast<int>(report.dreams.size());
  header.seed = options.seed;
  const std::filesystem::path parent = std::filesystem::path(options.out).parent_path();
  std::error_code ec;
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  agent.save(options.out, header);

  std::printf("agent           rlflow, %zu world-model episodes, %zu %s dream episodes, %zu controller updates, %.1f s\n",
              static_cast<size_t>(training.worldModelEpisodes), report.dreams.size(), dreamModeName(training.dream), report.updates.size(),
              report.seconds);
  std::printf("real env steps  %zu (the final evaluation included)\n", realSteps);
  if (report.best)
    std::printf("kept            the controller after dream episode %d (argmax gain over greedy %.3f points a model, a loss counting ten times)\n",
                report.best->afterDreamEpisode, report.best->score);
  for (size_t i = 0; i < final.speedups.size(); ++i)
    std::printf("  %-24s argmax speedup %.3f %% (greedy %.3f %%)\n", episodes.models()[i].name.c_str(), final.speedups[i], greedy[i]);
  std::printf("wrote           %s\n", options.out.c_str());
  if (options.json.empty()) return 0;

  const std::vector<NamedGraph>& trained = episodes.models();
  nlohmann::json curve = nlohmann::json::array();
  for (size_t k = 0; k < report.realEpisodes.size(); ++k) {
    const RealEpisodeRecord& e = report.realEpisodes[k];
    curve.push_back({{"episode", k + 1}, {"kind", e.kind}, {"model", e.label}, {"reward", e.reward}, {"steps", e.steps},
                     {"real_env_steps", e.realStepsAfter}});
  }
  nlohmann::json dreams = nlohmann::json::array();
  for (const DreamEpisodeRecord& d : report.dreams)
    dreams.push_back({{"episode", d.episode + 1}, {"model", d.label}, {"reward", d.reward}, {"steps", d.steps}, {"bootstrapped", d.bootstrapped}});
  nlohmann::json worldModel = nlohmann::json::array();
  for (const WorldModelLosses& l : report.worldModel)
    worldModel.push_back({{"total", l.total}, {"latent_nll", l.latentNll}, {"reward_mae", l.reward}, {"listed_reward_mse", l.listedReward}, {"done_bce", l.done}, {"mask", l.mask}});
  nlohmann::json evaluations = nlohmann::json::array();
  for (size_t k = 0; k < report.evaluations.size(); ++k)
    evaluations.push_back({{"after_dream_episode", report.evaluations[k].afterDreamEpisode},
                           {"real_env_steps", report.evaluations[k].realStepsAfter},
                           {"gain_over_greedy", report.evaluations[k].score},
                           {"mean_reward", mean(evaluated[k].rewards)},
                           {"speedup_pct", byModel(trained, evaluated[k].speedups)},
                           {"reward", byModel(trained, evaluated[k].rewards)}});
  nlohmann::json json{{"agent", "rlflow"},
                      {"models", options.models},
                      {"seed", options.seed},
                      {"cost", cost->spec()},
                      {"rule_pack", header.rulePack},
                      {"checkpoint", options.checkpointName()},
                      {"seconds", report.seconds},
                      {"dream", dreamModeName(training.dream)},
                      {"world_model_episodes", training.worldModelEpisodes},
                      {"world_model_updates", training.worldModelUpdates},
                      {"dream_episodes", report.dreams.size()},
                      {"temperature", training.temperature},
                      {"branch_length", training.branchLength},
                      {"agent_format", parameters.format},
                      {"greedy_prior", config.greedyPrior},
                      {"real_env_steps", realSteps},
                      {"curve", curve},
                      {"dream_curve", dreams},
                      {"world_model_losses", worldModel},
                      {"evaluations", evaluations},
                      {"final_mean_reward", mean(final.rewards)},
                      {"argmax_speedup_pct", byModel(trained, final.speedups)},
                      {"argmax_reward", byModel(trained, final.rewards)},
                      {"greedy_speedup_pct", byModel(trained, greedy)}};
  if (report.best) json["kept_after_dream_episode"] = report.best->afterDreamEpisode;
  writeJsonReport(json, options.json);
  return 0;
}

#else

int runRlflowTrain(const RlTrainOptions&) {
  throw Error("rl train --agent rlflow is not available: this build of Tessera was configured without libtorch (Debian: libtorch-dev)");
}

#endif

void addRlflowTrainOptions(CLI::App* train, RlflowTrainSettings& settings) {
  train->add_option("--world-model-episodes", settings.worldModelEpisodes, "rlflow: real episodes of a random agent, the world model's data")
      ->capture_default_str();
  train->add_option("--dream-episodes", settings.dreamEpisodes, "rlflow: episodes the controller learns from in the world model's dreams")
      ->capture_default_str();
  train->add_option("--param", settings.parameters,
                    std::string("KEY=VALUE, repeatable. rlflow: dream=imagined|lockstep|branch (lockstep: the real environment gives "
                                "masks and done, as published; branch: MBPO-style dreams of at most branch_length=N steps from real "
                                "states of the world model's data), temperature=T, world_model_updates=N, random_stop=P, "
                                "evaluate_every=N (controller updates between real argmax evaluations, 0: none), format=1|2|3 (the "
                                "networks' layout, default the newest: 3 reads each step's reward from its z and action), greedy_prior=P "
                                "(the untrained controller's preference for the best saving: it plays greedy at any P, and samples "
                                "other rules more often at a lower one). puct: ") +
                        kPuctTrainParameters);
  addLauncherOptions(train, settings.launcher);
  train->add_option("--episodes-per-shard", settings.episodesPerShard, "rlflow with --launcher: world-model episodes a shard collects")
      ->capture_default_str();
  train->add_option("--episode-shard", settings.episodeShard, "A launched shard: collect world-model episodes FIRST:COUNT into --out")
      ->group(""); // internal: what `--launcher` gives each shard
}

void addWorldModelCommand(CLI::App* rl, CommandContext& context) {
  CLI::App* worldModel = rl->add_subcommand("world-model", "An RLFlow agent's world model");
  worldModel->require_subcommand(1);
  auto options = std::make_shared<WorldModelEvalOptions>();
  CLI::App* eval = worldModel->add_subcommand("eval", "Score the world model on fresh real episodes of a random agent (held out)");
  eval->add_option("checkpoint", options->checkpoint, "An rlflow checkpoint")->required()->check(CLI::ExistingFile);
  eval->add_option("--models", options->models, "ONNX models to play the episodes on")->required()->check(CLI::ExistingFile);
  eval->add_option("--episodes", options->episodes, "Episodes to score")->capture_default_str();
  eval->add_option("--seed", options->seed, "Seed of the random agent (not the training's, so the episodes are new)")->capture_default_str();
  eval->add_option("--cost", options->cost, "Cost model of the rewards")->capture_default_str();
  eval->add_option("--rules", options->rules, "Rule file the agent was trained with, instead of the built-in pack");
  eval->add_option("--json", options->json, "Write the scores as JSON");
  eval->add_option("--dream-trace", options->dreamTrace,
                   "Also write, for each model, the agent's argmax play from its graph beside the world model's dream of the same "
                   "actions (predicted and real reward and valid actions per step) as JSON");
  eval->add_option("--dream-steps", options->dreamSteps, "Most steps of a dream trace")->capture_default_str();
  eval->add_option("--dream-policy", options->dreamPolicy,
                   "Who plays a dream trace's real rollout: rlflow (the agent's argmax), greedy (the cheapest rewrite while it "
                   "saves) or the path of an X-RLflow checkpoint (its argmax): what the world model imagines of another path")
      ->capture_default_str();
  addModelShapeOptions(eval, options->shapes);
  eval->callback([options, &context] { context.exitCode = runWorldModelEval(*options); });
}

} // namespace tessera::cli
