#include "rlflow/RlflowActions.h"

#include <algorithm>

namespace tessera {

bool ActionMask::empty() const {
  return std::all_of(locations.begin(), locations.end(), [](int n) { return n == 0; });
}

bool offers(const ActionMask& mask, const RlflowAction& action) {
  const auto rules = static_cast<int>(mask.locations.size());
  if (action.rule == rules) return true;
  if (action.rule < 0 || action.rule > rules) return false;
  return mask.locations[static_cast<size_t>(action.rule)] > std::min(action.location, kRlflowLocations - 1);
}

ActionMask maskOf(const Observation& observation, int rules) {
  ActionMask mask;
  mask.locations.assign(static_cast<size_t>(rules), 0);
  mask.bestSaving.assign(static_cast<size_t>(rules), 0.0f);
  for (const CandidateObservation& candidate : observation.candidates) {
    int& count = mask.locations[static_cast<size_t>(candidate.rule)];
    if (count == 0) mask.bestSaving[static_cast<size_t>(candidate.rule)] = -candidate.costDeltaPct; // listed cheapest first
    count = std::min(count + 1, kRlflowLocations);
  }
  return mask;
}

size_t candidateOf(const Observation& observation, const RlflowAction& action, int rules) {
  const size_t stop = observation.candidates.size();
  if (action.rule < 0 || action.rule >= rules) return stop;
  int rank = 0;
  for (size_t i = 0; i < observation.candidates.size(); ++i) {
    if (observation.candidates[i].rule != action.rule) continue;
    if (rank == action.location) return i;
    ++rank;
  }
  return stop;
}

double rewardOf(const Observation& observation, const RlflowAction& action, int rules) {
  const size_t index = candidateOf(observation, action, rules);
  return index < observation.candidates.size() ? -observation.candidates[index].costDeltaPct : 0.0;
}

RlflowAction actionOf(const Observation& observation, size_t index, int rules) {
  if (index >= observation.candidates.size()) return {rules, 0};
  const int rule = observation.candidates[index].rule;
  int rank = 0;
  for (size_t i = 0; i < index; ++i) rank += observation.candidates[i].rule == rule ? 1 : 0;
  return {rule, rank};
}

} // namespace tessera
