#include "synth/GraphEnumerator.h"

#include "interp/Interpreter.h"
#include "interp/TestData.h"
#include "ir/ShapeInference.h"
#include "support/Error.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>

namespace tessera::synth {

namespace {

constexpr double kRelativeTolerance = 1e-4;
constexpr double kAbsoluteTolerance = 1e-6;

uint64_t splitmix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// The fixed random weight of element i in projection j, in [-1, 1).
double projectionWeight(int j, int64_t i) {
  return static_cast<double>(splitmix((static_cast<uint64_t>(j) << 40) ^ static_cast<uint64_t>(i)) >> 11) * 0x1p-52 - 1.0;
}

uint64_t typeKeyOf(const TensorType& type) { return std::hash<std::string>{}(type.toString()); }

void project(std::span<const float> data, std::array<double, kProjections>& projections, double& scale) {
  for (int64_t i = 0; i < static_cast<int64_t>(data.size()); ++i) {
    scale += std::abs(data[i]);
    for (int j = 0; j < kProjections; ++j) projections[j] += projectionWeight(j, i) * data[i];
  }
}

double toleranceFor(const EnumeratedGraph& a, const EnumeratedGraph& b) {
  return kRelativeTolerance * std::max(a.scale, b.scale) + kAbsoluteTolerance;
}

struct Value {
  TensorType type;
  Tensor data;
  int producer = -1; // op index in the current graph; -1 for a variable
  int port = 0;
  int uses = 0;
  std::vector<int64_t> concatSizes; // the first concat of its term (preorder): how a split of it is sized
};

class Enumerator {
public:
  Enumerator(const SynthVocabulary& vocabulary, const EnumerationLimits& limits, const EnumerationProgress& progress,
             EnumerationResult& result)
      : vocabulary_(vocabulary), limits_(limits), progress_(progress), result_(result) {}

  void run() {
    start_ = std::chrono::steady_clock::now();
    lastProgress_ = start_;
    const auto& variables = vocabulary_.variables;
    if (variables.size() + 2 * static_cast<size_t>(limits_.maxOps) > 255) throw Error("too many synthesis variables");
    for (size_t v = 0; v < variables.size(); ++v) {
      Value value;
      value.type = variables[v].type;
      value.data = variableValue(variables[v], value.type.shape, limits_.seed, "synth-" + std::to_string(v),
                                 static_cast<float>(limits_.fingerprintLow), static_cast<float>(limits_.fingerprintHigh));
      values_.push_back(std::move(value));
      size_t first = v;
      while (first > 0 && variables[first - 1].type == variables[v].type && variables[first - 1].prefix == variables[v].prefix) --first;
      classFirst_.push_back(static_cast<int>(first));
    }
    // A variable alone is a graph too: the right-hand side of rules such as transpose(transpose(x)) = x.
    for (size_t v = 0; v < variables.size(); ++v) {
      if (!allowed(static_cast<int>(v))) continue;
      EnumeratedGraph graph;
      graph.outputCount = 1;
      graph.outputs[0] = static_cast<uint8_t>(v);
      fingerprint(graph, {static_cast<int>(v)});
      result_.graphs.push_back(graph);
    }
    dfs(0);
    result_.seconds = elapsed();
  }

private:
  double elapsed() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }

  bool stopped() const { return !result_.stopReason.empty(); }

  void checkBudget() {
    if (result_.visited >= limits_.maxGraphs)
      result_.stopReason = "graph budget: " + std::to_string(limits_.maxGraphs) + " graphs enumerated before --max-ops " +
                           std::to_string(limits_.maxOps) + " was exhausted";
    if ((result_.visited & 255) != 0) return;
    uint64_t bytes = result_.graphs.size() * sizeof(EnumeratedGraph);
    if (bytes > limits_.maxMemoryBytes)
      result_.stopReason = "memory budget: " + std::to_string(result_.graphs.size()) + " fingerprints (" +
                           std::to_string(bytes >> 20) + " MiB) before --max-ops " + std::to_string(limits_.maxOps) +
                           " was exhausted";
    double seconds = elapsed();
    if (seconds > limits_.timeLimitSeconds)
      result_.stopReason = "time budget: " + std::to_string(static_cast<int>(limits_.timeLimitSeconds)) + " s spent before --max-ops " +
                           std::to_string(limits_.maxOps) + " was exhausted";
    if (progress_ && std::chrono::steady_clock::now() - lastProgress_ > std::chrono::seconds(2)) {
      lastProgress_ = std::chrono::steady_clock::now();
      result_.seconds = seconds;
      progress_(result_);
    }
  }

  void dfs(int depth) {
    if (depth >= limits_.maxOps) return;
    for (size_t op = 0; op < vocabulary_.ops.size() && !stopped(); ++op) {
      if (!limits_.onlyOps.empty() && std::find(limits_.onlyOps.begin(), limits_.onlyOps.end(), static_cast<int>(op)) == limits_.onlyOps.end())
        continue;
      const SynthOp& synthOp = vocabulary_.ops[op];
      const int n = static_cast<int>(values_.size());
      if (synthOp.arity == 1) {
        for (int a = 0; a < n && !stopped(); ++a) tryApply(static_cast<int>(op), {a, 0}, depth);
        continue;
      }
      for (int a = 0; a < n && !stopped(); ++a)
        for (int b = synthOp.commutative ? a : 0; b < n && !stopped(); ++b) tryApply(static_cast<int>(op), {a, b}, depth);
    }
  }

  bool isVariable(int value) const { return values_[value].producer < 0; }

  bool allowed(int variable) const {
    return limits_.onlyVariables.empty() ||
           std::find(limits_.onlyVariables.begin(), limits_.onlyVariables.end(), variable) != limits_.onlyVariables.end();
  }

  // Renaming is pruned at the source (TASO's variable ordering): a fresh variable must be the
  // first unused one of its shape.
  bool freshVariablesInOrder(std::span<const int> inputs) const {
    if (!limits_.onlyVariables.empty()) return true;
    for (size_t i = 0; i < inputs.size(); ++i) {
      int v = inputs[i];
      if (!isVariable(v) || values_[v].uses > 0) continue;
      for (int u = classFirst_[v]; u < v; ++u) {
        bool used = values_[u].uses > 0 || std::find(inputs.begin(), inputs.begin() + static_cast<long>(i), u) != inputs.begin() + static_cast<long>(i);
        if (!used) return false;
      }
    }
    return true;
  }

  // One order of independent ops: an op that does not consume the previous op's outputs must
  // come after it in (op, inputs) order. TASO's "no duplicated operators" is checked too.
  bool canonicalOrder(const EnumeratedGraph::OpUse& use, int arity) const {
    for (const auto& existing : ops_)
      if (existing.op == use.op && existing.inputs == use.inputs) return false;
    if (ops_.empty()) return true;
    const auto& last = ops_.back();
    const int lastIndex = static_cast<int>(ops_.size()) - 1;
    for (int i = 0; i < arity; ++i)
      if (values_[use.inputs[i]].producer == lastIndex) return true;
    return std::tie(use.op, use.inputs) > std::tie(last.op, last.inputs);
  }

  void tryApply(int opIndex, std::array<int, 2> inputs, int depth) {
    const SynthOp& op = vocabulary_.ops[opIndex];
    if (op.arity > 2) return; // enumerated ops take one or two operands (wider ones only occur mined)
    std::span<const int> used(inputs.data(), static_cast<size_t>(op.arity));
    for (int v : used)
      if (isVariable(v) && !allowed(v)) return;
    if (!freshVariablesInOrder(used)) return;
    // An op of constants alone folds to a constant: no rewrite is about it.
    if (std::all_of(used.begin(), used.end(), [&](int v) { return isVariable(v) && vocabulary_.variables[v].isConstant(); })) return;
    EnumeratedGraph::OpUse use;
    use.op = static_cast<uint16_t>(opIndex);
    for (int i = 0; i < op.arity; ++i) use.inputs[i] = static_cast<uint8_t>(inputs[i]);
    if (!canonicalOrder(use, op.arity)) return;
    std::vector<TensorType> types;
    for (int v : used) types.push_back(values_[v].type);
    if (op.kind == OpKind::Split && values_[inputs[0]].concatSizes.empty()) return;
    // TASO enlarges only input weights; an enlarge reads its reference operand's shape alone, and
    // computed references would give rules that merely swap one same-shaped expression for another.
    if (op.kind == OpKind::Enlarge && (!isVariable(inputs[0]) || !isVariable(inputs[1]))) return;
    std::optional<Attributes> attrs = applicationAttributes(op, types, values_[inputs[0]].concatSizes);
    if (!attrs) return;
    Node node;
    node.kind = op.kind;
    node.attrs = *attrs;
    node.inputs.resize(types.size());
    std::vector<Tensor> outputs;
    try {
      node.outputTypes = inferOutputTypes(op.kind, node.attrs, types);
      std::vector<const Tensor*> operands;
      for (int v : used) operands.push_back(&values_[v].data);
      outputs = evaluateNode(node, operands);
    } catch (const Error&) {
      return; // outside the op's domain for these shapes
    }
    ++result_.visited;
    const int opSlot = static_cast<int>(ops_.size());
    ops_.push_back(use);
    for (int v : used) ++values_[v].uses;
    const size_t firstNew = values_.size();
    bool finite = true;
    for (size_t port = 0; port < outputs.size(); ++port) {
      Value value;
      value.type = node.outputTypes[port];
      value.data = outputs[port].materialized();
      value.producer = opSlot;
      value.port = static_cast<int>(port);
      if (op.kind == OpKind::Concat && op.tensat)
        value.concatSizes = {types[0].shape[op.axis], types[1].shape[op.axis]};
      else
        for (int v : used)
          if (value.concatSizes.empty()) value.concatSizes = values_[v].concatSizes;
      for (float x : value.data.floats()) finite = finite && std::isfinite(x);
      values_.push_back(std::move(value));
    }
    bool redundant = false;
    for (size_t n = firstNew; n < values_.size() && !redundant; ++n)
      for (size_t o = 0; o < n && !redundant; ++o)
        redundant = values_[o].type == values_[n].type &&
                    std::equal(values_[o].data.floats().begin(), values_[o].data.floats().end(), values_[n].data.floats().begin());
    if (!finite) {
      ++result_.nonFinite;
    } else {
      record();
      if (redundant) ++result_.redundant;
      checkBudget();
      // A graph holding one value twice is recorded (it may be a rule's larger side) but not grown:
      // whatever grows from it grows from the smaller graph too.
      if (!redundant && !stopped()) dfs(depth + 1);
    }
    values_.resize(firstNew);
    for (int v : used) --values_[v].uses;
    ops_.pop_back();
  }

  void fingerprint(EnumeratedGraph& graph, std::vector<int> outputs) const {
    std::array<std::array<double, kProjections>, 2> projections{};
    double scale = 0;
    for (size_t o = 0; o < outputs.size(); ++o) project(values_[outputs[o]].data.floats(), projections[o], scale);
    if (outputs.size() == 2) {
      auto key = [&](size_t o) { return std::make_pair(typeKeyOf(values_[outputs[o]].type), projections[o][0]); };
      if (key(1) < key(0)) {
        std::swap(outputs[0], outputs[1]);
        std::swap(projections[0], projections[1]);
      }
    }
    graph.outputCount = static_cast<uint8_t>(outputs.size());
    graph.typeKey = outputs.size();
    for (size_t o = 0; o < outputs.size(); ++o) {
      graph.outputs[o] = static_cast<uint8_t>(outputs[o]);
      graph.typeKey = splitmix(graph.typeKey ^ typeKeyOf(values_[outputs[o]].type));
      for (int j = 0; j < kProjections; ++j) graph.projections[o * kProjections + j] = projections[o][j];
    }
    graph.scale = static_cast<float>(scale);
  }

  void record() {
    std::vector<int> outputs;
    for (size_t v = 0; v < values_.size(); ++v)
      if (values_[v].producer >= 0 && values_[v].uses == 0) outputs.push_back(static_cast<int>(v));
    if (outputs.empty() || outputs.size() > 2) return;
    EnumeratedGraph graph;
    graph.opCount = static_cast<uint8_t>(ops_.size());
    std::copy(ops_.begin(), ops_.end(), graph.ops.begin());
    for (const auto& use : ops_) graph.hasSplit = graph.hasSplit || vocabulary_.ops[use.op].kind == OpKind::Split;
    fingerprint(graph, outputs);
    result_.graphs.push_back(graph);
  }

  const SynthVocabulary& vocabulary_;
  const EnumerationLimits& limits_;
  const EnumerationProgress& progress_;
  EnumerationResult& result_;
  std::vector<Value> values_;
  std::vector<int> classFirst_;
  std::vector<EnumeratedGraph::OpUse> ops_;
  std::chrono::steady_clock::time_point start_, lastProgress_;
};

bool close(const EnumeratedGraph& a, const EnumeratedGraph& b) {
  if (a.typeKey != b.typeKey || a.outputCount != b.outputCount) return false;
  const double tolerance = toleranceFor(a, b);
  for (int j = 0; j < a.outputCount * kProjections; ++j)
    if (std::abs(a.projections[j] - b.projections[j]) > tolerance) return false;
  return true;
}

} // namespace

EnumerationResult enumerateGraphs(const SynthVocabulary& vocabulary, const EnumerationLimits& limits, const EnumerationProgress& progress) {
  if (limits.maxOps < 1) throw Error("--max-ops must be at least 1");
  if (limits.maxOps > kMaxSynthOps)
    throw Error("--max-ops " + std::to_string(limits.maxOps) + " is beyond what synthesis records (at most " + std::to_string(kMaxSynthOps) +
                " ops; TASO's generator stopped at 4)");
  EnumerationResult result;
  Enumerator(vocabulary, limits, progress, result).run();
  return result;
}

std::vector<Term> outputTerms(const EnumeratedGraph& graph, const SynthVocabulary& vocabulary) {
  const int variables = static_cast<int>(vocabulary.variables.size());
  std::vector<std::pair<int, int>> producer; // value id - variables -> (op, port)
  for (int o = 0; o < graph.opCount; ++o)
    for (int port = 0; port < vocabulary.ops[graph.ops[o].op].outputs; ++port) producer.emplace_back(o, port);
  std::function<Term(int)> build = [&](int value) -> Term {
    Term term;
    if (value < variables) {
      term.variable = value;
      return term;
    }
    auto [o, port] = producer[value - variables];
    const auto& use = graph.ops[o];
    term.op = use.op;
    term.port = port;
    for (int i = 0; i < vocabulary.ops[use.op].arity; ++i) term.args.push_back(build(use.inputs[i]));
    return term;
  };
  std::vector<Term> terms;
  for (int o = 0; o < graph.outputCount; ++o) terms.push_back(build(graph.outputs[o]));
  return terms;
}

EnumeratedGraph fingerprintOf(const Tensor& output) {
  EnumeratedGraph graph;
  std::array<double, kProjections> projections{};
  double scale = 0;
  project(output.floats(), projections, scale);
  graph.outputCount = 1;
  graph.typeKey = splitmix(1 ^ typeKeyOf(output.type()));
  for (int j = 0; j < kProjections; ++j) graph.projections[j] = projections[j];
  graph.scale = static_cast<float>(scale);
  return graph;
}

namespace {

auto fingerprintOrder(const EnumeratedGraph& x) { return std::make_tuple(x.typeKey, x.outputCount, x.projections[0]); }

} // namespace

FingerprintIndex::FingerprintIndex(const std::vector<EnumeratedGraph>& graphs) : graphs_(graphs), order_(graphs.size()) {
  std::iota(order_.begin(), order_.end(), 0u);
  std::sort(order_.begin(), order_.end(), [&](uint32_t a, uint32_t b) { return fingerprintOrder(graphs_[a]) < fingerprintOrder(graphs_[b]); });
}

std::vector<uint32_t> FingerprintIndex::matches(const EnumeratedGraph& probe) const {
  // The tolerance grows with either side's scale, so every graph of the probe's output type is
  // compared (a few per mined pattern; patterns number thousands).
  std::vector<uint32_t> out;
  auto key = [&](uint32_t g) { return std::make_pair(graphs_[g].typeKey, graphs_[g].outputCount); };
  const auto probeKey = std::make_pair(probe.typeKey, probe.outputCount);
  auto first = std::lower_bound(order_.begin(), order_.end(), probeKey, [&](uint32_t g, const auto& k) { return key(g) < k; });
  auto last = std::upper_bound(first, order_.end(), probeKey, [&](const auto& k, uint32_t g) { return k < key(g); });
  for (auto it = first; it != last; ++it)
    if (close(graphs_[*it], probe)) out.push_back(*it);
  return out;
}

std::vector<std::vector<uint32_t>> groupByFingerprint(const std::vector<EnumeratedGraph>& graphs) {
  std::vector<uint32_t> order(graphs.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const EnumeratedGraph& x = graphs[a];
    const EnumeratedGraph& y = graphs[b];
    return std::tie(x.typeKey, x.outputCount, x.projections[0]) < std::tie(y.typeKey, y.outputCount, y.projections[0]);
  });
  std::vector<std::vector<uint32_t>> groups;
  size_t begin = 0;
  while (begin < order.size()) {
    // A cluster: consecutive graphs of one output type whose first projections chain within tolerance.
    size_t end = begin + 1;
    while (end < order.size()) {
      const EnumeratedGraph& prev = graphs[order[end - 1]];
      const EnumeratedGraph& next = graphs[order[end]];
      double tolerance = kRelativeTolerance * std::max(prev.scale, next.scale) + kAbsoluteTolerance;
      if (prev.typeKey != next.typeKey || prev.outputCount != next.outputCount || next.projections[0] - prev.projections[0] > tolerance) break;
      ++end;
    }
    if (end - begin >= 2) {
      std::vector<std::vector<uint32_t>> local;
      for (size_t i = begin; i < end; ++i) {
        auto home = std::find_if(local.begin(), local.end(), [&](const std::vector<uint32_t>& g) { return close(graphs[g.front()], graphs[order[i]]); });
        if (home == local.end())
          local.push_back({order[i]});
        else
          home->push_back(order[i]);
      }
      for (auto& g : local)
        if (g.size() >= 2) groups.push_back(std::move(g));
    }
    begin = end;
  }
  return groups;
}

} // namespace tessera::synth
