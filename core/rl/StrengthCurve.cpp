#include "rl/StrengthCurve.h"

#include "rl/ReportObject.h"
#include "support/Error.h"

#include <sstream>

namespace tessera {

StrengthCurve readStrengthCurve(const std::string& path) {
  StrengthCurve curve;
  readReportObject(path, curve, [&](const nlohmann::json& report) {
    if (curve.agent != "puct")
      throw Error("a report of agent '" + curve.agent + "' has no self-play strength by generation (puct reports do)");
    const nlohmann::json& generations = listNamed(report, "generations", "of self-play generations");
    for (size_t i = 0; i < generations.size(); ++i) {
      const std::string where = "generation entry " + std::to_string(i);
      if (!generations[i].is_object()) throw Error(where + " is not an object");
      const auto number = generations[i].find("generation");
      const int generation = number != generations[i].end() && number->is_number_integer() ? number->get<int>() : static_cast<int>(i) + 1;
      curve.generations.push_back({generation, finiteNumber(generations[i], "mean_speedup_pct", where)});
    }
    std::ostringstream variant;
    if (const double noise = report.contains("root_noise") ? finiteNumber(report, "root_noise", "the report") : 0.0; noise > 0)
      variant << "root_noise " << noise;
    // A target other than the default (completed_q) is named; reports from before policy targets
    // trained on visit shares.
    const auto target = report.find("policy_target");
    const std::string policyTarget = target != report.end() && target->is_string() ? target->get<std::string>() : "visits";
    if (policyTarget != "completed_q") variant << (variant.tellp() > 0 ? " " : "") << policyTarget;
    curve.variant = variant.str();
    if (report.contains("final_mean_speedup_pct")) curve.finalMeanSpeedupPct = finiteNumber(report, "final_mean_speedup_pct", "the report");
  });
  return curve;
}

} // namespace tessera
