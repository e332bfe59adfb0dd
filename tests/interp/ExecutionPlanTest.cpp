// ExecutionPlan, the planning both executors share: views share their input's buffer, weights and
// what follows from them alone become constants (computed once), the steps are the ops left in
// topological order, and bad graphs or fed inputs get errors that say what is wrong.
#include "InterpTestSupport.h"

#include "interp/ExecutionPlan.h"
#include "support/Error.h"

#include <gtest/gtest.h>


namespace tessera {
namespace {

using testing::errorOf;
using testing::valuesOf;

// y = relu(reshape(x) + reshape(w) * 2): the reshape of x is a view, w's branch is constant.
struct PlannedGraph {
  Graph graph;
  NodeId x, two, viewOfX, scaled, add, relu;
};

PlannedGraph plannedGraph() {
  PlannedGraph p;
  Graph& g = p.graph;
  p.x = g.addInput("x", {DType::Float32, {2, 2}});
  NodeId w = g.addWeight("w", Tensor::fromFloats({4}, {1, 2, 3, 4}));
  p.two = g.addWeight("two", Tensor::splat({DType::Float32, {}}, 2.0f));
  p.viewOfX = g.addNode(OpKind::Reshape, {{p.x, 0}}, {{"shape", std::vector<int64_t>{4}}});
  p.scaled = g.addNode(OpKind::Mul, {{w, 0}, {p.two, 0}});
  p.add = g.addNode(OpKind::Add, {{p.viewOfX, 0}, {p.scaled, 0}});
  p.relu = g.addNode(OpKind::Relu, {{p.add, 0}});
  g.addOutput({p.relu, 0}, "y");
  return p;
}

TEST(ExecutionPlanTest, ViewsShareTheirInputsBufferAndOwnNone) {
  PlannedGraph p = plannedGraph();
  ExecutionPlan plan(p.graph, "the test device");
  const size_t x = plan.valueOf({p.x, 0});
  const size_t view = plan.valueOf({p.viewOfX, 0});
  EXPECT_EQ(plan.value(view).buffer, plan.value(x).buffer);
  EXPECT_EQ(plan.ownerOf(plan.value(x).buffer), x);
  EXPECT_EQ(plan.value(view).type.shape, (Shape{4}));
  EXPECT_NE(plan.value(plan.valueOf({p.add, 0})).buffer, plan.value(x).buffer);
  // x, w, two, w * 2, add, relu own a buffer each; the view does not.
  EXPECT_EQ(plan.bufferCount(), 6u);
}

TEST(ExecutionPlanTest, WeightsAndWhatFollowsFromThemAloneAreComputedOnce) {
  PlannedGraph p = plannedGraph();
  ExecutionPlan plan(p.graph, "the test device");
  const ExecutionPlan::Value& scaled = plan.value(plan.valueOf({p.scaled, 0}));
  ASSERT_TRUE(scaled.constant);
  ASSERT_TRUE(scaled.tensor.has_value());
  EXPECT_EQ(valuesOf(*scaled.tensor), (std::vector<float>{2, 4, 6, 8}));
  const ExecutionPlan::Value& two = plan.value(plan.valueOf({p.two, 0}));
  ASSERT_TRUE(two.constant);
  EXPECT_FALSE(two.tensor->isSplat()) << "constants are dense, so backends can copy their bytes";
  EXPECT_FALSE(plan.value(plan.valueOf({p.add, 0})).constant);
  EXPECT_FALSE(plan.value(plan.valueOf({p.viewOfX, 0})).constant);
}

TEST(ExecutionPlanTest, StepsAreTheOpsLeftInTopologicalOrder) {
  PlannedGraph p = plannedGraph();
  ExecutionPlan plan(p.graph, "the test device");
  ASSERT_EQ(plan.steps().size(), 2u);
  EXPECT_EQ(plan.steps()[0].node, p.add);
  EXPECT_EQ(plan.steps()[1].node, p.relu);
  EXPECT_EQ(plan.steps()[0].inputs, (std::vector<size_t>{plan.valueOf({p.viewOfX, 0}), plan.valueOf({p.scaled, 0})}));
  EXPECT_EQ(plan.steps()[1].outputs, (std::vector<size_t>{plan.valueOf({p.relu, 0})}));
  ASSERT_EQ(plan.inputs().size(), 1u);
  EXPECT_EQ(plan.inputs()[0].first, "x");
}

TEST(ExecutionPlanTest, ReleasingAConstantMovesItsValuesOutOnce) {
  PlannedGraph p = plannedGraph();
  ExecutionPlan plan(p.graph, "the test device");
  const size_t scaled = plan.valueOf({p.scaled, 0});
  EXPECT_EQ(valuesOf(plan.releaseConstant(scaled)), (std::vector<float>{2, 4, 6, 8}));
  EXPECT_TRUE(plan.value(scaled).constant) << "still a constant, only its values moved";
  EXPECT_NE(errorOf([&] { plan.releaseConstant(scaled); }).find("released already"), std::string::npos);
}

TEST(ExecutionPlanTest, FedInputsAreCheckedByNameTypeAndElementType) {
  PlannedGraph p = plannedGraph();
  ExecutionPlan plan(p.graph, "the test device");
  const size_t x = plan.inputs()[0].second;
  TensorMap good{{"x", Tensor::fromFloats({2, 2}, {1, 2, 3, 4})}};
  EXPECT_EQ(valuesOf(plan.fedInput(good, "x", x)), (std::vector<float>{1, 2, 3, 4}));
  EXPECT_NE(errorOf([&] { plan.fedInput({}, "x", x); }).find("no value for input 'x'"), std::string::npos);
  TensorMap wrongShape{{"x", Tensor::fromFloats({4}, {1, 2, 3, 4})}};
  EXPECT_NE(errorOf([&] { plan.fedInput(wrongShape, "x", x); }).find("expects"), std::string::npos);
  TensorMap wrongElements{{"x", Tensor::fromInts({DType::Int64, {2, 2}}, {1, 2, 3, 4})}};
  EXPECT_NE(errorOf([&] { plan.fedInput(wrongElements, "x", x); }).find("expects f32[2,2]"), std::string::npos);
}

TEST(ExecutionPlanTest, AnOpaqueOpIsRefusedNamingTheDevice) {
  Graph g;
  NodeId x = g.addInput("x", {DType::Float32, {2}});
  NodeId opaque = g.addOpaque({"", "Mystery", {}}, {{x, 0}}, {{DType::Float32, {2}}}, "mystery");
  g.addOutput({opaque, 0}, "y");
  const std::string error = errorOf([&] { ExecutionPlan plan(g, "the test device"); });
  EXPECT_NE(error.find("opaque"), std::string::npos) << error;
  EXPECT_NE(error.find("the test device"), std::string::npos) << error;
}

TEST(ExecutionPlanTest, AConstantTheInterpreterCannotComputeNamesItsNode) {
  Graph g;
  NodeId w = g.addWeight("w", Tensor::fromFloats({3}, {1, 2, 3}));
  NodeId indices = g.addWeight("indices", Tensor::fromInts({DType::Int64, {1}}, {7}));
  NodeId gathered = g.addNode(OpKind::Gather, {{w, 0}, {indices, 0}}, {}, "bad_gather");
  g.addOutput({gathered, 0}, "y");
  const std::string error = errorOf([&] { ExecutionPlan plan(g, "the test device"); });
  EXPECT_NE(error.find("bad_gather"), std::string::npos) << error;
}

} // namespace
} // namespace tessera
