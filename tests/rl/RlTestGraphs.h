// Small graphs and the default rule pack for the RL tests.
#pragma once

#include "ir/Graph.h"
#include "rewrite/DefaultRules.h"
#include "rewrite/RuleSet.h"

#include <initializer_list>
#include <vector>

namespace tessera::test {

inline TensorType f32(Shape shape) { return {DType::Float32, std::move(shape)}; }

// Inception-style branches with fusable relus, a shared input and a tail: several kinds of
// rules apply, some in more than one place.
inline Graph branchyModel() {
  using Ints = std::vector<int64_t>;
  Graph g;
  NodeId x = g.addInput("x", f32({1, 8, 14, 14}));
  NodeId w1 = g.addWeight("w1", Tensor::splat(f32({8, 8, 1, 1}), 0.1));
  NodeId w2 = g.addWeight("w2", Tensor::splat(f32({8, 8, 3, 3}), 0.05));
  NodeId w3 = g.addWeight("w3", Tensor::splat(f32({8, 8, 1, 1}), -0.1));
  NodeId a = g.addNode(OpKind::Relu, {{g.addNode(OpKind::Conv, {{x}, {w1}})}});
  NodeId b = g.addNode(OpKind::Relu, {{g.addNode(OpKind::Conv, {{x}, {w2}}, {{"pads", Ints{1, 1, 1, 1}}})}});
  NodeId c = g.addNode(OpKind::Relu, {{g.addNode(OpKind::Conv, {{x}, {w3}})}});
  NodeId joined = g.addNode(OpKind::Concat, {{a}, {b}, {c}}, {{"axis", int64_t{1}}});
  g.addOutput({g.addNode(OpKind::Tanh, {{joined}})}, "y");
  return g;
}

// Greedy's trap with the rules {tensat-m08, tensat-s115}: pairing the relus (m08) adds a concat,
// so it costs a little more, but then the concat of two convs of x folds into one conv (s115).
// A chain of Exp ops that no rule touches keeps the detour small beside the whole.
inline Graph pairedBranchesWithTail(int tail) {
  Graph g;
  NodeId x = g.addInput("x", f32({1, 8, 8, 8}));
  NodeId w1 = g.addWeight("w1", Tensor::splat(f32({8, 8, 1, 1}), 0.1));
  NodeId w2 = g.addWeight("w2", Tensor::splat(f32({8, 8, 1, 1}), 0.2));
  g.addOutput({g.addNode(OpKind::Relu, {{g.addNode(OpKind::Conv, {{x}, {w1}})}})}, "a");
  g.addOutput({g.addNode(OpKind::Relu, {{g.addNode(OpKind::Conv, {{x}, {w2}})}})}, "b");
  NodeId value = g.addInput("t", f32({8, 8}));
  for (int i = 0; i < tail; ++i) value = g.addNode(OpKind::Exp, {{value}});
  g.addOutput({value}, "tail");
  return g;
}

// Ops no rule matches.
inline Graph expChain(int length) {
  Graph g;
  NodeId value = g.addInput("t", f32({8, 8}));
  for (int i = 0; i < length; ++i) value = g.addNode(OpKind::Exp, {{value}});
  g.addOutput({value}, "y");
  return g;
}

struct RulePack {
  RuleSet set = defaultRules();
  std::vector<const Rule*> list = [this] {
    std::vector<const Rule*> rules;
    for (const auto& rule : set.rules()) rules.push_back(rule.get());
    return rules;
  }();

  std::vector<const Rule*> only(std::initializer_list<const char*> names) const {
    std::vector<const Rule*> rules;
    for (const char* name : names) rules.push_back(set.find(name));
    return rules;
  }
};

} // namespace tessera::test
