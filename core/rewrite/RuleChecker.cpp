#include "rewrite/RuleChecker.h"

#include "egraph/GraphConversion.h"
#include "interp/Verify.h"
#include "support/Error.h"

#include <algorithm>
#include <cstdio>

namespace tessera {

namespace {

// The rule must find its own left-hand side in a graph made of it, and its right-hand side must build.
std::string checkMatchesItself(const Rule& rule, const Graph& before) {
  EGraph egraph;
  SeededGraph seed = seedEGraph(egraph, before);
  std::vector<RuleMatch> matches = rule.search(egraph, 100000);
  std::vector<EClassId> roots;
  for (EClassId root : seed.outputs) roots.push_back(egraph.find(root));
  auto own = std::find_if(matches.begin(), matches.end(), [&](const RuleMatch& m) {
    if (m.roots.size() != roots.size()) return false;
    for (size_t i = 0; i < roots.size(); ++i)
      if (egraph.find(m.roots[i]) != roots[i]) return false;
    return true;
  });
  if (own == matches.end()) return "does not match its own left-hand side";
  if (!rule.apply(egraph, *own).typeChecked) return "its right-hand side does not type-check where its left-hand side does";
  egraph.rebuild();
  return {};
}

std::string formatError(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g", value);
  return buffer;
}

} // namespace

RuleCheck checkRule(const Rule& rule, const RuleCheckOptions& options) {
  RuleCheck check{rule.name(), rule.labels()};
  try {
    std::vector<Rule::VerificationCase> cases = rule.verificationCases(options.seed, options.cases);
    if (cases.empty()) {
      check.problem = "no shapes found for which both sides type-check";
      return check;
    }
    for (const auto& [before, after] : cases) {
      ++check.cases;
      if (std::string problem = checkMatchesItself(rule, before); !problem.empty()) {
        check.problem = problem;
        return check;
      }
      VerifyOptions verify;
      verify.trials = options.trials;
      verify.seed = options.seed + static_cast<uint64_t>(check.cases);
      verify.rtol = options.rtol;
      verify.atol = options.atol;
      verify.metric = VerifyMetric::Elementwise; // a rule's two sides are small: TASO's strict check
      VerifyResult result = verifyEquivalent(before, after, verify);
      check.maxAbsError = std::max(check.maxAbsError, result.maxAbsError);
      if (!result.equivalent) {
        std::string shapes;
        for (NodeId id : before.inputNodes())
          shapes += (shapes.empty() ? "" : ", ") + before.node(id).name + ":" + shapeToString(before.node(id).outputTypes[0].shape);
        check.problem = "sides differ for " + shapes + ": " + result.worst + " (max abs error " + formatError(result.maxAbsError) + ")";
        return check;
      }
    }
    check.verified = true;
  } catch (const Error& e) {
    check.problem = e.what();
  }
  return check;
}

std::vector<RuleCheck> checkRules(const RuleSet& rules, const RuleCheckOptions& options,
                                  const std::function<void(size_t, const RuleCheck&)>& progress) {
  std::vector<RuleCheck> checks;
  for (const auto& rule : rules.rules()) {
    checks.push_back(checkRule(*rule, options));
    if (progress) progress(checks.size(), checks.back());
  }
  return checks;
}

RuleSet keepVerified(RuleSet rules, const std::vector<RuleCheck>& checks) {
  rules.keepIf([&](const Rule& rule) {
    auto check = std::find_if(checks.begin(), checks.end(), [&](const RuleCheck& c) { return c.name == rule.name(); });
    return check != checks.end() && check->verified;
  });
  return rules;
}

} // namespace tessera
