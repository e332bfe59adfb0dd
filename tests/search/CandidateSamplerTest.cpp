#include "search/CandidateSampler.h"

#include "cost/CostModel.h"
#include "interp/Verify.h"
#include "ir/GraphHash.h"
#include "rewrite/DefaultRules.h"

#include <gtest/gtest.h>

#include <set>

using namespace tessera;

namespace {
TensorType f32(Shape shape) { return {DType::Float32, std::move(shape)}; }
using Ints = std::vector<int64_t>;

// Three conv branches of one input with relus, concatenated: fusions, merges and enlargements all
// apply, so the e-graph holds many distinct graphs.
Graph branches() {
  Graph g;
  NodeId x = g.addInput("x", f32({1, 8, 14, 14}));
  NodeId w1 = g.addWeight("w1", Tensor::splat(f32({8, 8, 1, 1}), 0.1));
  NodeId w2 = g.addWeight("w2", Tensor::splat(f32({8, 8, 3, 3}), 0.1));
  NodeId w3 = g.addWeight("w3", Tensor::splat(f32({8, 8, 1, 1}), 0.2));
  NodeId a = g.addNode(OpKind::Relu, {{g.addNode(OpKind::Conv, {{x}, {w1}})}});
  NodeId b = g.addNode(OpKind::Relu, {{g.addNode(OpKind::Conv, {{x}, {w2}}, {{"pads", Ints{1, 1, 1, 1}}})}});
  NodeId c = g.addNode(OpKind::Relu, {{g.addNode(OpKind::Conv, {{x}, {w3}})}});
  g.addOutput({g.addNode(OpKind::Concat, {{a}, {b}, {c}}, {{"axis", int64_t{1}}})}, "y");
  return g;
}

std::vector<const Rule*> all(const RuleSet& rules) {
  std::vector<const Rule*> out;
  for (const auto& rule : rules.rules()) out.push_back(rule.get());
  return out;
}
} // namespace

TEST(CandidateSampler, GivesDistinctEquivalentGraphsStartingWithTheOriginalAndTheCheapest) {
  RuleSet rules = defaultRules();
  auto cost = makeCostModel("analytic:h200");
  const Graph original = branches();
  CandidateSamplerOptions options;
  options.count = 6;
  const std::vector<SampledCandidate> candidates = sampleCandidates(original, all(rules), *cost, options);
  ASSERT_EQ(candidates.size(), 6u);
  EXPECT_EQ(candidates[0].label, "original");
  EXPECT_TRUE(structurallyEqual(candidates[0].graph, original));
  EXPECT_EQ(candidates[1].label, "optimised");

  std::set<std::string> labels;
  for (size_t i = 0; i < candidates.size(); ++i) {
    labels.insert(candidates[i].label);
    for (size_t j = 0; j < i; ++j)
      EXPECT_FALSE(structurallyEqual(candidates[i].graph, candidates[j].graph)) << candidates[i].label << " = " << candidates[j].label;
    // Every candidate still computes the model.
    VerifyOptions verify;
    verify.trials = 1;
    verify.seed = 3;
    const VerifyResult check = verifyEquivalent(original, candidates[i].graph, verify);
    EXPECT_TRUE(check.equivalent) << candidates[i].label << ": " << check.worst;
  }
  EXPECT_EQ(labels.size(), candidates.size());
}

TEST(CandidateSampler, IsDeterministicForASeedAndStopsWhenTheEGraphHasNoMoreGraphs) {
  RuleSet rules = defaultRules();
  auto cost = makeCostModel("analytic:h200");
  CandidateSamplerOptions options;
  options.count = 4;
  options.seed = 5;
  const auto first = sampleCandidates(branches(), all(rules), *cost, options);
  const auto second = sampleCandidates(branches(), all(rules), *cost, options);
  ASSERT_EQ(first.size(), second.size());
  for (size_t i = 0; i < first.size(); ++i) EXPECT_EQ(structuralHash(first[i].graph), structuralHash(second[i].graph));

  // No rules: the e-graph is the original alone, so the original is the only graph.
  options.count = 5;
  const auto alone = sampleCandidates(branches(), {}, *cost, options);
  ASSERT_EQ(alone.size(), 1u);
  EXPECT_EQ(alone[0].label, "original");
}
