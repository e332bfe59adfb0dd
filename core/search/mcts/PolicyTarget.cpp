#include "search/mcts/PolicyTarget.h"

#include "support/Error.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tessera::mcts {

PolicyTarget parsePolicyTarget(const std::string& name) {
  if (name == "visits") return PolicyTarget::Visits;
  if (name == "completed_q") return PolicyTarget::CompletedQ;
  throw Error("policy_target=" + name + ": expected visits or completed_q");
}

const char* policyTargetName(PolicyTarget target) { return target == PolicyTarget::Visits ? "visits" : "completed_q"; }

std::vector<float> visitShares(const PlannedRoot& root) {
  double total = 0;
  for (uint32_t v : root.visits) total += v;
  if (total <= 0) return {};
  std::vector<float> shares;
  shares.reserve(root.visits.size());
  for (uint32_t v : root.visits) shares.push_back(static_cast<float>(v / total));
  return shares;
}

std::vector<float> completedQPolicy(const PlannedRoot& root, double cVisit, double cScale) {
  const size_t actions = root.visits.size();
  if (root.priors.size() != actions || root.meanValues.size() != actions) return visitShares(root);
  // The mixed value: the guide's value, and the visited actions' Q weighted by their prior, as if
  // the guide's value were one more visit (Danihelka et al., appendix D).
  double visits = 0, priorVisited = 0, weightedQ = 0;
  uint32_t mostVisits = 0;
  for (size_t a = 0; a < actions; ++a) {
    if (root.visits[a] == 0) continue;
    visits += root.visits[a];
    priorVisited += root.priors[a];
    weightedQ += root.priors[a] * root.meanValues[a];
    mostVisits = std::max(mostVisits, root.visits[a]);
  }
  if (visits <= 0) return visitShares(root);
  const double mixed = priorVisited > 0 ? (root.value + visits * weightedQ / priorVisited) / (1.0 + visits) : root.value;
  std::vector<double> q(actions, mixed);
  double low = mixed, high = mixed;
  for (size_t a = 0; a < actions; ++a) {
    if (root.visits[a] == 0) continue;
    q[a] = root.meanValues[a];
    low = std::min(low, q[a]);
    high = std::max(high, q[a]);
  }
  const double sigma = (cVisit + mostVisits) * cScale;
  std::vector<double> logits(actions, -std::numeric_limits<double>::infinity());
  double top = -std::numeric_limits<double>::infinity();
  for (size_t a = 0; a < actions; ++a) {
    if (root.priors[a] <= 0) continue;
    const double normalised = high > low ? (q[a] - low) / (high - low) : 0.5;
    logits[a] = std::log(static_cast<double>(root.priors[a])) + sigma * normalised;
    top = std::max(top, logits[a]);
  }
  if (!std::isfinite(top)) return visitShares(root);
  double total = 0;
  std::vector<float> policy(actions, 0.0f);
  for (size_t a = 0; a < actions; ++a) {
    if (!std::isfinite(logits[a])) continue;
    const double e = std::exp(logits[a] - top);
    policy[a] = static_cast<float>(e);
    total += e;
  }
  for (float& p : policy) p = static_cast<float>(p / total);
  return policy;
}

} // namespace tessera::mcts
