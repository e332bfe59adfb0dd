// RLFlow's action space over the rewrite environment: a rule, then a location among that rule's
// rewrites (cheapest first, as the environment lists them), or stop. The action mask of a state
// (which rules have a rewrite, how many locations, the best saving each offers) is what the world
// model learns to predict, so that a dream needs no real environment. No libtorch here.
#pragma once

#include "rl/Observation.h"

#include <cstddef>
#include <vector>

namespace tessera {

// A rule's locations beyond this many are not offered (the environment lists at most 64 rewrites).
inline constexpr int kRlflowLocations = 16;

struct RlflowAction {
  int rule = 0;     // the pack's rule index; `rules` (one past the last) is stop
  int location = 0; // rank among the rule's rewrites, cheapest first
};

struct ActionMask {
  std::vector<int> locations;  // per rule: its rewrites, at most kRlflowLocations (0: no match)
  std::vector<float> bestSaving; // per rule: its cheapest rewrite's saving, % of the initial cost (0 when none)
  bool empty() const;
};

// Whether `mask` offers `action` (its rule has a rewrite there, with that many locations); stop
// is always offered. A location past kRlflowLocations counts as the last one, as the world model
// reads it.
bool offers(const ActionMask& mask, const RlflowAction& action);

// The reward the environment gives for `action` in the state `observation` lists: the saving of
// the rewrite it names, % of the initial cost (0 for stop or a rewrite the state lacks). No step
// is taken: the state already priced its rewrites.
double rewardOf(const Observation& observation, const RlflowAction& action, int rules);

// The mask of a real state: from its listed candidates.
ActionMask maskOf(const Observation& observation, int rules);

// The candidate index `action` names in `observation`, or candidates.size() for stop (also for a
// location the rule does not have).
size_t candidateOf(const Observation& observation, const RlflowAction& action, int rules);

// The action that names candidate `index` (candidates.size(): stop); its location may be past
// kRlflowLocations, where no action reaches.
RlflowAction actionOf(const Observation& observation, size_t index, int rules);

} // namespace tessera
