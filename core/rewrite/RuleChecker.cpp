#include "rewrite/RuleChecker.h"

#include "egraph/GraphConversion.h"
#include "interp/TestData.h"
#include "interp/Verify.h"
#include "support/Error.h"

#include <algorithm>
#include <array>
#include <cmath>
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

// Random inputs in [-1, 1] never hit the points where a side divides by zero: x * x / x agrees
// with x everywhere but at 0, where it is NaN. Each float input is filled with 0, 1, -1, and a
// mix of those with 2 and -0.5 (shifted per input, so two inputs differ element by element);
// where one side is NaN or infinite and the other finite, the rule changes what a model computes.
// Only inputs are filled: `#?s` scalars and constants keep their values (the rule's own domain).
std::string specialValueProblem(const Graph& before, const Graph& after, uint64_t seed) {
  static constexpr std::array<float, 6> kMix{0.0f, 1.0f, -1.0f, 2.0f, -0.5f, 0.0f};
  const TensorMap random = randomInputs(before, seed);
  for (int fill = 0; fill < 4; ++fill) {
    TensorMap inputs = random;
    int index = 0;
    for (NodeId id : before.inputNodes()) {
      const Node& node = before.node(id);
      auto slot = inputs.find(node.name);
      if (slot == inputs.end() || !slot->second.holdsFloats()) continue;
      slot->second = slot->second.materialized();
      std::span<float> values = slot->second.mutableFloats();
      for (size_t e = 0; e < values.size(); ++e)
        values[e] = fill == 0 ? 0.0f : fill == 1 ? 1.0f : fill == 2 ? -1.0f : kMix[(e + 2 * static_cast<size_t>(index)) % kMix.size()];
      ++index;
    }
    std::vector<Tensor> a, b;
    try {
      a = runGraph(before, inputs);
      b = runGraph(after, inputs);
    } catch (const Error&) {
      continue; // a side rejects these values outright (the random check already ran both)
    }
    static const char* const kFillNames[] = {"all zeros", "all ones", "all -1", "0, 1, -1, 2, -0.5 mixed"};
    for (size_t o = 0; o < a.size() && o < b.size(); ++o) {
      if (!a[o].holdsFloats() || !b[o].holdsFloats()) continue;
      if (a[o].numel() != b[o].numel()) continue;
      for (int64_t e = 0; e < a[o].numel(); ++e) {
        const float x = a[o].floatAt(e), y = b[o].floatAt(e);
        if (std::isfinite(x) == std::isfinite(y)) continue;
        char detail[160];
        std::snprintf(detail, sizeof detail, "on inputs %s, output %zu element %lld is %g on the left and %g on the right",
                      kFillNames[fill], o, static_cast<long long>(e), static_cast<double>(x), static_cast<double>(y));
        return std::string("one side is not finite where the other is: ") + detail;
      }
    }
  }
  return {};
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
      if (options.specialValues)
        if (std::string problem = specialValueProblem(before, after, options.seed + static_cast<uint64_t>(check.cases)); !problem.empty()) {
          check.problem = problem;
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
