#include "rl/AgentConfig.h"

#include "rl/Observation.h"
#include "support/Error.h"

#include <cmath>

namespace tessera {

namespace {

void require(bool ok, const std::string& where, const std::string& what) {
  if (!ok) throw Error(where + ": " + what);
}

} // namespace

AgentConfig agentConfigFor(size_t rules) {
  AgentConfig config;
  config.opKinds = opKindCount();
  config.nodeFigures = nodeFigureSize();
  config.globalFeatures = globalFeatureSize();
  config.rules = static_cast<int>(rules);
  return config;
}

void checkAgentConfig(const AgentConfig& c, const std::string& where) {
  require(c.opKinds > 0 && c.opKinds < 100000, where, "op_kinds must be positive");
  require(c.nodeFigures > 0 && c.nodeFigures < 1000, where, "node_figures must be positive");
  require(c.globalFeatures > 0 && c.globalFeatures < 1000, where, "global_features must be positive");
  require(c.rules >= 0 && c.rules < 1000000, where, "rules must not be negative");
  require(c.hidden > 0 && c.hidden <= 4096, where, "hidden must be in 1..4096");
  require(c.messagePassingSteps >= 0 && c.messagePassingSteps <= 64, where, "message_passing_steps must be in 0..64");
  require(c.ruleEmbedding > 0 && c.ruleEmbedding <= 4096, where, "rule_embedding must be in 1..4096");
  require(c.headHidden > 0 && c.headHidden <= 8192 && c.headHidden2 > 0 && c.headHidden2 <= 8192, where,
          "head sizes must be in 1..8192");
  require(std::isfinite(c.greedyPrior), where, "greedy_prior must be a number");
  require(std::isfinite(c.detourPrior), where, "detour_prior must be a number");
  require(std::isfinite(c.stopPrior), where, "stop_prior must be a number");
  require(c.maxCandidates > 0 && c.maxCandidates <= 100000, where, "max_candidates must be positive");
  require(c.horizon > 0 && c.horizon <= 1000000, where, "horizon must be positive");
  require(c.learningRate > 0 && std::isfinite(c.learningRate), where, "learning_rate must be positive");
  require(c.clip > 0 && c.clip < 1, where, "clip must be in (0, 1)");
  require(c.gamma > 0 && c.gamma <= 1, where, "gamma must be in (0, 1]");
  require(c.lambda >= 0 && c.lambda <= 1, where, "lambda must be in [0, 1]");
  require(c.entropyWeight >= 0 && std::isfinite(c.entropyWeight), where, "entropy_weight must not be negative");
  require(c.valueWeight >= 0 && std::isfinite(c.valueWeight), where, "value_weight must not be negative");
  require(c.maxGradNorm > 0 && std::isfinite(c.maxGradNorm), where, "max_grad_norm must be positive");
  require(c.targetKl > 0 && !std::isnan(c.targetKl), where, "target_kl must be positive");
  require(c.epochs > 0 && c.epochs <= 1000, where, "epochs must be positive");
  require(c.minibatch > 0 && c.minibatch <= 100000, where, "minibatch must be positive");
  require(c.episodesPerUpdate > 0 && c.episodesPerUpdate <= 100000, where, "episodes_per_update must be positive");
}

} // namespace tessera
