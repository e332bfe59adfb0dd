// A synthesised pattern as a tree: ops of the synthesis vocabulary over numbered variables. Both
// sides of a candidate rule are terms; pruning compares them (renaming, shared context, instances
// of smaller rules) and the pack writer renders them in the rule DSL.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tessera::synth {

struct SynthVocabulary;

struct Term {
  int op = -1;       // index into SynthVocabulary::ops; -1: a variable
  int variable = -1; // variable index (SynthVocabulary::variables) when op == -1
  int port = 0;      // which output of a multi-output op (split_0 / split_1)
  std::vector<Term> args;

  bool isVariable() const { return op < 0; }
  int opCount() const; // ops in the tree (a shared sub-term counts each time it is written)
  bool contains(int opIndex) const;
  friend bool operator==(const Term&, const Term&) = default;
};

// Variables in order of first appearance over several terms.
std::vector<int> variablesInOrder(const std::vector<const Term*>& terms);

// A structural key (variables as their index), for equality and hashing.
std::string termKey(const Term& term);

// The rule DSL spelling, with each variable named by `names[variable]` (e.g. "?x1").
std::string renderTerm(const Term& term, const SynthVocabulary& vocabulary, const std::vector<std::string>& names);

// Replaces variables by `substitution` (variables not in it stay).
Term substitute(const Term& term, const std::map<int, Term>& substitution);

// First-order matching: does `pattern` (its variables free) become `term` under some substitution?
// Extends `substitution` and returns true when it does.
bool matchTerm(const Term& pattern, const Term& term, std::map<int, Term>& substitution);

} // namespace tessera::synth
