// The diagnostics' JSON, field by field.
#include "tune/DiagnosticsJson.h"

namespace tessera::tune {

nlohmann::json timeBreakdownJson(const TuneTimes& times) {
  return {{"propose", times.propose}, {"lower", times.lower}, {"build", times.build}, {"run", times.run}, {"learn", times.learn}};
}

nlohmann::json searchRoundsJson(const std::vector<SearchRound>& rounds) {
  nlohmann::json array = nlohmann::json::array();
  for (const SearchRound& round : rounds) {
    nlohmann::json entry;
    entry["proposed"] = round.proposed;
    entry["from_model"] = round.fromModel;
    entry["measured"] = round.measured;
    entry["failed"] = round.failed;
    entry["model_trained"] = round.modelTrained;
    entry["spearman"] = round.spearman ? nlohmann::json(*round.spearman) : nlohmann::json();
    entry["mean_predicted_picked"] = round.meanPredictedPicked;
    entry["mean_predicted_fresh"] = round.meanPredictedFresh;
    entry["propose_seconds"] = round.proposeSeconds;
    entry["learn_seconds"] = round.learnSeconds;
    array.push_back(std::move(entry));
  }
  return array;
}

} // namespace tessera::tune
