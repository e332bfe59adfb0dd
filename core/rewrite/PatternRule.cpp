#include "rewrite/PatternRule.h"

#include "egraph/GraphConversion.h"
#include "ir/CanonicalAttributes.h"
#include "rewrite/MultiPatternJoin.h"
#include "support/Error.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <type_traits>
#include <numeric>
#include <random>

namespace tessera {

namespace {

constexpr EClassId kUnbound = kUnboundClass;
static_assert(kUnboundClass == kUnboundAttribute, "one marker for unbound variables of both kinds");

[[noreturn]] void failAt(const Pattern& pattern, const std::string& message) {
  throw Error("line " + std::to_string(pattern.location.line) + ", column " + std::to_string(pattern.location.column) + ": " +
              message);
}

class Compiler {
public:
  Compiler(std::vector<std::string>& variables, std::vector<std::string>& attributeVariables, std::vector<bool>& scalarVariables,
           std::vector<bool>& weightVariables)
      : variables_(variables), attributeVariables_(attributeVariables), scalarVariables_(scalarVariables),
        weightVariables_(weightVariables) {}

  CompiledPattern compile(const Pattern& pattern, bool leftHandSide) {
    CompiledPattern out;
    out.text = pattern.toString();
    if (pattern.kind == Pattern::Kind::Number) failAt(pattern, "a number cannot stand for a tensor (a constant is written #" +
                                                                   std::to_string(pattern.number) + ")");
    if (pattern.kind == Pattern::Kind::Scalar) {
      out.kind = CompiledPattern::Kind::Scalar;
      out.scalar = pattern.scalar;
      return out;
    }
    if (pattern.kind == Pattern::Kind::Variable) {
      out.kind = CompiledPattern::Kind::Variable;
      out.scalarWeight = pattern.scalarWeight;
      out.weightOnly = pattern.weightOnly;
      auto it = std::find(variables_.begin(), variables_.end(), pattern.name);
      if (it == variables_.end()) {
        if (!leftHandSide) failAt(pattern, "variable ?" + pattern.name + " does not appear on the left-hand side");
        variables_.push_back(pattern.name);
        it = variables_.end() - 1;
      }
      out.variable = static_cast<int>(it - variables_.begin());
      if (scalarVariables_.size() < variables_.size()) scalarVariables_.resize(variables_.size(), false);
      if (weightVariables_.size() < variables_.size()) weightVariables_.resize(variables_.size(), false);
      if (leftHandSide && pattern.scalarWeight) scalarVariables_[out.variable] = true;
      if (leftHandSide && pattern.weightOnly) weightVariables_[out.variable] = true;
      return out;
    }
    if (std::optional<OpKind> native = opFromName(pattern.name)) return compileNative(pattern, *native, leftHandSide);
    if (!pattern.attributeBinding.empty() || !pattern.attributes.empty())
      failAt(pattern, "only IR ops (capitalised, e.g. Conv) take attributes; '" + pattern.name + "' is a TENSAT op");
    const TensatOp* op = findTensatOp(pattern.name);
    if (!op) failAt(pattern, "unknown op '" + pattern.name + "'");
    if (pattern.args.size() != op->layout.size())
      failAt(pattern, "'" + pattern.name + "' takes " + std::to_string(op->layout.size()) + " arguments, got " +
                          std::to_string(pattern.args.size()));
    if (op->kind == OpKind::Split) return compileSplit(pattern, *op, leftHandSide);
    out.op = op;
    for (size_t i = 0; i < pattern.args.size(); ++i) {
      const Pattern& arg = pattern.args[i];
      if (op->layout[i] == 'N') {
        if (arg.kind != Pattern::Kind::Number) failAt(arg, "argument " + std::to_string(i + 1) + " of '" + pattern.name + "' must be a number");
        out.numbers.push_back(arg.number);
      } else {
        out.tensors.push_back(compile(arg, leftHandSide));
      }
    }
    return out;
  }

private:
  CompiledPattern compileNative(const Pattern& pattern, OpKind kind, bool leftHandSide) {
    const OpInfo& info = opInfo(kind);
    if (kind == OpKind::Input || kind == OpKind::Weight || kind == OpKind::Opaque || kind == OpKind::Split)
      failAt(pattern, "'" + pattern.name + "' cannot appear in a pattern");
    int arity = static_cast<int>(pattern.args.size());
    if (arity < info.minInputs || (info.maxInputs >= 0 && arity > info.maxInputs))
      failAt(pattern, "'" + pattern.name + "' takes " + std::to_string(info.minInputs) +
                          (info.maxInputs == info.minInputs ? "" : ".." + (info.maxInputs < 0 ? std::string("n") : std::to_string(info.maxInputs))) +
                          " inputs, got " + std::to_string(arity));
    CompiledPattern out;
    out.kind = CompiledPattern::Kind::NativeOp;
    out.native = kind;
    out.text = pattern.toString();
    for (const auto& [key, value] : pattern.attributes) out.attributes.set(key, value);
    if (!pattern.attributeBinding.empty()) {
      auto it = std::find(attributeVariables_.begin(), attributeVariables_.end(), pattern.attributeBinding);
      if (it == attributeVariables_.end()) {
        if (!leftHandSide) failAt(pattern, "attribute variable @" + pattern.attributeBinding + " does not appear on the left-hand side");
        attributeVariables_.push_back(pattern.attributeBinding);
        it = attributeVariables_.end() - 1;
      }
      out.attributeVariable = static_cast<int>(it - attributeVariables_.begin());
    }
    for (const Pattern& arg : pattern.args) out.tensors.push_back(compile(arg, leftHandSide));
    return out;
  }

  // split_0 / split_1 wrap (split axis E): the halves of E along axis, sized by the first concat in E.
  CompiledPattern compileSplit(const Pattern& pattern, const TensatOp& op, bool leftHandSide) {
    if (leftHandSide) failAt(pattern, "split may only appear on a right-hand side");
    if (op.name == "split") failAt(pattern, "split must be wrapped in split_0 or split_1");
    const Pattern& inner = pattern.args[0];
    if (inner.kind != Pattern::Kind::Op || inner.name != "split" || inner.args.size() != 2 ||
        inner.args[0].kind != Pattern::Kind::Number)
      failAt(pattern, op.name.data() + std::string(" must wrap (split AXIS ...)"));
    CompiledPattern out;
    out.kind = CompiledPattern::Kind::SplitOutput;
    out.text = pattern.toString();
    out.port = op.name == "split_0" ? 0 : 1;
    out.splitAxis = inner.args[0].number;
    out.tensors.push_back(compile(inner.args[1], false));
    if (!findConcat(out.tensors[0])) failAt(pattern, "the split operand must contain a concat that defines the split sizes");
    return out;
  }

public:
  static const CompiledPattern* findConcat(const CompiledPattern& p) {
    if (p.kind == CompiledPattern::Kind::Op && p.op->kind == OpKind::Concat) return &p;
    if (p.kind == CompiledPattern::Kind::NativeOp && p.native == OpKind::Concat) return &p;
    for (const CompiledPattern& t : p.tensors)
      if (const CompiledPattern* found = findConcat(t)) return found;
    return nullptr;
  }

private:
  std::vector<std::string>& variables_;
  std::vector<std::string>& attributeVariables_;
  std::vector<bool>& scalarVariables_;
  std::vector<bool>& weightVariables_;
};

std::vector<TensorType> childTypes(const EGraph& egraph, const std::vector<EClassId>& children) {
  std::vector<TensorType> types;
  for (EClassId child : children) types.push_back(egraph.data(child).type);
  return types;
}

// A native pattern's listed attributes hold for `attrs` when adding them changes nothing.
bool satisfiesAttributes(const EGraph& egraph, const ENode& node, const CompiledPattern& pattern) {
  if (pattern.attributes.empty()) return true;
  const Attributes& attrs = egraph.attributes().get(node.payload);
  Attributes constrained = attrs;
  for (const auto& [key, value] : pattern.attributes.entries()) constrained.set(key, value);
  try {
    return canonicalAttributes(pattern.native, constrained, childTypes(egraph, node.children)) == attrs;
  } catch (const Error&) {
    return false;
  }
}

// The one-element float weight in a class, if it holds one.
const Tensor* scalarWeightOf(const EGraph& egraph, EClassId eclass) {
  for (const ENode& node : egraph.eclass(eclass).nodes) {
    if (node.op != OpKind::Weight) continue;
    const Node& leaf = egraph.leaf(node.payload).node;
    if (leaf.weight && leaf.weight->holdsFloats() && leaf.weight->numel() == 1) return leaf.weight.get();
  }
  return nullptr;
}

// A constant `#v` matches a one-element weight within float rounding of v: relative to v, so
// that an epsilon of 1e-12 never matches one of 1e-6.
bool holdsScalar(const EGraph& egraph, EClassId eclass, double value) {
  const Tensor* weight = scalarWeightOf(egraph, eclass);
  return weight && std::abs(weight->valueAt(0) - value) <= 1e-6 * std::abs(value);
}

// The weight a right-hand side's `#v` builds: rank 0, named by its value so that equal constants share a leaf.
Node scalarLeaf(double value) {
  Node node;
  node.kind = OpKind::Weight;
  node.name = "tessera.scalar(" + formatScalar(value) + ")";
  node.outputTypes = {TensorType{DType::Float32, Shape{}}};
  node.weight = std::make_shared<const Tensor>(Tensor::fromFloats(Shape{}, {static_cast<float>(value)}));
  return node;
}

// A non-owning reference to a callable: the matcher's continuations live on its stack, and a
// std::function would allocate for each of them.
class Continuation {
public:
  template <class F>
    requires(!std::is_same_v<std::remove_cvref_t<F>, Continuation>)
  Continuation(F&& f) // NOLINT(google-explicit-constructor): lambdas convert implicitly
      : object_(static_cast<void*>(std::addressof(f))), call_([](void* object) { (*static_cast<std::remove_reference_t<F>*>(object))(); }) {}
  void operator()() const { call_(object_); }

private:
  void* object_;
  void (*call_)(void*);
};

// Backtracking e-matcher: calls `found` for every way `pattern` matches class `eclass`.
class Matcher {
public:
  Matcher(const EGraph& egraph, std::vector<EClassId>& bindings, std::vector<uint32_t>& attributes)
      : egraph_(egraph), bindings_(bindings), attributes_(attributes) {}

  void match(const CompiledPattern& pattern, EClassId eclass, Continuation found) {
    eclass = egraph_.find(eclass);
    if (pattern.kind == CompiledPattern::Kind::Scalar) {
      if (holdsScalar(egraph_, eclass, pattern.scalar)) found();
      return;
    }
    if (pattern.kind == CompiledPattern::Kind::Variable) {
      if (pattern.scalarWeight && !scalarWeightOf(egraph_, eclass)) return;
      if (pattern.weightOnly && !egraph_.eclass(eclass).data.allWeights) return;
      EClassId& slot = bindings_[pattern.variable];
      if (slot == kUnbound) {
        slot = eclass;
        found();
        slot = kUnbound;
      } else if (egraph_.find(slot) == eclass) {
        found();
      }
      return;
    }
    if (pattern.kind == CompiledPattern::Kind::NativeOp) {
      for (const ENode& node : egraph_.eclass(eclass).nodes) {
        if (node.op != pattern.native || node.children.size() != pattern.tensors.size() || egraph_.isFiltered(node)) continue;
        if (!satisfiesAttributes(egraph_, node, pattern)) continue;
        if (pattern.attributeVariable < 0) {
          matchChildren(pattern, node, 0, found);
          continue;
        }
        uint32_t& slot = attributes_[pattern.attributeVariable];
        if (slot == kUnbound) {
          slot = node.payload;
          matchChildren(pattern, node, 0, found);
          slot = kUnbound;
        } else if (slot == node.payload) {
          matchChildren(pattern, node, 0, found);
        }
      }
      return;
    }
    for (const ENode& node : egraph_.eclass(eclass).nodes) {
      if (node.op != pattern.op->kind || !matchesTensatOp(egraph_, node, *pattern.op, pattern.numbers) || egraph_.isFiltered(node))
        continue;
      matchChildren(pattern, node, 0, found);
    }
  }

private:
  void matchChildren(const CompiledPattern& pattern, const ENode& node, size_t i, Continuation found) {
    if (i == pattern.tensors.size()) {
      found();
      return;
    }
    match(pattern.tensors[i], node.children[i], [&] { matchChildren(pattern, node, i + 1, found); });
  }

  const EGraph& egraph_;
  std::vector<EClassId>& bindings_;
  std::vector<uint32_t>& attributes_;
};

// Builds a right-hand side in the e-graph; remembers the operands of every concat it builds so a
// split can be sized by them.
class Builder {
public:
  // `unboundAttributes`: what an unbound attribute variable stands for (verification builds both
  // sides with no match to copy from); absent, an unbound variable copies nothing.
  Builder(EGraph& egraph, const std::vector<EClassId>& bindings, const std::vector<uint32_t>& attributes,
          const std::vector<Attributes>* unboundAttributes = nullptr)
      : egraph_(egraph), bindings_(bindings), attributes_(attributes), unboundAttributes_(unboundAttributes) {}

  std::optional<EClassId> build(const CompiledPattern& pattern) {
    if (pattern.kind == CompiledPattern::Kind::Variable) return bindings_[pattern.variable];
    if (pattern.kind == CompiledPattern::Kind::Scalar) return egraph_.addLeaf(scalarLeaf(pattern.scalar));
    if (isConvOfMerge(pattern)) return buildConvOfMerge(pattern);
    std::vector<EClassId> children;
    for (const CompiledPattern& t : pattern.tensors) {
      std::optional<EClassId> child = build(t);
      if (!child) return std::nullopt;
      children.push_back(*child);
    }
    if (pattern.kind == CompiledPattern::Kind::SplitOutput) return buildSplit(pattern, children[0]);
    if (pattern.kind == CompiledPattern::Kind::NativeOp) {
      Attributes attrs;
      if (pattern.attributeVariable >= 0 && attributes_[pattern.attributeVariable] != kUnbound)
        attrs = egraph_.attributes().get(attributes_[pattern.attributeVariable]);
      else if (pattern.attributeVariable >= 0 && unboundAttributes_)
        attrs = (*unboundAttributes_)[pattern.attributeVariable];
      for (const auto& [key, value] : pattern.attributes.entries()) attrs.set(key, value);
      std::optional<EClassId> result = egraph_.add(pattern.native, attrs, children);
      if (result && pattern.native == OpKind::Concat) concatOperands_[&pattern] = children;
      return result;
    }
    std::optional<BuiltOp> op = buildTensatOp(egraph_, *pattern.op, pattern.numbers, children);
    if (!op) return std::nullopt;
    std::optional<EClassId> result = egraph_.add(op->kind, op->attrs, children);
    if (result && op->kind == OpKind::Concat) concatOperands_[&pattern] = children;
    return result;
  }

private:
  static bool isConvOfMerge(const CompiledPattern& p) {
    return p.kind == CompiledPattern::Kind::Op && p.op->kind == OpKind::Conv &&
           p.tensors[1].kind == CompiledPattern::Kind::Op && p.tensors[1].op->kind == OpKind::MergeGroups;
  }

  // (conv2d ... ?x (merge ?w count)): the merged weight needs the conv's group count, C / W[1],
  // which only the conv's input knows. TENSAT's `merge` outside a conv weight never applies.
  std::optional<EClassId> buildConvOfMerge(const CompiledPattern& pattern) {
    std::optional<EClassId> input = build(pattern.tensors[0]);
    std::optional<EClassId> weight = build(pattern.tensors[1].tensors[0]);
    if (!input || !weight) return std::nullopt;
    const Shape& x = egraph_.data(*input).type.shape;
    const Shape& w = egraph_.data(*weight).type.shape;
    if (x.size() != 4 || w.size() != 4 || w[1] == 0 || x[1] % w[1] != 0) return std::nullopt;
    Attributes mergeAttrs{{"count", pattern.tensors[1].numbers[0]}, {"groups", x[1] / w[1]}};
    std::optional<EClassId> merged = egraph_.add(OpKind::MergeGroups, mergeAttrs, {*weight});
    if (!merged) return std::nullopt;
    std::vector<EClassId> children{*input, *merged};
    std::optional<BuiltOp> op = buildTensatOp(egraph_, *pattern.op, pattern.numbers, children);
    if (!op) return std::nullopt;
    return egraph_.add(op->kind, op->attrs, children);
  }

  std::optional<EClassId> buildSplit(const CompiledPattern& pattern, EClassId operand) {
    const CompiledPattern* concat = Compiler::findConcat(pattern.tensors[0]);
    auto it = concatOperands_.find(concat);
    if (it == concatOperands_.end()) return std::nullopt;
    int64_t concatAxis = concat->kind == CompiledPattern::Kind::NativeOp ? concat->attributes.getInt("axis", 0) : concat->numbers[0];
    std::vector<int64_t> sizes;
    for (EClassId part : it->second) {
      const Shape& shape = egraph_.data(part).type.shape;
      const int64_t rank = static_cast<int64_t>(shape.size());
      const int64_t axis = concatAxis < 0 ? concatAxis + rank : concatAxis;
      if (axis < 0 || axis >= rank) return std::nullopt;
      sizes.push_back(shape[axis]);
    }
    Attributes attrs{{"axis", pattern.splitAxis}, {"split", sizes}};
    return egraph_.add(OpKind::Split, attrs, {operand}, static_cast<uint16_t>(pattern.port));
  }

  EGraph& egraph_;
  const std::vector<EClassId>& bindings_;
  const std::vector<uint32_t>& attributes_;
  const std::vector<Attributes>* unboundAttributes_;
  std::map<const CompiledPattern*, std::vector<EClassId>> concatOperands_;
};

// Every match of one source pattern, up to `limit`.
SideMatches searchSide(const EGraph& egraph, const CompiledPattern& lhs, size_t variableCount, size_t attributeCount,
                       size_t limit) {
  SideMatches matches;
  matches.variableCount = variableCount;
  matches.attributeCount = attributeCount;
  std::vector<EClassId> bindings(variableCount, kUnbound);
  std::vector<uint32_t> attributes(attributeCount, kUnbound);
  Matcher matcher(egraph, bindings, attributes);
  OpKind rootOp = lhs.kind == CompiledPattern::Kind::NativeOp ? lhs.native : lhs.op->kind;
  for (EClassId root : egraph.classesWithOp(rootOp)) {
    if (matches.size() >= limit) break;
    const EClassId canonical = egraph.find(root);
    matcher.match(lhs, root, [&] {
      if (matches.size() < limit) matches.add(canonical, bindings, attributes);
    });
  }
  return matches;
}

std::vector<RuleMatch> unflatten(const SideMatches& side) {
  std::vector<RuleMatch> matches;
  matches.reserve(side.size());
  for (size_t i = 0; i < side.size(); ++i) {
    std::span<const EClassId> bindings = side.bindingsOf(i);
    std::span<const uint32_t> attributes = side.attributesOf(i);
    matches.push_back({{side.roots[i]}, {bindings.begin(), bindings.end()}, {attributes.begin(), attributes.end()}});
  }
  return matches;
}

// Are two patterns one pattern with the variables renamed (TENSAT's canonical patterns)?
bool sameUpToRenaming(const CompiledPattern& a, const CompiledPattern& b, std::map<int, int>& aToB, std::map<int, int>& bToA) {
  if (a.kind != b.kind) return false;
  if (a.kind == CompiledPattern::Kind::Scalar) return a.scalar == b.scalar;
  if (a.kind == CompiledPattern::Kind::Variable) {
    if (a.scalarWeight != b.scalarWeight || a.weightOnly != b.weightOnly) return false;
    auto [forward, newA] = aToB.try_emplace(a.variable, b.variable);
    auto [backward, newB] = bToA.try_emplace(b.variable, a.variable);
    return forward->second == b.variable && backward->second == a.variable;
  }
  if (a.op != b.op || a.native != b.native || a.numbers != b.numbers || !(a.attributes == b.attributes) ||
      (a.attributeVariable < 0) != (b.attributeVariable < 0) || a.tensors.size() != b.tensors.size())
    return false;
  for (size_t i = 0; i < a.tensors.size(); ++i)
    if (!sameUpToRenaming(a.tensors[i], b.tensors[i], aToB, bToA)) return false;
  return true;
}

// The shapes verification tries for pattern variables: small, and mutually compatible often
// enough that random draws satisfy matmul, conv and concat constraints.
const std::vector<Shape>& candidateShapes() {
  static const std::vector<Shape> shapes = {
      {4, 4},       {4, 6},       {6, 4},       {3, 4},       {4, 3},       {2, 4, 4},    {1, 4, 6, 6},
      {1, 6, 6, 6}, {2, 4, 6, 6}, {4, 4, 3, 3}, {6, 4, 3, 3}, {4, 6, 3, 3}, {4, 4, 1, 1}, {6, 4, 1, 1},
      {4, 2, 3, 3}, {2, 4, 3, 3}, {6, 6, 3, 3}, {6, 6, 1, 1}, {4, 6, 1, 1}, {1, 4, 5, 5}, {4},
      {6},          {1, 4},       {1, 6}};
  return shapes;
}

} // namespace

PatternRule::PatternRule(std::string name, std::vector<std::string> labels, std::vector<std::pair<Pattern, Pattern>> sides,
                         std::vector<std::pair<Pattern, Pattern>> sameTypeGuards)
    : Rule(std::move(name), std::move(labels)) {
  if (sides.empty() || sides.size() > 2) throw Error("a rule has one or two source patterns");
  Compiler compiler(variables_, attributeVariables_, scalarVariables_, weightVariables_);
  for (const auto& [lhs, rhs] : sides) {
    if (lhs.kind != Pattern::Kind::Op) failAt(lhs, "a left-hand side must start with an op");
    sides_.push_back({compiler.compile(lhs, true), CompiledPattern{}});
  }
  for (size_t i = 0; i < sides.size(); ++i) sides_[i].rhs = compiler.compile(sides[i].second, false);
  scalarVariables_.resize(variables_.size(), false);
  weightVariables_.resize(variables_.size(), false);
  for (const auto& [a, b] : sameTypeGuards) {
    CompiledPattern x = compiler.compile(a, false), y = compiler.compile(b, false);
    if (x.kind != CompiledPattern::Kind::Variable) failAt(a, "a guard compares variables");
    if (y.kind != CompiledPattern::Kind::Variable) failAt(b, "a guard compares variables");
    sameTypeGuards_.emplace_back(x.variable, y.variable);
    guardText_ += (guardText_.empty() ? " where " : " and ") + std::string("type(") + a.toString() + ") == type(" + b.toString() + ")";
  }
  if (isMulti() && hasLabel("symmetric")) {
    std::map<int, int> forward, backward;
    symmetric_ = sameUpToRenaming(sides_[0].lhs, sides_[1].lhs, forward, backward);
  }
}

std::string PatternRule::describe() const {
  std::string s;
  for (const Side& side : sides_) {
    if (!s.empty()) s += "  &&  ";
    s += side.lhs.text + " => " + side.rhs.text;
  }
  return s + guardText_;
}

bool PatternRule::guardsHoldFor(const EGraph& egraph, const RuleMatch& match) const {
  if (sameTypeGuards_.empty()) return true;
  std::vector<TensorType> types;
  for (EClassId id : match.bindings) types.push_back(egraph.data(id).type);
  return guardsHold(types);
}

std::vector<RuleMatch> PatternRule::search(const EGraph& egraph, size_t limit) const {
  if (isMulti()) {
    // The join sees every match of both sides; only what it yields counts toward the limit.
    std::vector<RuleMatch> matches;
    std::unique_ptr<MatchStream> joined = stream(egraph);
    RuleMatch match;
    while (matches.size() < limit && joined->next(match)) matches.push_back(match);
    return matches;
  }
  std::vector<RuleMatch> matches =
      unflatten(searchSide(egraph, sides_[0].lhs, variables_.size(), attributeVariables_.size(), limit));
  std::erase_if(matches, [&](const RuleMatch& match) { return !guardsHoldFor(egraph, match); });
  return matches;
}

std::unique_ptr<MatchStream> PatternRule::stream(const EGraph& egraph) const {
  if (!isMulti()) return Rule::stream(egraph);
  const size_t unlimited = std::numeric_limits<size_t>::max();
  SideMatches first = searchSide(egraph, sides_[0].lhs, variables_.size(), attributeVariables_.size(), unlimited);
  SideMatches second = searchSide(egraph, sides_[1].lhs, variables_.size(), attributeVariables_.size(), unlimited);
  JoinSettings settings;
  settings.symmetric = symmetric_;
  if (!sameTypeGuards_.empty()) settings.accept = [this, &egraph](const RuleMatch& match) { return guardsHoldFor(egraph, match); };
  return joinSideMatches(egraph, std::move(first), std::move(second), std::move(settings));
}

RuleApplication PatternRule::apply(EGraph& egraph, const RuleMatch& match) const {
  RuleApplication result;
  Builder builder(egraph, match.bindings, match.attributes);
  for (const Side& side : sides_) {
    std::optional<EClassId> built = builder.build(side.rhs);
    if (!built) return result; // all sides or none
    result.results.push_back(*built);
  }
  // A rule whose right-hand side has another type than what it matched does not hold here.
  for (size_t i = 0; i < sides_.size(); ++i)
    if (egraph.data(result.results[i]).type != egraph.data(match.roots[i]).type) return result;
  result.typeChecked = true;
  for (size_t i = 0; i < sides_.size(); ++i) result.changed |= egraph.merge(match.roots[i], result.results[i]);
  return result;
}

namespace {

// Does every sub-pattern whose variables all have shapes type-check? Sub-patterns that still
// contain unassigned variables are looked into, so a bad choice is rejected as soon as it is made.
bool feasible(const CompiledPattern& pattern, Builder& builder, const std::vector<bool>& assigned) {
  std::vector<std::string> unused;
  std::function<bool(const CompiledPattern&)> complete = [&](const CompiledPattern& p) {
    if (p.kind == CompiledPattern::Kind::Variable) return static_cast<bool>(assigned[p.variable]);
    return std::all_of(p.tensors.begin(), p.tensors.end(), complete);
  };
  if (complete(pattern)) return builder.build(pattern).has_value();
  return std::all_of(pattern.tensors.begin(), pattern.tensors.end(),
                     [&](const CompiledPattern& child) { return feasible(child, builder, assigned); });
}

} // namespace

bool PatternRule::matchesAsWhole(const Graph& before) const {
  EGraph egraph;
  SeededGraph seed = seedEGraph(egraph, before);
  for (const RuleMatch& match : search(egraph, 100000)) {
    bool all = match.roots.size() == seed.outputs.size();
    for (size_t i = 0; all && i < seed.outputs.size(); ++i) all = egraph.find(match.roots[i]) == egraph.find(seed.outputs[i]);
    if (all) return true;
  }
  return false;
}

bool PatternRule::guardsHold(const std::vector<TensorType>& types) const {
  return std::all_of(sameTypeGuards_.begin(), sameTypeGuards_.end(),
                     [&](const std::pair<int, int>& guard) { return types[guard.first] == types[guard.second]; });
}

namespace {

// The attributes a rule's check gives an op it copies attributes from (`LRN@l`): ONNX gives LRN
// no default size, and an even size (a window reaching further up than down) with a large alpha
// makes the check strict; a Reshape has no default target, and flattening fits any input. Other
// ops take their defaults.
Attributes verificationAttributes(OpKind kind) {
  if (kind == OpKind::LRN) return {{"size", int64_t{4}}, {"alpha", 0.5f}, {"beta", 0.75f}, {"bias", 2.0f}};
  if (kind == OpKind::Reshape) return {{"shape", std::vector<int64_t>{-1}}};
  return {};
}

void collectVerificationAttributes(const CompiledPattern& pattern, std::vector<Attributes>& out) {
  if (pattern.kind == CompiledPattern::Kind::NativeOp && pattern.attributeVariable >= 0 && out[pattern.attributeVariable].empty())
    out[pattern.attributeVariable] = verificationAttributes(pattern.native);
  for (const CompiledPattern& t : pattern.tensors) collectVerificationAttributes(t, out);
}

} // namespace

std::vector<Rule::VerificationCase> PatternRule::verificationCases(uint64_t seed, int count) const {
  std::vector<VerificationCase> cases;
  std::mt19937_64 rng(seed);
  std::vector<Attributes> unboundAttributes(attributeVariables_.size());
  for (const Side& side : sides_) collectVerificationAttributes(side.lhs, unboundAttributes);
  const auto& shapes = candidateShapes();
  std::vector<std::string> seen;
  const size_t n = variables_.size();
  // Random restarts with a small budget each: one unlucky early choice must not eat the search.
  int budget = 0;
  int restarts = 400;

  // Type-checks both sides for the shapes chosen so far; builds in a fresh e-graph each time.
  auto consistent = [&](const std::vector<Shape>& chosen, const std::vector<bool>& assigned) {
    EGraph scratch;
    std::vector<EClassId> bindings(n, kUnbound);
    for (size_t v = 0; v < n; ++v) {
      if (!assigned[v]) continue;
      Node input;
      input.kind = OpKind::Input;
      input.name = variables_[v];
      input.outputTypes = {TensorType{DType::Float32, chosen[v]}};
      bindings[v] = scratch.addLeaf(input);
    }
    std::vector<uint32_t> attributes(attributeVariables_.size(), kUnbound);
    Builder builder(scratch, bindings, attributes, &unboundAttributes);
    for (const Side& side : sides_)
      if (!feasible(side.lhs, builder, assigned) || !feasible(side.rhs, builder, assigned)) return false;
    return true;
  };

  // Depth-first over variables in order of appearance, candidate shapes in random order.
  std::vector<Shape> chosen(n);
  std::vector<bool> assigned(n, false);
  std::function<bool(size_t)> assign = [&](size_t v) -> bool {
    if (v == n) {
      std::vector<TensorType> types;
      for (const Shape& shape : chosen) types.push_back({DType::Float32, shape});
      std::string key;
      for (const Shape& shape : chosen) key += shapeToString(shape);
      return guardsHold(types) && std::find(seen.begin(), seen.end(), key) == seen.end();
    }
    // Shapes related to those already chosen come first (operands of one op usually agree: the
    // same shape, or a vector as long as one of its dimensions), then the rest in random order.
    // Half the time only: a sound-looking rule is often wrong exactly when operands differ.
    std::vector<Shape> related;
    if (scalarVariables_[v]) related = {Shape{1}, Shape{}}; // `#?s` binds one-element weights only
    for (size_t u = 0; u < v && !scalarVariables_[v] && rng() % 2 == 0; ++u) {
      related.push_back(chosen[u]);
      for (int64_t d : chosen[u]) related.push_back({d});
    }
    std::shuffle(related.begin(), related.end(), rng);
    std::vector<Shape> others = scalarVariables_[v] ? std::vector<Shape>{} : shapes;
    std::shuffle(others.begin(), others.end(), rng);
    std::vector<Shape> order;
    for (const Shape& shape : related)
      if (std::find(order.begin(), order.end(), shape) == order.end()) order.push_back(shape);
    for (const Shape& shape : others)
      if (std::find(order.begin(), order.end(), shape) == order.end()) order.push_back(shape);
    for (const Shape& shape : order) {
      if (--budget < 0) return false;
      chosen[v] = shape;
      assigned[v] = true;
      if (consistent(chosen, assigned) && assign(v + 1)) return true;
    }
    assigned[v] = false;
    return false;
  };

  while (static_cast<int>(cases.size()) < count && restarts-- > 0) {
    std::fill(assigned.begin(), assigned.end(), false);
    budget = 400;
    if (!assign(0)) continue;
    std::string key;
    for (const Shape& shape : chosen) key += shapeToString(shape);
    seen.push_back(key);
    // A `#?s` variable is a weight with a value drawn here, away from zero (it may divide).
    Graph inputs;
    std::vector<NodeId> variableNodes;
    std::uniform_real_distribution<double> magnitude(0.5, 2.0);
    for (size_t v = 0; v < n; ++v) {
      if (weightVariables_[v]) { // `$?b` binds only values computed from weights: it is one here
        std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
        std::vector<float> values(static_cast<size_t>(numelOf(chosen[v])));
        for (float& value : values) value = unit(rng);
        variableNodes.push_back(inputs.addWeight(variables_[v], Tensor::fromFloats(chosen[v], std::move(values))));
        continue;
      }
      if (!scalarVariables_[v]) {
        variableNodes.push_back(inputs.addInput(variables_[v], TensorType{DType::Float32, chosen[v]}));
        continue;
      }
      const double value = (rng() % 2 ? 1.0 : -1.0) * magnitude(rng);
      variableNodes.push_back(inputs.addWeight(variables_[v], Tensor::fromFloats(chosen[v], {static_cast<float>(value)})));
    }
    // Each side is built in a fresh e-graph over the same inputs, where every class holds one
    // node, so extraction is unambiguous. Attribute variables take verificationAttributes.
    auto buildSide = [&](bool before) -> std::optional<Graph> {
      EGraph scratch;
      SeededGraph sides;
      std::vector<EClassId> bindings;
      for (NodeId id : variableNodes) {
        bindings.push_back(scratch.addLeaf(inputs.node(id)));
        if (inputs.node(id).kind == OpKind::Input) sides.inputLeaves.push_back(scratch.registerLeaf(inputs.node(id)));
      }
      std::vector<uint32_t> attributes(attributeVariables_.size(), kUnbound);
      Builder builder(scratch, bindings, attributes, &unboundAttributes);
      for (const Side& side : sides_) {
        std::optional<EClassId> root = builder.build(before ? side.lhs : side.rhs);
        if (!root) return std::nullopt;
        sides.outputs.push_back(*root);
        sides.outputNames.push_back("out" + std::to_string(sides.outputs.size() - 1));
      }
      scratch.rebuild();
      return graphFromChoice(scratch, sides, [&](EClassId id) { return &scratch.eclass(id).nodes.front(); });
    };
    std::optional<Graph> before = buildSide(true);
    std::optional<Graph> after = buildSide(false);
    if (!before || !after || !matchesAsWhole(*before)) continue; // outside the rule's domain
    cases.push_back({std::move(*before), std::move(*after)});
  }
  return cases;
}

} // namespace tessera
