#include "synth/ModelPatterns.h"

#include "ir/CanonicalAttributes.h"
#include "support/Error.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace tessera::synth {

namespace {

// Ops whose meaning is their attributes and float operands alone: what a pattern can pin down and
// the interpreter can evaluate on the small synthesis shapes.
constexpr OpKind kMinable[] = {
    OpKind::Relu,    OpKind::Sigmoid,     OpKind::Tanh,      OpKind::Erf,      OpKind::Gelu,       OpKind::Sqrt,       OpKind::Exp,
    OpKind::Neg,     OpKind::Abs,         OpKind::Reciprocal, OpKind::Softplus, OpKind::Softsign,  OpKind::HardSwish,  OpKind::Log,
    OpKind::Add,     OpKind::Mul,         OpKind::Sub,       OpKind::Div,      OpKind::Max,        OpKind::Min,        OpKind::Pow,
    OpKind::Clip,    OpKind::HardSigmoid, OpKind::MatMul,    OpKind::Transpose, OpKind::Softmax,   OpKind::LogSoftmax, OpKind::ReduceMean,
    OpKind::ReduceSum, OpKind::Conv,      OpKind::Concat,    OpKind::GlobalAveragePool, OpKind::LayerNorm};

constexpr int kMaxOperands = 4;       // Concat of up to four inputs
constexpr size_t kTreesPerValue = 64; // trees kept per model value and budget (an Add chain's grow fast)
constexpr size_t kSitesKept = 4;
constexpr double kLargestConstant = 1e4; // as the vocabulary's literals: larger ones are masks

bool minable(OpKind kind) { return std::find(std::begin(kMinable), std::end(kMinable), kind) != std::end(kMinable); }

// A tree over model values: an op node with its operand trees, or a leaf (a cut at `value`).
struct ModelTree {
  ValueRef value;
  bool leaf = true;
  std::vector<ModelTree> args;
  int ops = 0;
};

class Miner {
public:
  Miner(SynthVocabulary& vocabulary, int maxOps, uint64_t maxPatterns) : vocabulary_(vocabulary), maxOps_(maxOps), maxPatterns_(maxPatterns) {
    for (size_t v = 0; v < vocabulary_.variables.size(); ++v) {
      const SynthVariable& variable = vocabulary_.variables[v];
      if (variable.literal) literals_.emplace_back(*variable.literal, static_cast<int>(v));
      else if (variable.scalar) scalars_.push_back(static_cast<int>(v));
      else byShape_[shapeToString(variable.type.shape)].push_back(static_cast<int>(v));
    }
  }

  void mine(const Graph& graph, const std::string& model) {
    graph_ = &graph;
    memo_.clear();
    ops_.clear();
    std::set<size_t> patternsHere;
    for (NodeId id = 0; id < graph.nodes().size() && stopReason().empty(); ++id) {
      const Node& node = graph.node(id);
      if (node.numOutputs() != 1 || !opIndex(id)) continue;
      for (const ModelTree& tree : trees(ValueRef{id, 0}, maxOps_)) {
        if (tree.leaf) continue;
        ++vocabulary_.mining.trees;
        std::map<ValueRef, int> assigned;
        ModelSite site{model, node.name, {}};
        std::optional<Term> term = toTerm(tree, assigned, site);
        if (!term) {
          ++vocabulary_.mining.unmapped;
          continue;
        }
        // Ops of weights alone fold to a constant at load: no rewrite is about them.
        if (std::all_of(site.variables.begin(), site.variables.end(), [](const auto& entry) { return entry.second.second; })) {
          ++vocabulary_.mining.weightsOnly;
          continue;
        }
        const std::string key = termKey(*term);
        auto [it, inserted] = index_.try_emplace(key, vocabulary_.patterns.size());
        if (inserted) {
          if (vocabulary_.patterns.size() >= maxPatterns_) {
            vocabulary_.mining.stopReason = "pattern budget: " + std::to_string(maxPatterns_) + " distinct model patterns";
            index_.erase(it);
            break;
          }
          vocabulary_.patterns.push_back(ModelPattern{std::move(*term), 0, {}, {}});
        }
        ModelPattern& pattern = vocabulary_.patterns[it->second];
        ++pattern.occurrences;
        ++pattern.perModel[model];
        if (pattern.sites.size() < kSitesKept) pattern.sites.push_back(std::move(site));
        patternsHere.insert(it->second);
      }
    }
    vocabulary_.mining.perModel[model] = patternsHere.size();
    vocabulary_.mining.distinct = vocabulary_.patterns.size();
  }

  const std::string& stopReason() const { return vocabulary_.mining.stopReason; }

private:
  // The vocabulary index of node `id`'s op variant, or nullopt when it is not mined.
  std::optional<int> opIndex(NodeId id) {
    auto it = ops_.find(id);
    if (it != ops_.end()) return it->second;
    std::optional<int> index;
    if (std::optional<SynthOp> op = minedOpFor(*graph_, graph_->node(id))) index = findOrAddOp(vocabulary_, std::move(*op));
    ops_[id] = index;
    return index;
  }

  // Every tree of at most `budget` ops that computes `value` (the leaf included), at most
  // kTreesPerValue of them, smaller trees first.
  const std::vector<ModelTree>& trees(ValueRef value, int budget) {
    auto key = std::make_pair(value, budget);
    auto found = memo_.find(key);
    if (found != memo_.end()) return found->second;
    std::vector<ModelTree> out;
    out.push_back(ModelTree{value, true, {}, 0});
    const Node& node = graph_->node(value.node);
    if (budget >= 1 && value.port == 0 && opIndex(value.node)) {
      // Operand trees combined with a total of budget - 1 ops (a product over the operands).
      std::vector<ModelTree> partial{ModelTree{value, false, {}, 1}};
      for (ValueRef input : node.inputs) {
        std::vector<ModelTree> next;
        for (const ModelTree& head : partial) {
          for (const ModelTree& arg : trees(input, budget - head.ops)) {
            if (head.ops + arg.ops > budget) continue;
            ModelTree grown = head;
            grown.args.push_back(arg);
            grown.ops += arg.ops;
            next.push_back(std::move(grown));
            if (next.size() >= kTreesPerValue) break;
          }
          if (next.size() >= kTreesPerValue) break;
        }
        partial = std::move(next);
      }
      for (ModelTree& tree : partial) out.push_back(std::move(tree));
    }
    std::stable_sort(out.begin(), out.end(), [](const ModelTree& a, const ModelTree& b) { return a.ops < b.ops; });
    if (out.size() > kTreesPerValue) out.resize(kTreesPerValue);
    return memo_.emplace(key, std::move(out)).first->second;
  }

  // The synthesis variable a model value stands as, or nullopt when none fits. `kernel`: the
  // value is a convolution's weight.
  std::optional<int> variableFor(ValueRef value, bool kernel, const std::map<ValueRef, int>& assigned) {
    const Node& producer = graph_->node(value.node);
    const TensorType type = graph_->typeOf(value);
    if (type.dtype != DType::Float32) return std::nullopt;
    auto unused = [&](const std::vector<int>& candidates) -> std::optional<int> {
      for (int v : candidates)
        if (std::none_of(assigned.begin(), assigned.end(), [&](const auto& entry) { return entry.second == v; })) return v;
      return std::nullopt;
    };
    if (type.numel() == 1 && producer.kind == OpKind::Weight && producer.weight && producer.weight->holdsFloats()) {
      const double x = producer.weight->floatAt(0);
      // A mask's -3.4e38 absorbs what it is added to: identities true in the reals (softmax
      // ignores a constant shift) lose every digit of the scores there.
      if (!std::isfinite(x) || std::abs(x) >= kLargestConstant) return std::nullopt;
      for (const auto& [literal, v] : literals_)
        if (static_cast<float>(literal) == static_cast<float>(x)) return v;
      return unused(scalars_);
    }
    if (type.rank() < 1 || type.rank() > 4) return std::nullopt;
    Shape shape;
    if (kernel) {
      if (type.rank() != 4) return std::nullopt;
      // Dense kernels [4, 4, kh, kw]; depthwise ones [4, 1, kh, kw] (the group follows the shapes).
      shape = {4, type.shape[1] == 1 ? 1 : 4, type.shape[2], type.shape[3]};
    } else {
      static const std::map<int64_t, Shape> kShapes = {{1, {4}}, {2, {4, 4}}, {3, {2, 4, 4}}, {4, {1, 4, 4, 4}}};
      shape = kShapes.at(type.rank());
    }
    auto it = byShape_.find(shapeToString(shape));
    if (it == byShape_.end()) return std::nullopt;
    return unused(it->second);
  }

  std::optional<Term> toTerm(const ModelTree& tree, std::map<ValueRef, int>& assigned, ModelSite& site, bool kernel = false) {
    Term term;
    if (tree.leaf) {
      auto it = assigned.find(tree.value);
      if (it == assigned.end()) {
        std::optional<int> v = variableFor(tree.value, kernel, assigned);
        if (!v) return std::nullopt;
        it = assigned.emplace(tree.value, *v).first;
        const Node& producer = graph_->node(tree.value.node);
        site.variables[*v] = {graph_->typeOf(tree.value), producer.kind == OpKind::Weight};
      }
      term.variable = it->second;
      return term;
    }
    term.op = *opIndex(tree.value.node);
    const bool conv = graph_->node(tree.value.node).kind == OpKind::Conv;
    for (size_t i = 0; i < tree.args.size(); ++i) {
      std::optional<Term> arg = toTerm(tree.args[i], assigned, site, conv && i == 1);
      if (!arg) return std::nullopt;
      term.args.push_back(std::move(*arg));
    }
    return term;
  }

  SynthVocabulary& vocabulary_;
  const int maxOps_;
  const uint64_t maxPatterns_;
  const Graph* graph_ = nullptr;
  std::vector<std::pair<double, int>> literals_;
  std::vector<int> scalars_;
  std::map<std::string, std::vector<int>> byShape_;
  std::map<NodeId, std::optional<int>> ops_;
  std::map<std::pair<ValueRef, int>, std::vector<ModelTree>> memo_;
  std::map<std::string, size_t> index_;
};

} // namespace

std::optional<SynthOp> minedOpFor(const Graph& graph, const Node& node) {
  if (!minable(node.kind) || node.inputs.empty() || static_cast<int>(node.inputs.size()) > kMaxOperands) return std::nullopt;
  std::vector<TensorType> inputs;
  for (ValueRef input : node.inputs) {
    if (input.isNone()) return std::nullopt;
    inputs.push_back(graph.typeOf(input));
    if (inputs.back().dtype != DType::Float32 || inputs.back().rank() > 4) return std::nullopt;
  }
  Attributes attrs;
  try {
    attrs = canonicalAttributes(node.kind, node.attrs, inputs);
  } catch (const Error&) {
    return std::nullopt;
  }
  // Defaults written out: a pattern pins what it lists, and the canonical form drops defaults
  // (a bare `Conv` would match every convolution and build an unpadded one on the right).
  switch (node.kind) {
  case OpKind::Conv: {
    if (inputs[0].rank() != 4 || inputs[1].rank() != 4) return std::nullopt;
    if (attrs.has("dilations")) return std::nullopt;
    if (!attrs.has("strides")) attrs.set("strides", std::vector<int64_t>{1, 1});
    if (!attrs.has("pads")) attrs.set("pads", std::vector<int64_t>{0, 0, 0, 0});
    if (!attrs.has("activation")) attrs.set("activation", int64_t{0});
    // Dense or depthwise only: other groupings have no synthesis kernel shape.
    if (inputs[1].shape[1] != 1 && inputs[1].shape[1] != inputs[0].shape[1]) return std::nullopt;
    break;
  }
  case OpKind::MatMul:
    if (!attrs.has("activation")) attrs.set("activation", int64_t{0});
    break;
  case OpKind::ReduceMean:
  case OpKind::ReduceSum:
    if (!attrs.has("axes")) return std::nullopt;
    // Axes as the model counts them from the end (rank-free: the synthesis shapes are smaller).
    {
      std::vector<int64_t> axes = attrs.getInts("axes");
      for (int64_t& axis : axes) axis -= inputs[0].rank();
      attrs.set("axes", axes);
    }
    if (!attrs.has("keepdims")) attrs.set("keepdims", int64_t{1});
    break;
  case OpKind::Softmax:
  case OpKind::LogSoftmax:
  case OpKind::Concat: attrs.set("axis", attrs.getInt("axis", -1) - (attrs.getInt("axis", -1) >= 0 ? inputs[0].rank() : 0)); break;
  case OpKind::LayerNorm: attrs.set("axis", attrs.getInt("axis", -1) - (attrs.getInt("axis", -1) >= 0 ? inputs[0].rank() : 0)); break;
  default: break;
  }
  return nativeSynthOp(node.kind, std::move(attrs), static_cast<int>(inputs.size()));
}

void mineModelPatterns(std::span<const Graph* const> models, std::span<const std::string> modelNames, SynthVocabulary& vocabulary,
                       int maxOps, uint64_t maxPatterns) {
  if (maxOps < 1) return;
  Miner miner(vocabulary, maxOps, maxPatterns);
  for (size_t m = 0; m < models.size() && miner.stopReason().empty(); ++m)
    miner.mine(*models[m], m < modelNames.size() ? modelNames[m] : "model " + std::to_string(m + 1));
}

} // namespace tessera::synth
