// Rule synthesis end to end (TASO's generator, issue #32): enumerate graphs of up to N ops,
// group them by fingerprint, pair each group's graphs with its smallest one, prune renamings,
// refuse those whose sides differ on stretched shapes (a quick look: fingerprint shapes coincide,
// 2 * 2 == 4, where the checker's would not), verify the rest with the rule checker (the one `rules check` runs, same options), prune
// those a smaller verified rule implies, keep (unless keepAll) those that pay, and write the rest as a rule pack with labels `synth`
// and the ops involved, each rule preceded by a comment naming its origin.
#pragma once

#include "cost/CostModel.h"
#include "rewrite/RuleChecker.h"
#include "synth/GraphEnumerator.h"
#include "synth/RulePruning.h"
#include "synth/SynthVocabulary.h"

#include <functional>
#include <string>
#include <vector>

namespace tessera::synth {

struct SynthesisOptions {
  EnumerationLimits limits;
  RuleCheckOptions check;        // as `rules check` verifies (its defaults), so the pack re-checks alike
  std::string source;            // what the vocabulary came from, for the pack's header
  std::string namePrefix = "synth";
  // TASO kept only substitutions that make a graph smaller or cheaper: most verified identities
  // (commutativity, x * 1 / 1 = x) rewrite nothing a search needs and slow saturation down. By
  // default a verified rule is written only when its left-hand side has more ops than its right,
  // or its right-hand side costs less under the analytic cost model on the fingerprint shapes; a
  // right-hand side that is a bare variable only where the left is a cancellation (layout ops, or
  // one unary op applied twice), and never one that is a constant whatever its inputs (x - x).
  // true: every verified rule.
  bool keepAll = false;
  std::string costSpec = kPredictionCostSpec;
};

struct SynthesizedRule {
  std::string name;
  std::vector<std::string> labels;
  std::string body;   // "LHS => RHS" or "LHS1 => RHS1 && LHS2 => RHS2"
  std::string origin; // the enumerated pattern pair it came from
  bool multi = false;
  int lhsOps = 0;
  int rhsOps = 0;
  double lhsCostMs = 0; // under SynthesisOptions::costSpec on the fingerprint shapes (0 when they do not type-check)
  double rhsCostMs = 0;
  int minedPattern = -1; // the model pattern its left-hand side is (SynthVocabulary::patterns), or -1
};

struct RefusedCandidate {
  std::string body;
  std::string problem;
};

struct SynthesisReport {
  // Counts at each stage, as the TASO paper reports them.
  uint64_t enumeratedGraphs = 0;   // every op sequence pushed by the enumeration
  uint64_t fingerprintedGraphs = 0; // with one or two outputs, finite values
  uint64_t fingerprintGroups = 0;   // groups of two or more distinct graphs
  uint64_t candidatePairs = 0;      // each group member paired with the group's smallest graph
  uint64_t prunedRenaming = 0;      // equal to another candidate, or to itself, up to input renaming
  uint64_t prunedUnwritable = 0;    // no side can be a pattern's left-hand side (a split, a bare variable, independent outputs)
  uint64_t prunedDecomposable = 0;  // two outputs whose right-hand sides share no op: two single rules
  uint64_t prunedCommonSubgraph = 0;
  uint64_t prunedSubsumed = 0;
  // --from-model mining: the models' own trees as left-hand sides.
  uint64_t minedPatterns = 0;    // distinct model patterns
  uint64_t minedUnevaluable = 0; // not finite or not evaluable on the synthesis variables
  uint64_t minedPaired = 0;      // with at least one enumerated graph of their fingerprint
  uint64_t minedPairs = 0;       // candidate pairs they gave (after renaming)
  uint64_t checked = 0;  // handed to the rule checker
  uint64_t verified = 0;
  uint64_t refused = 0;  // the checker could not verify them; never written
  uint64_t refusedStretched = 0; // of those, refused by the quick look on stretched shapes before the checker
  uint64_t prunedNoGain = 0;      // verified, but its right-hand side is neither smaller nor cheaper (kept with keepAll)
  uint64_t prunedDominated = 0;  // verified and paying, but a cheaper right-hand side of the same mined pattern is written
  uint64_t prunedToVariable = 0;  // verified, rewrites to a bare variable without being a cancellation, or to a constant in
                                  // disguise (x - x, x / x) (kept with keepAll)
  uint64_t written = 0;
  uint64_t writtenMulti = 0;
  std::string stopReason; // why enumeration stopped early; empty when it completed
  double enumerateSeconds = 0, groupSeconds = 0, verifySeconds = 0, totalSeconds = 0;
  std::vector<SynthesizedRule> rules;
  std::vector<RefusedCandidate> refusedExamples; // the first few
};

using SynthesisProgress = std::function<void(const std::string& line)>;

SynthesisReport synthesizeRules(const SynthVocabulary& vocabulary, const SynthesisOptions& options, const SynthesisProgress& progress = {});

// The pack's text: a header (source, vocabulary, counts) and every rule after its origin comment.
std::string packText(const SynthesisReport& report, const SynthVocabulary& vocabulary, const SynthesisOptions& options);

} // namespace tessera::synth
