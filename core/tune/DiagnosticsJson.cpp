// The diagnostics' JSON, field by field.
#include "tune/DiagnosticsJson.h"

namespace tessera::tune {

nlohmann::json timeBreakdownJson(const TuneTimes& times) {
  return nlohmann::json::object(
      {{"propose", times.propose}, {"lower", times.lower}, {"build", times.build}, {"run", times.run}, {"learn", times.learn}});
}

nlohmann::json searchRoundsJson(const std::vector<SearchRound>& rounds) {
  nlohmann::json array = nlohmann::json::array();
  for (const SearchRound& round : rounds)
    array.push_back(nlohmann::json::object({{"proposed", round.proposed},
                                            {"from_model", round.fromModel},
                                            {"measured", round.measured},
                                            {"failed", round.failed},
                                            {"model_trained", round.modelTrained},
                                            {"spearman", round.spearman ? nlohmann::json(*round.spearman) : nlohmann::json()},
                                            {"mean_predicted_picked", round.meanPredictedPicked},
                                            {"mean_predicted_fresh", round.meanPredictedFresh},
                                            {"propose_seconds", round.proposeSeconds},
                                            {"learn_seconds", round.learnSeconds}}));
  return array;
}

} // namespace tessera::tune
