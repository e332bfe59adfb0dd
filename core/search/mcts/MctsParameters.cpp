#include "search/mcts/MctsParameters.h"

#include "extract/Extractors.h"
#include "support/Error.h"

#include <filesystem>

namespace tessera::mcts {

std::string_view rolloutKindName(RolloutKind kind) {
  switch (kind) {
  case RolloutKind::Random: return "random";
  case RolloutKind::Pruned: return "pruned";
  case RolloutKind::Heavy: return "heavy";
  case RolloutKind::Lookahead: return "lookahead";
  }
  return "unknown";
}

namespace {
int wholeNumber(const SearchOptions& options, const std::string& name, int fallback, int lowest) {
  double value = numericParameter(options, name, fallback);
  if (value != std::floor(value) || value < lowest || value > 1e6)
    throw Error("parameter " + name + "=" + options.parameters.at(name) + " must be a whole number >= " +
                std::to_string(lowest));
  return static_cast<int>(value);
}
} // namespace

MctsParameters MctsParameters::from(const SearchOptions& options) {
  static constexpr const char* kKnown[] = {"simulations", "rollout_depth", "exploration",  "gamma",
                                           "max_steps",   "rollout",       "reward_extract", "extract_main",
                                           "extract_final", "rebase",      "prior",         "c_puct",
                                           "value_mix", "q_norm",      "prior_floor"};
  checkParameterNames(options, "mcts", kKnown);

  MctsParameters p;
  p.simulations = wholeNumber(options, "simulations", p.simulations, 1);
  p.rolloutDepth = wholeNumber(options, "rollout_depth", p.rolloutDepth, 0);
  p.maxSteps = wholeNumber(options, "max_steps", p.maxSteps, 1);
  p.exploration = numericParameter(options, "exploration", p.exploration);
  if (!(p.exploration >= 0) || !std::isfinite(p.exploration))
    throw Error("parameter exploration must be a finite number >= 0");
  p.gamma = numericParameter(options, "gamma", p.gamma);
  if (!(p.gamma > 0 && p.gamma <= 1)) throw Error("parameter gamma must be in (0, 1]");

  const std::string rollout = textParameter(options, "rollout", std::string(rolloutKindName(p.rollout)));
  bool known = false;
  for (RolloutKind kind : {RolloutKind::Random, RolloutKind::Pruned, RolloutKind::Heavy, RolloutKind::Lookahead}) {
    if (rollout != rolloutKindName(kind)) continue;
    p.rollout = kind;
    known = true;
  }
  if (!known) throw Error("parameter rollout=" + rollout + " is not a rollout policy (use random, pruned, heavy or lookahead)");

  if (options.parameters.count("reward_extract") && options.parameters.count("extract_main") &&
      options.parameters.at("reward_extract") != options.parameters.at("extract_main"))
    throw Error("parameters reward_extract and extract_main name the same extraction and disagree");
  const std::string mainName = options.parameters.count("extract_main") ? "extract_main" : "reward_extract";
  p.rewardExtract = textParameter(options, mainName, p.rewardExtract);
  if (!extract::parseExtractionMethod(p.rewardExtract))
    throw Error("parameter " + mainName + "=" + p.rewardExtract + " is not an extraction method (use tree, ocf, dag or ilp)");
  p.finalExtract = textParameter(options, "extract_final", options.extractMethod);
  if (!extract::parseExtractionMethod(p.finalExtract))
    throw Error((options.parameters.count("extract_final") ? "parameter extract_final=" + p.finalExtract + " is not an extraction method"
                                                             : "unknown extraction method '" + p.finalExtract + "'") +
                " (use tree, ocf, dag or ilp)");
  p.rebase = wholeNumber(options, "rebase", p.rebase ? 1 : 0, 0) != 0;
  if (options.nodeLimit) p.nodeLimit = options.nodeLimit;

  p.prior = textParameter(options, "prior", "");
  if (options.parameters.count("prior") && p.prior.empty()) throw Error("parameter prior= names no checkpoint");
  std::error_code missing;
  if (!p.prior.empty() && !std::filesystem::is_regular_file(p.prior, missing))
    throw Error("parameter prior=" + p.prior + ": no such checkpoint file");
  p.cPuct = numericParameter(options, "c_puct", p.cPuct);
  if (!(p.cPuct >= 0) || !std::isfinite(p.cPuct)) throw Error("parameter c_puct must be a finite number >= 0");
  p.valueMix = numericParameter(options, "value_mix", p.valueMix);
  if (!(p.valueMix >= 0 && p.valueMix <= 1)) throw Error("parameter value_mix must be in [0, 1]");
  p.normaliseQ = wholeNumber(options, "q_norm", p.normaliseQ ? 1 : 0, 0) != 0;
  p.priorFloor = numericParameter(options, "prior_floor", p.priorFloor);
  if (!(p.priorFloor >= 0 && p.priorFloor < 1)) throw Error("parameter prior_floor must be in [0, 1)");
  return p;
}

} // namespace tessera::mcts
