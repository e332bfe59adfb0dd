// A model's tunable kernels: one workload per distinct signature, most expensive first, and the
// heavy ops the tuner cannot express named with the reason.
#include "tune/ModelWorkloads.h"

#include <gtest/gtest.h>

namespace tessera::tune {
namespace {

TensorType f32(Shape shape) { return {DType::Float32, std::move(shape)}; }

TEST(ModelWorkloads, DistinctSignaturesMostExpensiveFirst) {
  Graph g;
  const NodeId x = g.addInput("x", f32({1, 8, 16, 16}));
  const NodeId w = g.addWeight("w", Tensor::splat(f32({8, 8, 3, 3}), 0.5));
  const NodeId b = g.addWeight("b", Tensor::splat(f32({8}), 0.1));
  const NodeId c1 = g.addNode(OpKind::Conv, {{x}, {w}, {b}}, {{"pads", std::vector<int64_t>{1, 1, 1, 1}}}, "c1");
  const NodeId c2 = g.addNode(OpKind::Conv, {{c1}, {w}, {b}}, {{"pads", std::vector<int64_t>{1, 1, 1, 1}}}, "c2");
  const NodeId grouped = g.addWeight("wg", Tensor::splat(f32({8, 4, 3, 3}), 0.5));
  const NodeId c3 = g.addNode(OpKind::Conv, {{c2}, {grouped}}, {}, "grouped");
  const NodeId flat = g.addNode(OpKind::Reshape, {{c3}}, {{"shape", std::vector<int64_t>{8, 196}}});
  const NodeId m = g.addWeight("m", Tensor::splat(f32({196, 10}), 0.5));
  const NodeId mm = g.addNode(OpKind::MatMul, {{flat}, {m}}, {}, "fc");
  g.addOutput({mm}, "y");

  const ModelWorkloads found = modelWorkloads(g);
  ASSERT_EQ(found.workloads.size(), 2u);
  EXPECT_EQ(found.workloads[0].workload.key(), "conv2d:1x8x16x16,8x8x3x3,s1,p1,bias");
  EXPECT_EQ(found.workloads[0].count, 2);
  EXPECT_EQ(found.workloads[0].nodes, (std::vector<std::string>{"c1", "c2"}));
  EXPECT_EQ(found.workloads[1].workload.key(), "matmul:8x10x196");
  EXPECT_EQ(found.workloads[1].count, 1);
  ASSERT_EQ(found.skipped.size(), 1u);
  EXPECT_NE(found.skipped[0].find("grouped"), std::string::npos) << found.skipped[0];
}

} // namespace
} // namespace tessera::tune
