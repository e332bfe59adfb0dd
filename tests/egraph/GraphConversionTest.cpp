#include "egraph/GraphConversion.h"
#include "ir/GraphHash.h"
#include "support/Error.h"

#include <gtest/gtest.h>

using namespace tessera;

namespace {
TensorType f32(Shape shape) { return {DType::Float32, std::move(shape)}; }
using Ints = std::vector<int64_t>;

// x -> conv -> relu -> split(2 ways on channels) -> add(split0, split1); plus an unused input.
Graph sampleGraph() {
  Graph g;
  NodeId x = g.addInput("x", f32({1, 4, 8, 8}));
  g.addInput("unused", f32({2}));
  NodeId w = g.addWeight("w", Tensor::splat(f32({8, 4, 3, 3}), 0.1));
  NodeId conv = g.addNode(OpKind::Conv, {{x}, {w}}, {{"pads", Ints{1, 1, 1, 1}}}, "conv");
  NodeId relu = g.addNode(OpKind::Relu, {{conv}}, {}, "relu");
  NodeId split = g.addNode(OpKind::Split, {{relu}}, {{"axis", int64_t{1}}, {"split", Ints{4, 4}}}, "split");
  NodeId add = g.addNode(OpKind::Add, {{split, 0}, {split, 1}}, {}, "add");
  g.addOutput({add}, "y");
  return g;
}

const ENode* firstNode(const EGraph& egraph, EClassId id) { return &egraph.eclass(id).nodes.front(); }
} // namespace

TEST(GraphConversion, SeedThenExtractReproducesTheGraph) {
  Graph original = sampleGraph();
  EGraph egraph;
  SeededGraph seed = seedEGraph(egraph, original);
  EXPECT_EQ(seed.outputs.size(), 1u);
  Graph back = graphFromChoice(egraph, seed, [&](EClassId id) { return firstNode(egraph, id); });
  EXPECT_TRUE(structurallyEqual(original.compacted(), back)) << "round trip changed the graph";
  // Split ports became one node again, names and the unused input survived.
  EXPECT_EQ(back.opCount(), original.opCount());
  ASSERT_EQ(back.inputNodes().size(), 2u);
  EXPECT_EQ(back.node(back.inputNodes()[1]).name, "unused");
  EXPECT_TRUE(back.findNode("split").has_value());
  EXPECT_EQ(back.outputs()[0].name, "y");
}

TEST(GraphConversion, ExtractsARewrittenChoice) {
  Graph original = sampleGraph();
  EGraph egraph;
  SeededGraph seed = seedEGraph(egraph, original);
  EClassId x = egraph.addLeaf(original.node(*original.findNode("x")));
  EClassId w = egraph.addLeaf(original.node(*original.findNode("w")));
  EClassId relu = *egraph.lookup(ENode{OpKind::Relu, 0, 0, {*egraph.lookup(ENode{OpKind::Conv, 0,
                                                                       egraph.internAttributes({{"pads", Ints{1, 1, 1, 1}}}),
                                                                       {x, w}})}});
  EClassId fused = *egraph.add(OpKind::Conv, {{"pads", Ints{1, 1, 1, 1}}, {"activation", int64_t{2}}}, {x, w});
  egraph.merge(relu, fused);
  egraph.rebuild();
  Graph rewritten = graphFromChoice(egraph, seed, [&](EClassId id) -> const ENode* {
    for (const ENode& node : egraph.eclass(id).nodes)
      if (node.op == OpKind::Conv && egraph.attributes().get(node.payload).has("activation")) return &node;
    return firstNode(egraph, id);
  });
  EXPECT_EQ(rewritten.opCount(), original.opCount() - 1);
  EXPECT_FALSE(rewritten.hasCycle());
}

TEST(GraphConversion, CyclicChoiceIsAnError) {
  Graph original = sampleGraph();
  EGraph egraph;
  SeededGraph seed = seedEGraph(egraph, original);
  EClassId relu = egraph.classesWithOp(OpKind::Relu).front();
  // relu(relu(v)) == relu(v) would make "relu of itself" a valid but cyclic choice.
  EClassId reluOfRelu = *egraph.add(OpKind::Relu, {}, {relu});
  egraph.merge(relu, reluOfRelu);
  egraph.rebuild();
  EXPECT_THROW(graphFromChoice(egraph, seed,
                               [&](EClassId id) -> const ENode* {
                                 for (const ENode& node : egraph.eclass(id).nodes)
                                   if (node.op == OpKind::Relu && egraph.find(node.children[0]) == egraph.find(id)) return &node;
                                 return firstNode(egraph, id);
                               }),
               Error);
}
