// The BERT-base layer and the GPT-2 block: exported the way torch.onnx writes them (int64 ids and
// mask, no opaque op), checked in as generated, and numerically what they claim: the padding mask
// hides keys, GPT-2's causal mask hides later tokens, BERT's attention sees all of them.
#include "generator/Transformers.h"

#include "interp/TestData.h"
#include "ir/GraphStats.h"
#include "onnx/OnnxExport.h"
#include "onnx/OnnxImport.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace tessera {
namespace {

class TransformerModelTest : public ::testing::TestWithParam<std::string> {};

INSTANTIATE_TEST_SUITE_P(Models, TransformerModelTest, ::testing::ValuesIn(transformerModelNames()));

// Runs the graph on the given ids and mask (random weights, seed 1); returns the hidden states.
Tensor run(const Graph& graph, const TensorMap& weights, std::vector<int64_t> ids, std::vector<int64_t> mask) {
  TensorMap inputs = randomInputs(graph, 1);
  const Shape shape = inputs.at("input_ids").shape();
  inputs["input_ids"] = Tensor::fromInts({DType::Int64, shape}, std::move(ids));
  inputs["attention_mask"] = Tensor::fromInts({DType::Int64, shape}, std::move(mask));
  return runGraph(graph, inputs, weights).at(0);
}

// Whether hidden-state rows of [1, S, H] differ between a and b, one flag per position.
std::vector<bool> rowsDiffer(const Tensor& a, const Tensor& b) {
  const int64_t rows = a.shape()[1], width = a.shape()[2];
  std::vector<bool> differ(static_cast<size_t>(rows), false);
  for (int64_t i = 0; i < a.numel(); ++i)
    if (std::abs(a.floatAt(i) - b.floatAt(i)) > 1e-5f) differ[static_cast<size_t>(i / width)] = true;
  return differ;
}

TEST_P(TransformerModelTest, ImportsFromItsCheckedInFileWithIntegerInputsAndNoOpaqueOp) {
  const std::filesystem::path file = std::filesystem::path(TESSERA_SOURCE_DIR) / "samples/transformers" / (GetParam() + ".onnx");
  std::ifstream in(file, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(bytes, onnx_io::exportOnnxBytes(buildTransformerModel(GetParam())))
      << file << " is stale: regenerate with tessera-generate-transformers samples/transformers";
  Graph graph = onnx_io::importOnnxBytes(bytes, file.string());
  for (NodeId id : graph.inputNodes()) EXPECT_EQ(graph.node(id).outputTypes[0].dtype, DType::Int64) << graph.node(id).name;
  GraphStats stats = computeGraphStats(graph);
  for (const auto& [kind, count] : stats.opsByKind) EXPECT_EQ(kind.rfind("Opaque", 0), std::string::npos) << kind;
  for (const char* kind : {"Gather", "Cast", "LayerNorm", "Softmax", "MatMul"}) EXPECT_GT(stats.opsByKind[kind], 0) << kind;
  EXPECT_EQ(graph.outputs().size(), 1u);
  EXPECT_EQ(graph.typeOf(graph.outputs()[0].value).shape, (Shape{1, 128, 768}));
}

TEST_P(TransformerModelTest, MasksHideWhatTheyShould) {
  const Graph graph = buildTransformerModel(GetParam());
  const TensorMap weights = randomWeights(graph, 1);
  std::vector<int64_t> ids(128), mask(128, 1);
  for (size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<int64_t>(i * 7 % 1000);
  const Tensor base = run(graph, weights, ids, mask);
  for (int64_t i = 0; i < base.numel(); ++i) ASSERT_TRUE(std::isfinite(base.floatAt(i))) << i;

  // A different last token: GPT-2's earlier positions cannot see it, BERT's all can.
  std::vector<int64_t> changed = ids;
  changed.back() = 999;
  const std::vector<bool> differ = rowsDiffer(base, run(graph, weights, changed, mask));
  const bool causal = GetParam() == "gpt2_block";
  for (size_t row = 0; row < differ.size(); ++row) EXPECT_EQ(differ[row], !causal || row + 1 == differ.size()) << row;

  // Masking out the last token hides it again: its value no longer matters to the other rows.
  std::vector<int64_t> padded = mask;
  padded.back() = 0;
  const std::vector<bool> hidden = rowsDiffer(run(graph, weights, ids, padded), run(graph, weights, changed, padded));
  for (size_t row = 0; row + 1 < hidden.size(); ++row) EXPECT_FALSE(hidden[row]) << row;
}

} // namespace
} // namespace tessera
