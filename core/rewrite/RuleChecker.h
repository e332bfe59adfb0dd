// Numeric verification of rules (TASO's method): every rule is instantiated on random shapes,
// must match its own left-hand side, and both sides must compute the same values on random
// inputs in [-1, 1] within a small relative tolerance, and on inputs of 0, +-1, +-10 and mixes of
// such values too (one side may not be NaN or infinite where the other is finite). Rules that fail
// are never used.
#pragma once

#include "rewrite/RuleSet.h"

#include <functional>
#include <string>
#include <vector>

namespace tessera {

struct RuleCheckOptions {
  int cases = 4;        // distinct shape instantiations per rule
  int trials = 2;       // random inputs per instantiation
  uint64_t seed = 1;
  double rtol = 1e-4;
  double atol = 1e-5;
  bool specialValues = true; // also run inputs of 0, +-1, +-10 and mixes (x * x / x, relu(x + 3) = x + 3 break there)
};

struct RuleCheck {
  std::string name;
  std::vector<std::string> labels;
  bool verified = false;
  int cases = 0;           // instantiations checked
  double maxAbsError = 0;
  std::string problem;     // why it failed; empty when verified
};

RuleCheck checkRule(const Rule& rule, const RuleCheckOptions& options = {});
std::vector<RuleCheck> checkRules(const RuleSet& rules, const RuleCheckOptions& options = {},
                                  const std::function<void(size_t done, const RuleCheck&)>& progress = {});

// The rules whose check passed, in their original order (moved out of `rules`).
RuleSet keepVerified(RuleSet rules, const std::vector<RuleCheck>& checks);

} // namespace tessera
