#include "synth/RuleSynthesizer.h"

#include "synth/TermEvaluation.h"

#include "cost/CostModel.h"
#include "interp/Interpreter.h"
#include "interp/TestData.h"
#include "ir/ShapeInference.h"
#include "rewrite/RuleSet.h"
#include "support/Error.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <set>

namespace tessera::synth {

namespace {

using Clock = std::chrono::steady_clock;

// Right-hand sides tried per mined pattern (the smallest first): an Add chain's group holds every
// reassociation, and the first few carry the rewrite.
constexpr int kPartnersPerPattern = 6;

double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

std::string graphKey(const std::vector<Term>& terms) {
  std::string key;
  for (const Term& t : terms) key += termKey(t) + "|";
  return key;
}

bool canBeLeftHandSide(const EnumeratedGraph& graph, const std::vector<Term>& terms) {
  if (graph.hasSplit) return false; // split is only built, never matched
  return std::all_of(terms.begin(), terms.end(), [](const Term& t) { return !t.isVariable(); });
}

// A literal constant (#8) may appear on the right alone: it names its value, not a binding.
bool variablesWithin(const std::vector<Term>& inner, const std::vector<Term>& outer, const SynthVocabulary& vocabulary) {
  std::vector<const Term*> a, b;
  for (const Term& t : inner) a.push_back(&t);
  for (const Term& t : outer) b.push_back(&t);
  std::vector<int> within = variablesInOrder(b);
  for (int v : variablesInOrder(a))
    if (!vocabulary.variables[v].literal && std::find(within.begin(), within.end(), v) == within.end()) return false;
  return true;
}

// A two-output left-hand side must share a variable between its patterns: the multi-pattern join
// pairs matches on shared variables, and two unrelated patterns would pair every match with every other.
bool outputsShareVariable(const std::vector<Term>& terms) {
  if (terms.size() < 2) return true;
  std::vector<int> first = variablesInOrder({&terms[0]});
  for (int v : variablesInOrder({&terms[1]}))
    if (std::find(first.begin(), first.end(), v) != first.end()) return true;
  return false;
}

void collectOpTerms(const Term& term, std::set<std::string>& keys) {
  if (term.isVariable()) return;
  keys.insert(termKey(term));
  for (const Term& arg : term.args) collectOpTerms(arg, keys);
}

// A two-output rule whose right-hand sides share no op is two single-output rules glued together
// (each output pair already agreed on its own); only a shared computation (one product, split)
// makes it a multi-pattern rule.
bool rightHandSidesShareAnOp(const std::vector<Term>& rhs) {
  if (rhs.size() < 2) return true;
  std::set<std::string> first, second;
  collectOpTerms(rhs[0], first);
  collectOpTerms(rhs[1], second);
  return std::any_of(second.begin(), second.end(), [&](const std::string& key) { return first.count(key) != 0; });
}

void collectOps(const Term& term, std::set<int>& ops) {
  if (term.isVariable()) return;
  ops.insert(term.op);
  for (const Term& arg : term.args) collectOps(arg, ops);
}

std::vector<std::string> labelsFor(const CandidateRule& rule, const SynthVocabulary& vocabulary) {
  std::set<int> ops;
  for (const Term& t : rule.lhs) collectOps(t, ops);
  for (const Term& t : rule.rhs) collectOps(t, ops);
  std::vector<std::string> labels{"synth"};
  for (int op : ops) {
    std::string name = vocabulary.ops[op].dslName;
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (std::find(labels.begin(), labels.end(), name) == labels.end()) labels.push_back(name);
  }
  return labels;
}

std::string joined(const std::vector<std::string>& items, const char* separator) {
  std::string s;
  for (const std::string& item : items) s += (s.empty() ? "" : separator) + item;
  return s;
}

std::string originFor(const CandidateRule& rule, const SynthVocabulary& vocabulary, const std::vector<EnumeratedGraph>& graphs) {
  std::vector<std::string> names = canonicalNames(rule, vocabulary);
  std::string shapes;
  for (size_t v = 0; v < names.size(); ++v)
    if (!names[v].empty()) shapes += (shapes.empty() ? "" : ", ") + names[v] + ":" + shapeToString(vocabulary.variables[v].type.shape);
  if (rule.minedPattern >= 0) {
    const ModelPattern& pattern = vocabulary.patterns[static_cast<size_t>(rule.minedPattern)];
    std::string models;
    for (const auto& [model, count] : pattern.perModel) models += (models.empty() ? "" : ", ") + model + " x" + std::to_string(count);
    return "mined from " + models + " (first at node '" + pattern.sites.front().node + "') = an enumerated graph of " +
           std::to_string(rule.rhs.front().opCount()) + " ops, on " + shapes;
  }
  return "enumerated graph " + std::to_string(rule.lhsGraph) + " (" + std::to_string(graphs[rule.lhsGraph].opCount) + " ops) = graph " +
         std::to_string(rule.rhsGraph) + " (" + std::to_string(graphs[rule.rhsGraph].opCount) + " ops), fingerprint group " +
         std::to_string(rule.group) + ", on " + shapes;
}

// Fingerprint shapes stretched (4 -> 5, 2 -> 3, 5 -> 6; 1 and kernel sizes of 3 kept): sizes that
// coincided there (2 * 2 == 4) no longer do.
Shape stretched(const Shape& shape) {
  Shape out = shape;
  for (int64_t& d : out)
    if (d != 1 && d != 3) d += 1;
  return out;
}

// A term evaluated on the stretched variables (drawn once per variable); nullopt when it does not
// type-check there.
std::optional<EvaluatedTerm> evaluate(const Term& term, const SynthVocabulary& vocabulary, std::vector<std::optional<Tensor>>& variables,
                                      uint64_t seed) {
  return evaluateTerm(term, vocabulary, [&](int v) {
    std::optional<Tensor>& slot = variables[static_cast<size_t>(v)];
    if (!slot)
      slot = variableValue(vocabulary.variables[v], stretched(vocabulary.variables[v].type.shape), seed, "stretched-" + std::to_string(v));
    return *slot;
  });
}

// A cheap look before the rule checker (which searches many shapes and is slow to give up): the
// two sides on stretched shapes. A reason to refuse, or empty when the checker must decide.
std::string stretchedShapeProblem(const CandidateRule& rule, const SynthVocabulary& vocabulary, uint64_t seed) {
  std::vector<std::optional<Tensor>> variables(vocabulary.variables.size());
  for (size_t i = 0; i < rule.lhs.size(); ++i) {
    std::optional<EvaluatedTerm> lhs = evaluate(rule.lhs[i], vocabulary, variables, seed);
    // A left-hand side that stops type-checking when the sizes move relies on a coincidence of the
    // fingerprint shapes (two rows of 2 stacked into 4 columns): the checker, whose shapes hold no
    // such coincidence, would search long and find none.
    if (!lhs) return "its left-hand side type-checks only where the fingerprint shapes' sizes coincide";
    std::optional<EvaluatedTerm> rhs = evaluate(rule.rhs[i], vocabulary, variables, seed);
    if (!rhs || rhs->value.type() != lhs->value.type())
      return "on stretched shapes its right-hand side does not type-check (or has another type) where its left-hand side does";
    std::span<const float> a = lhs->value.floats(), b = rhs->value.floats();
    for (size_t e = 0; e < a.size(); ++e) {
      if (std::isnan(a[e]) && std::isnan(b[e])) continue;
      if (!(std::abs(a[e] - b[e]) <= 1e-3 + 1e-3 * std::abs(a[e]))) return "sides differ on stretched shapes";
    }
  }
  return {};
}

// The ops of several terms as a graph: a sub-term written twice (a shared input of two outputs)
// and the two ports of one split count once. Keys are termKey with the port left out at the root.
std::string nodeKey(const Term& term) {
  std::string key = "(" + std::to_string(term.op);
  for (const Term& arg : term.args) key += " " + termKey(arg);
  return key + ")";
}

struct TypedTerm {
  TensorType type;
  std::vector<int64_t> concatSizes;
  bool weightsOnly = false; // computed from weights alone: precomputed at load, free (TASO)
};

// Types each op node of `term` on the fingerprint shapes and adds its cost once per node key; a
// term that does not type-check gives nullopt.
// A variable's type and weight-ness: the fingerprint shapes, or a model site's.
using VariableTypes = std::function<std::optional<TypedTerm>(int variable)>;

std::optional<TypedTerm> fingerprintType(const SynthVocabulary& vocabulary, int v) {
  const SynthVariable& variable = vocabulary.variables[v];
  return TypedTerm{variable.type, {}, variable.prefix != "x"};
}

std::optional<TypedTerm> costTerm(const Term& term, const SynthVocabulary& vocabulary, CostModel& model, std::map<std::string, double>& costs,
                                  const VariableTypes& variableTypes) {
  if (term.isVariable()) return variableTypes(term.variable);
  const SynthOp& op = vocabulary.ops[term.op];
  std::vector<TypedTerm> args;
  for (const Term& arg : term.args) {
    std::optional<TypedTerm> typed = costTerm(arg, vocabulary, model, costs, variableTypes);
    if (!typed) return std::nullopt;
    args.push_back(std::move(*typed));
  }
  std::vector<TensorType> types;
  for (const TypedTerm& arg : args) types.push_back(arg.type);
  std::optional<Attributes> attrs = applicationAttributes(op, types, args.empty() ? std::span<const int64_t>{} : args[0].concatSizes);
  if (!attrs) return std::nullopt;
  TypedTerm out;
  out.weightsOnly = std::all_of(args.begin(), args.end(), [](const TypedTerm& arg) { return arg.weightsOnly; });
  OpSignature signature{op.kind, types, {}, *attrs};
  try {
    signature.outputs = inferOutputTypes(op.kind, signature.attrs, types);
    if (static_cast<size_t>(term.port) >= signature.outputs.size()) return std::nullopt;
    out.type = signature.outputs[static_cast<size_t>(term.port)];
    const std::string key = nodeKey(term);
    if (!costs.count(key)) costs[key] = out.weightsOnly ? 0.0 : model.costMs(signature);
  } catch (const Error&) {
    return std::nullopt;
  }
  std::vector<std::vector<int64_t>> sizes;
  for (const TypedTerm& arg : args) sizes.push_back(arg.concatSizes);
  out.concatSizes = concatSizesAfter(op, types, sizes);
  return out;
}

// Total cost of the op nodes of `terms` (shared ones once), or nullopt when they do not type-check.
std::optional<double> sideCost(const std::vector<Term>& terms, const SynthVocabulary& vocabulary, CostModel& model,
                               const VariableTypes& variableTypes) {
  std::map<std::string, double> costs;
  for (const Term& t : terms)
    if (!costTerm(t, vocabulary, model, costs, variableTypes)) return std::nullopt;
  double total = 0;
  for (const auto& [key, ms] : costs) total += ms;
  return total;
}

void collectNodeKeys(const Term& term, std::set<std::string>& keys) {
  if (term.isVariable()) return;
  keys.insert(nodeKey(term));
  for (const Term& arg : term.args) collectNodeKeys(arg, keys);
}

int sideOps(const std::vector<Term>& terms) {
  std::set<std::string> keys;
  for (const Term& t : terms) collectNodeKeys(t, keys);
  return static_cast<int>(keys.size());
}

bool movesData(OpKind kind) {
  switch (kind) {
  case OpKind::Transpose:
  case OpKind::Reshape:
  case OpKind::Flatten:
  case OpKind::Squeeze:
  case OpKind::Unsqueeze:
  case OpKind::Concat:
  case OpKind::Split:
  case OpKind::Identity: return true;
  default: return false;
  }
}

void collectComputeKeys(const Term& term, const SynthVocabulary& vocabulary, std::set<std::string>& keys) {
  if (term.isVariable()) return;
  if (!movesData(vocabulary.ops[term.op].kind)) keys.insert(nodeKey(term));
  for (const Term& arg : term.args) collectComputeKeys(arg, vocabulary, keys);
}

int computeOps(const std::vector<Term>& terms, const SynthVocabulary& vocabulary) {
  std::set<std::string> keys;
  for (const Term& t : terms) collectComputeKeys(t, vocabulary, keys);
  return static_cast<int>(keys.size());
}

void collectKinds(const Term& term, const SynthVocabulary& vocabulary, std::set<std::string>& names, bool& onlyMovesData, bool& unary) {
  if (term.isVariable()) return;
  const SynthOp& op = vocabulary.ops[term.op];
  names.insert(op.dslName);
  onlyMovesData = onlyMovesData && movesData(op.kind);
  unary = unary && term.args.size() == 1;
  for (const Term& arg : term.args) collectKinds(arg, vocabulary, names, onlyMovesData, unary);
}

// A left-hand side whose ops undo each other: layout ops only (transpose of a transpose, reshape
// of a reshape, a split of a concat), or one unary op applied to its own result (x -> -(-x)).
bool isCancellation(const Term& lhs, const SynthVocabulary& vocabulary) {
  std::set<std::string> names;
  bool onlyMovesData = true, unary = true;
  collectKinds(lhs, vocabulary, names, onlyMovesData, unary);
  return onlyMovesData || (unary && names.size() == 1 && lhs.opCount() >= 2);
}

// Why a verified rule is not worth writing (TASO's filter), or empty to write it.
enum class Gain { Pays, NoGain, ToVariable };

// Does `term` compute the same values whatever its inputs (x - x, x / x)? Evaluated on two draws.
bool isConstantFunction(const Term& term, const SynthVocabulary& vocabulary, uint64_t seed) {
  std::vector<std::optional<Tensor>> first(vocabulary.variables.size()), second(vocabulary.variables.size());
  std::optional<EvaluatedTerm> a = evaluate(term, vocabulary, first, seed);
  std::optional<EvaluatedTerm> b = evaluate(term, vocabulary, second, seed + 1);
  if (!a || !b || a->value.type() != b->value.type()) return false;
  std::span<const float> x = a->value.floats(), y = b->value.floats();
  for (size_t e = 0; e < x.size(); ++e)
    if (!(x[e] == y[e] || (std::isnan(x[e]) && std::isnan(y[e])))) return false;
  return true;
}

Gain gainOf(const CandidateRule& rule, const SynthVocabulary& vocabulary, SynthesizedRule& out, CostModel& model, uint64_t seed) {
  for (size_t i = 0; i < rule.rhs.size(); ++i) {
    if (rule.rhs[i].isVariable() && !isCancellation(rule.lhs[i], vocabulary)) return Gain::ToVariable;
    // A right-hand side that is a constant in disguise (x - x, x / x): the rule says some
    // expression is 0 or 1, which no model spells on purpose.
    if (!rule.rhs[i].isVariable() && isConstantFunction(rule.rhs[i], vocabulary, seed)) return Gain::ToVariable;
  }
  const int lhsOps = sideOps(rule.lhs), rhsOps = sideOps(rule.rhs);
  if (rule.minedPattern >= 0) {
    // A mined rule is costed where the models hold its left-hand side, at their own shapes (the
    // fingerprint shapes are square and tiny: moving a division past a product looks free there).
    double lhsTotal = 0, rhsTotal = 0;
    for (const ModelSite& site : vocabulary.patterns[static_cast<size_t>(rule.minedPattern)].sites) {
      VariableTypes atSite = [&](int v) -> std::optional<TypedTerm> {
        auto it = site.variables.find(v);
        if (it == site.variables.end()) return fingerprintType(vocabulary, v);
        return TypedTerm{it->second.first, {}, it->second.second};
      };
      std::optional<double> lhsCost = sideCost(rule.lhs, vocabulary, model, atSite), rhsCost = sideCost(rule.rhs, vocabulary, model, atSite);
      if (!lhsCost || !rhsCost) continue; // a right-hand side that needs shapes this site lacks
      lhsTotal += *lhsCost;
      rhsTotal += *rhsCost;
    }
    out.lhsCostMs = lhsTotal;
    out.rhsCostMs = rhsTotal;
    if (lhsOps > rhsOps && rhsTotal <= lhsTotal) return Gain::Pays;
    return rhsTotal < lhsTotal * (1 - 1e-9) ? Gain::Pays : Gain::NoGain;
  }
  const VariableTypes atFingerprint = [&](int v) { return fingerprintType(vocabulary, v); };
  std::optional<double> lhsCost = sideCost(rule.lhs, vocabulary, model, atFingerprint), rhsCost = sideCost(rule.rhs, vocabulary, model, atFingerprint);
  out.lhsCostMs = lhsCost.value_or(0);
  out.rhsCostMs = rhsCost.value_or(0);
  if (lhsOps > rhsOps) return Gain::Pays;
  // Two outputs merged into one shared computation (Q, K and V as one product) with fewer ops that
  // compute (concat and split aside): what the layout ops cost depends on which operands are
  // weights in the model, which the fingerprint shapes cannot say.
  if (rule.lhs.size() > 1 && computeOps(rule.lhs, vocabulary) > computeOps(rule.rhs, vocabulary)) return Gain::Pays;
  // Cheaper by more than rounding: equal sizes (a transpose moved past an op that shrinks its
  // input), or a right-hand side whose extra ops are free (two products merged, concat and split).
  if (lhsCost && rhsCost && *rhsCost < *lhsCost * (1 - 1e-9)) return Gain::Pays;
  return Gain::NoGain;
}

// Step 2b: the enumeration for mined left-hand sides runs once per set of variables they read,
// over those variables alone (a right-hand side reads no other) and over the ops those patterns
// use plus the fused forms (not every op of every model: at three ops that product took hours on
// the classifier alone), so it stays small however large the models' vocabulary; each pattern,
// evaluated on the same values, is paired with the enumerated graphs of its fingerprint, the
// smallest first.
void pairMinedPatterns(const SynthVocabulary& vocabulary, const SynthesisOptions& options, SynthesisReport& report,
                       std::vector<CandidateRule>& candidates, std::set<std::string>& seen, const EnumerationProgress& progress,
                       const std::function<void(const std::string&)>& say) {
  const Clock::time_point start = Clock::now();
  std::map<std::vector<int>, std::vector<size_t>> byVariables;
  std::vector<int> fusedForms;
  for (size_t op = 0; op < vocabulary.ops.size(); ++op)
    if (vocabulary.ops[op].fusedForm) fusedForms.push_back(static_cast<int>(op));
  for (size_t p = 0; p < vocabulary.patterns.size(); ++p) {
    std::vector<int> variables = variablesInOrder({&vocabulary.patterns[p].term});
    std::sort(variables.begin(), variables.end());
    byVariables[variables].push_back(p);
  }
  std::vector<std::optional<Tensor>> values(vocabulary.variables.size());
  auto valueOf = [&](int v) {
    std::optional<Tensor>& slot = values[static_cast<size_t>(v)];
    if (!slot)
      slot = variableValue(vocabulary.variables[v], vocabulary.variables[v].type.shape, options.limits.seed, "synth-" + std::to_string(v),
                           static_cast<float>(options.limits.fingerprintLow), static_cast<float>(options.limits.fingerprintHigh));
    return *slot;
  };
  size_t done = 0;
  for (const auto& [variables, patterns] : byVariables) {
    EnumerationLimits limits = options.limits;
    limits.onlyVariables = variables;
    std::set<int> ops(fusedForms.begin(), fusedForms.end());
    for (size_t p : patterns) collectOps(vocabulary.patterns[p].term, ops);
    limits.onlyOps.assign(ops.begin(), ops.end());
    limits.timeLimitSeconds = options.limits.timeLimitSeconds - secondsSince(start);
    if (limits.timeLimitSeconds <= 0) {
      report.stopReason = "time budget: " + std::to_string(static_cast<int>(options.limits.timeLimitSeconds)) + " s spent before every model "
                          "pattern's right-hand sides were enumerated";
      break;
    }
    EnumerationResult enumeration = enumerateGraphs(vocabulary, limits, progress);
    report.enumeratedGraphs += enumeration.visited;
    report.fingerprintedGraphs += enumeration.graphs.size();
    if (!enumeration.stopReason.empty()) {
      report.stopReason = enumeration.stopReason;
      break;
    }
    const std::vector<EnumeratedGraph>& graphs = enumeration.graphs;
    FingerprintIndex index(graphs);
    for (size_t p : patterns) {
      const ModelPattern& pattern = vocabulary.patterns[p];
      ++report.minedPatterns;
      std::optional<EvaluatedTerm> value = evaluateTerm(pattern.term, vocabulary, valueOf);
      bool finite = value.has_value();
      if (value)
        for (float x : value->value.floats()) finite = finite && std::isfinite(x);
      if (!finite) {
        ++report.minedUnevaluable;
        continue;
      }
      std::vector<uint32_t> partners = index.matches(fingerprintOf(value->value));
      std::stable_sort(partners.begin(), partners.end(), [&](uint32_t a, uint32_t b) { return graphs[a].opCount < graphs[b].opCount; });
      bool paired = false;
      int kept = 0;
      for (uint32_t g : partners) {
        if (graphs[g].opCount > pattern.term.opCount() || kept >= kPartnersPerPattern) break;
        std::vector<Term> rhs = outputTerms(graphs[g], vocabulary);
        if (rhs.size() != 1 || rhs[0] == pattern.term) continue;
        CandidateRule rule;
        rule.lhs = {pattern.term};
        rule.rhs = std::move(rhs);
        rule.minedPattern = static_cast<int>(p);
        rule.rhsGraph = g;
        std::vector<std::string> names = canonicalNames(rule, vocabulary);
        if (renderTerm(rule.lhs[0], vocabulary, names) == renderTerm(rule.rhs[0], vocabulary, names) ||
            !seen.insert(canonicalText(rule, vocabulary)).second)
          continue;
        ++report.minedPairs;
        ++kept;
        paired = true;
        candidates.push_back(std::move(rule));
      }
      if (paired) ++report.minedPaired;
    }
    done += patterns.size();
    say("mine: " + std::to_string(done) + "/" + std::to_string(vocabulary.patterns.size()) + " model patterns, " +
        std::to_string(report.minedPaired) + " with a partner, " + std::to_string(report.minedPairs) + " candidate pairs, " +
        std::to_string(report.enumeratedGraphs) + " graphs enumerated");
  }
  report.enumerateSeconds = secondsSince(start);
}

} // namespace

SynthesisReport synthesizeRules(const SynthVocabulary& vocabulary, const SynthesisOptions& options, const SynthesisProgress& progress) {
  SynthesisReport report;
  const Clock::time_point start = Clock::now();
  auto say = [&](const std::string& line) {
    if (progress) progress(line);
  };

  // 1. Enumerate and fingerprint (mined left-hand sides: per variable set, in step 2b).
  const bool mined = !vocabulary.patterns.empty();
  const EnumerationProgress enumerationProgress = [&](const EnumerationResult& sofar) {
    char line[160];
    std::snprintf(line, sizeof line, "enumerate: %llu graphs, %zu fingerprinted, %.0f s", static_cast<unsigned long long>(sofar.visited),
                  sofar.graphs.size(), sofar.seconds);
    say(line);
  };
  EnumerationResult enumeration;
  if (!mined) enumeration = enumerateGraphs(vocabulary, options.limits, enumerationProgress);
  report.enumeratedGraphs = enumeration.visited;
  report.fingerprintedGraphs = enumeration.graphs.size();
  report.stopReason = enumeration.stopReason;
  report.enumerateSeconds = enumeration.seconds;
  const std::vector<EnumeratedGraph>& graphs = enumeration.graphs;
  if (!mined)
    say("enumerate: " + std::to_string(report.enumeratedGraphs) + " graphs, " + std::to_string(report.fingerprintedGraphs) + " fingerprinted" +
        (report.stopReason.empty() ? "" : " (stopped: " + report.stopReason + ")"));

  // 2. Group by fingerprint; pair every distinct member with the group's smallest graph.
  Clock::time_point groupStart = Clock::now();
  std::vector<CandidateRule> candidates;
  std::set<std::string> seen;
  std::vector<std::vector<uint32_t>> groups = groupByFingerprint(graphs);
  for (const std::vector<uint32_t>& group : groups) {
    std::vector<std::pair<uint32_t, std::vector<Term>>> members;
    std::set<std::string> keys;
    for (uint32_t g : group) {
      std::vector<Term> terms = outputTerms(graphs[g], vocabulary);
      if (keys.insert(graphKey(terms)).second) members.emplace_back(g, std::move(terms));
    }
    if (members.size() < 2) continue;
    const uint32_t groupId = static_cast<uint32_t>(report.fingerprintGroups++);
    auto smallest = std::min_element(members.begin(), members.end(), [&](const auto& a, const auto& b) {
      const EnumeratedGraph& x = graphs[a.first];
      const EnumeratedGraph& y = graphs[b.first];
      return std::tie(x.opCount, x.hasSplit, a.first) < std::tie(y.opCount, y.hasSplit, b.first);
    });
    for (const auto& member : members) {
      if (member.first == smallest->first) continue;
      ++report.candidatePairs;
      CandidateRule rule;
      rule.group = groupId;
      // Larger side on the left (what a model holds, rewritten to the smaller), unless it cannot match.
      if (canBeLeftHandSide(graphs[member.first], member.second) && variablesWithin(smallest->second, member.second, vocabulary) &&
          outputsShareVariable(member.second)) {
        rule.lhs = member.second, rule.rhs = smallest->second, rule.lhsGraph = member.first, rule.rhsGraph = smallest->first;
      } else if (canBeLeftHandSide(graphs[smallest->first], smallest->second) && variablesWithin(member.second, smallest->second, vocabulary) &&
                 outputsShareVariable(smallest->second)) {
        rule.lhs = smallest->second, rule.rhs = member.second, rule.lhsGraph = smallest->first, rule.rhsGraph = member.first;
      } else {
        ++report.prunedUnwritable;
        continue;
      }
      if (!rightHandSidesShareAnOp(rule.rhs)) {
        ++report.prunedDecomposable;
        continue;
      }
      std::vector<std::string> names = canonicalNames(rule, vocabulary);
      bool same = true;
      for (size_t i = 0; i < rule.lhs.size(); ++i)
        same = same && renderTerm(rule.lhs[i], vocabulary, names) == renderTerm(rule.rhs[i], vocabulary, names);
      if (same || !seen.insert(canonicalText(rule, vocabulary)).second) {
        ++report.prunedRenaming;
        continue;
      }
      candidates.push_back(std::move(rule));
    }
  }
  // 2b. The models' own trees as left-hand sides, paired with enumerated right-hand sides.
  if (mined) pairMinedPatterns(vocabulary, options, report, candidates, seen, enumerationProgress, say);
  // Smaller rules first, so that a larger one a smaller verified rule implies is pruned.
  std::stable_sort(candidates.begin(), candidates.end(), [](const CandidateRule& a, const CandidateRule& b) {
    return std::make_pair(a.lhs.size(), a.opCount()) < std::make_pair(b.lhs.size(), b.opCount());
  });
  report.groupSeconds = secondsSince(groupStart);
  say("group: " + std::to_string(report.fingerprintGroups) + " fingerprint groups, " + std::to_string(report.candidatePairs) +
      " candidate pairs, " + std::to_string(candidates.size()) + " after renaming");

  // 3. Prune what smaller verified rules imply; verify the rest.
  Clock::time_point verifyStart = Clock::now();
  Clock::time_point lastProgress = verifyStart;
  // What verified rules establish; a candidate they imply holds too and joins them, so a larger
  // one implied through it is pruned as well.
  KnownRules known;
  std::unique_ptr<CostModel> costModel = makeCostModel(options.costSpec);
  for (size_t i = 0; i < candidates.size(); ++i) {
    const CandidateRule& rule = candidates[i];
    if (Clock::now() - lastProgress > std::chrono::seconds(2)) {
      lastProgress = Clock::now();
      say("verify: " + std::to_string(i) + "/" + std::to_string(candidates.size()) + " candidates, " + std::to_string(report.verified) +
          " verified, " + std::to_string(report.refused) + " refused");
    }
    switch (known.redundancy(rule)) {
    case Redundancy::CommonSubgraph:
      ++report.prunedCommonSubgraph;
      known.add(rule);
      continue;
    case Redundancy::Subsumed:
      ++report.prunedSubsumed;
      known.add(rule);
      continue;
    case Redundancy::None: break;
    }
    SynthesizedRule out;
    char name[32];
    std::snprintf(name, sizeof name, "%s-%04zu", options.namePrefix.c_str(), static_cast<size_t>(report.verified + report.refused + 1));
    out.name = name;
    out.labels = labelsFor(rule, vocabulary);
    out.body = canonicalText(rule, vocabulary);
    out.multi = rule.lhs.size() == 2;
    for (const Term& t : rule.lhs) out.lhsOps += t.opCount();
    for (const Term& t : rule.rhs) out.rhsOps += t.opCount();
    ++report.checked;
    std::string problem = stretchedShapeProblem(rule, vocabulary, options.limits.seed + 17);
    if (!problem.empty()) ++report.refusedStretched;
    if (problem.empty()) try {
      RuleSet parsed = parseRules(out.name + " [" + joined(out.labels, ",") + "]: " + out.body, "<synthesized>", RuleFileFormat::Tessera);
      RuleCheck check = checkRule(parsed.rule(0), options.check);
      if (!check.verified) problem = check.problem;
      out.labels = parsed.rule(0).labels(); // the parser adds `multi`
    } catch (const Error& e) {
      problem = std::string("does not parse: ") + e.what();
    }
    if (!problem.empty()) {
      ++report.refused;
      if (report.refusedExamples.size() < 20) report.refusedExamples.push_back({out.body, problem});
      continue;
    }
    ++report.verified;
    known.add(rule); // what it implies is pruned whether or not it is written
    const Gain gain = gainOf(rule, vocabulary, out, *costModel, options.limits.seed + 29);
    if (gain == Gain::ToVariable && !options.keepAll) {
      ++report.prunedToVariable;
      continue;
    }
    if (gain == Gain::NoGain && !options.keepAll) {
      ++report.prunedNoGain;
      continue;
    }
    out.origin = originFor(rule, vocabulary, graphs);
    out.minedPattern = rule.minedPattern;
    report.rules.push_back(std::move(out));
  }
  // A mined pattern is written once, with its cheapest right-hand side at the model's sites: the
  // others (HardSwish scaled by 3 and back) are that rule composed with identities.
  if (!options.keepAll) {
    std::map<int, double> cheapest;
    for (const SynthesizedRule& rule : report.rules)
      if (rule.minedPattern >= 0 && (!cheapest.count(rule.minedPattern) || rule.rhsCostMs < cheapest[rule.minedPattern]))
        cheapest[rule.minedPattern] = rule.rhsCostMs;
    std::set<int> written;
    const size_t before = report.rules.size();
    std::erase_if(report.rules, [&](const SynthesizedRule& rule) {
      return rule.minedPattern >= 0 && (rule.rhsCostMs > cheapest[rule.minedPattern] || !written.insert(rule.minedPattern).second);
    });
    report.prunedDominated = before - report.rules.size();
  }
  report.written = report.rules.size();
  for (const SynthesizedRule& rule : report.rules) report.writtenMulti += rule.multi ? 1 : 0;
  report.verifySeconds = secondsSince(verifyStart);
  report.totalSeconds = secondsSince(start);
  say("verify: " + std::to_string(report.verified) + " verified, " + std::to_string(report.refused) + " refused, " +
      std::to_string(report.prunedCommonSubgraph) + " common-subgraph and " + std::to_string(report.prunedSubsumed) + " subsumed pruned, " +
      std::to_string(report.prunedNoGain) + " without gain and " + std::to_string(report.prunedToVariable) + " to a bare variable dropped" +
      (options.keepAll ? " (none: --keep-all)" : ""));
  return report;
}

std::string packText(const SynthesisReport& report, const SynthVocabulary& vocabulary, const SynthesisOptions& options) {
  std::string text = "# Synthesised by `tessera-cli rules synthesize` (TASO's generator, issue #32) from " + options.source + ",\n";
  text += "# graphs of up to " + std::to_string(options.limits.maxOps) + " ops.\n# Ops:";
  for (const SynthOp& op : vocabulary.ops) text += " " + op.label;
  text += "\n# Variables:";
  for (size_t v = 0; v < vocabulary.variables.size(); ++v)
    text += " " + vocabulary.variables[v].prefix + ":" + shapeToString(vocabulary.variables[v].type.shape);
  char counts[768];
  std::snprintf(counts, sizeof counts,
                "\n# Counts: %llu graphs enumerated, %llu fingerprinted, %llu fingerprint groups, %llu candidate pairs; pruned %llu by "
                "renaming, %llu unwritable, %llu decomposable, %llu common subgraph, %llu subsumed; %llu checked, %llu verified, %llu refused; "
                "dropped %llu without gain, %llu to a bare variable%s.\n",
                static_cast<unsigned long long>(report.enumeratedGraphs), static_cast<unsigned long long>(report.fingerprintedGraphs),
                static_cast<unsigned long long>(report.fingerprintGroups), static_cast<unsigned long long>(report.candidatePairs),
                static_cast<unsigned long long>(report.prunedRenaming), static_cast<unsigned long long>(report.prunedUnwritable),
                static_cast<unsigned long long>(report.prunedDecomposable),
                static_cast<unsigned long long>(report.prunedCommonSubgraph), static_cast<unsigned long long>(report.prunedSubsumed),
                static_cast<unsigned long long>(report.checked), static_cast<unsigned long long>(report.verified),
                static_cast<unsigned long long>(report.refused), static_cast<unsigned long long>(report.prunedNoGain),
                static_cast<unsigned long long>(report.prunedToVariable), options.keepAll ? " (--keep-all: every verified rule written)" : "");
  text += counts;
  text += "# Every rule passed the rule checker (" + std::to_string(options.check.cases) + " shapes, " + std::to_string(options.check.trials) +
          " random inputs each) before it was written. `# origin:` names the enumerated pattern pair.\n\n";
  for (const SynthesizedRule& rule : report.rules) {
    text += "# origin: " + rule.origin + "\n";
    text += rule.name + " [" + joined(rule.labels, ",") + "]: " + rule.body + "\n";
  }
  return text;
}

} // namespace tessera::synth
