// `tessera-cli rl train --agent xrlflow --models M... [--episodes N] [--seed S] [--cost SPEC]
// --out CKPT [--json F]`: trains an X-RLflow agent by PPO on the models' graph rewriting (core/rl,
// core/xrlflow) and writes its checkpoint. A progress line per episode and update on stderr;
// the JSON report holds the training curve. Needs a build with libtorch. `--agent rlflow` trains
// an RLFlow agent instead (RlflowCommand.cpp), which also adds `rl world-model eval`.
#include "CommandContext.h"
#include "Commands.h"
#include "CostModelFactory.h"
#include "ModelShapeOptions.h"
#include "RlTrainOptions.h"
#include "run/RulePack.h"

#include "onnx/OnnxImport.h"
#include "rl/RulePackFingerprint.h"
#include "rl/TrainedModels.h"
#include "support/Error.h"

#if TESSERA_HAVE_TORCH
#include "xrlflow/XrlflowAgent.h"
#include "xrlflow/XrlflowTraining.h"
#endif

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>

namespace tessera::cli {

namespace {

#if TESSERA_HAVE_TORCH

nlohmann::json curveJson(const TrainingReport& report) {
  nlohmann::json curve = nlohmann::json::array();
  for (const EpisodeRecord& e : report.episodes)
    curve.push_back({{"episode", e.episode + 1}, {"model", e.label}, {"reward", e.reward}, {"steps", e.steps}, {"seconds", e.seconds}});
  return curve;
}

nlohmann::json updatesJson(const TrainingReport& report) {
  nlohmann::json updates = nlohmann::json::array();
  for (const PpoUpdateStats& u : report.updates)
    updates.push_back({{"transitions", u.transitions}, {"epochs", u.epochs}, {"policy_loss", u.policyLoss}, {"value_loss", u.valueLoss},
                       {"entropy", u.entropy}, {"approx_kl", u.approxKl}, {"seconds", u.seconds}});
  return updates;
}

int runRlTrain(const RlTrainOptions& options) {
  if (options.agent == "rlflow") return runRlflowTrain(options);
  if (options.agent == "puct") return runPuctTrain(options);
  if (options.agent != XrlflowAgent::kName) throw Error("unknown agent '" + options.agent + "' (use xrlflow, rlflow or puct)");
  if (options.rlflow.launcher.enabled())
    throw Error("rl train --launcher: xrlflow trains in this process; only rlflow's world-model episodes are launched (--agent rlflow), "
                "and puct's self-play games (--agent puct)");
  if (options.episodes < 1) throw Error("--episodes must be at least 1");
  std::unique_ptr<CostModel> cost = makeCliCostModel(options.cost);
  ActiveRules rules = loadActiveRules(RuleChoice{options.rules, {}, {}}, reportProgress);
  std::vector<NamedGraph> models;
  std::vector<Graph> graphs = options.shapes.importEach(options.models);
  for (size_t i = 0; i < graphs.size(); ++i) models.push_back({modelLabel(options.models[i], options.models), std::move(graphs[i])});

  AgentConfig config = agentConfigFor(rules.list.size());
  if (options.maxCandidates > 0) config.maxCandidates = options.maxCandidates;
  if (options.horizon > 0) config.horizon = options.horizon;
  XrlflowAgent agent(config, options.seed);
  GraphEpisodes evaluation(models, rules.list, *cost, argmaxOptionsFor(config));
  GraphEpisodes episodes(std::move(models), rules.list, *cost, environmentOptionsFor(config));

  // The best agent is the one that gains most over greedy without losing to it anywhere.
  reportProgress("greedy's speedups, the baseline of the evaluations");
  const std::vector<double> greedy = greedySpeedups(evaluation.models(), rules.list, *cost);
  std::vector<std::vector<double>> evaluated; // per evaluation, per model
  TrainingOptions training;
  training.episodes = options.episodes;
  training.progress = reportProgress;
  training.evaluateEvery = options.evaluateEvery;
  training.evaluate = [&](XrlflowAgent& candidate) {
    evaluated.push_back(argmaxSpeedups(candidate, evaluation));
    return gainOverBaseline(evaluated.back(), greedy);
  };
  reportProgress("training an xrlflow agent on " + std::to_string(episodes.models().size()) + " models, " + std::to_string(options.episodes) +
                 " episodes, seed " + std::to_string(options.seed) + ", cost " + cost->spec());
  TrainingReport report = trainAgent(agent, episodes, training);
  std::vector<double> final = argmaxSpeedups(agent, evaluation);

  CheckpointHeader header;
  header.rulePack = rulePackFingerprint(rules.list);
  header.cost = cost->spec();
  recordTrainedModels(header, episodes.models());
  header.episodes = static_cast<int>(report.episodes.size());
  header.seed = options.seed;
  std::filesystem::path parent = std::filesystem::path(options.out).parent_path();
  std::error_code ec;
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  agent.save(options.out, header);

  std::printf("agent           xrlflow, %zu episodes, %zu updates, %.1f s\n", report.episodes.size(), report.updates.size(), report.seconds);
  if (report.best)
    std::printf("kept            the weights after episode %d (argmax gain over greedy %.3f points a model, a loss counting ten times)\n",
                report.best->afterEpisode, report.best->score);
  nlohmann::json perModel = nlohmann::json::object(), greedyPerModel = nlohmann::json::object();
  for (size_t i = 0; i < final.size(); ++i) {
    std::printf("  %-24s argmax speedup %.3f %% (greedy %.3f %%)\n", episodes.models()[i].name.c_str(), final[i], greedy[i]);
    perModel[episodes.models()[i].name] = final[i];
    greedyPerModel[episodes.models()[i].name] = greedy[i];
  }
  std::printf("wrote           %s\n", options.out.c_str());
  if (options.json.empty()) return 0;
  nlohmann::json evaluations = nlohmann::json::array();
  for (size_t k = 0; k < report.evaluations.size(); ++k) {
    nlohmann::json speedups = nlohmann::json::object();
    for (size_t i = 0; i < evaluated[k].size(); ++i) speedups[episodes.models()[i].name] = evaluated[k][i];
    evaluations.push_back({{"after_episode", report.evaluations[k].afterEpisode}, {"gain_over_greedy", report.evaluations[k].score},
                           {"speedup_pct", speedups}});
  }
  nlohmann::json json{{"agent", options.agent},
                      {"models", options.models},
                      {"episodes", report.episodes.size()},
                      {"seed", options.seed},
                      {"cost", cost->spec()},
                      {"rule_pack", header.rulePack},
                      {"checkpoint", options.checkpointName()},
                      {"seconds", report.seconds},
                      {"curve", curveJson(report)},
                      {"updates", updatesJson(report)},
                      {"evaluations", evaluations},
                      {"argmax_speedup_pct", perModel},
                      {"greedy_speedup_pct", greedyPerModel}};
  if (report.best) json["kept_after_episode"] = report.best->afterEpisode;
  writeJsonReport(json, options.json);
  return 0;
}

#else

int runRlTrain(const RlTrainOptions&) {
  throw Error("rl train is not available: this build of Tessera was configured without libtorch (Debian: libtorch-dev; then "
              "configure and build again)");
}

#endif

} // namespace

void addRlCommand(CLI::App& app, CommandContext& context) {
  CLI::App* rl = app.add_subcommand("rl", kRlCommandDescription);
  rl->require_subcommand(1);
  auto options = std::make_shared<RlTrainOptions>();
  CLI::App* train = rl->add_subcommand("train", "Train an agent by PPO on models and write its checkpoint");
  train->add_option("--agent", options->agent, "The agent: xrlflow, rlflow or puct")->capture_default_str();
  train->add_option("--models", options->models, "ONNX models to train on (episodes take them in turn)")->required()->check(CLI::ExistingFile);
  train->add_option("--episodes", options->episodes, "Training episodes")->capture_default_str();
  train->add_option("--seed", options->seed, "Seed of the weights and of exploration")->capture_default_str();
  train->add_option("--cost", options->cost, "Cost model of the rewards: analytic:<device>, measured:cpu, table:FILE")->capture_default_str();
  train->add_option("--rules", options->rules, "Rule file instead of the built-in pack (the agent then runs only with it)");
  train->add_option("--out", options->out, "Write the checkpoint here")->required();
  train->add_option("--json", options->json, "Write the report (with the training curve) as JSON");
  train->add_option("--evaluate-every", options->evaluateEvery,
                    "Argmax evaluation on the models before training and after every N updates, against greedy; the best weights "
                    "are kept (0: keep the last)")
      ->capture_default_str();
  train->add_option("--max-candidates", options->maxCandidates, "Candidate rewrites per state (default 64)");
  train->add_option("--horizon", options->horizon, "Most rewrites per episode (default 100)");
  addModelShapeOptions(train, options->shapes);
  addRlflowTrainOptions(train, options->rlflow);
  addPuctTrainOptions(train, options->puct);
  train->callback([options, &context] { context.exitCode = runRlTrain(*options); });
  addWorldModelCommand(rl, context);
}

} // namespace tessera::cli
