// TASO's pruning of synthesised substitutions, on candidate rules (two sides of one or two outputs):
// input renaming (a canonical spelling with variables named in order of first appearance, so two
// candidates equal up to renaming spell alike), and common subgraphs (two sides that share the
// context above the part they rewrite, or are an instance of a smaller rule already kept). TASO
// pruned a shared sub-graph without asking whether the smaller rule holds; here a candidate is
// dropped only when a verified rule (or one such rules imply) gives it in one rewrite, so pruning
// never loses an identity.
#pragma once

#include "synth/SynthTerm.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::synth {

struct SynthVocabulary;

struct CandidateRule {
  std::vector<Term> lhs; // one or two outputs
  std::vector<Term> rhs; // the same outputs, in the same order
  uint32_t lhsGraph = 0; // the enumerated graphs it came from (its origin)
  uint32_t rhsGraph = 0;
  uint32_t group = 0;    // its fingerprint group
  int minedPattern = -1; // its left-hand side is SynthVocabulary::patterns[minedPattern] (lhsGraph unused)

  int opCount() const;
};

// Variable names for the rule's variables, indexed by variable id ("?x1", "?x2"; unused ids are
// empty), numbered in order of first appearance, left-hand side first.
std::vector<std::string> canonicalNames(const CandidateRule& rule, const SynthVocabulary& vocabulary);

// "L => R" or "L1 => R1 && L2 => R2" with canonical names; a two-output rule takes the smaller
// spelling of its two output orders.
std::string canonicalText(const CandidateRule& rule, const SynthVocabulary& vocabulary);

enum class Redundancy { None, CommonSubgraph, Subsumed };

// The equalities known to hold (verified rules and what they imply), indexed by the root op of
// each side, to ask whether a candidate follows from one of them in one rewrite.
class KnownRules {
public:
  void add(const CandidateRule& rule);
  size_t size() const { return rules_.size(); }

  // Is `rule` implied by one rewrite with a known single-output rule? CommonSubgraph: its sides
  // share a context above the rewritten part, or a sub-term the known rule abstracts; Subsumed: it
  // is the known rule with variables identified. A two-output rule is redundant when an output is
  // the same on both sides, or each output pair is implied on its own.
  Redundancy redundancy(const CandidateRule& rule) const;

private:
  Redundancy implied(const Term& a, const Term& b) const;
  bool rewritesAtRoot(const Term& a, const Term& b, bool& abstracts) const;

  struct Direction {
    const Term* from;
    const Term* to;
  };
  std::vector<CandidateRule> rules_;
  std::vector<std::vector<size_t>> byRootOp_; // root op + 1 (0: a bare variable) -> rule indices
};

} // namespace tessera::synth
