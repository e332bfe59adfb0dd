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

// Random inputs in [-1, 1] never hit the points where a rule stops holding: x * x / x agrees with
// x everywhere but at 0, where it is NaN; relu(x + 3) = x + 3 and clip(x, 0, 6) = relu(x) hold on
// [-1, 1] only. Each float input is also filled with 0, 1, -1, 10, -10 and two mixes of such values
// (shifted per input, so two inputs differ element by element). Where one side is NaN or infinite
// and the other finite, or both are finite and differ beyond tolerance, the rule would change what
// a model computes. Only inputs are filled: `#?s` scalars and constants keep their values.
std::string specialValueProblem(const Graph& before, const Graph& after, const RuleCheckOptions& options, uint64_t seed) {
  struct Fill {
    const char* name;
    std::array<float, 6> values;
  };
  static constexpr std::array<Fill, 7> kFills{{
      {"all zeros", {0, 0, 0, 0, 0, 0}},
      {"all ones", {1, 1, 1, 1, 1, 1}},
      {"all -1", {-1, -1, -1, -1, -1, -1}},
      {"0, 1, -1, 2, -0.5 mixed", {0, 1, -1, 2, -0.5f, 0}},
      {"all 10", {10, 10, 10, 10, 10, 10}},
      {"all -10", {-10, -10, -10, -10, -10, -10}},
      {"10, -10, 3.5, -7, 0.25, 6.5 mixed", {10, -10, 3.5f, -7, 0.25f, 6.5f}},
  }};
  const TensorMap random = randomInputs(before, seed);
  for (const Fill& fill : kFills) {
    TensorMap inputs = random;
    size_t index = 0;
    for (NodeId id : before.inputNodes()) {
      auto slot = inputs.find(before.node(id).name);
      if (slot == inputs.end() || !slot->second.holdsFloats()) continue;
      slot->second = slot->second.materialized();
      std::span<float> values = slot->second.mutableFloats();
      for (size_t e = 0; e < values.size(); ++e) values[e] = fill.values[(e + 2 * index) % fill.values.size()];
      ++index;
    }
    std::vector<Tensor> a, b;
    try {
      a = runGraph(before, inputs);
      b = runGraph(after, inputs);
    } catch (const Error&) {
      continue; // a side rejects these values outright (the random check already ran both)
    }
    for (size_t o = 0; o < a.size() && o < b.size(); ++o) {
      if (!a[o].holdsFloats() || !b[o].holdsFloats() || a[o].numel() != b[o].numel()) continue;
      for (int64_t e = 0; e < a[o].numel(); ++e) {
        const double x = a[o].floatAt(e), y = b[o].floatAt(e);
        const bool finiteMismatch = std::isfinite(x) != std::isfinite(y);
        // Looser than the random check: values reach 10 * 10 * K in a product.
        const bool differ = std::isfinite(x) && std::isfinite(y) &&
                            std::abs(x - y) > 10 * options.atol + 10 * options.rtol * std::max(std::abs(x), std::abs(y));
        if (!finiteMismatch && !differ) continue;
        char detail[200];
        std::snprintf(detail, sizeof detail, "on inputs %s, output %zu element %lld is %g on the left and %g on the right", fill.name, o,
                      static_cast<long long>(e), x, y);
        return std::string(finiteMismatch ? "one side is not finite where the other is: " : "sides differ on special values: ") + detail;
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
        if (std::string problem = specialValueProblem(before, after, options, options.seed + static_cast<uint64_t>(check.cases)); !problem.empty()) {
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
