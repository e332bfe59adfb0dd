// Node names in an exported file are unique: rewrites leave several nodes with the name of the one
// they replaced, which onnx::checker accepts and ONNX Runtime refuses to load.
#include "onnx/OnnxExport.h"

#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <set>

using namespace tessera;

TEST(ExportNodeNames, NodesSharingANameGetDistinctNamesInTheFile) {
  Graph g;
  const TensorType type{DType::Float32, {2, 3}};
  const NodeId x = g.addInput("x", type);
  // Three nodes called "Concat_198", one with a fused activation that becomes a second ONNX node.
  const NodeId a = g.addNode(OpKind::Relu, {{x}}, {}, "Concat_198");
  const NodeId b = g.addNode(OpKind::Tanh, {{a}}, {}, "Concat_198");
  const NodeId c = g.addNode(OpKind::Concat, {{a}, {b}}, {{"axis", int64_t{0}}}, "Concat_198");
  const NodeId d = g.addNode(OpKind::Sigmoid, {{c}}, {}, "Concat_198_1");
  g.addOutput({d}, "y");

  onnx::ModelProto model;
  ASSERT_TRUE(model.ParseFromString(onnx_io::exportOnnxBytes(g)));
  std::set<std::string> names;
  for (const onnx::NodeProto& node : model.graph().node()) {
    EXPECT_FALSE(node.name().empty());
    EXPECT_TRUE(names.insert(node.name()).second) << "two nodes named " << node.name();
  }
  EXPECT_EQ(names.size(), 4u);
  EXPECT_TRUE(names.count("Concat_198")); // the first keeps its name
}
