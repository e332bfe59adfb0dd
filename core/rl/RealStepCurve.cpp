#include "rl/RealStepCurve.h"

#include "rl/ReportObject.h"
#include "support/Error.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace tessera {

namespace {

void readXrlflow(const nlohmann::json& report, RealStepCurve& curve) {
  const nlohmann::json& episodes = listNamed(report, "curve", "of training episodes");
  const size_t round = std::max<size_t>(1, curve.models.size());
  std::vector<double> rewards;
  double steps = 0;
  for (size_t i = 0; i < episodes.size(); ++i) {
    const std::string where = "curve entry " + std::to_string(i);
    if (!episodes[i].is_object()) throw Error(where + " is not an object");
    rewards.push_back(finiteNumber(episodes[i], "reward", where));
    steps += finiteNumber(episodes[i], "steps", where);
    if (rewards.size() < round) continue;
    double total = 0;
    for (size_t k = rewards.size() - round; k < rewards.size(); ++k) total += rewards[k];
    curve.points.push_back({steps, total / static_cast<double>(round)});
  }
  if (curve.points.empty()) throw Error("fewer training episodes than models: no whole round to average");
  curve.measure = "mean return of the last " + std::to_string(round) + " training episodes (sampled)";
}

void readRlflow(const nlohmann::json& report, RealStepCurve& curve) {
  const nlohmann::json& evaluations = listNamed(report, "evaluations", "(train with --param evaluate_every=N to have them)");
  for (size_t i = 0; i < evaluations.size(); ++i) {
    const std::string where = "evaluation " + std::to_string(i);
    if (!evaluations[i].is_object()) throw Error(where + " is not an object");
    curve.points.push_back({finiteNumber(evaluations[i], "real_env_steps", where), finiteNumber(evaluations[i], "mean_reward", where)});
  }
  curve.measure = "mean argmax return over the models";
  if (const std::string dream = optionalString(report, "dream"); dream != "imagined") curve.variant = dream; // the default goes unsaid
}

} // namespace

RealStepCurve readRealStepCurve(const std::string& path) {
  RealStepCurve curve;
  readReportObject(path, curve, [&](const nlohmann::json& report) {
    if (curve.agent == "xrlflow") readXrlflow(report, curve);
    else if (curve.agent == "rlflow") readRlflow(report, curve);
    else throw Error("a report of agent '" + curve.agent + "' has no reward by real environment steps (xrlflow and rlflow reports do)");
  });
  return curve;
}

} // namespace tessera
