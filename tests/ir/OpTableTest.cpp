#include "ir/FusedActivation.h"
#include "ir/Op.h"
#include "support/SplitText.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <string_view>
#include <vector>

using namespace tessera;

TEST(OpTable, EveryKindHasOneEntryInOrder) {
  for (int i = 0; i < opCount(); ++i) EXPECT_EQ(static_cast<int>(opInfo(static_cast<OpKind>(i)).kind), i);
}

TEST(OpTable, NamesAreUniqueAndLookupsRoundTrip) {
  std::set<std::string> names, onnx, tensat;
  for (int i = 0; i < opCount(); ++i) {
    const OpInfo& info = opInfo(static_cast<OpKind>(i));
    EXPECT_TRUE(names.insert(std::string(info.name)).second) << info.name;
    EXPECT_EQ(opFromName(info.name), info.kind);
    if (!info.onnxName.empty()) {
      EXPECT_TRUE(onnx.insert(std::string(info.onnxName)).second) << info.onnxName;
      EXPECT_EQ(opFromOnnx(info.onnxName), info.kind);
    }
    if (!info.tensatName.empty()) {
      EXPECT_TRUE(tensat.insert(std::string(info.tensatName)).second) << info.tensatName;
      EXPECT_EQ(opFromTensat(info.tensatName), info.kind);
    }
  }
}

TEST(OpTable, CoversTheModelZooAndTensatOps) {
  for (const char* op : {"Conv", "Gemm", "MatMul", "BatchNormalization", "Relu", "Sigmoid", "Tanh", "Softmax", "LRN",
                         "MaxPool", "AveragePool", "GlobalAveragePool", "Concat", "Split", "Reshape", "Flatten",
                         "Transpose", "Add", "Sum", "Sub", "Mul", "Div", "Pow", "Sqrt", "Erf", "LayerNormalization",
                         "ReduceMean", "Unsqueeze", "Squeeze", "Slice", "Gather", "Dropout", "Identity", "Pad", "Clip"})
    EXPECT_TRUE(opFromOnnx(op).has_value()) << op;
  for (const char* op : {"input", "weight", "ewadd", "ewmul", "smul", "transpose", "matmul", "conv2d", "enlarge", "relu",
                         "tanh", "sigmoid", "poolmax", "poolavg", "concat", "split", "merge", "reshape", "batchnorm",
                         "noop", "dropout"})
    EXPECT_TRUE(opFromTensat(op).has_value()) << op;
  EXPECT_FALSE(opFromOnnx("LpNormalization").has_value());
}

TEST(OpTable, OnnxAttributeNamesAreTheTableColumnsWords) {
  using Names = std::vector<std::string_view>;
  EXPECT_EQ(onnxAttributeNames(OpKind::Gemm), (Names{"alpha", "beta", "transA", "transB"}));
  EXPECT_TRUE(onnxAttributeNames(OpKind::Relu).empty());
}

// Tessera's fused activation encoding (NONE=0 SIGMOID=1 RELU=2 TANH=3) names the op it fuses.
TEST(OpTable, AFusedActivationNamesItsOp) {
  EXPECT_EQ(activationOp(Activation::Relu), OpKind::Relu);
  EXPECT_EQ(activationOp(Activation::Sigmoid), OpKind::Sigmoid);
  EXPECT_EQ(activationOp(Activation::Tanh), OpKind::Tanh);
  EXPECT_FALSE(activationOp(Activation::None));
  EXPECT_FALSE(activationOp(static_cast<Activation>(7)));
}

TEST(SplitText, KeepsEmptyPiecesAndWordsLeaveThemOut) {
  using Pieces = std::vector<std::string_view>;
  EXPECT_EQ(splitText("a,,b", ','), (Pieces{"a", "", "b"}));
  EXPECT_EQ(splitText("", ','), (Pieces{""}));
  EXPECT_EQ(splitText("64x56", 'x'), (Pieces{"64", "56"}));
  EXPECT_EQ(splitText("a,", ','), (Pieces{"a", ""}));
  EXPECT_EQ(splitWords(" pads  strides ", ' '), (Pieces{"pads", "strides"}));
  EXPECT_TRUE(splitWords("", ' ').empty());
}
