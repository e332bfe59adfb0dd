// Pairwise dominance test within each class.
#include "extract/Dominance.h"

#include <algorithm>

namespace tessera::extract {

std::vector<int32_t> findDominators(const ExtractionProblem& problem, const std::vector<uint8_t>& eligible,
                                    size_t maxClassSize) {
  std::vector<int32_t> dominator(problem.nodes.size(), -1);
  auto isEligible = [&](uint32_t n) { return eligible.empty() || eligible[n]; };
  std::vector<std::vector<uint32_t>> childSets;
  for (const std::vector<uint32_t>& members : problem.classNodes) {
    if (members.size() < 2 || members.size() > maxClassSize) continue;
    childSets.assign(members.size(), {});
    for (size_t i = 0; i < members.size(); ++i) {
      childSets[i] = distinctChildren(problem.nodes[members[i]]);
      std::sort(childSets[i].begin(), childSets[i].end());
    }
    for (size_t i = 0; i < members.size(); ++i) {
      uint32_t n = members[i];
      if (!isEligible(n)) continue;
      for (size_t j = 0; j < members.size(); ++j) {
        uint32_t m = members[j];
        if (m == n || !isEligible(m) || dominator[m] >= 0) continue;
        double costN = problem.nodes[n].cost, costM = problem.nodes[m].cost;
        if (costM > costN) continue;
        if (!std::includes(childSets[i].begin(), childSets[i].end(), childSets[j].begin(), childSets[j].end())) continue;
        bool strictlyBetter = costM < costN || childSets[j].size() < childSets[i].size();
        if (!strictlyBetter && m > n) continue;
        dominator[n] = static_cast<int32_t>(m);
        break;
      }
    }
    // A dominator found before it was itself dominated: follow to the undominated end.
    for (uint32_t n : members) {
      int32_t m = dominator[n];
      while (m >= 0 && dominator[m] >= 0) m = dominator[m];
      dominator[n] = m;
    }
  }
  return dominator;
}

} // namespace tessera::extract
