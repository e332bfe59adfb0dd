#include "ExpectEquiv.h"

#include "egraph/GraphConversion.h"
#include "rewrite/Runner.h"
#include "support/Error.h"

#include <string>

namespace tessera::testing {

::testing::AssertionResult provesEquivalent(const RuleSet& rules, std::string_view lhs, std::string_view rhs) {
  const std::string claim = std::string(lhs) + " = " + std::string(rhs);
  std::vector<Rule::VerificationCase> cases;
  try {
    // The claim as a rule gives both sides their shapes; it is never applied.
    RuleSet probe = parseRules(std::string(lhs) + "=>" + std::string(rhs), "claim", RuleFileFormat::TensatSingle);
    cases = probe.rule(0).verificationCases(/*seed=*/1, /*count=*/1);
  } catch (const Error& e) {
    return ::testing::AssertionFailure() << claim << ": " << e.what();
  }
  if (cases.empty()) return ::testing::AssertionFailure() << claim << ": no shapes for which both sides type-check";

  // Both sides in one e-graph (their inputs hashcons onto the same leaves), saturated together: the
  // rules are directed, and equality is proved when rewriting either side meets the other.
  EGraph egraph;
  const SeededGraph left = seedEGraph(egraph, cases.front().before);
  const SeededGraph right = seedEGraph(egraph, cases.front().after);
  const std::vector<EClassId> roots = {left.outputs.front(), right.outputs.front()};
  std::vector<const Rule*> list;
  for (const auto& rule : rules.rules()) list.push_back(rule.get());
  RunnerLimits limits;
  limits.nodeLimit = 20000;
  limits.iterationLimit = 30;
  limits.timeLimitSeconds = 20;
  const RunReport report = runSaturation(egraph, roots, list, limits);
  egraph.rebuild();
  if (egraph.find(left.outputs.front()) == egraph.find(right.outputs.front())) return ::testing::AssertionSuccess() << claim;
  return ::testing::AssertionFailure() << claim << " is not proved: the sides stay in two e-classes after saturation ("
                                       << egraph.numNodes() << " e-nodes, stopped: " << stopReasonName(report.stopReason) << ")";
}

} // namespace tessera::testing
