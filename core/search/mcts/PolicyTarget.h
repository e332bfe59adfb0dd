// What a step's search teaches the prior: the policy target self-play records at each planned
// root. AlphaZero's target is the root's visit shares. With a handful of simulations a step, the
// visits follow the prior, and an action the prior rules out is never visited, so training on its
// own visit shares drives the prior further the way it already points (measured: the PPOCR
// classifier fell from 49.17 to 0.00 % after one generation). Gumbel MuZero's target (Danihelka et
// al., "Policy improvement by planning with Gumbel", ICLR 2022) improves on the prior itself:
// softmax(log prior + sigma(completed Q)), where an unvisited action's Q is completed by the root's
// mixed value, so it keeps its prior's share instead of being taught zero.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::mcts {

// A step's search below its committed root, per action of the pack.
struct PlannedRoot {
  std::vector<uint32_t> visits;
  std::vector<double> meanValues; // backed-up mean value of the action's child; read where visits > 0
  std::vector<float> priors;      // the prior the search planned with (root noise included)
  double value = 0;               // the guide's value of the root state, the same units as meanValues
};

enum class PolicyTarget { Visits, CompletedQ };

// "visits" or "completed_q"; throws tessera::Error naming the value otherwise.
PolicyTarget parsePolicyTarget(const std::string& name);
const char* policyTargetName(PolicyTarget target);

// Each action's share of the root's visits; empty when nothing was visited.
std::vector<float> visitShares(const PlannedRoot& root);

// softmax(log prior + sigma(q)) over the actions the prior gives a share, with q the min-max
// normalised Q of a visited action and, for an unvisited one, the root's mixed value (the guide's
// value mixed with the visited actions' Q weighted by their prior); sigma(q) = (cVisit + max
// visits) * cScale * q, Gumbel MuZero's monotone transform (cVisit 50, cScale 0.1). Without priors
// the visit shares. Sums to 1 over the actions with a prior.
std::vector<float> completedQPolicy(const PlannedRoot& root, double cVisit = 50.0, double cScale = 0.1);

} // namespace tessera::mcts
