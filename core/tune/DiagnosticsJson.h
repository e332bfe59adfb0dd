// The tuning run's diagnostics as `tune --json` reports them: where the time went
// (`time_breakdown`) and what each round of the evolutionary search did (`search_rounds`).
#pragma once

#include "tune/EvolutionarySearch.h"
#include "tune/Tuner.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace tessera::tune {

// {"propose": s, "lower": s, "build": s, "run": s, "learn": s}
nlohmann::json timeBreakdownJson(const TuneTimes& times);

// One object a round: proposed, from_model, measured, failed, model_trained, spearman (null when
// there is none), mean_predicted_picked, mean_predicted_fresh, propose_seconds, learn_seconds.
nlohmann::json searchRoundsJson(const std::vector<SearchRound>& rounds);

} // namespace tessera::tune
