// graphCost and the runtime's folds at load (CostModel::foldedIntoProducer): an op the runtime
// folds into its producer costs nothing, and only where the runtime can fold it.
#include "cost/AnalyticCostModel.h"
#include "cost/GraphCost.h"
#include "cost/LatencyCalibration.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace tessera;

namespace {

TensorType f32(Shape shape) { return {DType::Float32, std::move(shape)}; }

// Every op costs 1 ms; a BatchNorm after a Conv is folded, as ONNX Runtime folds it.
class FoldingModel final : public CostModel {
public:
  double costMs(const OpSignature&) override { return 1.0; }
  std::string spec() const override { return "folding"; }
  bool foldedIntoProducer(const OpSignature& producer, const OpSignature& op) const override {
    return producer.kind == OpKind::Conv && op.kind == OpKind::BatchNorm;
  }
};

struct ConvBatchNorm {
  Graph graph;
  NodeId x, conv, bn;
};

// x -> conv -> bn -> relu; the statistics are weights unless `meanIsInput`.
ConvBatchNorm convBatchNorm(bool meanIsInput = false) {
  ConvBatchNorm g;
  g.x = g.graph.addInput("x", f32({1, 4, 8, 8}));
  const NodeId w = g.graph.addWeight("w", Tensor::splat(f32({8, 4, 1, 1}), 0.1));
  g.conv = g.graph.addNode(OpKind::Conv, {{g.x}, {w}});
  std::vector<ValueRef> operands{{g.conv}};
  for (const char* name : {"scale", "bias", "mean", "var"}) {
    const bool input = meanIsInput && std::string(name) == "mean";
    operands.push_back({input ? g.graph.addInput(name, f32({8})) : g.graph.addWeight(name, Tensor::splat(f32({8}), 1.0))});
  }
  g.bn = g.graph.addNode(OpKind::BatchNorm, operands);
  g.graph.addOutput({g.graph.addNode(OpKind::Relu, {{g.bn}})});
  return g;
}

} // namespace

TEST(GraphCost, AnOpTheRuntimeFoldsIntoItsProducerCostsNothing) {
  ConvBatchNorm g = convBatchNorm();
  FoldingModel model;
  const GraphCost cost = graphCost(g.graph, model);
  EXPECT_EQ(cost.nodeMs[g.conv], 1.0);
  EXPECT_EQ(cost.nodeMs[g.bn], 0.0);
  EXPECT_EQ(cost.totalMs, 2.0); // conv and relu
  // A model that folds nothing prices the batch norm.
  auto analytic = makeCostModel("analytic:h200");
  EXPECT_GT(graphCost(g.graph, *analytic).nodeMs[g.bn], 0.0);
}

TEST(GraphCost, NoFoldWhereTheProducerHasOtherReadersOrTheOperandsAreNotWeights) {
  FoldingModel model;
  // The conv's result is also a graph output: the runtime keeps it, and the batch norm runs.
  ConvBatchNorm output = convBatchNorm();
  output.graph.addOutput({output.conv});
  EXPECT_EQ(graphCost(output.graph, model).nodeMs[output.bn], 1.0);
  // A second reader of the conv.
  ConvBatchNorm shared = convBatchNorm();
  shared.graph.addOutput({shared.graph.addNode(OpKind::Sigmoid, {{shared.conv}})});
  EXPECT_EQ(graphCost(shared.graph, model).nodeMs[shared.bn], 1.0);
  // Statistics that arrive per inference cannot be folded into the conv's weights.
  ConvBatchNorm fed = convBatchNorm(true);
  EXPECT_EQ(graphCost(fed.graph, model).nodeMs[fed.bn], 1.0);
}

// A calibration counts the ops graphCost prices: a folded batch norm is not executed, so it adds
// neither its time nor a dispatch to the features the fit sees.
TEST(GraphCost, AFoldedOpIsNotAnExecutedOp) {
  ConvBatchNorm g = convBatchNorm();
  FoldingModel model;
  const std::vector<NodeId> executed = executedOps(g.graph, model);
  EXPECT_EQ(executed.size(), 2u); // conv, relu
  EXPECT_EQ(std::count(executed.begin(), executed.end(), g.bn), 0);
  EXPECT_DOUBLE_EQ(latencyFeatures(g.graph, model, [](const OpSignature&) { return 1.0; }).opMs, graphCost(g.graph, model).totalMs);
  // Where the batch norm cannot be folded, it runs.
  ConvBatchNorm fed = convBatchNorm(true);
  EXPECT_EQ(executedOps(fed.graph, model).size(), 3u);
}
