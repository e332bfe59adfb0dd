// Rules written as TENSAT patterns: `lhs => rhs`, or two such pairs for a multi-pattern rule.
#pragma once

#include "rewrite/Pattern.h"
#include "rewrite/Rule.h"
#include "rewrite/TensatVocabulary.h"

#include <memory>

namespace tessera {

// A pattern resolved against the vocabulary, with variables numbered.
struct CompiledPattern {
  enum class Kind : uint8_t { Variable, Op, NativeOp, SplitOutput, Scalar };
  Kind kind = Kind::Op;
  const TensatOp* op = nullptr;  // Op
  OpKind native = OpKind::Identity; // NativeOp: an IR op by its Tessera name
  int attributeVariable = -1;    // NativeOp: slot of `@name`, or -1
  Attributes attributes;         // NativeOp: required (left) or set (right) values
  int variable = -1;            // Variable: slot
  bool scalarWeight = false;    // Variable: binds only a one-element weight (`#?s`)
  bool weightOnly = false;      // Variable: binds only a class computed from weights alone (`$?b`)
  double scalar = 0;            // Scalar: the constant's value (`#3`)
  int port = 0;                 // SplitOutput: which half
  int64_t splitAxis = 0;        // SplitOutput: axis of the inner split
  std::vector<int64_t> numbers; // Op: integer arguments
  std::vector<CompiledPattern> tensors;
  std::string text;
};

class PatternRule final : public Rule {
public:
  // Throws tessera::Error "line L, column C: ..." for an unknown op, a wrong argument count, a
  // right-hand variable missing on the left, or split on a left-hand side.
  // `sameTypeGuards`: pairs of variables that must have equal types for the rule to apply (the
  // rule is only sound then), written `where type(?a) == type(?b)`.
  PatternRule(std::string name, std::vector<std::string> labels, std::vector<std::pair<Pattern, Pattern>> sides,
              std::vector<std::pair<Pattern, Pattern>> sameTypeGuards = {});

  bool isMulti() const override { return sides_.size() == 2; }
  // Labelled `symmetric` (TENSAT marks its learned multi-pattern rules so) and both sources one
  // pattern up to renaming.
  bool isSymmetric() const override { return symmetric_; }
  std::string describe() const override;
  std::vector<RuleMatch> search(const EGraph& egraph, size_t limit) const override;
  std::unique_ptr<MatchStream> stream(const EGraph& egraph) const override;
  RuleApplication apply(EGraph& egraph, const RuleMatch& match) const override;
  std::vector<VerificationCase> verificationCases(uint64_t seed, int count) const override;

  const std::vector<std::string>& variables() const { return variables_; }

private:
  bool guardsHold(const std::vector<TensorType>& types) const;
  bool guardsHoldFor(const EGraph& egraph, const RuleMatch& match) const;
  // Does the rule match a graph made of its left-hand side(s) at the graph's outputs?
  bool matchesAsWhole(const Graph& before) const;

  struct Side {
    CompiledPattern lhs;
    CompiledPattern rhs;
  };
  std::vector<Side> sides_;
  std::vector<std::string> variables_;
  std::vector<std::string> attributeVariables_;
  std::vector<bool> scalarVariables_; // per variable: written `#?s` on a left-hand side
  std::vector<bool> weightVariables_; // per variable: written `$?b` on a left-hand side (a weight when checked)
  std::vector<std::pair<int, int>> sameTypeGuards_;
  std::string guardText_;
  bool symmetric_ = false;
};

} // namespace tessera
