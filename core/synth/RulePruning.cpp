#include "synth/RulePruning.h"

#include "rewrite/Pattern.h"
#include "synth/SynthVocabulary.h"

#include <algorithm>
#include <map>

namespace tessera::synth {

int CandidateRule::opCount() const {
  int n = 0;
  for (const Term& t : lhs) n += t.opCount();
  for (const Term& t : rhs) n += t.opCount();
  return n;
}

namespace {

std::vector<const Term*> allTerms(const std::vector<Term>& lhs, const std::vector<Term>& rhs) {
  std::vector<const Term*> terms;
  for (const Term& t : lhs) terms.push_back(&t);
  for (const Term& t : rhs) terms.push_back(&t);
  return terms;
}

std::vector<std::string> namesFor(const std::vector<const Term*>& terms, const SynthVocabulary& vocabulary) {
  // One prefix for all: a pattern variable has no shape, so a rule found on weights and the same
  // rule found on activations are one rule, spelled alike (and pruned as a renaming).
  std::vector<std::string> names(vocabulary.variables.size());
  int counter = 0;
  int scalars = 0;
  for (int v : variablesInOrder(terms)) {
    const SynthVariable& variable = vocabulary.variables[v];
    if (variable.literal)
      names[v] = "#" + formatScalar(*variable.literal);
    else if (variable.scalar)
      names[v] = "#?s" + std::to_string(++scalars);
    else
      names[v] = "?x" + std::to_string(++counter);
  }
  return names;
}

std::string textFor(const std::vector<Term>& lhs, const std::vector<Term>& rhs, const SynthVocabulary& vocabulary) {
  std::vector<std::string> names = namesFor(allTerms(lhs, rhs), vocabulary);
  std::string text;
  for (size_t i = 0; i < lhs.size(); ++i)
    text += (i ? " && " : "") + renderTerm(lhs[i], vocabulary, names) + " => " + renderTerm(rhs[i], vocabulary, names);
  return text;
}

bool hasOpTerm(const std::map<int, Term>& substitution) {
  return std::any_of(substitution.begin(), substitution.end(), [](const auto& entry) { return !entry.second.isVariable(); });
}

size_t bucketOf(const Term& term) { return term.isVariable() ? 0 : static_cast<size_t>(term.op) + 1; }

// Does `from` => `to` applied at the root turn `a` into `b`?
bool rewrites(const Term& from, const Term& to, const Term& a, const Term& b, bool& abstracts) {
  std::map<int, Term> substitution;
  if (!matchTerm(from, a, substitution)) return false;
  // `to` may not use a variable `from` lacks (a rule's right side uses only its left's).
  std::vector<int> fromVariables = variablesInOrder({&from});
  for (int v : variablesInOrder({&to}))
    if (std::find(fromVariables.begin(), fromVariables.end(), v) == fromVariables.end()) return false;
  if (!(substitute(to, substitution) == b)) return false;
  abstracts = hasOpTerm(substitution);
  return true;
}

} // namespace

std::vector<std::string> canonicalNames(const CandidateRule& rule, const SynthVocabulary& vocabulary) {
  return namesFor(allTerms(rule.lhs, rule.rhs), vocabulary);
}

std::string canonicalText(const CandidateRule& rule, const SynthVocabulary& vocabulary) {
  std::string text = textFor(rule.lhs, rule.rhs, vocabulary);
  if (rule.lhs.size() == 2) {
    std::string swapped = textFor({rule.lhs[1], rule.lhs[0]}, {rule.rhs[1], rule.rhs[0]}, vocabulary);
    text = std::min(text, swapped);
  }
  return text;
}

void KnownRules::add(const CandidateRule& rule) {
  if (rule.lhs.size() != 1) return; // only single-output rules rewrite inside others
  const size_t index = rules_.size();
  rules_.push_back(rule);
  for (const Term* side : {&rule.lhs[0], &rule.rhs[0]}) {
    size_t bucket = bucketOf(*side);
    if (byRootOp_.size() <= bucket) byRootOp_.resize(bucket + 1);
    if (byRootOp_[bucket].empty() || byRootOp_[bucket].back() != index) byRootOp_[bucket].push_back(index);
  }
}

bool KnownRules::rewritesAtRoot(const Term& a, const Term& b, bool& abstracts) const {
  for (size_t bucket : {size_t{0}, bucketOf(a)}) {
    if (bucket >= byRootOp_.size()) continue;
    for (size_t index : byRootOp_[bucket]) {
      const CandidateRule& rule = rules_[index];
      if (rewrites(rule.lhs[0], rule.rhs[0], a, b, abstracts) || rewrites(rule.rhs[0], rule.lhs[0], a, b, abstracts)) return true;
    }
    if (bucketOf(a) == 0) break;
  }
  return false;
}

// One output pair: walk down the shared context (same op, all operands equal but one) and try
// the known rules at each level.
Redundancy KnownRules::implied(const Term& a, const Term& b) const {
  const Term* x = &a;
  const Term* y = &b;
  for (int depth = 0;; ++depth) {
    bool abstracts = false;
    if (rewritesAtRoot(*x, *y, abstracts)) return depth > 0 || abstracts ? Redundancy::CommonSubgraph : Redundancy::Subsumed;
    if (x->isVariable() || y->isVariable() || x->op != y->op || x->port != y->port || x->args.size() != y->args.size()) return Redundancy::None;
    int differing = -1;
    for (size_t i = 0; i < x->args.size(); ++i) {
      if (x->args[i] == y->args[i]) continue;
      if (differing >= 0) return Redundancy::None;
      differing = static_cast<int>(i);
    }
    if (differing < 0) return Redundancy::CommonSubgraph; // equal: nothing to rewrite
    x = &x->args[differing];
    y = &y->args[differing];
  }
}

Redundancy KnownRules::redundancy(const CandidateRule& rule) const {
  if (rule.lhs.size() == 1) return implied(rule.lhs[0], rule.rhs[0]);
  for (size_t i = 0; i < rule.lhs.size(); ++i)
    if (rule.lhs[i] == rule.rhs[i]) return Redundancy::CommonSubgraph;
  for (size_t i = 0; i < rule.lhs.size(); ++i)
    if (implied(rule.lhs[i], rule.rhs[i]) == Redundancy::None) return Redundancy::None;
  return Redundancy::Subsumed;
}

} // namespace tessera::synth
