#include "synth/SynthTerm.h"

#include "synth/SynthVocabulary.h"

#include <algorithm>

namespace tessera::synth {

int Term::opCount() const {
  if (isVariable()) return 0;
  int n = 1;
  for (const Term& arg : args) n += arg.opCount();
  return n;
}

bool Term::contains(int opIndex) const {
  if (op == opIndex) return true;
  return std::any_of(args.begin(), args.end(), [&](const Term& arg) { return arg.contains(opIndex); });
}

namespace {

void collectVariables(const Term& term, std::vector<int>& out) {
  if (term.isVariable()) {
    if (std::find(out.begin(), out.end(), term.variable) == out.end()) out.push_back(term.variable);
    return;
  }
  for (const Term& arg : term.args) collectVariables(arg, out);
}

} // namespace

std::vector<int> variablesInOrder(const std::vector<const Term*>& terms) {
  std::vector<int> out;
  for (const Term* term : terms) collectVariables(*term, out);
  return out;
}

std::string termKey(const Term& term) {
  if (term.isVariable()) return "v" + std::to_string(term.variable);
  std::string key = "(" + std::to_string(term.op) + "." + std::to_string(term.port);
  for (const Term& arg : term.args) key += " " + termKey(arg);
  return key + ")";
}

std::string renderTerm(const Term& term, const SynthVocabulary& vocabulary, const std::vector<std::string>& names) {
  if (term.isVariable()) return names[term.variable];
  std::vector<std::string> operands;
  for (const Term& arg : term.args) operands.push_back(renderTerm(arg, vocabulary, names));
  return renderApplication(vocabulary.ops[term.op], operands, term.port);
}

Term substitute(const Term& term, const std::map<int, Term>& substitution) {
  if (term.isVariable()) {
    auto it = substitution.find(term.variable);
    return it == substitution.end() ? term : it->second;
  }
  Term out = term;
  for (Term& arg : out.args) arg = substitute(arg, substitution);
  return out;
}

bool matchTerm(const Term& pattern, const Term& term, std::map<int, Term>& substitution) {
  if (pattern.isVariable()) {
    auto [it, inserted] = substitution.try_emplace(pattern.variable, term);
    return inserted || it->second == term;
  }
  if (term.isVariable() || pattern.op != term.op || pattern.port != term.port || pattern.args.size() != term.args.size())
    return false;
  for (size_t i = 0; i < pattern.args.size(); ++i)
    if (!matchTerm(pattern.args[i], term.args[i], substitution)) return false;
  return true;
}

} // namespace tessera::synth
